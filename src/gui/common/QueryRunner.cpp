// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/QueryRunner.h"

namespace npuscope::gui {

QueryRunner::QueryRunner(Workspace* workspace, QObject* parent)
    : QObject(parent)
    , m_workspace(workspace)
{
}

QueryRunner::~QueryRunner()
{
    // Watchers die with us and never report; keep the Workspace busy count balanced.
    while (m_inFlight > 0) {
        --m_inFlight;
        if (m_workspace)
            m_workspace->endQuery();
    }
}

std::shared_ptr<model::Database> QueryRunner::currentDatabase() const
{
    if (!m_workspace)
        return {};
    return m_workspace->database();
}

QThreadPool* QueryRunner::inMemoryPool()
{
    // Two threads: in-memory queries are short; they must not queue behind SQL in the global pool.
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(2);
        return p;
    }();
    return pool;
}

void QueryRunner::started()
{
    ++m_inFlight;
    if (m_workspace)
        m_workspace->beginQuery();
}

void QueryRunner::finished()
{
    if (m_inFlight == 0)
        return;
    --m_inFlight;
    if (m_workspace)
        m_workspace->endQuery();
}

} // namespace npuscope::gui

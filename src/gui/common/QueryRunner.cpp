// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/QueryRunner.h"

#include "npuscope/gui/common/DeferredLoadService.h"

#include <spdlog/spdlog.h>

namespace npuscope::gui {

QueryRunner::QueryRunner(Workspace* workspace, const QString& source, QObject* parent, Delivery delivery)
    : QObject(parent)
    , m_workspace(workspace)
    , m_source(source)
    , m_delivery(delivery)
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

QThreadPool* QueryRunner::inMemoryPool() const
{
    Workspace* workspace = m_workspace.data();
    return workspace ? workspace->inMemoryPool() : nullptr;
}

QThreadPool* QueryRunner::queryPool() const
{
    Workspace* workspace = m_workspace.data();
    return workspace ? workspace->queryPool() : nullptr;
}

QThreadPool* QueryRunner::loadPool() const
{
    Workspace* workspace = m_workspace.data();
    return workspace && workspace->loads() ? workspace->loads()->pool() : nullptr;
}

bool QueryRunner::traceEnabled()
{
    static const bool on = qEnvironmentVariableIntValue("NPUSCOPE_TRACE_QUERIES") != 0;
    return on;
}

void QueryRunner::trace(double workMs, double lockWaitMs, std::chrono::steady_clock::time_point submitted,
    std::chrono::steady_clock::time_point delivered, std::chrono::steady_clock::time_point shown) const
{
    using Ms = std::chrono::duration<double, std::milli>;
    spdlog::info("query {}: work {:.1f} ms (lock wait {:.1f} ms), submitted to delivered {:.1f} ms, done() {:.1f} ms",
        m_source.toStdString(), workMs, lockWaitMs, Ms(delivered - submitted).count(), Ms(shown - delivered).count());
}

bool QueryRunner::isDelivered(quint64 id) const
{
    if (id <= *m_cancelledUpTo)
        return false;
    return m_delivery == Delivery::Every || id == *m_lastId;
}

void QueryRunner::report(const QString& message)
{
    if (m_workspace)
        m_workspace->reportError(m_source, message);
}

void QueryRunner::failedRequest(const QString& message, const FailFn& fail)
{
    if (fail)
        fail(message);
    emit failed(message);
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

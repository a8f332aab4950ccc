// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/RankImportQueue.h"

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/gui/common/Workspace.h"

#include <QTimer>

#include <algorithm>

namespace npuscope::gui {

RankImportQueue::RankImportQueue(QueryDock* view, int ranksPerJob, StartJob startJob)
    : QObject(view)
    , m_view(view)
    , m_ranksPerJob(static_cast<size_t>(std::max(1, ranksPerJob)))
    , m_startJob(std::move(startJob))
    , m_redraw(new QTimer(this))
{
    m_redraw->setSingleShot(true);
    m_redraw->setInterval(kRedrawIntervalMs);
    connect(m_redraw, &QTimer::timeout, this, &RankImportQueue::redraw);
}

void RankImportQueue::clear()
{
    ++m_generation;
    m_redraw->stop();
    m_queue.clear();
    m_pending.clear();
    // The ignored jobs no longer hold a place: the new ranks start at once.
    m_running = 0;
    m_loaded = 0;
}

void RankImportQueue::start(const std::vector<int64_t>& ranks)
{
    clear();
    m_queue.assign(ranks.begin(), ranks.end());
    m_pending.insert(ranks.begin(), ranks.end());
    pump();
}

void RankImportQueue::resume() { pump(); }

void RankImportQueue::pump()
{
    if (!m_view->isVisible())
        return;
    while (m_running < kParallelJobs && !m_queue.empty()) {
        const auto end = m_queue.begin() + static_cast<std::ptrdiff_t>(std::min(m_ranksPerJob, m_queue.size()));
        std::vector<int64_t> ranks(m_queue.begin(), end);
        m_queue.erase(m_queue.begin(), end);
        ++m_running;
        const bool started = m_startJob(ranks,
            [this, ranks, generation = m_generation](const QString& error) { finished(generation, ranks, error); });
        if (!started) {
            --m_running;
            m_queue.clear();
            m_pending.clear();
        }
    }
    emit progressed();
}

void RankImportQueue::finished(quint64 generation, const std::vector<int64_t>& ranks, const QString& error)
{
    if (generation != m_generation)
        return;
    if (!error.isEmpty())
        emit failed(ranks, error);
    --m_running;
    m_loaded += static_cast<int>(ranks.size());
    for (int64_t rank : ranks)
        m_pending.erase(rank);
    pump();
    if (isImporting()) {
        if (!m_redraw->isActive())
            m_redraw->start();
    } else {
        m_redraw->stop();
        emit redraw();
        // Import problems were written to the model's parse_issue table: once, not per rank.
        m_view->workspace()->notifyIssuesAdded();
    }
    emit progressed();
}

} // namespace npuscope::gui

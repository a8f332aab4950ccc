// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>
#include <deque>
#include <functional>
#include <set>
#include <vector>

class QTimer;

namespace npuscope::gui {

class QueryDock;

// A view's background import of every listed rank's deferred data (the FLOPs heatmap's kernel totals through
// DeferredLoadService, the Marey view's step kernels of many ranks per job): the ranks wait in a queue and go,
// ranksPerJob at a time, to at most kParallelJobs jobs, only while the view can be seen, since each job parses large
// files. A view that queued every rank with the load service at once would keep importing when hidden, and the
// service has no job for one step's kernels of many ranks (docs/loading.md). As ranks arrive the view is told to
// redraw at most every kRedrawIntervalMs (one query per arriving rank would queue up at 1,024 ranks), and once more
// when the last job ends. The job itself is the view's. A child of the view. GUI thread only.
class RankImportQueue : public QObject {
    Q_OBJECT
public:
    static constexpr int kParallelJobs = 2;
    static constexpr int kRedrawIntervalMs = 500;

    // Ends a job: error is empty, or the job's failure. Call it once, on the GUI thread.
    using Finished = std::function<void(const QString& error)>;
    // Starts importing ranks; returns false when it cannot (no model loaded): the queue is dropped and finished is
    // never called.
    using StartJob = std::function<bool(const std::vector<int64_t>& ranks, Finished finished)>;

    RankImportQueue(QueryDock* view, int ranksPerJob, StartJob startJob);

    // Queues ranks in this order instead of the ranks before, and starts importing if the view can be seen.
    void start(const std::vector<int64_t>& ranks);
    // Forgets every rank; the jobs already started run on, their ends are ignored.
    void clear();
    // Starts the queued jobs the view's being hidden held back (call from the view's showEvent).
    void resume();

    // Ranks queued or being imported.
    bool isImporting() const { return !m_queue.empty() || m_running > 0; }
    // The ranks queued or being imported.
    const std::set<int64_t>& pending() const { return m_pending; }
    // Ranks whose job ended (or failed: not retried until the ranks are queued again).
    int loaded() const { return m_loaded; }

signals:
    // Ranks arrived (at most every kRedrawIntervalMs), or the last job ended: re-query.
    void redraw();
    // A job started or ended: the view's progress line.
    void progressed();
    // A job failed; the ranks count as loaded.
    void failed(const std::vector<int64_t>& ranks, const QString& error);

private:
    void pump();
    void finished(quint64 generation, const std::vector<int64_t>& ranks, const QString& error);

    QueryDock* m_view;
    size_t m_ranksPerJob;
    StartJob m_startJob;
    QTimer* m_redraw;
    quint64 m_generation = 0; // bumped by clear(): the jobs started before are ignored
    std::deque<int64_t> m_queue;
    std::set<int64_t> m_pending;
    int m_running = 0;
    int m_loaded = 0;
};

} // namespace npuscope::gui

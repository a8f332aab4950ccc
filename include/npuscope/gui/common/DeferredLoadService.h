// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <vector>

class QThreadPool;

namespace npuscope::model {
class Database;
}

namespace npuscope::gui {

class Workspace;

// The one place the GUI imports a rank's deferred files (its timeline, kernel table, memory rows or kernel totals;
// docs/loading.md). Docks ask it for a (rank, part); it runs each import once, on its own bounded thread pool (never
// Qt's global pool, which the raster paint engine also uses: a view filling the global pool with imports froze
// painting for minutes), most urgent first, and calls every waiter back on the GUI thread. Several requests of the
// same (rank, part) share one import. A batch (e.g. "Expand all ranks") has a label, a memory estimate made before
// it starts, progress, and can be cancelled: its queued imports are dropped, the running ones are told to stop.
// Owned by the Workspace; a new database drops the queue and every state. GUI thread only.
class DeferredLoadService : public QObject {
    Q_OBJECT
public:
    enum class Part { Timeline, Kernels, Memory, KernelTotals };
    struct Result {
        bool imported = false; // rows arrived during the import (false: nothing was left to import)
        bool cancelled = false; // the request's batch was cancelled before its import ended
        QString error; // the import threw: its message
    };
    using Done = std::function<void(const Result& result)>;
    using BatchDone = std::function<void(int64_t rank, const Result& result)>;

    struct BatchInfo {
        quint64 id = 0;
        QString label; // e.g. "Loading timelines"
        int done = 0;
        int total = 0;
        uint64_t estimateBytes = 0; // memory the batch's imports are expected to need (MemoryGuard weights)
        uint64_t availableBytes = 0; // what the process may still use; 0 when unknown
    };

    explicit DeferredLoadService(Workspace* workspace);
    ~DeferredLoadService() override;

    // Imports rank's part unless it already was (done then runs soon, queued, with imported = false). done runs once,
    // on the GUI thread, only while context lives. urgent requests go before the queued ones (the rank the user looks
    // at). Returns false (and never calls done) when no model is loaded.
    bool request(int64_t rank, Part part, QObject* context, Done done, bool urgent = false);
    // Whether rank's part was imported by this service for the current database.
    bool isDone(int64_t rank, Part part) const;
    // Whether rank's part is queued or running.
    bool isPending(int64_t rank, Part part) const;

    // A batch of requests with progress and cancel. perRank runs for each rank as its import ends (as request's done),
    // also for the ranks already imported. estimateBytes: the batch's memory estimate, measured off the GUI thread by
    // the caller (estimateBytes() takes the model lock). Returns the batch id (0 when nothing is left to import).
    quint64 startBatch(const QString& label, const std::vector<int64_t>& ranks, Part part, QObject* context,
        BatchDone perRank, uint64_t estimateBytes = 0);
    // Drops the batch: each rank's waiter is answered with cancelled = true; an import nobody else waits for leaves
    // the queue or is told to stop.
    void cancelBatch(quint64 id);
    // Cancels every batch and every queued request, and asks the running imports to stop.
    void cancelAll();
    std::vector<BatchInfo> batches() const;
    // Memory the imports of part for these ranks would need (their files not yet imported × MemoryGuard's weights).
    // Takes the model lock: call it from a worker (QueryRunner), never on the GUI thread.
    static uint64_t estimateBytes(model::Database& db, const std::vector<int64_t>& ranks, Part part);

    // Imports queued or running.
    int pendingCount() const;
    // The pool the imports run on (bounded; QueryRunner::runUnlocked jobs run here too).
    QThreadPool* pool() const { return m_pool; }

signals:
    // A batch started, progressed, finished or was cancelled.
    void batchesChanged();
    // Every queued and running import has ended.
    void idle();

private:
    struct Key {
        int64_t rank;
        Part part;
        bool operator<(const Key& o) const { return rank != o.rank ? rank < o.rank : part < o.part; }
    };
    struct Waiter {
        QPointer<QObject> context;
        Done done;
        quint64 batch = 0;
    };
    struct Entry {
        enum class State { Queued, Running, Done } state = State::Queued;
        std::vector<Waiter> waiters;
        std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
    };
    struct Batch {
        BatchInfo info;
    };

    void reset();
    void enqueue(const Key& key, bool urgent);
    void pump();
    void finished(quint64 generation, Key key, bool imported, QString error);

    QPointer<Workspace> m_workspace;
    QThreadPool* m_pool;
    int m_maxRunning;
    int m_running = 0;
    quint64 m_generation = 0;
    quint64 m_lastBatch = 0;
    std::map<Key, Entry> m_entries;
    std::deque<Key> m_queue;
    std::map<quint64, Batch> m_batches;
};

} // namespace npuscope::gui

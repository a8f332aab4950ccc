// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/ThreadPriority.h"
#include "npuscope/gui/common/Workspace.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <QtConcurrent/qtconcurrenttask.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace npuscope::gui {

// Runs queries against the Workspace database off the GUI thread, one stream of requests per
// owner (typically one per dock). Each request gets an increasing id. With Delivery::NewestOnly a result
// is dropped when a newer request has been made in the meantime, so a view never shows data for a
// selection the user already left, and a request not yet started when a newer one is made is skipped.
// With Delivery::Every (independent jobs, e.g. one per timeline rank) every result is delivered unless
// cancelPending() was called after the request. The worker keeps the database alive (shared_ptr) even if
// the Workspace switches to another one.
// A query that throws is never silent: its message (std::exception::what(), or "unknown error") goes to
// Workspace::reportError under this runner's source name (the Parse issues dock shows it), to the failed()
// signal and to the request's fail callback, if any.
// GUI thread only; the query function runs on a worker thread.
class QueryRunner : public QObject {
    Q_OBJECT
public:
    enum class Delivery { NewestOnly, Every };
    using FailFn = std::function<void(const QString& message)>;

    // source: the view the errors are reported for, e.g. "Timeline".
    QueryRunner(Workspace* workspace, const QString& source, QObject* parent = nullptr,
        Delivery delivery = Delivery::NewestOnly);
    ~QueryRunner() override;

    // fn: T(model::Database&), runs in a worker holding db->lock(). done: void(T), runs on the GUI thread
    // for a delivered request. Returns false (and calls nothing) when no database is loaded.
    template <typename Fn, typename Done> bool run(Fn fn, Done done, FailFn fail = {})
    {
        return submit(
            [fn = std::move(fn)](const std::shared_ptr<model::Database>& db) {
                const auto asked = std::chrono::steady_clock::now();
                auto guard = db->lock();
                lockWaitMs() = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - asked).count();
                return fn(*db);
            },
            std::move(done), std::move(fail), queryPool());
    }

    // For queries over in-memory data (indexes shared per database): fn: T(std::shared_ptr<model::Database>)
    // runs without the database lock, on the Workspace's in-memory pool, so it neither waits for nor queues
    // behind SQL that other views run. fn takes db->lock() itself if it touches SQLite (an index's first build
    // does).
    template <typename Fn, typename Done> bool runInMemory(Fn fn, Done done, FailFn fail = {})
    {
        return submit(std::move(fn), std::move(done), std::move(fail), inMemoryPool());
    }

    // For long jobs that take db->lock() themselves, in parts (importing a step's kernels of many ranks): fn as for
    // runInMemory, on the pool of the Workspace's DeferredLoadService. A rank's deferred part is imported through
    // DeferredLoadService::request, which runs each import once.
    template <typename Fn, typename Done> bool runUnlocked(Fn fn, Done done, FailFn fail = {})
    {
        return submit(std::move(fn), std::move(done), std::move(fail), loadPool());
    }

    // Queue order among requests waiting for a worker of the same pool (QThreadPool priorities; default 0). A long
    // query that is not the first thing a user reads (Advice after an open: 0.4-0.6 s at 1,024 ranks) runs at -1,
    // so the quick queries of the other views queued with it go first and show while it works.
    void setPriority(int priority) { m_priority = priority; }

    // Drops the results (and errors' callbacks) of every request made so far.
    void cancelPending() { m_cancelledUpTo->store(*m_lastId); }
    bool isBusy() const { return m_inFlight > 0; }
    QString source() const { return m_source; }

signals:
    // A delivered request threw; message is the exception text.
    void failed(const QString& message);

private:
    template <typename T> struct Outcome {
        std::optional<T> value;
        QString error;
        bool skipped = false;
        double workMs = 0; // the query's own time on its worker
        double lockWaitMs = 0; // of workMs, the time run() waited for the database lock
    };
    // The lock wait of the query running on this thread (run() sets it; the trace reads it).
    static double& lockWaitMs()
    {
        thread_local double ms = 0;
        return ms;
    }
    // NPUSCOPE_TRACE_QUERIES=1: every delivered request is logged (source, worker time, time queued, time in done()),
    // to find what a view waits for (docs/loading.md, "Where an open's time goes").
    static bool traceEnabled();
    void trace(double workMs, double lockWaitMs, std::chrono::steady_clock::time_point submitted,
        std::chrono::steady_clock::time_point delivered, std::chrono::steady_clock::time_point shown) const;

    template <typename Fn, typename Done> bool submit(Fn fn, Done done, FailFn fail, QThreadPool* pool)
    {
        using Result = std::invoke_result_t<Fn, const std::shared_ptr<model::Database>&>;
        std::shared_ptr<model::Database> db = currentDatabase();
        const quint64 id = ++*m_lastId;
        // Never Qt's global pool (painting uses it): no Workspace, no pool, no query.
        if (!db || !pool)
            return false;
        auto* watcher = new QFutureWatcher<Outcome<Result>>(this);
        started();
        const auto submitted = std::chrono::steady_clock::now();
        connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, id, submitted, done = std::move(done), fail = std::move(fail)]() {
                Outcome<Result> outcome = watcher->result();
                watcher->deleteLater();
                const auto delivered = std::chrono::steady_clock::now();
                if (!outcome.skipped && !outcome.value)
                    report(outcome.error); // even for a stale request: the failure happened
                if (isDelivered(id)) {
                    if (outcome.value)
                        done(std::move(*outcome.value));
                    else if (!outcome.skipped)
                        failedRequest(outcome.error, fail);
                }
                finished(); // after done(): a view is quiet only once it shows its result
                if (traceEnabled())
                    trace(outcome.workMs, outcome.lockWaitMs, submitted, delivered, std::chrono::steady_clock::now());
            });
        const bool newestOnly = m_delivery == Delivery::NewestOnly;
        auto work = [db, fn = std::move(fn), id, newestOnly, latest = m_lastId]() -> Outcome<Result> {
            Outcome<Result> outcome;
            // Not started yet and already superseded: it would be dropped, so it never waits for the lock.
            if (newestOnly && id != *latest) {
                outcome.skipped = true;
                return outcome;
            }
            enterBackground(); // a pool thread: below the GUI thread and the display server
            const auto begin = std::chrono::steady_clock::now();
            lockWaitMs() = 0;
            try {
                outcome.value = fn(db);
                outcome.workMs
                    = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
                outcome.lockWaitMs = lockWaitMs();
            } catch (const std::exception& e) {
                outcome.error = QString::fromUtf8(e.what());
            } catch (...) {
                outcome.error = QStringLiteral("unknown error");
            }
            return outcome;
        };
        watcher->setFuture(QtConcurrent::task(std::move(work)).onThreadPool(*pool).withPriority(m_priority).spawn());
        return true;
    }

    std::shared_ptr<model::Database> currentDatabase() const;
    QThreadPool* inMemoryPool() const;
    QThreadPool* queryPool() const;
    QThreadPool* loadPool() const;
    bool isDelivered(quint64 id) const;
    void report(const QString& message);
    void failedRequest(const QString& message, const FailFn& fail);
    void started();
    void finished();

    QPointer<Workspace> m_workspace;
    QString m_source;
    Delivery m_delivery;
    // Id of the newest request; shared with the workers so they can skip stale requests.
    std::shared_ptr<std::atomic<quint64>> m_lastId = std::make_shared<std::atomic<quint64>>(0);
    // Requests with an id up to this one were cancelled.
    std::shared_ptr<std::atomic<quint64>> m_cancelledUpTo = std::make_shared<std::atomic<quint64>>(0);
    int m_inFlight = 0;
    int m_priority = 0;
};

} // namespace npuscope::gui

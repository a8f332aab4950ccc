// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/Workspace.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <exception>
#include <memory>
#include <optional>
#include <utility>

namespace npuscope::gui {

// Runs queries against the Workspace database off the GUI thread, one stream of requests per
// owner (typically one per dock). Each request gets an increasing id; when a result arrives and a
// newer request has been made in the meantime the result is dropped, so a view never shows data
// for a selection the user already left. The worker holds db->lock() while the query runs and
// keeps the database alive (shared_ptr) even if the Workspace switches to another one. A request
// that has not started by the time a newer one is made is skipped.
// GUI thread only; the query function runs on the global thread pool.
class QueryRunner : public QObject {
    Q_OBJECT
public:
    explicit QueryRunner(Workspace* workspace, QObject* parent = nullptr);
    ~QueryRunner() override;

    // fn: T(model::Database&), runs in a worker. done: void(T), runs on the GUI thread, only for
    // the newest request. Returns false (and calls nothing) when no database is loaded.
    template <typename Fn, typename Done> bool run(Fn fn, Done done)
    {
        return submit(
            [fn = std::move(fn)](const std::shared_ptr<model::Database>& db) {
                auto guard = db->lock();
                return fn(*db);
            },
            std::move(done), nullptr);
    }

    // For queries over in-memory data (indexes shared per database): fn: T(std::shared_ptr<model::Database>)
    // runs without the database lock, on a pool of its own, so it neither waits for nor queues behind SQL
    // that other views run. fn takes db->lock() itself if it touches SQLite (an index's first build does).
    template <typename Fn, typename Done> bool runInMemory(Fn fn, Done done)
    {
        return submit(std::move(fn), std::move(done), inMemoryPool());
    }

    // Drops the results of every request made so far.
    void cancelPending() { ++*m_lastId; }
    bool isBusy() const { return m_inFlight > 0; }

signals:
    // The newest request threw; message is the exception text.
    void failed(const QString& message);

private:
    template <typename T> struct Outcome {
        std::optional<T> value;
        QString error;
    };

    // A request not yet started when a newer one is made is skipped (it would be dropped anyway), so
    // stale work never waits for the database lock.
    template <typename Fn, typename Done> bool submit(Fn fn, Done done, QThreadPool* pool)
    {
        using Result = std::invoke_result_t<Fn, const std::shared_ptr<model::Database>&>;
        std::shared_ptr<model::Database> db = currentDatabase();
        const quint64 id = ++*m_lastId;
        if (!db)
            return false;
        auto* watcher = new QFutureWatcher<Outcome<Result>>(this);
        started();
        connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, id, done = std::move(done)]() {
            Outcome<Result> outcome = watcher->result();
            watcher->deleteLater();
            if (id == *m_lastId) {
                if (outcome.value)
                    done(std::move(*outcome.value));
                else
                    emit failed(outcome.error);
            }
            finished();
        });
        auto work = [db, fn = std::move(fn), id, latest = m_lastId]() -> Outcome<Result> {
            Outcome<Result> outcome;
            if (id != *latest)
                return outcome;
            try {
                outcome.value = fn(db);
            } catch (const std::exception& e) {
                outcome.error = QString::fromUtf8(e.what());
            } catch (...) {
                outcome.error = QStringLiteral("unknown error");
            }
            return outcome;
        };
        watcher->setFuture(pool ? QtConcurrent::run(pool, std::move(work)) : QtConcurrent::run(std::move(work)));
        return true;
    }

    std::shared_ptr<model::Database> currentDatabase() const;
    static QThreadPool* inMemoryPool();
    void started();
    void finished();

    QPointer<Workspace> m_workspace;
    // Id of the newest request; shared with the workers so they can skip stale requests.
    std::shared_ptr<std::atomic<quint64>> m_lastId = std::make_shared<std::atomic<quint64>>(0);
    int m_inFlight = 0;
};

} // namespace npuscope::gui

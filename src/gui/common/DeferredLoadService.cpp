// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/ThreadPriority.h"
#include "npuscope/gui/common/DeferredLoadService.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/MemoryGuard.h"

#include <QThread>
#include <QThreadPool>

#include <algorithm>

namespace npuscope::gui {

namespace {

io::DeferredGroups groupsOf(DeferredLoadService::Part part)
{
    switch (part) {
    case DeferredLoadService::Part::Timeline:
        return io::kAllGroups; // Loader::loadTimeline imports every group of the rank
    case DeferredLoadService::Part::Kernels:
    case DeferredLoadService::Part::KernelTotals:
        return io::kKernelsGroup;
    case DeferredLoadService::Part::Memory:
        return io::kMemoryGroup;
    }
    return io::kNoGroup;
}

QString partName(DeferredLoadService::Part part)
{
    switch (part) {
    case DeferredLoadService::Part::Timeline:
        return DeferredLoadService::tr("Timeline import");
    case DeferredLoadService::Part::Kernels:
        return DeferredLoadService::tr("Kernel import");
    case DeferredLoadService::Part::Memory:
        return DeferredLoadService::tr("Memory import");
    case DeferredLoadService::Part::KernelTotals:
        return DeferredLoadService::tr("Kernel totals import");
    }
    return {};
}

} // namespace

DeferredLoadService::DeferredLoadService(Workspace* workspace)
    : QObject(workspace)
    , m_workspace(workspace)
    , m_pool(new QThreadPool(this))
{
    // Two imports at once: each parses with simdjson at memory speed, so more would mostly compete for the memory
    // bus and the model lock while multiplying the memory held by parsed-but-unmerged ranks. One core is left for the
    // GUI and the view queries on a 2-core laptop only when there are more than two.
    m_maxRunning = std::clamp(QThread::idealThreadCount() - 1, 1, 2);
    m_pool->setMaxThreadCount(std::max(2, m_maxRunning + 1)); // + QueryRunner::runUnlocked jobs
    connect(workspace, &Workspace::databaseChanged, this, &DeferredLoadService::reset);
}

DeferredLoadService::~DeferredLoadService()
{
    for (auto& [key, entry] : m_entries)
        entry.cancel->store(true);
    m_pool->waitForDone();
}

void DeferredLoadService::reset()
{
    const bool hadBatches = !m_batches.empty();
    for (auto& [key, entry] : m_entries)
        entry.cancel->store(true); // a running import of the old model stops early; its result is dropped
    ++m_generation;
    m_entries.clear();
    m_queue.clear();
    m_batches.clear();
    m_running = 0;
    if (hadBatches)
        emit batchesChanged();
}

bool DeferredLoadService::isDone(int64_t rank, Part part) const
{
    const auto it = m_entries.find({ rank, part });
    return it != m_entries.end() && it->second.state == Entry::State::Done;
}

bool DeferredLoadService::isPending(int64_t rank, Part part) const
{
    const auto it = m_entries.find({ rank, part });
    return it != m_entries.end() && it->second.state != Entry::State::Done;
}

int DeferredLoadService::pendingCount() const { return static_cast<int>(m_queue.size()) + m_running; }

bool DeferredLoadService::request(int64_t rank, Part part, QObject* context, Done done, bool urgent)
{
    if (!m_workspace || !m_workspace->database())
        return false;
    const Key key { rank, part };
    auto [it, inserted] = m_entries.try_emplace(key);
    Entry& entry = it->second;
    if (!inserted && entry.state == Entry::State::Done) {
        // Already imported: answer from the event loop, like an import would, so callers never re-enter.
        QMetaObject::invokeMethod(
            this,
            [ctx = QPointer<QObject>(context), done = std::move(done)] {
                if (ctx && done)
                    done(Result {});
            },
            Qt::QueuedConnection);
        return true;
    }
    entry.waiters.push_back({ context, std::move(done), 0 });
    if (inserted)
        enqueue(key, urgent);
    else if (urgent && entry.state == Entry::State::Queued)
        enqueue(key, true); // move it to the front
    pump();
    return true;
}

void DeferredLoadService::enqueue(const Key& key, bool urgent)
{
    const auto found = std::find_if(
        m_queue.begin(), m_queue.end(), [&](const Key& k) { return k.rank == key.rank && k.part == key.part; });
    if (found != m_queue.end())
        m_queue.erase(found);
    if (urgent)
        m_queue.push_front(key);
    else
        m_queue.push_back(key);
}

quint64 DeferredLoadService::startBatch(const QString& label, const std::vector<int64_t>& ranks, Part part,
    QObject* context, BatchDone perRank, uint64_t estimateBytes)
{
    if (ranks.empty() || !m_workspace || !m_workspace->database())
        return 0;
    const quint64 id = ++m_lastBatch;
    Batch batch;
    batch.info.id = id;
    batch.info.label = label;
    batch.info.estimateBytes = estimateBytes;
    batch.info.availableBytes = load::MemoryGuard::available().value_or(0); // /proc and cgroup files, no lock
    int queued = 0;
    for (int64_t rank : ranks) {
        const Key key { rank, part };
        Done done = [perRank, rank](const Result& r) {
            if (perRank)
                perRank(rank, r);
        };
        auto [it, inserted] = m_entries.try_emplace(key);
        if (!inserted && it->second.state == Entry::State::Done) {
            QMetaObject::invokeMethod(
                this,
                [ctx = QPointer<QObject>(context), done = std::move(done)] {
                    if (ctx)
                        done(Result {});
                },
                Qt::QueuedConnection);
            continue;
        }
        it->second.waiters.push_back({ context, std::move(done), id });
        if (inserted)
            enqueue(key, false);
        ++queued;
    }
    if (queued == 0)
        return 0;
    batch.info.total = queued;
    m_batches.emplace(id, std::move(batch));
    emit batchesChanged();
    pump();
    return id;
}

void DeferredLoadService::cancelBatch(quint64 id)
{
    if (m_batches.erase(id) == 0)
        return;
    // Drop the batch's waiters; an import nobody waits for any more leaves the queue, or is told to stop.
    std::vector<Waiter> dropped;
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        Entry& entry = it->second;
        if (entry.state == Entry::State::Done) {
            ++it;
            continue;
        }
        for (auto& w : entry.waiters) {
            if (w.batch == id)
                dropped.push_back(std::move(w));
        }
        std::erase_if(entry.waiters, [id](const Waiter& w) { return w.batch == id; });
        if (!entry.waiters.empty()) {
            ++it;
            continue;
        }
        if (entry.state == Entry::State::Queued) {
            const Key key = it->first;
            std::erase_if(m_queue, [&](const Key& k) { return k.rank == key.rank && k.part == key.part; });
            it = m_entries.erase(it);
        } else {
            entry.cancel->store(true);
            ++it;
        }
    }
    emit batchesChanged();
    Result cancelled;
    cancelled.cancelled = true;
    for (const Waiter& w : dropped) {
        if (w.context && w.done)
            w.done(cancelled);
    }
}

void DeferredLoadService::cancelAll()
{
    std::vector<quint64> ids;
    for (const auto& [id, batch] : m_batches)
        ids.push_back(id);
    for (quint64 id : ids)
        cancelBatch(id);
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        if (it->second.state == Entry::State::Queued) {
            it = m_entries.erase(it);
        } else {
            if (it->second.state == Entry::State::Running)
                it->second.cancel->store(true);
            ++it;
        }
    }
    m_queue.clear();
}

std::vector<DeferredLoadService::BatchInfo> DeferredLoadService::batches() const
{
    std::vector<BatchInfo> out;
    for (const auto& [id, batch] : m_batches)
        out.push_back(batch.info);
    return out;
}

uint64_t DeferredLoadService::estimateBytes(model::Database& db, const std::vector<int64_t>& ranks, Part part)
{
    auto guard = db.lock();
    return load::MemoryGuard::deferredEstimate(db, ranks, groupsOf(part));
}

void DeferredLoadService::pump()
{
    const Workspace* workspace = m_workspace.data();
    if (!workspace)
        return;
    std::shared_ptr<model::Database> db = workspace->database();
    if (!db)
        return;
    std::shared_ptr<const load::ParseCache> cache = workspace->parseCache();
    while (m_running < m_maxRunning && !m_queue.empty()) {
        const Key key = m_queue.front();
        m_queue.pop_front();
        auto it = m_entries.find(key);
        if (it == m_entries.end() || it->second.state != Entry::State::Queued)
            continue;
        it->second.state = Entry::State::Running;
        ++m_running;
        const quint64 generation = m_generation;
        m_pool->start([this, db, cache, key, generation, cancel = it->second.cancel] {
            enterBackground();
            bool imported = false;
            QString error;
            try {
                const std::atomic<bool>* stop = cancel.get();
                switch (key.part) {
                case Part::Timeline:
                    imported = load::Loader::loadTimeline(*db, key.rank, {}, stop, cache.get());
                    break;
                case Part::Kernels:
                    imported = load::Loader::loadDeferred(*db, key.rank, io::kKernelsGroup, {}, stop, cache.get());
                    break;
                case Part::Memory:
                    imported = load::Loader::loadDeferred(*db, key.rank, io::kMemoryGroup, {}, stop, cache.get());
                    break;
                case Part::KernelTotals:
                    imported = load::Loader::loadKernelTotals(*db, key.rank, {}, stop, cache.get());
                    break;
                }
            } catch (const std::exception& e) {
                error = QString::fromUtf8(e.what());
            } catch (...) {
                error = QStringLiteral("unknown error");
            }
            // The destructor waits for the pool, so this object outlives the job; the queued call runs on its thread.
            QMetaObject::invokeMethod(
                this, [this, generation, key, imported, error] { finished(generation, key, imported, error); },
                Qt::QueuedConnection);
        });
    }
}

void DeferredLoadService::finished(quint64 generation, Key key, bool imported, QString error)
{
    if (generation != m_generation)
        return; // an import of a model the workspace no longer shows
    --m_running;
    auto it = m_entries.find(key);
    std::vector<Waiter> waiters;
    if (it != m_entries.end()) {
        const bool cancelled = it->second.cancel->load();
        waiters = std::move(it->second.waiters);
        if (cancelled && error.isEmpty() && !imported)
            m_entries.erase(it); // not done: a later request imports it again
        else
            it->second.state = Entry::State::Done;
    }
    // A failed import is never only a dock's error line: Parse issues lists it, with its rank.
    if (!error.isEmpty() && m_workspace)
        m_workspace->reportError(partName(key.part), error, key.rank);
    bool batchesMoved = false;
    Result result;
    result.imported = imported;
    result.error = error;
    for (const Waiter& w : waiters) {
        if (w.batch != 0) {
            const auto b = m_batches.find(w.batch);
            if (b == m_batches.end())
                continue; // cancelled
            ++b->second.info.done;
            batchesMoved = true;
            if (b->second.info.done >= b->second.info.total)
                m_batches.erase(b);
        }
        if (w.context && w.done)
            w.done(result);
    }
    if (batchesMoved)
        emit batchesChanged();
    pump();
    if (m_running == 0 && m_queue.empty())
        emit idle();
}

} // namespace npuscope::gui

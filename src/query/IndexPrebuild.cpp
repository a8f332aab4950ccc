// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/IndexPrebuild.h"

#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommOpIndex.h"

#include "npuscope/core/RunOnThreads.h"

#include <atomic>

namespace npuscope::query {

std::unique_ptr<IndexPrebuild> IndexPrebuild::prepare(model::Database& db, uint64_t maxCopyBytes)
{
    // The reservation and the copy under one lock: no row changes between them, so the copy's indexes are the model's.
    auto guard = db.lock();
    if (!db.scalarInt("SELECT 1 FROM comm_op LIMIT 1"))
        return nullptr;
    const uint64_t bytes = db.sizeBytes();
    if (bytes > maxCopyBytes)
        return nullptr;
    std::unique_ptr<IndexPrebuild> prebuild(new IndexPrebuild());
    prebuild->m_ops = db.reserveCached<CommOpIndex>(CommOpIndex::tables());
    prebuild->m_links = db.reserveCached<CommLinkIndex>(CommLinkIndex::tables());
    if (!prebuild->m_ops && !prebuild->m_links)
        return nullptr;
    prebuild->m_copy = db.readOnlyCopy();
    prebuild->m_copyBytes = bytes;
    prebuild->m_parallel = bytes <= maxCopyBytes / 2 && hardwareThreads() > 1 && prebuild->m_ops && prebuild->m_links;
    return prebuild;
}

IndexPrebuild::~IndexPrebuild() = default; // an unfilled reservation is dropped: its waiters build the index

int IndexPrebuild::run()
{
    if (!m_copy)
        return 0;
    // A connection serves one thread at a time: the link index gets a copy of its own (of the copy, not of the model,
    // whose connection is the views').
    std::unique_ptr<model::Database> second = m_parallel ? m_copy->readOnlyCopy() : nullptr;
    std::atomic<int> filled { 0 };
    const auto buildOps = [&](model::Database& on) {
        auto guard = on.lock(); // the copies are this object's alone; build() expects the lock held
        if (m_ops && m_ops.fill(CommOpIndex::build(on)))
            ++filled;
    };
    const auto buildLinks = [&](model::Database& on) {
        auto guard = on.lock();
        if (m_links && m_links.fill(CommLinkIndex::build(on)))
            ++filled;
    };
    if (second) {
        runOnThreads(2, [&](size_t thread) { thread == 0 ? buildOps(*m_copy) : buildLinks(*second); });
    } else {
        buildOps(*m_copy);
        buildLinks(*m_copy);
    }
    second.reset();
    m_copy.reset();
    return filled;
}

} // namespace npuscope::query

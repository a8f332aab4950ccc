// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/IndexPrebuild.h"

#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommOpIndex.h"

#include "npuscope/core/RunOnThreads.h"


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
    prebuild->m_parallel = hardwareThreads() > 1 && prebuild->m_ops && prebuild->m_links;
    return prebuild;
}

IndexPrebuild::~IndexPrebuild() = default; // an unfilled reservation is dropped: its waiters build the index

void IndexPrebuild::build()
{
    std::lock_guard lock(m_buildMutex);
    if (m_built)
        return;
    m_built = true;
    if (!m_copy)
        return;
    try {
        // A connection serves one thread at a time: the link index gets a connection of its own over the copy's pages
        // (not the model's, whose connection is the views').
        std::unique_ptr<model::Database> second = m_parallel ? m_copy->readOnlyView() : nullptr;
        const auto buildOps = [&](model::Database& on) {
            auto guard = on.lock(); // the copies are this object's alone; build() expects the lock held
            if (m_ops)
                m_opIndex = CommOpIndex::build(on);
        };
        const auto buildLinks = [&](model::Database& on) {
            auto guard = on.lock();
            if (m_links)
                m_linkIndex = CommLinkIndex::build(on);
        };
        if (second) {
            runOnThreads(2, [&](size_t thread) { thread == 0 ? buildOps(*m_copy) : buildLinks(*second); });
        } else {
            buildOps(*m_copy);
            buildLinks(*m_copy);
        }
    } catch (...) {
        m_buildError = std::current_exception();
    }
    m_copy.reset();
}

int IndexPrebuild::run()
{
    build();
    if (m_buildError)
        std::rethrow_exception(m_buildError);
    int filled = 0;
    if (m_opIndex && m_ops.fill(std::move(m_opIndex)))
        ++filled;
    if (m_linkIndex && m_links.fill(std::move(m_linkIndex)))
        ++filled;
    return filled;
}

} // namespace npuscope::query

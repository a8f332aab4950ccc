// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/IndexPrebuild.h"

#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommOpIndex.h"

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
    return prebuild;
}

IndexPrebuild::~IndexPrebuild() = default; // an unfilled reservation is dropped: its waiters build the index

int IndexPrebuild::run()
{
    if (!m_copy)
        return 0;
    int filled = 0;
    {
        // The copy is this object's alone; its lock is taken as build() expects.
        auto guard = m_copy->lock();
        if (m_ops && m_ops.fill(CommOpIndex::build(*m_copy)))
            ++filled;
        if (m_links && m_links.fill(CommLinkIndex::build(*m_copy)))
            ++filled;
    }
    m_copy.reset();
    return filled;
}

} // namespace npuscope::query

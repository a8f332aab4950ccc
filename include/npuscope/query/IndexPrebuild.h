// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <memory>

namespace npuscope::query {

// The communication indexes (CommOpIndex, CommLinkIndex) of a model just loaded, built on a read-only copy of the
// model on another thread while the views' first queries use the model's own connection. After an open of a
// 1,024-rank cluster the two builds took 0.35-0.55 s of SQL on the one connection every view queues on, ahead of the
// quick views; on the copy they run beside them. prepare() reserves both cache slots
// (model::Database::reserveCached), so Advice or a communication view asking for an index meanwhile waits for it
// instead of building it a second time; run() fills them. Nothing is built twice, and a row change in an index's
// tables before run() ends drops its slot (whoever asks then builds it as before).
class IndexPrebuild {
public:
    // Copies db and reserves the slots, or returns null when there is nothing to build (no communication ops), the
    // slots are already filled, or one copy would take more than maxCopyBytes. Call with no other thread using db
    // (the loader's thread, before it hands the model over). db must outlive the returned object.
    static std::unique_ptr<IndexPrebuild> prepare(model::Database& db, uint64_t maxCopyBytes);
    ~IndexPrebuild();
    IndexPrebuild(const IndexPrebuild&) = delete;
    IndexPrebuild& operator=(const IndexPrebuild&) = delete;

    // Builds the indexes, fills the reserved slots and frees the copies. With two threads and the memory for a
    // second copy (prepare's maxCopyBytes held two), the link index is built on a copy of the copy on a thread of
    // its own (core runOnThreads) while this one builds the op index: 0.45 s of builds became about 0.25 s on the
    // 1,024-rank cluster. Once, on any one thread; never takes the model's lock. Returns how many slots were filled.
    int run();
    uint64_t copyBytes() const { return m_copyBytes; }
    bool parallel() const { return m_parallel; }

private:
    IndexPrebuild() = default;
    std::unique_ptr<model::Database> m_copy;
    model::Database::Reservation m_ops, m_links;
    uint64_t m_copyBytes = 0;
    bool m_parallel = false;
};

} // namespace npuscope::query

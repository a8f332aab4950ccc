// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>

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
    // slots are already filled, or the copy would take more than maxCopyBytes. Call with no other thread using db
    // (the loader's thread, before it hands the model over; Loader's LoadOptions::beforeIndexes, before the model's
    // secondary indexes, which the builds do not read, so the copy is smaller). The object may outlive db: its
    // reservations are then void.
    static std::unique_ptr<IndexPrebuild> prepare(model::Database& db, uint64_t maxCopyBytes);
    ~IndexPrebuild();
    IndexPrebuild(const IndexPrebuild&) = delete;
    IndexPrebuild& operator=(const IndexPrebuild&) = delete;

    // Builds the indexes, fills the reserved slots and frees the copy. With two hardware threads the link index is
    // built on a thread of its own (core runOnThreads), over a second connection to the copy's pages
    // (Database::readOnlyView, no second copy), while this one builds the op index: 0.45 s of builds became about
    // 0.25 s on the 1,024-rank cluster. Never takes the model's lock. Returns how many slots were filled. Once, on any thread;
    // build() may have run before it on another (then run() only fills), and an error of that build is rethrown here.
    int run();
    // The builds of run() without filling the slots: started as soon as the copy exists (while the loader still
    // builds the model's indexes), so that run() after the load only fills. Any thread; a second call returns at once
    // (or waits for the first). Never touches the model.
    void build();
    uint64_t copyBytes() const { return m_copyBytes; }
    bool parallel() const { return m_parallel; }

private:
    IndexPrebuild() = default;
    std::mutex m_buildMutex; // build()
    bool m_built = false;
    std::exception_ptr m_buildError;
    std::unique_ptr<model::Database> m_copy;
    std::shared_ptr<const void> m_opIndex, m_linkIndex; // what build() made, for run() to fill in
    model::Database::Reservation m_ops, m_links;
    uint64_t m_copyBytes = 0;
    bool m_parallel = false;
};

} // namespace npuscope::query

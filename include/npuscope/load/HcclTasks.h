// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/HcclTaskFigures.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::load {

// One communication op with its task-level figures (query::taskFigures) and, beside them, the figures the profiler
// wrote for the same op (communication.json / the db export's comm_op row of that rank and op name), when there is
// one.
struct HcclOpFigures {
    int64_t rank = 0;
    std::string name;
    int64_t ts = 0, dur = 0; // the op's span on the trace, ns
    query::HcclTaskFigures tasks;
    size_t tasksWithoutArgs = 0; // task slices whose args could not be read (file changed since the import)
    std::optional<int64_t> profilerTransitNs, profilerWaitNs; // comm_op transit_ns / wait_ns
    // The plane whose figures are the profiler's (within 1 µs each): its master stream. nullopt when none is.
    std::optional<int64_t> profilerPlane;
};

// Reads the args of every HCCL task slice (inline in the model or by reference into the trace: SourceDetails) and
// computes each op's task-level figures. The caller holds the database lock (or owns the database). Does file I/O:
// worker thread.
class HcclTasks {
public:
    static std::vector<HcclOpFigures> read(model::Database& db);
};

} // namespace npuscope::load

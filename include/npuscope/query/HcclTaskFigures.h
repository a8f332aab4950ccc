// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

// One HCCL task (a Notify_Wait, Memcpy, Reduce_Inline, RDMASend... on a plane of the HCCL process of a trace), with
// the fields of its args the task-level formulas read.
struct HcclTask {
    int64_t ts = 0, dur = 0; // ns
    int64_t plane = 0; // the task's track (tid)
    std::string type; // "task type" arg, else the slice name
    std::string transport; // "transport type": SDMA | RDMA | LOCAL | ...
    std::string rdmaType; // "rdma type" when written: RDMASendPayload | RDMASendNotify
    int64_t src = -1, dst = -1; // "src rank", "dst rank" (4294967295 = none, kept as written)
    int64_t sizeBytes = 0; // "size(Byte)"
};

// A link's task-level communication: the SDMA copies / reductions, or the RDMA payload triplets, between two ranks.
struct HcclTaskLink {
    int64_t src = -1, dst = -1;
    std::string transport;
    int64_t timeNs = 0;
    int64_t sizeBytes = 0;
    // size ÷ time in GB/s (10^9 B/s); nullopt without time.
    std::optional<double> bandwidthGbps() const;
};

// The figures of one plane (a stream of the op's tasks).
struct HcclPlaneFigures {
    int64_t plane = 0;
    int64_t communicationNs = 0; // SDMA copies and RDMA runs on this plane
    int64_t waitNs = 0; // Notify_Waits on this plane outside RDMA runs
    size_t tasks = 0;
};

// The MindInsight cluster tutorial's task-level figures of one communication op (docs/metrics.md, "Task-level HCCL
// figures"): communication time = Reduce_Inline + Memcpy on SDMA, plus every RDMASendPayload → RDMASendNotify →
// Notify_Wait run on RDMA; wait time = every Notify_Wait minus those in the RDMA runs.
struct HcclTaskFigures {
    int64_t sdmaNs = 0; // Reduce_Inline + Memcpy tasks whose transport is SDMA
    int64_t rdmaNs = 0; // the three tasks of each RDMA run
    int64_t notifyWaitNs = 0; // every Notify_Wait
    int64_t rdmaWaitNs = 0; // the Notify_Waits that close an RDMA run
    size_t tasks = 0;
    size_t rdmaRuns = 0;
    std::vector<HcclTaskLink> links; // by (src, dst, transport)
    // The same per plane: the profiler's transit and wait time of an op are those of its master stream's plane, the
    // tutorial's sums are over every plane (docs/metrics.md).
    std::vector<HcclPlaneFigures> planes;
    int64_t communicationNs() const { return sdmaNs + rdmaNs; }
    int64_t waitNs() const { return notifyWaitNs - rdmaWaitNs; }
};

// The figures of a set of tasks (any order; an RDMA run is consecutive on one plane).
HcclTaskFigures taskFigures(std::vector<HcclTask> tasks);

// A task slice of a trace: where its args are read from (load::SourceDetails::sliceArgs), and what the model keeps.
struct HcclTaskSlice {
    int64_t sliceId = 0;
    int64_t ts = 0, dur = 0, plane = 0;
    std::string name;
};

// A communication op of the HCCL process (its op track) with the task slices that start within it.
struct HcclOpSlices {
    int64_t rank = 0;
    std::string name;
    int64_t ts = 0, dur = 0;
    std::vector<HcclTaskSlice> tasks;
};

// The HCCL process of each rank's imported trace (process name "HCCL"): tasks on its "Plane N" threads, ops on its
// other threads (torch_npu's "Group N Communication", CANN's "Communication Kernel"); a task belongs to the op of the
// same rank that contains its start. Ops in (rank, start) order. The caller holds the database lock.
class HcclTaskQuery {
public:
    static std::vector<HcclOpSlices> ops(model::Database& db);
};

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/Downsample.h"
#include "npuscope/model/Database.h"
#include "npuscope/query/MareyStep.h"
#include "npuscope/query/ParallelLayout.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace npuscope::query {

// The Marey view's data (docs/metrics.md, "Marey view"): per device of the layout's stages, its operators of one step
// from the kernel table (communication ops from comm_op for a device whose kernels have none), matched across
// consecutive devices of a stage, and sends joined with their receives on neighbouring stages. Caller holds the
// database lock (or owns the database); any thread.
class MareyQuery {
public:
    // step nullopt: every kernel. Devices are the layout's loaded ranks, stage by stage; a loaded rank without kernels
    // in the step is a device without ops.
    static MareyStep step(model::Database& db, const ParallelLayout& layout, std::optional<int64_t> step);
    // Steps that have kernels, ascending (NULL steps left out).
    static std::vector<int64_t> steps(model::Database& db);
    // Of ranks, those whose operator timings come only from a MindSpore timeline (ascend_timeline_display: no kernel
    // file planned) that is not imported yet: the view imports their timelines, step() reads the device's tasks.
    static std::vector<int64_t> ranksNeedingTimelines(model::Database& db, const std::vector<int64_t>& ranks);

    // MindSpore's memory line of a device (docs/metrics.md, "Marey view"): the nodes of its memory_usage_details graph
    // with the most nodes, each placed at the start of the device's first operator of the step with the node's name
    // (the last part of the op's scope name), its memory in use in MB (GiB × 1024); sorted by time. Empty when the
    // rank has no such file or no node names an operator of the step.
    static std::vector<core::CurvePoint> memoryUsageLine(
        model::Database& db, const MareyStep& step, const MareyDevice& device);

    // Matching and pairing on a MareyStep whose devices' ops are filled (names, kinds, times): sorts each device's ops
    // by time, numbers occurrences, matches consecutive devices of each stage and counts unmatched ops. Exposed for
    // the bench and tests, which build steps without a database.
    static void match(MareyStep& step);
    // Joins sends and receives (docs/metrics.md): peers per op from opPeers (device index, op index) → peer rank when
    // known, else the device with the same dp/cp/tp coordinate on the neighbouring stages, by time overlap.
    struct OpPeer {
        int device = 0, op = 0;
        int64_t peerRank = 0;
    };
    static void pairSendReceive(MareyStep& step, const ParallelLayout& layout, const std::vector<OpPeer>& opPeers);
};

} // namespace npuscope::query

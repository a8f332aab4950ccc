// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// MindSpore parallel_strategy_{rank}.json (auto-parallel strategy dump: "config" + the strategy "graph") into
// rank_info facts: parallel_strategy.rankId / .stageId / .parallelType (and any other scalar of "config"),
// parallel_strategy.stageDevices (per stage the device list of stageDevices[].dim[].size, e.g. "[[0,1]]"),
// parallel_strategy.stageCount and parallel_strategy.nodeCount (graph.node entries), read with simdjson On Demand
// (the graph's nodes are counted, not read, and what is skipped is not validated; a text simdjson rejects goes
// through nlohmann's parser for its diagnostics). The graph itself (strategy_node, strategy_edge and
// parallel_strategy.graphNodes) only for the stage's graph rank: the lowest rank of config.stageDevices for the file's
// stage, or every rank whose file lists no devices. No step, communication or timeline data.
class MsParallelStrategyImporter {
public:
    static bool run(ImportContext& ctx);
    // The graph of ctx's file as stage's (a stage whose graph rank has no file or no readable graph:
    // PostLoad::strategyGraphFallback), with parallel_strategy.graphNodes and an info issue naming the stage when
    // nodes were read. Returns the number of nodes written.
    static int64_t importGraph(ImportContext& ctx, int64_t stage);
};

} // namespace npuscope::io

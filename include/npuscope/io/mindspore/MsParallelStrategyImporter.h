// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// MindSpore parallel_strategy_{rank}.json (auto-parallel strategy dump: "config" + the strategy "graph") into
// rank_info facts: parallel_strategy.rankId / .stageId / .parallelType (and any other scalar of "config"),
// parallel_strategy.stageDevices (per stage the device list of stageDevices[].dim[].size, e.g. "[[0,1]]"),
// parallel_strategy.stageCount and parallel_strategy.nodeCount (graph.node entries). Streamed through a SAX
// parser: a large model's graph is never held as a DOM. No step, communication or timeline data.
class MsParallelStrategyImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

#include <simdjson.h>

#include <cstdint>

namespace npuscope::io::detail {

// The graph of a parallel_strategy_{rank}.json (MsParallelStrategyImporter has read its config already): one
// strategy_node row per operator node in the file's order and one strategy_edge row per input naming an operator
// node (resources/schema.sql). Fields and the special operators follow MindInsight's reading of the file
// (mindinsight/profiler/analyser/graph.py: the node's execution order is its position, in_strategy marks a sharded
// operator, instanceName "grad_mirror" a gradient aggregation and "redistribution" a redistribution; Send/Receive
// carry sr_tag and dest_rank/src_rank). A file whose graph cannot be read gets a warning and no rows. Returns the
// number of nodes written. text: the file's bytes (read once by the caller).
int64_t importStrategyGraph(ImportContext& ctx, int64_t stage, const simdjson::padded_string& text);

} // namespace npuscope::io::detail

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// MindSpore's memory files of the old profiler/ folder (MindSpore's MemoryUsageParser writes them, MindInsight's
// memory views and cluster memory heatmap read them; docs/metrics.md, "Memory"):
//  - memory_usage_summary_{rank}.json {"capacity", "allocations", "deallocations", "peak_mem", "static_mem"}
//    (capacity and memory figures in GiB, 1024^3 bytes) -> rank_info memory_usage_summary.<key>, each as written. A
//    figure that is not a non-negative number is reported with file and line and not stored.
//  - memory_usage_details_{rank}.json {"<graph id>": {"graph_id", "static_mem", "lines": [GiB per node],
//    "nodes": [{"node_id", "name", ...}], "fp_start", "bp_end", "breakdowns": [...]}} -> ms_memory_node, one row per
//    node with its line value (the i-th line belongs to the i-th node; MindSpore samples both the same way). The
//    breakdowns and the nodes' tensor lists are skipped while parsing, never held. A node without a name or a line
//    value that is not a number is reported (file, line of its graph) and skipped.
// Any thread (one ImportContext per thread).
class MindSporeMemoryImporter {
public:
    static bool runSummary(ImportContext& ctx);
    static bool runDetails(ImportContext& ctx);
};

} // namespace npuscope::io

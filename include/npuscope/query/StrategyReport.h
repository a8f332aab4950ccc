// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <nlohmann/json.hpp>

#include <string>

namespace npuscope::query {

// `npuscope-cli strategy`: the parallel strategy graphs of a MindSpore job (StrategyGraphQuery). The
// "npuscope.strategy/1" document (docs/metrics.md, "Parallel strategy graph"): {"schema", "stages": [{"stage",
// "ranks", "graph_rank" (null without a graph), "nodes", "edges", "by_type": {op type: count}, "special":
// {"strategy", "redistribution", "grad_aggregation"}, "send_recv_pairs", "special_ops": [{"index", "name", "op_type",
// "kinds": [...], "strategy" (or null)}]}], "pairs": [{"send_stage", "send_index", "recv_stage", "recv_index",
// "sr_tag"}]}. The caller holds the database lock.
class StrategyReport {
public:
    static constexpr const char* kSchema = "npuscope.strategy/1";
    static nlohmann::ordered_json json(model::Database& db);
    static std::string text(model::Database& db);
};

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/StrategyReport.h"

#include "npuscope/query/StrategyGraphQuery.h"

#include <algorithm>
#include <map>

namespace npuscope::query {

namespace {

using ojson = nlohmann::ordered_json;

std::vector<std::string> kinds(int special)
{
    std::vector<std::string> k;
    if (special & StrategyNode::Strategy)
        k.emplace_back("strategy");
    if (special & StrategyNode::Redistribution)
        k.emplace_back("redistribution");
    if (special & StrategyNode::GradAggregation)
        k.emplace_back("grad_aggregation");
    return k;
}

std::map<std::string, int64_t> byType(model::Database& db, const StrategyStage& s)
{
    std::map<std::string, int64_t> out;
    if (!s.graphRank)
        return out;
    auto st = db.prepare("SELECT op_type, COUNT(*) FROM strategy_node WHERE rank_id = ?1 AND stage = ?2 GROUP BY op_type");
    st.bind(1, *s.graphRank);
    st.bind(2, s.stage);
    while (st.step())
        out[st.text(0)] = st.int64(1);
    return out;
}

std::string rankList(const std::vector<int64_t>& ranks)
{
    std::string out;
    for (size_t i = 0; i < ranks.size();) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        out += out.empty() ? "" : ", ";
        out += std::to_string(ranks[i]);
        if (j > i)
            out += "–" + std::to_string(ranks[j]);
        i = j + 1;
    }
    return out;
}

std::string counted(int64_t n, const char* noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

} // namespace

nlohmann::ordered_json StrategyReport::json(model::Database& db)
{
    const StrategyOverview overview = StrategyGraphQuery::overview(db);
    ojson stages = ojson::array();
    for (const auto& s : overview.stages) {
        ojson special = ojson::array();
        for (const auto& n : StrategyGraphQuery::specialOps(db, s.stage))
            special.push_back({ { "index", n.index }, { "name", n.name }, { "op_type", n.opType },
                { "kinds", kinds(n.special) }, { "strategy", n.strategy ? ojson(*n.strategy) : ojson(nullptr) } });
        ojson types = ojson::object();
        for (const auto& [type, count] : byType(db, s))
            types[type] = count;
        stages.push_back({ { "stage", s.stage }, { "ranks", s.ranks },
            { "graph_rank", s.graphRank ? ojson(*s.graphRank) : ojson(nullptr) }, { "nodes", s.nodes },
            { "edges", s.edges }, { "by_type", std::move(types) },
            { "special",
                { { "strategy", s.strategyOps }, { "redistribution", s.redistributionOps },
                    { "grad_aggregation", s.gradAggregationOps } } },
            { "send_recv_pairs", s.sendRecvPairs }, { "special_ops", std::move(special) } });
    }
    ojson pairs = ojson::array();
    for (const auto& p : overview.pairs)
        pairs.push_back({ { "send_stage", p.sendStage }, { "send_index", p.sendIndex }, { "recv_stage", p.recvStage },
            { "recv_index", p.recvIndex }, { "sr_tag", p.srTag } });
    return { { "schema", kSchema }, { "stages", std::move(stages) }, { "pairs", std::move(pairs) } };
}

std::string StrategyReport::text(model::Database& db)
{
    const auto stages = StrategyGraphQuery::stages(db);
    if (stages.empty())
        return "No parallel strategy files (parallel_strategy_{rank}.json) in the input.\n";
    std::string out = "Parallel strategy graph (" + std::to_string(stages.size()) + " stage"
        + (stages.size() == 1 ? "" : "s") + ")\n";
    for (const auto& s : stages) {
        out += "  stage " + std::to_string(s.stage) + " · ranks " + rankList(s.ranks);
        if (!s.graphRank) {
            out += ": no graph (no rank of the stage has a readable graph)\n";
            continue;
        }
        out += " (graph of rank " + std::to_string(*s.graphRank) + "): " + counted(s.nodes, "node") + ", "
            + counted(s.edges, "edge") + "; special operators: " + std::to_string(s.strategyOps)
            + " with a strategy, " + std::to_string(s.redistributionOps) + " redistribution, "
            + std::to_string(s.gradAggregationOps) + " gradient aggregation; " + counted(s.sendRecvPairs, "Send→Receive pair")
            + " starting here\n";
        std::vector<std::pair<int64_t, std::string>> types;
        for (const auto& [type, count] : byType(db, s))
            types.emplace_back(count, type);
        std::sort(types.begin(), types.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        out += "    most frequent:";
        for (size_t i = 0; i < types.size() && i < 8; ++i)
            out += (i ? ", " : " ") + types[i].second + " " + std::to_string(types[i].first);
        out += "\n";
    }
    return out;
}

} // namespace npuscope::query

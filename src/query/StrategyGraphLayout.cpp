// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/StrategyGraphLayout.h"

#include "npuscope/query/StrategyGraphQuery.h"

#include <algorithm>
#include <climits>
#include <map>
#include <unordered_map>

namespace npuscope::query {

namespace {

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

uint32_t intern(std::vector<std::string>& table, std::unordered_map<std::string, uint32_t>& ids, const std::string& s)
{
    const auto [it, added] = ids.emplace(s, static_cast<uint32_t>(table.size()));
    if (added)
        table.push_back(s);
    return it->second;
}

} // namespace

StrategyGraphLayout::Kind StrategyGraphLayout::kindOf(const std::string& t)
{
    if (t == "Send" || t == "Receive")
        return Kind::Pipeline;
    if (contains(t, "AllReduce") || contains(t, "AllGather") || contains(t, "ReduceScatter") || contains(t, "AllToAll")
        || contains(t, "Broadcast") || contains(t, "Mirror"))
        return Kind::Communication;
    if (contains(t, "MatMul") || contains(t, "Conv"))
        return Kind::Cube;
    if (t == "Reshape" || t == "Transpose" || t == "GetNext" || t == "Load" || t == "Depend" || t == "UpdateState"
        || t == "MakeTuple" || t == "TupleGetItem")
        return Kind::Other;
    return Kind::Vector;
}

StrategyGraphLayout StrategyGraphLayout::build(model::Database& db)
{
    StrategyGraphLayout l;
    std::unordered_map<std::string, uint32_t> typeIds, scopeIds;
    std::map<std::pair<int64_t, int64_t>, uint32_t> positionOf; // (stage, index) -> position
    for (const auto& s : StrategyGraphQuery::stages(db)) {
        Stage stage;
        stage.stage = s.stage;
        stage.graphRank = s.graphRank;
        stage.ranks = s.ranks;
        stage.first = static_cast<uint32_t>(l.nodes.size());
        stage.strategyOps = static_cast<int>(s.strategyOps);
        stage.redistributionOps = static_cast<int>(s.redistributionOps);
        stage.gradAggregationOps = static_cast<int>(s.gradAggregationOps);
        const auto slot = static_cast<uint32_t>(l.stages.size());
        const StrategyGraph g = StrategyGraphQuery::graph(db, s.stage);
        // The first operator input of each node, the first node reading each node, and each node's main reader: of
        // its readers the one read again soonest after it (ties: the earliest), which continues its lane.
        const size_t size = g.nodes.size() + 1;
        std::vector<int64_t> firstInput(size, 0), firstReader(size, 0), mainReader(size, 0);
        const auto valid = [&](const StrategyEdge& e) {
            return e.dst >= 1 && static_cast<size_t>(e.dst) < size && e.src >= 1 && e.src < e.dst;
        };
        for (const auto& e : g.edges) {
            if (!valid(e))
                continue;
            if (firstInput[static_cast<size_t>(e.dst)] == 0)
                firstInput[static_cast<size_t>(e.dst)] = e.src;
            auto& first = firstReader[static_cast<size_t>(e.src)];
            first = first == 0 ? e.dst : std::min(first, e.dst);
        }
        const auto gap = [&](int64_t r) {
            const int64_t next = firstReader[static_cast<size_t>(r)];
            return next == 0 ? INT64_MAX : next - r;
        };
        for (const auto& e : g.edges) {
            if (!valid(e))
                continue;
            auto& main = mainReader[static_cast<size_t>(e.src)];
            if (main == 0 || gap(e.dst) < gap(main) || (gap(e.dst) == gap(main) && e.dst < main))
                main = e.dst;
        }
        std::vector<uint8_t> laneOf(g.nodes.size() + 1, 0);
        for (const auto& n : g.nodes) {
            Node node;
            node.stageSlot = slot;
            node.column = static_cast<uint32_t>(n.index - 1);
            node.kind = kindOf(n.opType);
            node.special = static_cast<uint8_t>(n.special);
            node.type = intern(l.types, typeIds, n.opType);
            node.scope = intern(l.scopes, scopeIds, n.scope);
            node.index = n.index;
            node.name = n.name;
            node.strategy = n.strategy;
            // The main reader of a node continues its lane; the others branch to the lane beside it (a backward
            // pass's weight gradients beside its input gradients).
            const int64_t input = firstInput[static_cast<size_t>(n.index)];
            int lane = 0;
            if (input > 0) {
                const int inputLane = laneOf[static_cast<size_t>(input)];
                lane = mainReader[static_cast<size_t>(input)] == n.index ? inputLane : (inputLane + 1) % kMaxLanes;
            }
            laneOf[static_cast<size_t>(n.index)] = static_cast<uint8_t>(lane);
            node.lane = static_cast<uint8_t>(lane);
            stage.lanes = std::max(stage.lanes, lane + 1);
            positionOf[{ s.stage, n.index }] = static_cast<uint32_t>(l.nodes.size());
            l.nodes.push_back(std::move(node));
        }
        for (const auto& e : g.edges) {
            const auto a = positionOf.find({ s.stage, e.src });
            const auto b = positionOf.find({ s.stage, e.dst });
            if (a != positionOf.end() && b != positionOf.end())
                l.edges.emplace_back(a->second, b->second);
        }
        stage.count = static_cast<uint32_t>(l.nodes.size()) - stage.first;
        l.columns = std::max(l.columns, stage.count);
        l.stages.push_back(std::move(stage));
    }
    for (const auto& p : StrategyGraphQuery::sendRecvPairs(db)) {
        const auto a = positionOf.find({ p.sendStage, p.sendIndex });
        const auto b = positionOf.find({ p.recvStage, p.recvIndex });
        if (a != positionOf.end() && b != positionOf.end())
            l.sendRecv.emplace_back(a->second, b->second);
    }
    return l;
}

std::vector<uint32_t> StrategyGraphLayout::nodesUnder(const std::string& prefix) const
{
    std::vector<char> matches(scopes.size(), 0);
    for (size_t i = 0; i < scopes.size(); ++i) {
        const std::string& s = scopes[i];
        matches[i] = s == prefix || (s.size() > prefix.size() && s.compare(0, prefix.size(), prefix) == 0
                                        && s[prefix.size()] == '/');
    }
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < nodes.size(); ++i) {
        if (matches[nodes[i].scope])
            out.push_back(i);
    }
    return out;
}

} // namespace npuscope::query

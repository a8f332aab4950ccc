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
    std::vector<Kind> kindOfType; // by type id
    std::map<int64_t, uint32_t> slotOf; // stage -> index into l.stages
    const StrategyOverview overview = StrategyGraphQuery::overview(db);
    for (const auto& s : overview.stages) {
        Stage stage;
        stage.stage = s.stage;
        stage.graphRank = s.graphRank;
        stage.ranks = s.ranks;
        stage.first = static_cast<uint32_t>(l.nodes.size());
        stage.strategyOps = static_cast<int>(s.strategyOps);
        stage.redistributionOps = static_cast<int>(s.redistributionOps);
        stage.gradAggregationOps = static_cast<int>(s.gradAggregationOps);
        const auto slot = static_cast<uint32_t>(l.stages.size());
        slotOf[s.stage] = slot;
        if (!s.graphRank) {
            l.stages.push_back(std::move(stage));
            continue;
        }
        // Only what the drawing needs (the attribute panel asks for one node's fields when it is selected).
        auto nodes = db.prepare("SELECT node_index, name, op_type, scope, special, strategy FROM strategy_node WHERE "
                                "rank_id = ?1 AND stage = ?2 ORDER BY node_index");
        nodes.bind(1, *s.graphRank);
        nodes.bind(2, s.stage);
        std::string type, scope;
        while (nodes.step()) {
            Node node;
            node.stageSlot = slot;
            node.index = nodes.int64(0);
            // The importer numbers a stage's nodes 1..N in order; a model that does not (another writer) is cut at
            // the first gap rather than indexed out of range below.
            if (node.index != static_cast<int64_t>(l.nodes.size() - stage.first) + 1)
                break;
            node.column = static_cast<uint32_t>(l.nodes.size() - stage.first);
            node.name = nodes.text(1);
            nodes.readText(2, type);
            nodes.readText(3, scope);
            node.type = intern(l.types, typeIds, type);
            if (node.type == kindOfType.size())
                kindOfType.push_back(kindOf(type));
            node.kind = kindOfType[node.type];
            node.scope = intern(l.scopes, scopeIds, scope);
            node.special = static_cast<uint8_t>(nodes.int64(4));
            node.strategy = nodes.optText(5);
            l.nodes.push_back(std::move(node));
        }
        stage.count = static_cast<uint32_t>(l.nodes.size()) - stage.first;
        // Node indexes run 1..count in order (the importer numbers them so): index i is at first + i - 1.
        const auto at = [&](int64_t index) -> std::optional<uint32_t> {
            if (index < 1 || index > static_cast<int64_t>(stage.count))
                return std::nullopt;
            return stage.first + static_cast<uint32_t>(index - 1);
        };
        const size_t size = stage.count + 1;
        // The first operator input of each node, the first node reading each node, and each node's main reader: of
        // its readers the one read again soonest after it (ties: the earliest), which continues its lane.
        std::vector<int64_t> firstInput(size, 0), firstReader(size, 0), mainReader(size, 0);
        std::vector<std::pair<int64_t, int64_t>> stageEdges;
        auto edges = db.prepare("SELECT src_index, dst_index FROM strategy_edge WHERE rank_id = ?1 ORDER BY dst_index, rowid");
        edges.bind(1, *s.graphRank);
        while (edges.step()) {
            const int64_t src = edges.int64(0), dst = edges.int64(1);
            if (!at(src) || !at(dst))
                continue;
            l.edges.emplace_back(*at(src), *at(dst));
            if (src >= dst)
                continue;
            stageEdges.emplace_back(src, dst);
            if (firstInput[static_cast<size_t>(dst)] == 0)
                firstInput[static_cast<size_t>(dst)] = src;
            auto& first = firstReader[static_cast<size_t>(src)];
            first = first == 0 ? dst : std::min(first, dst);
        }
        const auto gap = [&](int64_t r) {
            const int64_t next = firstReader[static_cast<size_t>(r)];
            return next == 0 ? INT64_MAX : next - r;
        };
        for (const auto& [src, dst] : stageEdges) {
            auto& main = mainReader[static_cast<size_t>(src)];
            if (main == 0 || gap(dst) < gap(main) || (gap(dst) == gap(main) && dst < main))
                main = dst;
        }
        // The main reader of a node continues its lane; the others branch to the lane beside it (a backward pass's
        // weight gradients beside its input gradients).
        std::vector<uint8_t> laneOf(size, 0);
        for (uint32_t i = stage.first; i < stage.first + stage.count; ++i) {
            auto& node = l.nodes[i];
            const int64_t input = firstInput[static_cast<size_t>(node.index)];
            int lane = 0;
            if (input > 0) {
                const int inputLane = laneOf[static_cast<size_t>(input)];
                lane = mainReader[static_cast<size_t>(input)] == node.index ? inputLane : (inputLane + 1) % kMaxLanes;
            }
            laneOf[static_cast<size_t>(node.index)] = static_cast<uint8_t>(lane);
            node.lane = static_cast<uint8_t>(lane);
            stage.lanes = std::max(stage.lanes, lane + 1);
        }
        l.columns = std::max(l.columns, stage.count);
        l.stages.push_back(std::move(stage));
    }
    for (const auto& p : overview.pairs) {
        const auto a = slotOf.find(p.sendStage);
        const auto b = slotOf.find(p.recvStage);
        if (a == slotOf.end() || b == slotOf.end())
            continue;
        const Stage& sa = l.stages[a->second];
        const Stage& sb = l.stages[b->second];
        if (p.sendIndex >= 1 && p.sendIndex <= sa.count && p.recvIndex >= 1 && p.recvIndex <= sb.count)
            l.sendRecv.emplace_back(sa.first + static_cast<uint32_t>(p.sendIndex - 1),
                sb.first + static_cast<uint32_t>(p.recvIndex - 1));
    }
    // The edges into each node, by counting.
    l.inBegin.assign(l.nodes.size() + 1, 0);
    for (const auto& e : l.edges)
        ++l.inBegin[e.second + 1];
    for (size_t i = 0; i < l.nodes.size(); ++i)
        l.inBegin[i + 1] += l.inBegin[i];
    l.inEdges.resize(l.edges.size());
    {
        std::vector<uint32_t> next(l.inBegin.begin(), l.inBegin.end() - 1);
        for (uint32_t i = 0; i < l.edges.size(); ++i)
            l.inEdges[next[l.edges[i].second]++] = i;
    }
    // The scope tree: operators per scope, added to every prefix of its path; by depth, then path.
    std::vector<uint32_t> perScope(l.scopes.size(), 0);
    for (const auto& n : l.nodes)
        ++perScope[n.scope];
    std::map<std::string, uint32_t> counts;
    for (size_t i = 0; i < l.scopes.size(); ++i) {
        const std::string& path = l.scopes[i];
        for (size_t at = path.find('/');; at = path.find('/', at + 1)) {
            counts[path.substr(0, at)] += perScope[i];
            if (at == std::string::npos)
                break;
        }
    }
    for (auto& [path, operators] : counts)
        l.scopeTree.push_back({ path, operators });
    std::stable_sort(l.scopeTree.begin(), l.scopeTree.end(), [](const ScopeCount& a, const ScopeCount& b) {
        return std::count(a.path.begin(), a.path.end(), '/') < std::count(b.path.begin(), b.path.end(), '/');
    });
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

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/StrategyGraphQuery.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/model/ReadRow.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace npuscope::query {

namespace {

constexpr const char* kNodeColumns = "node_index, node_key, name, op_type, scope, instance_name, special, strategy, "
                                     "group_name, group_ranks, sr_tag, peer_rank, output_shape, output_type, inputs, "
                                     "attributes";

StrategyNode readNode(const model::Statement& st)
{
    StrategyNode n;
    int64_t special = 0;
    model::readRow(st, n.index, n.key, n.name, n.opType, n.scope, n.instanceName, special, n.strategy, n.groupName,
        n.groupRanks, n.srTag, n.peerRank, n.outputShape, n.outputType, n.inputs, n.attributes);
    n.special = static_cast<int>(special);
    return n;
}

// Each rank's stage as its file says (config.stageId; 0 when the file has none), and the rank holding each stage's
// graph (the lowest, when several do).
struct Layout {
    std::map<int64_t, int64_t> stageOf; // rank -> stage
    std::map<int64_t, int64_t> graphRank; // stage -> rank
    // rank -> stage as the files' stageDevices list them: the peers of Sends and Receives whose own file is missing or
    // unreadable (their stage's graph then comes from another rank).
    std::map<int64_t, int64_t> listedStage;

    std::optional<int64_t> stageOfPeer(int64_t rank) const
    {
        if (const auto it = stageOf.find(rank); it != stageOf.end())
            return it->second;
        if (const auto it = listedStage.find(rank); it != listedStage.end())
            return it->second;
        return std::nullopt;
    }
};

// parallel_strategy.stageDevices ("[[0,1],[2,3]]": stage i's ranks) into rank -> stage.
void readStageDevices(const std::string& text, std::map<int64_t, int64_t>& out)
{
    int depth = 0;
    int64_t stage = -1;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '[') {
            if (++depth == 2)
                ++stage;
        } else if (c == ']') {
            --depth;
        } else if (depth == 2 && (std::isdigit(static_cast<unsigned char>(c)) || c == '-')) {
            size_t end = i + 1;
            while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
                ++end;
            if (const auto rank = parseInt(std::string_view(text).substr(i, end - i)))
                out.emplace(*rank, stage);
            i = end - 1;
        }
    }
}

Layout layout(model::Database& db)
{
    Layout l;
    auto st = db.prepare("SELECT rank_id, MAX(CASE WHEN key = 'parallel_strategy.stageId' THEN value END) FROM rank_info "
                         "WHERE key IN ('parallel_strategy.stageId', 'parallel_strategy.nodeCount') GROUP BY rank_id");
    while (st.step())
        l.stageOf[st.int64(0)] = st.optInt(1).value_or(0);
    auto graphs = db.prepare("SELECT stage, MIN(rank_id) FROM strategy_node GROUP BY stage");
    while (graphs.step()) {
        l.graphRank[graphs.int64(0)] = graphs.int64(1);
        l.stageOf.emplace(graphs.int64(1), graphs.int64(0));
    }
    auto devices = db.prepare("SELECT value FROM rank_info WHERE key = 'parallel_strategy.stageDevices' AND value IS "
                              "NOT NULL ORDER BY rank_id");
    while (devices.step())
        readStageDevices(devices.text(0), l.listedStage);
    return l;
}

// The Send→Receive pairs of the stages' graph ranks (l: the stages of the ranks).
std::vector<SendRecvPair> pairsOf(model::Database& db, const Layout& l)
{
    // (send stage, receive stage, sr_tag) -> the Sends and the Receives, in execution order.
    std::map<std::tuple<int64_t, int64_t, int64_t>, std::pair<std::vector<int64_t>, std::vector<int64_t>>> ends;
    // The graph rank's nodes only: without stageDevices every rank of a stage keeps its graph, and their Sends would
    // count once per rank.
    auto st = db.prepare("SELECT n.stage, n.node_index, n.op_type, n.sr_tag, n.peer_rank FROM strategy_node n WHERE "
                         "n.op_type IN ('Send', 'Receive') AND n.sr_tag IS NOT NULL AND n.peer_rank IS NOT NULL AND "
                         "n.rank_id = (SELECT MIN(rank_id) FROM strategy_node s WHERE s.stage = n.stage) "
                         "ORDER BY n.stage, n.node_index");
    while (st.step()) {
        const int64_t stage = st.int64(0);
        const auto peer = l.stageOfPeer(st.int64(4));
        if (!peer || *peer == stage)
            continue;
        if (st.text(2) == "Send")
            ends[{ stage, *peer, st.int64(3) }].first.push_back(st.int64(1));
        else
            ends[{ *peer, stage, st.int64(3) }].second.push_back(st.int64(1));
    }
    std::vector<SendRecvPair> pairs;
    for (const auto& [key, sides] : ends) {
        const auto& [sendStage, recvStage, tag] = key;
        for (size_t i = 0; i < std::min(sides.first.size(), sides.second.size()); ++i)
            pairs.push_back({ sendStage, sides.first[i], recvStage, sides.second[i], tag });
    }
    std::sort(pairs.begin(), pairs.end(), [](const SendRecvPair& a, const SendRecvPair& b) {
        return std::tie(a.sendStage, a.sendIndex, a.recvStage) < std::tie(b.sendStage, b.sendIndex, b.recvStage);
    });
    return pairs;
}

} // namespace

std::vector<StrategyStage> StrategyGraphQuery::stages(model::Database& db) { return overview(db).stages; }

std::vector<SendRecvPair> StrategyGraphQuery::sendRecvPairs(model::Database& db) { return pairsOf(db, layout(db)); }

StrategyOverview StrategyGraphQuery::overview(model::Database& db)
{
    const Layout l = layout(db);
    StrategyOverview out;
    out.pairs = pairsOf(db, l);
    std::map<int64_t, StrategyStage> byStage;
    for (const auto& [rank, stage] : l.stageOf) {
        auto& s = byStage[stage];
        s.stage = stage;
        s.ranks.push_back(rank);
    }
    for (const auto& [stage, rank] : l.graphRank) {
        auto& s = byStage[stage];
        s.graphRank = rank;
        auto counts = db.prepare("SELECT COUNT(*), SUM(special & 1 <> 0), SUM(special & 2 <> 0), SUM(special & 4 <> 0) "
                                 "FROM strategy_node WHERE rank_id = ?1 AND stage = ?2");
        counts.bind(1, rank);
        counts.bind(2, stage);
        if (counts.step()) {
            s.nodes = counts.int64(0);
            s.strategyOps = counts.optInt(1).value_or(0);
            s.redistributionOps = counts.optInt(2).value_or(0);
            s.gradAggregationOps = counts.optInt(3).value_or(0);
        }
        auto edges = db.prepare("SELECT COUNT(*) FROM strategy_edge WHERE rank_id = ?1");
        edges.bind(1, rank);
        if (edges.step())
            s.edges = edges.int64(0);
    }
    for (const auto& pair : out.pairs)
        ++byStage[pair.sendStage].sendRecvPairs;
    for (auto& [stage, s] : byStage)
        out.stages.push_back(std::move(s));
    return out;
}

std::optional<StrategyNode> StrategyGraphQuery::node(model::Database& db, int64_t stage, int64_t index)
{
    auto st = db.prepare(std::string("SELECT ") + kNodeColumns
        + " FROM strategy_node WHERE stage = ?1 AND node_index = ?2 AND rank_id = (SELECT MIN(rank_id) FROM "
          "strategy_node WHERE stage = ?1)");
    st.bind(1, stage);
    st.bind(2, index);
    if (!st.step())
        return std::nullopt;
    return readNode(st);
}

std::string StrategyGraphQuery::kernelName(
    model::Database& db, const std::string& fullName, std::optional<int64_t> rank)
{
    const auto slash = fullName.rfind('/');
    const std::string last = slash == std::string::npos ? fullName : fullName.substr(slash + 1);
    if (last == fullName)
        return last;
    // The string's id first (the kernel table has no index on name_id; its rank index narrows the scan).
    auto id = db.prepare("SELECT id FROM string WHERE value = ?1");
    id.bind(1, fullName);
    if (!id.step())
        return last;
    auto used = db.prepare("SELECT EXISTS (SELECT 1 FROM kernel WHERE name_id = ?1 AND (?2 IS NULL OR rank_id = ?2))");
    used.bind(1, id.int64(0)).bind(2, rank);
    return used.step() && used.int64(0) ? fullName : last;
}

std::vector<StrategyNode> StrategyGraphQuery::specialOps(model::Database& db, int64_t stage)
{
    std::vector<StrategyNode> out;
    const Layout l = layout(db);
    const auto it = l.graphRank.find(stage);
    if (it == l.graphRank.end())
        return out;
    auto st = db.prepare(std::string("SELECT ") + kNodeColumns
        + " FROM strategy_node WHERE rank_id = ?1 AND stage = ?2 AND special <> 0 ORDER BY node_index");
    st.bind(1, it->second);
    st.bind(2, stage);
    while (st.step())
        out.push_back(readNode(st));
    return out;
}

} // namespace npuscope::query

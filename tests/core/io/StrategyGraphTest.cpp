// SPDX-License-Identifier: Apache-2.0
// MindSpore parallel_strategy_{rank}.json graphs (issue 39): strategy_node / strategy_edge against an independent
// reading of the files (nlohmann::json here, the importer reads them with simdjson), the stages and the Send→Receive
// pairs that join them, and bad input.
#include "TestSupport.h"

#include "npuscope/model/ModelWriter.h"
#include "npuscope/query/StrategyGraphLayout.h"
#include "npuscope/query/StrategyGraphQuery.h"
#include "npuscope/query/StrategyReport.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <tuple>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::count;
using npuscope::test::dataDir;
using npuscope::test::openFolder;
using npuscope::test::ScratchDir;

namespace {

nlohmann::json readJson(const fs::path& p)
{
    std::ifstream in(p);
    return nlohmann::json::parse(in);
}

// What a file says, read here on its own: the operator nodes (a name and a fullName) in order, their special bits by
// MindInsight's rules, and the edges (inputs naming an operator node).
struct Expected {
    std::vector<std::tuple<std::string, std::string, std::string, int>> nodes; // fullName, opType, scope, special
    std::multiset<std::tuple<int64_t, int64_t>> edges;
    std::vector<std::tuple<std::string, int64_t, int64_t, int64_t>> sendRecv; // opType, index, sr_tag, peer
};

Expected expectedOf(const nlohmann::json& file)
{
    Expected e;
    std::map<std::string, int64_t> indexOf;
    for (const auto& n : file["graph"]["node"]) {
        if (n.value("name", "").empty() || n.value("fullName", "").empty())
            continue;
        indexOf[n["name"]] = static_cast<int64_t>(indexOf.size()) + 1;
    }
    for (const auto& n : file["graph"]["node"]) {
        if (!indexOf.count(n.value("name", "")) || n.value("fullName", "").empty())
            continue;
        const int64_t index = indexOf[n["name"]];
        int special = 0;
        std::optional<int64_t> tag, peer;
        for (const auto& a : n.value("attribute", nlohmann::json::array())) {
            if (a["name"] == "in_strategy" || a["name"] == "gen_strategy")
                special |= 1;
            if (a["name"] == "sr_tag")
                tag = std::stoll(a["value"]["intVal"].get<std::string>());
            if (a["name"] == (n["opType"] == "Send" ? "dest_rank" : "src_rank"))
                peer = std::stoll(a["value"]["intVal"].get<std::string>());
        }
        const std::string instance = n.value("instanceName", "");
        if (instance.find("grad_mirror") != std::string::npos)
            special |= 4;
        else if (instance.find("redistribution") != std::string::npos)
            special |= 2;
        e.nodes.emplace_back(n["fullName"], n["opType"], n.value("scope", ""), special);
        for (const auto& in : n.value("input", nlohmann::json::array())) {
            if (const auto it = indexOf.find(in["name"]); it != indexOf.end())
                e.edges.emplace(it->second, index);
        }
        if ((n["opType"] == "Send" || n["opType"] == "Receive") && tag && peer)
            e.sendRecv.emplace_back(n["opType"], index, *tag, *peer);
    }
    return e;
}

void expectGraphEquals(model::Database& db, int64_t rank, const Expected& e)
{
    const auto nodes = test::rows(db,
        "SELECT name || '|' || op_type || '|' || scope || '|' || special FROM strategy_node WHERE rank_id = "
            + std::to_string(rank) + " ORDER BY node_index");
    ASSERT_EQ(nodes.size(), e.nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
        const auto& [name, type, scope, special] = e.nodes[i];
        EXPECT_EQ(nodes[i], name + "|" + type + "|" + scope + "|" + std::to_string(special)) << "node " << i + 1;
    }
    std::multiset<std::tuple<int64_t, int64_t>> edges;
    auto st = db.prepare("SELECT src_index, dst_index FROM strategy_edge WHERE rank_id = ?1");
    st.bind(1, rank);
    while (st.step())
        edges.emplace(st.int64(0), st.int64(1));
    EXPECT_EQ(edges, e.edges);
}

} // namespace

// The real two-rank sample (MindInsight's test resource): one stage of ranks 0 and 1; rank 0's graph is kept, equal
// to the file node for node and edge for edge; both ranks' config facts are there.
TEST(StrategyGraph, RealSampleEqualsAnIndependentReading)
{
    const fs::path dir = dataDir() / "mindinsight_parallel_strategy";
    auto db = openFolder(dir);
    ASSERT_TRUE(db);
    const Expected e = expectedOf(readJson(dir / "parallel_strategy_0.json"));
    ASSERT_EQ(e.nodes.size(), 2u);
    expectGraphEquals(*db, 0, e);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM strategy_node WHERE rank_id = 1"), 0); // same stage: one graph
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank_info WHERE key = 'parallel_strategy.nodeCount'"), 2);
    EXPECT_EQ(
        test::text(*db, "SELECT strategy FROM strategy_node WHERE op_type = 'Conv2D'"), "[[2, 1, 1, 1], [1, 1, 1, 1]]");
    // Input "1000" names no node of the file: in inputs, not an edge.
    EXPECT_EQ(test::text(*db, "SELECT inputs FROM strategy_node WHERE op_type = 'Conv2D'"), "1,1000");
    EXPECT_EQ(test::text(*db, "SELECT output_type FROM strategy_node WHERE op_type = 'GetNext'"),
        "DT_TUPLE[DT_TENSOR[DT_FLOAT32], DT_TENSOR[DT_INT32]]");
    EXPECT_EQ(test::text(*db, "SELECT output_shape FROM strategy_node WHERE op_type = 'GetNext'"),
        "[[32, 3, 224, 224], [32]]");
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM strategy_node WHERE group_name IS NOT NULL"), 0); // Conv2D group 0
    auto guard = db->lock();
    const auto stages = query::StrategyGraphQuery::stages(*db);
    ASSERT_EQ(stages.size(), 1u);
    EXPECT_EQ(stages[0].ranks, (std::vector<int64_t> { 0, 1 }));
    EXPECT_EQ(stages[0].graphRank, 0);
    EXPECT_EQ(stages[0].nodes, 2);
    EXPECT_EQ(stages[0].edges, 1);
    EXPECT_EQ(stages[0].strategyOps, 1);
    const auto json = query::StrategyReport::json(*db);
    EXPECT_EQ(json["schema"], "npuscope.strategy/1");
    EXPECT_EQ(json["stages"][0]["special_ops"][0]["kinds"][0], "strategy");
}

// A generated 4-stage MindSpore job: every stage's graph (the first rank's) equals its file; the stages are joined by
// a forward (sr_tag 0) and a backward (sr_tag 1) pair between neighbours, re-derived here from the files' Send and
// Receive nodes; the special operators are counted as the files mark them.
TEST(StrategyGraph, GeneratedStagesJoinBySendAndReceive)
{
    ScratchDir scratch;
    testgen::GeneratorOptions o;
    o.outDir = (scratch.path() / "job").string();
    o.ranks = 8;
    o.pp = 4;
    o.tp = 2;
    o.steps = 1;
    o.traceMb = 0;
    o.format = testgen::OutputFormat::MindSpore;
    o.strategyNodes = 300;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    auto db = openFolder(o.outDir);
    ASSERT_TRUE(db);
    std::map<int64_t, Expected> byStage;
    for (const auto& entry : fs::directory_iterator(o.outDir)) {
        if (!entry.is_directory())
            continue;
        for (const auto& f : fs::directory_iterator(entry.path())) {
            const std::string name = f.path().filename().string();
            if (name.rfind("parallel_strategy_", 0) != 0)
                continue;
            const auto json = readJson(f.path());
            const int64_t rank = json["config"]["rankId"];
            if (rank % 2 == 0) // the first rank of each stage (tp 2, dp 1)
                byStage[json["config"]["stageId"].get<int64_t>()] = expectedOf(json);
        }
    }
    ASSERT_EQ(byStage.size(), 4u);
    for (const auto& [stage, e] : byStage)
        expectGraphEquals(*db, stage * 2, e);
    // Pairs by the rule of docs/metrics.md: a Send of stage A to a rank of stage B and a Receive of stage B from a
    // rank of stage A with the same sr_tag.
    std::set<std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>> expected;
    for (const auto& [sendStage, e] : byStage) {
        for (const auto& [type, index, tag, peer] : e.sendRecv) {
            if (type != "Send")
                continue;
            const int64_t recvStage = peer / 2;
            for (const auto& [rtype, rindex, rtag, rpeer] : byStage[recvStage].sendRecv) {
                if (rtype == "Receive" && rtag == tag && rpeer / 2 == sendStage)
                    expected.emplace(sendStage, index, recvStage, rindex, tag);
            }
        }
    }
    EXPECT_EQ(expected.size(), 6u); // three neighbour pairs, forward and backward
    auto guard = db->lock();
    std::set<std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>> pairs;
    for (const auto& p : query::StrategyGraphQuery::sendRecvPairs(*db))
        pairs.emplace(p.sendStage, p.sendIndex, p.recvStage, p.recvIndex, p.srTag);
    EXPECT_EQ(pairs, expected);
    // The layout joins the same pairs (computed once with the stages: overview), at the positions of their nodes.
    const auto overview = query::StrategyGraphQuery::overview(*db);
    EXPECT_EQ(overview.pairs.size(), expected.size());
    int64_t perStage = 0;
    for (const auto& s : overview.stages)
        perStage += s.sendRecvPairs;
    EXPECT_EQ(perStage, static_cast<int64_t>(expected.size()));
    const auto layout = query::StrategyGraphLayout::build(*db);
    std::set<std::tuple<int64_t, int64_t, int64_t, int64_t>> drawn;
    for (const auto& [send, recv] : layout.sendRecv) {
        const auto& a = layout.nodes[send];
        const auto& b = layout.nodes[recv];
        EXPECT_EQ(layout.types[a.type], "Send");
        EXPECT_EQ(layout.types[b.type], "Receive");
        drawn.emplace(layout.stages[a.stageSlot].stage, a.index, layout.stages[b.stageSlot].stage, b.index);
    }
    std::set<std::tuple<int64_t, int64_t, int64_t, int64_t>> wanted;
    for (const auto& [sendStage, sendIndex, recvStage, recvIndex, tag] : expected)
        wanted.emplace(sendStage, sendIndex, recvStage, recvIndex);
    EXPECT_EQ(drawn, wanted);
    for (const auto& s : query::StrategyGraphQuery::stages(*db)) {
        const Expected& e = byStage[s.stage];
        int64_t strategy = 0, redistribution = 0, grad = 0;
        for (const auto& n : e.nodes) {
            strategy += (std::get<3>(n) & 1) != 0;
            redistribution += (std::get<3>(n) & 2) != 0;
            grad += (std::get<3>(n) & 4) != 0;
        }
        EXPECT_EQ(s.ranks, (std::vector<int64_t> { s.stage * 2, s.stage * 2 + 1 }));
        EXPECT_EQ(s.strategyOps, strategy);
        EXPECT_EQ(s.redistributionOps, redistribution);
        EXPECT_EQ(s.gradAggregationOps, grad);
        EXPECT_GT(strategy, 0);
        EXPECT_GT(redistribution, 0);
        EXPECT_GT(grad, 0);
    }
}

// A file whose config is fine but whose graph is not an array of nodes keeps its facts and says why the graph is
// empty; a truncated file is an error naming it; the other rank still loads.
TEST(StrategyGraph, BadGraphsAreNamedAndTheRestLoads)
{
    ScratchDir scratch;
    const fs::path dir = scratch.path() / "job";
    fs::create_directories(dir);
    const std::string config = R"({"config":{"rankId":0,"stageId":0,"parallelType":"auto_parallel"},)";
    test::writeFile(dir / "parallel_strategy_0.json", config + R"("graph":{"node":5}})");
    const std::string good = test::readFile(dataDir() / "mindinsight_parallel_strategy" / "parallel_strategy_1.json");
    test::writeFile(dir / "parallel_strategy_1.json", good);
    test::writeFile(dir / "parallel_strategy_2.json", good.substr(0, good.size() / 2));
    auto db = openFolder(dir);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE file LIKE '%parallel_strategy_0.json' AND message "
                  "LIKE '%no graph.node array%'"),
        1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank_info WHERE rank_id = 0 AND key = 'parallel_strategy.stageId'"), 1);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error' AND file LIKE "
                  "'%parallel_strategy_2.json'"),
        1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM strategy_node WHERE rank_id = 2"), 0);
    // Rank 1's file is fine: its facts are loaded. Its stageDevices names rank 0 as the stage's first rank, whose graph
    // is unreadable here: stage 0 takes rank 1's graph instead, and an info issue says so.
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM rank_info WHERE rank_id = 1 AND key = 'parallel_strategy.nodeCount' "
                  "AND value = '2'"),
        1);
    expectGraphEquals(*db, 1, expectedOf(readJson(dir / "parallel_strategy_1.json")));
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'info' AND file LIKE "
                  "'%parallel_strategy_1.json' AND message LIKE 'stage 0''s graph is read from this rank''s file%'"),
        1);
    auto guard = db->lock();
    const auto stages = query::StrategyGraphQuery::stages(*db);
    ASSERT_EQ(stages.size(), 1u);
    EXPECT_EQ(stages[0].graphRank, 1);
    EXPECT_EQ(stages[0].nodes, 2);
}

// A stage whose first rank's file is missing (stage 1: rank 2) or unreadable (stage 2: rank 4, cut in half) takes the
// graph of the next rank of the stage (3, 5), equal to that file; the Send→Receive pairs still join every stage; the
// stages whose first rank is fine keep it.
TEST(StrategyGraph, AStageFallsBackToTheNextRankWithAGraph)
{
    ScratchDir scratch;
    testgen::GeneratorOptions o;
    o.outDir = (scratch.path() / "job").string();
    o.ranks = 8;
    o.pp = 4;
    o.tp = 2;
    o.steps = 1;
    o.traceMb = 0;
    o.format = testgen::OutputFormat::MindSpore;
    o.strategyNodes = 300;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    std::map<int64_t, fs::path> fileOf;
    for (const auto& entry : fs::recursive_directory_iterator(o.outDir)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("parallel_strategy_", 0) == 0)
            fileOf[std::stoll(name.substr(18))] = entry.path();
    }
    ASSERT_EQ(fileOf.size(), 8u);
    const Expected rank3 = expectedOf(readJson(fileOf[3]));
    const Expected rank5 = expectedOf(readJson(fileOf[5]));
    fs::remove(fileOf[2]);
    const std::string cut = test::readFile(fileOf[4]);
    test::writeFile(fileOf[4], cut.substr(0, cut.size() / 2));
    auto db = openFolder(o.outDir);
    ASSERT_TRUE(db);
    expectGraphEquals(*db, 3, rank3);
    expectGraphEquals(*db, 5, rank5);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM strategy_node WHERE rank_id IN (2, 4)"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(DISTINCT rank_id) FROM strategy_node"), 4);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'info' AND message LIKE 'stage _''s graph is "
                  "read from this rank''s file%'"),
        2);
    auto guard = db->lock();
    const auto overview = query::StrategyGraphQuery::overview(*db);
    ASSERT_EQ(overview.stages.size(), 4u);
    const int64_t graphRanks[] { 0, 3, 5, 6 };
    for (size_t s = 0; s < 4; ++s) {
        EXPECT_EQ(overview.stages[s].graphRank, graphRanks[s]) << "stage " << s;
        EXPECT_GT(overview.stages[s].nodes, 0) << "stage " << s;
    }
    EXPECT_EQ(overview.pairs.size(), 6u);
}

// The config's scalars are kept as written: strings unescaped, integers printed again, other numbers as written,
// true / false / null; stageDevices per stage; the node count counts graph.node objects.
TEST(StrategyGraph, ConfigScalarsAreKeptAsWritten)
{
    ScratchDir scratch;
    const fs::path dir = scratch.path() / "job";
    fs::create_directories(dir);
    test::writeFile(dir / "parallel_strategy_0.json",
        R"({"config":{"rankId":0,"stageId":0,"parallelType":"semi\u005fauto \"x\"","ratio":1.50,"neg":-3,)"
        R"("big":18446744073709551615,"on":true,"off":false,"none":null,"list":[1,2],)"
        R"("stageDevices":[{"dim":[{"size":"0"},{"size":1}]},{"dim":[{"size":"2"}]}]},)"
        R"("graph":{"node":[{"name":"1","opType":"A","fullName":"s/A-op1"},7,{"name":"2","opType":"B"}]}})");
    auto db = openFolder(dir);
    ASSERT_TRUE(db);
    const auto fact = [&](const std::string& key) {
        return test::text(
            *db, "SELECT value FROM rank_info WHERE rank_id = 0 AND key = 'parallel_strategy." + key + "'");
    };
    EXPECT_EQ(fact("parallelType"), "semi_auto \"x\"");
    EXPECT_EQ(fact("ratio"), "1.50");
    EXPECT_EQ(fact("neg"), "-3");
    EXPECT_EQ(fact("big"), "18446744073709551615");
    EXPECT_EQ(fact("on"), "true");
    EXPECT_EQ(fact("off"), "false");
    EXPECT_EQ(fact("none"), "null");
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank_info WHERE key = 'parallel_strategy.list'"), 0);
    EXPECT_EQ(fact("stageDevices"), "[[0,1],[2]]");
    EXPECT_EQ(fact("stageCount"), "2");
    EXPECT_EQ(fact("nodeCount"), "2");
    EXPECT_EQ(fact("graphNodes"), "1");
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
}

// An outputType of an unexpected shape (a tensor without tensorType) is read as far as it goes, never thrown out of
// the importer half way.
TEST(StrategyGraph, AnUnexpectedOutputTypeLeavesNoHalfGraph)
{
    ScratchDir scratch;
    const fs::path dir = scratch.path() / "job";
    fs::create_directories(dir);
    test::writeFile(dir / "parallel_strategy_0.json",
        R"({"config":{"rankId":0,"stageId":0},"graph":{"node":[)"
        R"({"name":"1","opType":"A","scope":"s","fullName":"s/A-op1","outputType":{"dataType":"DT_TENSOR"}},)"
        R"({"name":"2","opType":"B","scope":"s","fullName":"s/B-op2","input":[{"name":"1"}]}]}})");
    auto db = openFolder(dir);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM strategy_node"), 2);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM strategy_edge"), 1);
    EXPECT_EQ(test::text(*db, "SELECT output_type FROM strategy_node WHERE node_index = 1"), "DT_TENSOR[]");
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
}

// The name a node's operator goes by in the other views: the full name when the rank's kernel rows carry it (MindSpore
// 2.x kernel_details, as the FLOPs files name operators), else its last part.
TEST(StrategyGraph, KernelNameIsTheFullNameWhenTheKernelsCarryIt)
{
    auto db = openFolder(dataDir() / "mindinsight_parallel_strategy");
    ASSERT_TRUE(db);
    const std::string full = test::text(*db, "SELECT name FROM strategy_node WHERE op_type = 'Conv2D'");
    const std::string last = full.substr(full.rfind('/') + 1);
    ASSERT_NE(full, last);
    {
        auto guard = db->lock();
        EXPECT_EQ(query::StrategyGraphQuery::kernelName(*db, full, 0), last);
        model::ModelWriter w(*db);
        w.begin();
        model::KernelRow k;
        k.rankId = 0;
        k.name = full;
        k.type = "Conv2D";
        k.ts = 1000;
        k.dur = 10;
        w.addKernel(k);
        w.commit();
    }
    auto guard = db->lock();
    EXPECT_EQ(query::StrategyGraphQuery::kernelName(*db, full, 0), full);
    EXPECT_EQ(query::StrategyGraphQuery::kernelName(*db, full, std::nullopt), full);
    EXPECT_EQ(query::StrategyGraphQuery::kernelName(*db, full, 1), last); // rank 1's kernels do not
    EXPECT_EQ(query::StrategyGraphQuery::kernelName(*db, "NoScope-op1", 0), "NoScope-op1");
}

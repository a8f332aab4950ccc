// SPDX-License-Identifier: Apache-2.0
// Communication analysis figures checked against the files they come from.
#include "CommSqlOracle.h"
#include "TestSupport.h"

#include "npuscope/testgen/ClusterGenerator.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/StepQuery.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <set>

namespace fs = std::filesystem;
using namespace npuscope;
using namespace npuscope::query;
using nlohmann::json;

namespace {

std::unique_ptr<model::Database> openModel(const fs::path& path)
{
    return load::Loader::load(io::Detector::detect({ path.string() }), load::LoadOptions {});
}

json readJson(const fs::path& p)
{
    std::ifstream in(p);
    return json::parse(in);
}

// communication.json of the rank folder "rank<r>_ascend_pt" (or "rank<r>_..." for generated ones).
fs::path rankFile(const fs::path& root, int rank, const char* file)
{
    const std::string prefix = "rank" + std::to_string(rank) + "_";
    for (const auto& e : fs::directory_iterator(root)) {
        if (e.path().filename().string().rfind(prefix, 0) == 0)
            return e.path() / "ASCEND_PROFILER_OUTPUT" / file;
    }
    return {};
}

struct FileSums {
    double elapse = 0, transit = 0, wait = 0, sync = 0, idle = 0; // ms
    double sdmaSize = 0, sdmaTime = 0, rdmaSize = 0, rdmaTime = 0;
    int ops = 0;
    std::map<std::string, int64_t> packets; // transport -> Σ count
};

// Sums over the non-total ops of one step (all steps when step < 0), optionally one group / op.
FileSums sumFile(const json& comm, int step, const std::string& group = {}, const std::string& opName = {})
{
    FileSums s;
    for (const auto& [stepKey, kinds] : comm.items()) {
        if (step >= 0 && stepKey != "step" + std::to_string(step))
            continue;
        for (const auto& [kind, ops] : kinds.items()) {
            for (const auto& [key, op] : ops.items()) {
                if (key == "Total Op Info")
                    continue;
                const auto at = key.find('@');
                if (!group.empty() && (at == std::string::npos || key.substr(at + 1) != group))
                    continue;
                if (!opName.empty() && key.substr(0, at) != opName)
                    continue;
                const auto& t = op["Communication Time Info"];
                s.elapse += t["Elapse Time(ms)"].get<double>();
                s.transit += t["Transit Time(ms)"].get<double>();
                s.wait += t["Wait Time(ms)"].get<double>();
                s.sync += t["Synchronization Time(ms)"].get<double>();
                s.idle += t["Idle Time(ms)"].get<double>();
                ++s.ops;
                for (const auto& [transport, b] : op["Communication Bandwidth Info"].items()) {
                    if (transport == "SDMA") {
                        s.sdmaSize += b["Transit Size(MB)"].get<double>();
                        s.sdmaTime += b["Transit Time(ms)"].get<double>();
                    } else if (transport == "RDMA") {
                        s.rdmaSize += b["Transit Size(MB)"].get<double>();
                        s.rdmaTime += b["Transit Time(ms)"].get<double>();
                    }
                    if (b.contains("Size Distribution")) {
                        for (const auto& [size, entry] : b["Size Distribution"].items())
                            s.packets[transport] += entry[0].get<int64_t>();
                    }
                }
            }
        }
    }
    return s;
}

double ms(int64_t ns) { return static_cast<double>(ns) / 1.0e6; }

// The file's ms values become integer ns: 1 ns per op of rounding.
void expectDurationsMatch(const RankDuration& d, const FileSums& f)
{
    const double tol = 1e-6 * (f.ops + 1);
    EXPECT_EQ(d.opCount, f.ops);
    EXPECT_NEAR(ms(d.elapseNs), f.elapse, tol);
    EXPECT_NEAR(ms(d.transitNs), f.transit, tol);
    EXPECT_NEAR(ms(d.waitNs), f.wait, tol);
    EXPECT_NEAR(ms(d.syncNs), f.sync, tol);
    EXPECT_NEAR(ms(d.idleNs), f.idle, tol);
    ASSERT_TRUE(d.waitRatio.has_value());
    EXPECT_NEAR(*d.waitRatio, f.wait / (f.wait + f.transit), 1e-6);
    ASSERT_TRUE(d.syncRatio.has_value());
    EXPECT_NEAR(*d.syncRatio, f.sync / (f.sync + f.transit), 1e-6);
    EXPECT_NEAR(d.sdmaSizeMb, f.sdmaSize, 1e-9 * (1 + f.sdmaSize));
    if (f.sdmaTime > 0) {
        ASSERT_TRUE(d.sdmaBandwidthGbps.has_value());
        EXPECT_NEAR(*d.sdmaBandwidthGbps, f.sdmaSize / f.sdmaTime, 1e-6 * (1 + f.sdmaSize / f.sdmaTime));
    } else {
        EXPECT_FALSE(d.sdmaBandwidthGbps.has_value());
    }
    if (f.rdmaTime > 0) {
        ASSERT_TRUE(d.rdmaBandwidthGbps.has_value());
        EXPECT_NEAR(*d.rdmaBandwidthGbps, f.rdmaSize / f.rdmaTime, 1e-6 * (1 + f.rdmaSize / f.rdmaTime));
    } else {
        EXPECT_FALSE(d.rdmaBandwidthGbps.has_value());
    }
}

class RealSample : public ::testing::TestWithParam<const char*> { };

} // namespace

TEST_P(RealSample, DurationTableEqualsCommunicationJson)
{
    const fs::path root = test::dataDir() / GetParam();
    auto db = openModel(root);
    ASSERT_TRUE(db);
    for (std::optional<int64_t> step : { std::optional<int64_t>(), std::optional<int64_t>(50) }) {
        CommSelection sel;
        sel.step = step;
        const auto rows = CommAnalysisQuery::durations(*db, sel);
        ASSERT_EQ(rows.size(), 2u);
        for (const auto& d : rows) {
            SCOPED_TRACE("rank " + std::to_string(d.rank));
            const json comm = readJson(rankFile(root, static_cast<int>(d.rank), "communication.json"));
            expectDurationsMatch(d, sumFile(comm, step ? static_cast<int>(*step) : -1));
        }
    }
}

TEST_P(RealSample, SingleOpRatiosEqualTheFile)
{
    const fs::path root = test::dataDir() / GetParam();
    auto db = openModel(root);
    ASSERT_TRUE(db);
    const json comm = readJson(rankFile(root, 0, "communication.json"));
    int checked = 0;
    for (const auto& [key, op] : comm["step50"]["collective"].items()) {
        if (key == "Total Op Info")
            continue;
        CommSelection sel;
        sel.step = 50;
        sel.opName = key.substr(0, key.find('@'));
        const auto rows = CommAnalysisQuery::durations(*db, sel);
        auto it = std::find_if(rows.begin(), rows.end(), [](const RankDuration& d) { return d.rank == 0; });
        ASSERT_NE(it, rows.end());
        EXPECT_EQ(it->opCount, 1);
        // The file rounds its ratios to 4 decimals.
        EXPECT_NEAR(*it->waitRatio, op["Communication Time Info"]["Wait Time Ratio"].get<double>(), 5.1e-5) << key;
        EXPECT_NEAR(*it->syncRatio, op["Communication Time Info"]["Synchronization Time Ratio"].get<double>(), 5.1e-5)
            << key;
        const auto& sdma = op["Communication Bandwidth Info"]["SDMA"];
        if (sdma["Transit Time(ms)"].get<double>() > 0) {
            EXPECT_NEAR(*it->sdmaBandwidthGbps, sdma["Bandwidth(GB/s)"].get<double>(), 5.1e-5) << key;
        }
        ++checked;
    }
    EXPECT_GE(checked, 4);
}

TEST_P(RealSample, PacketCountsEqualSizeDistribution)
{
    const fs::path root = test::dataDir() / GetParam();
    auto db = openModel(root);
    ASSERT_TRUE(db);
    for (int rank : { 0, 1 }) {
        const FileSums f = sumFile(readJson(rankFile(root, rank, "communication.json")), -1);
        const auto dists = CommAnalysisQuery::packets(*db, {}, rank);
        std::map<std::string, int64_t> got;
        for (const auto& d : dists) {
            got[d.transport] = d.packets;
            int64_t sum = 0;
            for (const auto& b : d.bins)
                sum += b.count;
            EXPECT_EQ(sum, d.packets);
            ASSERT_TRUE(d.largePacketRatio.has_value()) << d.transport;
            EXPECT_GE(*d.largePacketRatio, 0.0);
            EXPECT_LE(*d.largePacketRatio, 1.0);
        }
        std::map<std::string, int64_t> expected;
        for (const auto& [t, n] : f.packets) {
            if (n > 0)
                expected[t] = n;
        }
        EXPECT_EQ(got, expected);
    }
}

TEST_P(RealSample, MatrixCellsEqualTheMatrixFileWithGlobalRanks)
{
    const fs::path root = test::dataDir() / GetParam();
    auto db = openModel(root);
    ASSERT_TRUE(db);
    CommSelection sel;
    sel.step = 50;
    const CommMatrix m = CommAnalysisQuery::matrix(*db, sel);
    ASSERT_FALSE(m.cells.empty());
    std::map<std::pair<int64_t, int64_t>, const MatrixCell*> byPair;
    for (const auto& c : m.cells)
        byPair[{ c.src, c.dst }] = &c;
    int checked = 0;
    for (int rank : { 0, 1 }) {
        const json matrix = readJson(rankFile(root, rank, "communication_matrix.json"));
        // Summed over every op type's total slot: here one op type (allreduce) in one group whose
        // local ranks equal the global ones (self links k-k written by rank k).
        for (const auto& [opKey, links] : matrix["step50"]["collective"].items()) {
            if (opKey.find("-total@") == std::string::npos)
                continue;
            for (const auto& [pair, link] : links.items()) {
                const auto dash = pair.find('-');
                const int64_t src = std::stoll(pair.substr(0, dash));
                const int64_t dst = std::stoll(pair.substr(dash + 1));
                EXPECT_EQ(src, rank) << "each rank writes its own src links";
                auto it = byPair.find({ src, dst });
                ASSERT_NE(it, byPair.end()) << pair;
                const MatrixCell& c = *it->second;
                EXPECT_NEAR(c.sizeMb, link["Transit Size(MB)"].get<double>(), 1e-9);
                EXPECT_NEAR(ms(c.timeNs), link["Transit Time(ms)"].get<double>(), 1e-6);
                EXPECT_EQ(c.transport, link["Transport Type"].get<std::string>());
                EXPECT_NEAR(*c.bandwidthGbps(), link["Bandwidth(GB/s)"].get<double>(), 1e-3);
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 16);
    EXPECT_EQ(m.ranks.size(), 8u);
    ASSERT_TRUE(m.slowestCell.has_value());
    EXPECT_NE(m.cells[*m.slowestCell].transport, "LOCAL");

    // One concrete op: its links come from the slot entries that name it.
    CommSelection one = sel;
    one.opName = "hcom_allReduce__586_0_1";
    if (std::string(GetParam()).find("level2") != std::string::npos)
        one.opName = "hcom_allReduce__271_0_1";
    const CommMatrix opMatrix = CommAnalysisQuery::matrix(*db, one);
    EXPECT_FALSE(opMatrix.cells.empty());
    for (const auto& c : opMatrix.cells)
        EXPECT_EQ(c.opName, *one.opName);
}

TEST_P(RealSample, TimeOverviewFromStepsAndOps)
{
    const fs::path root = test::dataDir() / GetParam();
    auto db = openModel(root);
    ASSERT_TRUE(db);
    const TimeOverview t = CommAnalysisQuery::timeOverview(*db);
    ASSERT_EQ(t.steps.size(), 1u);
    const auto& s = t.steps[0];
    EXPECT_EQ(s.step, 50);
    EXPECT_EQ(s.ranks, 2);
    std::vector<int64_t> walls;
    for (const auto& b : StepQuery::breakdown(*db, 50))
        walls.push_back(*b.wallTime());
    ASSERT_EQ(walls.size(), 2u);
    EXPECT_EQ(s.minNs, std::min(walls[0], walls[1]));
    EXPECT_EQ(s.maxNs, std::max(walls[0], walls[1]));
    EXPECT_EQ(s.medianNs, (walls[0] + walls[1]) / 2);
    ASSERT_TRUE(t.slowestRank.has_value());
    EXPECT_EQ(*s.slowestRankNs, s.maxNs);
    CommSelection sel;
    sel.step = 50;
    const auto rows = CommAnalysisQuery::durations(*db, sel);
    double comm = 0, wait = 0;
    for (const auto& d : rows) {
        comm += static_cast<double>(d.elapseNs);
        wait += static_cast<double>(d.waitNs);
    }
    EXPECT_DOUBLE_EQ(*s.meanCommNs, comm / 2);
    EXPECT_DOUBLE_EQ(*s.meanWaitNs, wait / 2);
}

INSTANTIATE_TEST_SUITE_P(
    CommAnalysis, RealSample, ::testing::Values("torch_npu_2rank_level1", "torch_npu_2rank_level2"));

namespace {

class GeneratedCluster : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_dir = new test::ScratchDir;
        testgen::GeneratorOptions o;
        o.outDir = (s_dir->path() / "c").string();
        o.ranks = 32;
        o.pp = 2;
        o.tp = 4;
        o.dp = 4;
        o.steps = 2;
        o.traceMb = 0;
        o.slowLink = std::make_pair(1, 2);
        std::string error;
        ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
        s_db = openModel(s_dir->path() / "c").release();
    }
    static void TearDownTestSuite()
    {
        delete s_db;
        delete s_dir;
        s_db = nullptr;
        s_dir = nullptr;
    }
    static fs::path root() { return s_dir->path() / "c"; }
    static inline test::ScratchDir* s_dir = nullptr;
    static inline model::Database* s_db = nullptr;
};

} // namespace

TEST_F(GeneratedCluster, SlowLinkIsFirstInTheLinkTableAndTheMatrixOutlier)
{
    ASSERT_TRUE(s_db);
    for (std::optional<int64_t> step : { std::optional<int64_t>(), std::optional<int64_t>(51) }) {
        LinkFilter f;
        f.step = step;
        auto rows = CommAnalysisQuery::linkTable(*s_db, f);
        std::erase_if(rows, [](const LinkRow& l) { return l.transport == "LOCAL" || l.src == l.dst; });
        ASSERT_FALSE(rows.empty());
        const std::set<int64_t> first { rows[0].src, rows[0].dst };
        EXPECT_EQ(first, (std::set<int64_t> { 1, 2 }));
        for (size_t i = 1; i < rows.size(); ++i)
            EXPECT_LE(*rows[i - 1].bandwidthGbps, *rows[i].bandwidthGbps);

        CommSelection sel;
        sel.step = step;
        const CommMatrix m = CommAnalysisQuery::matrix(*s_db, sel);
        ASSERT_TRUE(m.slowestCell.has_value());
        const MatrixCell& slow = m.cells[*m.slowestCell];
        EXPECT_EQ((std::set<int64_t> { slow.src, slow.dst }), (std::set<int64_t> { 1, 2 }));
        // Visibly the outlier: far below every other link of its transport.
        std::vector<double> others;
        for (const auto& c : m.cells) {
            if (&c != &slow && c.transport == slow.transport && c.src != c.dst
                && std::set<int64_t> { c.src, c.dst } != std::set<int64_t> { 1, 2 })
                others.push_back(*c.bandwidthGbps());
        }
        ASSERT_FALSE(others.empty());
        EXPECT_LT(*slow.bandwidthGbps(), 0.5 * *std::min_element(others.begin(), others.end()));
        EXPECT_EQ(m.ranks.size(), 32u);
        EXPECT_FALSE(m.blocks.empty());
    }
}

TEST_F(GeneratedCluster, AggregatesAreSumOfSizeOverSumOfTime)
{
    ASSERT_TRUE(s_db);
    // Raw links as written (total slots), summed by hand over steps and op types.
    std::map<std::pair<int64_t, int64_t>, std::pair<double, int64_t>> expected;
    for (const auto& l : CommQuery::links(*s_db)) {
        if (!l.slot || *l.slot != "total" || !l.src || !l.dst || l.reportedBy != *l.src)
            continue;
        auto& [size, time] = expected[{ *l.src, *l.dst }];
        size += *l.sizeMb;
        time += *l.timeNs;
    }
    const CommMatrix m = CommAnalysisQuery::matrix(*s_db, {});
    ASSERT_EQ(m.cells.size(), expected.size());
    for (const auto& c : m.cells) {
        const auto& [size, time] = expected.at({ c.src, c.dst });
        EXPECT_NEAR(c.sizeMb, size, 1e-9 * (1 + size));
        EXPECT_EQ(c.timeNs, time);
        EXPECT_NEAR(*c.bandwidthGbps(), size / ms(time), 1e-9 * (1 + size / ms(time)));
    }
    // The link table over all steps uses the same sums per op type.
    for (const auto& r : CommAnalysisQuery::linkTable(*s_db, {})) {
        if (r.timeNs > 0) {
            EXPECT_NEAR(*r.bandwidthGbps, r.sizeMb / ms(r.timeNs), 1e-9 * (1 + *r.bandwidthGbps));
        }
    }
    // Per rank over all steps and one group: the duration table sums the file.
    const auto groups = CommQuery::groups(*s_db);
    const auto tp = std::find_if(groups.begin(), groups.end(), [](const Group& g) { return g.name == "tp"; });
    ASSERT_NE(tp, groups.end());
    CommSelection sel;
    sel.groupHash = tp->hash;
    const auto rows = CommAnalysisQuery::durations(*s_db, sel);
    ASSERT_EQ(rows.size(), tp->ranks.size());
    for (const auto& d : rows) {
        SCOPED_TRACE("rank " + std::to_string(d.rank));
        expectDurationsMatch(
            d, sumFile(readJson(rankFile(root(), static_cast<int>(d.rank), "communication.json")), -1, tp->hash));
    }
}

TEST_F(GeneratedCluster, P2pLinkEndsAgreeOnGlobalRanks)
{
    ASSERT_TRUE(s_db);
    // A p2p transfer is written by both ends (send by the sender, receive by the receiver) with
    // group-local keys; mapped to global ranks both must name the same src and dst.
    std::map<std::tuple<int64_t, std::string, int64_t, int64_t>, std::vector<Link>> byPair;
    for (const auto& l : CommQuery::links(*s_db)) {
        // Each end also writes its own link (k-k, LOCAL) as torch_npu does: not a transfer.
        if (l.kind == "p2p" && l.slot == std::optional<std::string>("total") && l.src && l.dst && *l.src != *l.dst)
            byPair[{ *l.step, *l.groupHash, *l.src, *l.dst }].push_back(l);
    }
    ASSERT_FALSE(byPair.empty());
    for (const auto& [key, links] : byPair) {
        ASSERT_EQ(links.size(), 2u);
        const std::set<int64_t> reporters { links[0].reportedBy, links[1].reportedBy };
        EXPECT_EQ(reporters, (std::set<int64_t> { std::get<2>(key), std::get<3>(key) }));
        EXPECT_NEAR(*links[0].sizeMb, *links[1].sizeMb, 1e-9);
    }
    // In the matrix the transfer counts once: the cell holds the send (its receive copy dropped) and the pp group's
    // end-of-step gradient-norm all-reduce the pair also shares.
    CommSelection sel;
    sel.step = 50;
    const CommMatrix m = CommAnalysisQuery::matrix(*s_db, sel);
    const auto& [key, links] = *byPair.begin();
    if (std::get<0>(key) == 50) {
        for (const auto& c : m.cells) {
            if (c.src == std::get<2>(key) && c.dst == std::get<3>(key)) {
                EXPECT_EQ(c.links, 2);
            }
        }
    }
}

namespace {

// Exact equality, sizes included: the oracle sums each cell's links in the index's order.
void expectSameMatrix(const CommMatrix& a, const CommMatrix& b)
{
    EXPECT_EQ(a.ranks, b.ranks);
    ASSERT_EQ(a.blocks.size(), b.blocks.size());
    for (size_t i = 0; i < a.blocks.size(); ++i) {
        EXPECT_EQ(a.blocks[i].begin, b.blocks[i].begin);
        EXPECT_EQ(a.blocks[i].end, b.blocks[i].end);
        EXPECT_EQ(a.blocks[i].label, b.blocks[i].label);
    }
    EXPECT_EQ(a.orderedBy, b.orderedBy);
    EXPECT_EQ(a.slowestCell, b.slowestCell);
    EXPECT_EQ(a.localGroup, b.localGroup);
    EXPECT_EQ(a.hiddenLocalGroups, b.hiddenLocalGroups);
    EXPECT_EQ(a.totalOpInfo, b.totalOpInfo);
    ASSERT_EQ(a.cells.size(), b.cells.size());
    for (size_t i = 0; i < a.cells.size(); ++i) {
        SCOPED_TRACE(std::to_string(a.cells[i].src) + "->" + std::to_string(a.cells[i].dst));
        EXPECT_EQ(a.cells[i].src, b.cells[i].src);
        EXPECT_EQ(a.cells[i].dst, b.cells[i].dst);
        EXPECT_EQ(a.cells[i].transport, b.cells[i].transport);
        EXPECT_EQ(a.cells[i].sizeMb, b.cells[i].sizeMb);
        EXPECT_EQ(a.cells[i].timeNs, b.cells[i].timeNs);
        EXPECT_EQ(a.cells[i].opName, b.cells[i].opName);
        EXPECT_EQ(a.cells[i].links, b.cells[i].links);
    }
}

// The index matrix equals the oracle's for every step (and all steps), every group (and all, and one that does
// not exist), a few concrete ops, "Total" and every (op type, slot) the chooser offers, and the axis orders.
// Returns the number of non-empty matrices compared.
int expectMatrixEqualsOracle(model::Database& db)
{
    const auto index = CommLinkIndex::build(db);
    const auto ops = CommOpIndex::build(db);
    std::vector<std::optional<int64_t>> steps { std::nullopt };
    auto st = db.prepare("SELECT DISTINCT step FROM comm_link WHERE step IS NOT NULL ORDER BY step");
    while (st.step())
        steps.push_back(st.int64(0));
    std::vector<std::optional<std::string>> groups { std::nullopt, std::string("no-such-group") };
    for (const auto& g : CommQuery::groups(db))
        groups.push_back(g.hash);
    // Not compared: the links without a group selected as group "" (the index matches none of them, the oracle all).
    for (const auto& g : CommQuery::localRankGroups(db)) {
        if (!g.empty())
            groups.push_back(g);
    }
    int compared = 0;
    for (const auto& step : steps) {
        for (const auto& group : groups) {
            CommSelection sel;
            sel.step = step;
            sel.groupHash = group;
            const MatrixOpChoices choices = test::CommSqlOracle::matrixOps(db, sel);
            MatrixOpChoices indexed = CommAnalysisQuery::matrixOps(*index, *ops, sel);
            for (auto& slots : indexed.typeSlots)
                std::sort(slots.begin(), slots.end());
            EXPECT_EQ(indexed.opTypes, choices.opTypes);
            EXPECT_EQ(indexed.typeSlots, choices.typeSlots);
            EXPECT_EQ(indexed.opNames, choices.opNames);
            std::vector<std::pair<CommSelection, MatrixOp>> cases { { sel, MatrixOp {} } };
            for (size_t t = 0; t < choices.opTypes.size(); ++t) {
                for (const auto& slot : choices.typeSlots[t])
                    cases.push_back({ sel, MatrixOp { choices.opTypes[t], slot } });
            }
            for (size_t i = 0; i < choices.opNames.size(); i += std::max<size_t>(1, choices.opNames.size() / 3)) {
                CommSelection one = sel;
                one.opName = choices.opNames[i];
                cases.push_back({ one, MatrixOp {} });
            }
            for (const auto& [s, op] : cases) {
                for (const char* orderBy : { "auto", "", "tp" }) {
                    SCOPED_TRACE("step " + std::to_string(s.step.value_or(-1)) + " group " + s.groupHash.value_or("*")
                        + " op " + s.opName.value_or("*") + " type " + op.opType.value_or("Total") + " slot " + op.slot
                        + " order " + orderBy);
                    const CommMatrix m = CommAnalysisQuery::matrix(*index, s, op, orderBy);
                    expectSameMatrix(m, test::CommSqlOracle::matrix(db, s, op, orderBy));
                    compared += m.cells.empty() ? 0 : 1;
                }
            }
        }
    }
    return compared;
}

} // namespace

TEST_F(GeneratedCluster, MatrixEqualsSqlOracle)
{
    ASSERT_TRUE(s_db);
    EXPECT_GT(expectMatrixEqualsOracle(*s_db), 100);
    // Real samples: both key generations, local-rank groups, Total Op Info, cluster_analysis output.
    int samplesWithLinks = 0;
    for (const char* sample : { "torch_npu_2rank_level1", "torch_npu_2rank_level2", "torch_npu_2023_2rank",
             "torch_npu_2rank_db", "metadata_8rank", "msprof_cluster_analysis", "msinsight_communication_group",
             "msinsight_multidevice_db", "mindinsight_r13_job/run", "cann_prof_2023" }) {
        SCOPED_TRACE(sample);
        const auto db = openModel(test::dataDir() / sample);
        ASSERT_TRUE(db);
        samplesWithLinks += expectMatrixEqualsOracle(*db) > 0 ? 1 : 0;
    }
    EXPECT_GE(samplesWithLinks, 6);
}

TEST(CommCli, PrintsRanksAndSlowestLinks)
{
    const std::string cmd = std::string(NPUSCOPE_CLI) + " comm --json --step 50 \""
        + (test::dataDir() / "torch_npu_2rank_level1").string() + "\"";
    FILE* pipe = popen(cmd.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, pipe))
        out.append(buf, n);
    ASSERT_EQ(pclose(pipe), 0);
    const json doc = json::parse(out);
    EXPECT_EQ(doc["schema"], "npuscope.comm/1");
    ASSERT_EQ(doc["ranks"].size(), 2u);
    EXPECT_EQ(doc["ranks"][0]["ops"], 4);
    ASSERT_FALSE(doc["slowest_links"].empty());
    const auto& l = doc["slowest_links"];
    for (size_t i = 1; i < l.size(); ++i)
        EXPECT_LE(l[i - 1]["bandwidth_gbps"].get<double>(), l[i]["bandwidth_gbps"].get<double>());
}

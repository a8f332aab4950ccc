// SPDX-License-Identifier: Apache-2.0
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::ScratchDir;

namespace {

testgen::GeneratorOptions smallCluster(const fs::path& out)
{
    testgen::GeneratorOptions o;
    o.outDir = out.string();
    o.ranks = 8;
    o.pp = 2;
    o.tp = 2;
    o.dp = 2;
    o.steps = 2;
    o.traceMb = 0.2;
    o.slowRank = 5;
    o.slowLink = std::make_pair(0, 1);
    o.seed = 7;
    return o;
}

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

fs::path rankFolder(const fs::path& root, int rank)
{
    const std::string prefix = "rank" + std::to_string(rank) + "_";
    for (const auto& e : fs::directory_iterator(root)) {
        const auto name = e.path().filename().string();
        if (name.rfind(prefix, 0) == 0)
            return e.path();
    }
    return {};
}

int64_t totalWait(model::Database& db, int rank)
{
    return db
        .scalarInt(
            "SELECT COALESCE(SUM(wait_ns), 0) FROM comm_op WHERE is_total = 1 AND rank_id = " + std::to_string(rank))
        .value_or(-1);
}

} // namespace

TEST(ClusterGenerator, GeneratesALoadableClusterWithPlantedAnomalies)
{
    ScratchDir scratch;
    const auto out = scratch.path() / "cluster";
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(smallCluster(out), error)) << error;

    const auto plan = io::Detector::detect({ out.string() });
    ASSERT_EQ(plan.ranks.size(), 8u);
    load::LoadOptions options;
    options.loadTimelines = true;
    auto db = load::Loader::load(plan, options);
    ASSERT_TRUE(db);

    // No error or warning while importing any file.
    for (const auto& issue : query::IssueQuery::issues(*db))
        EXPECT_EQ(issue.severity, "info") << issue.message;
    EXPECT_EQ(query::IssueQuery::problemCount(*db), 0);
    EXPECT_GT(db->scalarInt("SELECT COUNT(*) FROM slice").value_or(0), 1000);
    EXPECT_GT(db->scalarInt("SELECT COUNT(*) FROM flow WHERE src_slice_id IS NOT NULL AND dst_slice_id IS NOT NULL")
                  .value_or(0),
        100);
    EXPECT_GT(db->scalarInt("SELECT COUNT(*) FROM kernel").value_or(0), 100);

    // 8 ranks x 2 steps, identities exact for every row.
    const auto rows = query::StepQuery::breakdown(*db);
    ASSERT_EQ(rows.size(), 16u);
    using C = query::StepColumn;
    for (const auto& r : rows) {
        EXPECT_EQ(*r.value(C::Communication), *r.value(C::CommunicationNotOverlapped) + *r.value(C::Overlapped));
        EXPECT_EQ(*r.value(C::Computing) + *r.value(C::CommunicationNotOverlapped) + *r.value(C::Free),
            *r.value(C::Stage) + *r.value(C::Bubble));
        EXPECT_GT(*r.value(C::Bubble), 0) << "pp = 2 has a pipeline bubble";
        EXPECT_GE(*r.value(C::Free), 0);
    }

    // Groups named tp/dp/pp with the metadata's global ranks; every link resolved to global ranks.
    const auto metadata = nlohmann::json::parse(readAll(rankFolder(out, 5) / "profiler_metadata.json"));
    std::map<std::string, std::vector<int64_t>> expected;
    for (const auto& [raw, g] : metadata["parallel_group_info"].items())
        expected[g["group_name"].get<std::string>()] = g["global_ranks"].get<std::vector<int64_t>>();
    EXPECT_EQ(expected["tp"], (std::vector<int64_t> { 4, 5 }));
    EXPECT_EQ(expected["dp"], (std::vector<int64_t> { 5, 7 }));
    EXPECT_EQ(expected["pp"], (std::vector<int64_t> { 1, 5 }));
    std::set<std::string> names;
    for (const auto& g : query::CommQuery::groups(*db)) {
        ASSERT_TRUE(g.name);
        names.insert(*g.name);
        EXPECT_EQ(g.ranksSource, "metadata");
        if (std::find(g.ranks.begin(), g.ranks.end(), 5) != g.ranks.end() && *g.name != "default_group") {
            EXPECT_EQ(g.ranks, expected[*g.name]) << *g.name;
        }
        if (*g.name != "default_group") {
            EXPECT_GT(g.opCount, 0) << *g.name;
        }
    }
    EXPECT_EQ(names, (std::set<std::string> { "default_group", "dp", "pp", "tp" }));
    EXPECT_EQ(db->scalarInt("SELECT COUNT(*) FROM comm_link WHERE src IS NULL OR dst IS NULL").value_or(-1), 0);
    EXPECT_GT(db->scalarInt("SELECT COUNT(*) FROM comm_link").value_or(0), 0);

    // Slow rank 5 (stage 1 of dp replica 0): highest Computing. In the pipeline it holds up its whole replica, and the
    // dp and pipeline-wide all-reduces pass that on to every rank, so the total wait does not single out its peers;
    // where a rank waits does. Its tp peer waits in the tp all-reduces, the slow rank itself least there (it arrives
    // last).
    const auto stats = query::clusterStats(query::StepQuery::averaged(*db));
    EXPECT_EQ(stats[static_cast<size_t>(C::Computing)].maxRank, 5);
    const auto groups = query::CommQuery::groups(*db);
    auto waitIn = [&](int rank, const std::string& groupName, const char* kind) {
        for (const auto& g : groups) {
            if (g.name && *g.name == groupName && std::count(g.ranks.begin(), g.ranks.end(), rank))
                return db
                    ->scalarInt("SELECT COALESCE(SUM(wait_ns), 0) FROM comm_op WHERE is_total = 0 AND rank_id = "
                        + std::to_string(rank) + " AND kind = '" + kind + "' AND group_hash = '" + g.hash + "'")
                    .value_or(-1);
        }
        return int64_t { -1 };
    };
    const int64_t peerWait = waitIn(4, "tp", "collective"); // tp peer of 5
    EXPECT_GT(peerWait, 3 * waitIn(6, "tp", "collective")); // same stage, other replica
    EXPECT_GT(peerWait, 3 * waitIn(2, "tp", "collective")); // shares no group with 5
    EXPECT_LT(waitIn(5, "tp", "collective"), waitIn(4, "tp", "collective"));
    EXPECT_GT(totalWait(*db, 4), 0);

    // Slow link 0-1: the lowest bandwidth among non-LOCAL total links, in both directions.
    auto st
        = db->prepare("SELECT src, dst, bandwidth_gbps FROM comm_link WHERE slot = 'total' AND transport != 'LOCAL' "
                      "ORDER BY bandwidth_gbps ASC LIMIT 1");
    ASSERT_TRUE(st.step());
    EXPECT_EQ(std::min(st.int64(0), st.int64(1)), 0);
    EXPECT_EQ(std::max(st.int64(0), st.int64(1)), 1);
    EXPECT_EQ(db->scalarInt("SELECT COUNT(DISTINCT rank_id) FROM comm_link WHERE slot = 'total' AND transport != "
                            "'LOCAL' AND bandwidth_gbps < 5 AND ((src = 0 AND dst = 1) OR (src = 1 AND dst = 0))")
                  .value_or(0),
        2);
}

TEST(ClusterGenerator, SameSeedGivesIdenticalFiles)
{
    ScratchDir scratch;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(smallCluster(scratch.path() / "a"), error)) << error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(smallCluster(scratch.path() / "b"), error)) << error;
    for (int rank : { 0, 5 }) {
        const auto a = rankFolder(scratch.path() / "a", rank) / "ASCEND_PROFILER_OUTPUT";
        const auto b = rankFolder(scratch.path() / "b", rank) / "ASCEND_PROFILER_OUTPUT";
        for (const char* file : { "step_trace_time.csv", "communication_matrix.json", "communication.json",
                 "kernel_details.csv", "trace_view.json" }) {
            const auto left = readAll(a / file);
            EXPECT_FALSE(left.empty()) << file;
            EXPECT_TRUE(left == readAll(b / file)) << file;
        }
    }
    auto other = smallCluster(scratch.path() / "c");
    other.seed = 8;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(other, error)) << error;
    EXPECT_NE(readAll(rankFolder(scratch.path() / "a", 0) / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv"),
        readAll(rankFolder(scratch.path() / "c", 0) / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv"));
}

TEST(ClusterGenerator, RejectsBadOptionsAndForeignFolders)
{
    ScratchDir scratch;
    std::string error;
    auto o = smallCluster(scratch.path() / "x");
    o.ranks = 0;
    EXPECT_FALSE(testgen::ClusterGenerator::generate(o, error));
    EXPECT_FALSE(error.empty());
    o = smallCluster(scratch.path() / "x");
    o.dp = 3;
    EXPECT_FALSE(testgen::ClusterGenerator::generate(o, error));
    EXPECT_NE(error.find("must equal"), std::string::npos) << error;
    o = smallCluster(scratch.path() / "x");
    o.slowRank = 8;
    EXPECT_FALSE(testgen::ClusterGenerator::generate(o, error));
    o = smallCluster(scratch.path() / "x");
    o.slowLink = std::make_pair(0, 3); // 0 and 3 share no group
    EXPECT_FALSE(testgen::ClusterGenerator::generate(o, error));
    EXPECT_FALSE(fs::exists(scratch.path() / "x"));

    // A non-empty folder the generator did not write is left alone.
    const auto foreign = scratch.path() / "foreign";
    fs::create_directories(foreign);
    std::ofstream(foreign / "keep.txt") << "mine";
    o = smallCluster(foreign);
    EXPECT_FALSE(testgen::ClusterGenerator::generate(o, error));
    EXPECT_NE(error.find("refusing"), std::string::npos) << error;
    EXPECT_EQ(readAll(foreign / "keep.txt"), "mine");

    // Its own output is replaced, other entries stay.
    const auto own = scratch.path() / "own";
    o = smallCluster(own);
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    std::ofstream(own / "notes.txt") << "keep";
    o.ranks = 4;
    o.pp = 1;
    o.dp = 2;
    o.slowRank = 1;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    EXPECT_EQ(readAll(own / "notes.txt"), "keep");
    EXPECT_EQ(io::Detector::detect({ own.string() }).ranks.size(), 4u);
}

// SPDX-License-Identifier: Apache-2.0
// msprof-analyze communication_group.json: group names (pg_name) and members, and a folder holding only that file.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/SummaryReport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::ScratchDir;

namespace {

fs::path groupDir() { return dataDir() / "msinsight_communication_group"; }


const query::Group* byHash(const std::vector<query::Group>& groups, const std::string& hash)
{
    const auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.hash == hash; });
    return it == groups.end() ? nullptr : &*it;
}

// The old variant under the only name npuscope reads, alone in a scratch folder.
void copyOld(const ScratchDir& dir)
{
    fs::copy_file(groupDir() / "communication_group_old.json", dir.path() / "communication_group.json");
}

using Run = npuscope::test::CliRun;
using npuscope::test::runCli;
using npuscope::test::count;
using npuscope::test::openFolder;

} // namespace

TEST(ClusterOutputGroups, PlanOfAGroupOnlyFolder)
{
    const auto plan = io::Detector::detect({ groupDir().string() });
    ASSERT_EQ(plan.ranks.size(), 8u);
    EXPECT_EQ(plan.layout, io::LoadPlan::Layout::Cluster);
    EXPECT_EQ(plan.ranks.front().rankSource, "cluster_analysis");
    ASSERT_EQ(plan.ranks.front().files.size(), 1u); // communication_group_old.json is not a file npuscope reads
    EXPECT_EQ(plan.ranks.front().files.front().kind, io::FileKind::ClusterCommunicationGroup);
    EXPECT_STREQ(io::fileKindName(io::FileKind::ClusterCommunicationGroup), "cluster_communication_group");
    io::FileKind kind;
    ASSERT_TRUE(io::fileKindOf("communication_group.json", kind));
    EXPECT_EQ(kind, io::FileKind::ClusterCommunicationGroup);
}

TEST(ClusterOutputGroups, NamesAndMembersFromParallelInfo)
{
    auto db = openFolder(groupDir());
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 8);
    EXPECT_EQ(count(*db, "SELECT MIN(rank_id) FROM rank"), 0);
    EXPECT_EQ(count(*db, "SELECT MAX(rank_id) FROM rank"), 7);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity <> 'info'"), 0);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'info' AND message LIKE "
                  "'%only communication_group.json%no step or communication data%'"),
        1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op"), 0);

    // 21 collective groups with a hash (rank sets repeat: [0, 4] is both pp and embd) + the p2p entry without one.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM cluster_comm_group"), 22);
    const auto groups = query::CommQuery::groups(*db);
    ASSERT_EQ(groups.size(), 21u);
    const auto* tp = byHash(groups, "6960437680420871035");
    ASSERT_NE(tp, nullptr);
    EXPECT_EQ(tp->name, "tp");
    EXPECT_EQ(tp->ranks, (std::vector<int64_t> { 0, 1 }));
    EXPECT_EQ(tp->ranksSource, "communication_group.json");
    EXPECT_EQ(tp->rawName, "10.174.216.241%enp189s0f1_55000_0_1738895506630464");
    const auto* pp = byHash(groups, "9609979115979062393");
    const auto* embd = byHash(groups, "8484307241071648757");
    ASSERT_TRUE(pp && embd);
    EXPECT_EQ(pp->name, "pp");
    EXPECT_EQ(embd->name, "embd");
    EXPECT_EQ(pp->ranks, embd->ranks);
    const auto* all = byHash(groups, "212011646445595226");
    ASSERT_NE(all, nullptr);
    EXPECT_EQ(all->name, "default_group");
    EXPECT_EQ(all->ranks.size(), 8u);
    std::set<std::string> names;
    for (const auto& g : groups)
        names.insert(g.name.value_or("?"));
    EXPECT_EQ(names, (std::set<std::string> { "default_group", "dp", "dp_cp", "embd", "mp", "pp", "tp" }));

    const auto listed = query::CommQuery::listedGroups(*db);
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0].kind, "p2p");
    EXPECT_TRUE(listed[0].hash.empty());
    EXPECT_EQ(listed[0].ranks.size(), 8u);
}

TEST(ClusterOutputGroups, OldFileWithoutHashes)
{
    ScratchDir dir;
    copyOld(dir);
    auto db = openFolder(dir.path());
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 8);
    EXPECT_TRUE(query::CommQuery::groups(*db).empty());
    // collective [0..7] three times and [k] twice each -> 9 distinct sets; p2p [0..7] kept apart from collective.
    const auto listed = query::CommQuery::listedGroups(*db);
    ASSERT_EQ(listed.size(), 10u);
    EXPECT_EQ(std::count_if(listed.begin(), listed.end(), [](const auto& g) { return g.kind == "p2p"; }), 1);
    EXPECT_EQ(std::count_if(listed.begin(), listed.end(), [](const auto& g) { return g.ranks.size() == 8; }), 2);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE message LIKE '%only communication_group.json%'"), 1);
}

TEST(ClusterOutputGroups, SummaryJsonExitsZeroOnAGroupOnlyFolder)
{
    const auto run = runCli("summary --json --no-cache '" + groupDir().string() + "'");
    ASSERT_EQ(run.status, 0);
    const auto j = nlohmann::json::parse(run.out);
    EXPECT_EQ(j["ranks"].size(), 8u);
    EXPECT_TRUE(j["steps"].empty());
    EXPECT_TRUE(j["stages"].empty());
    EXPECT_EQ(j["groups"].size(), 21u);
    bool tp = false;
    for (const auto& g : j["groups"])
        tp = tp || (g["hash"] == "6960437680420871035" && g["name"] == "tp" && g["ranks"] == nlohmann::json { 0, 1 });
    EXPECT_TRUE(tp);
    ASSERT_EQ(j["listed_groups"].size(), 1u);
    EXPECT_EQ(j["listed_groups"][0]["kind"], "p2p");
    const auto text = runCli("summary --no-cache '" + groupDir().string() + "'");
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("tp            6960437680420871035"), std::string::npos);
}

TEST(ClusterOutputGroups, CommCliResolvesTheGroupName)
{
    // "default_group" names exactly one group; "tp" names four.
    EXPECT_EQ(runCli("comm --group default_group '" + groupDir().string() + "'").status, 0);
    EXPECT_EQ(runCli("comm --group tp '" + groupDir().string() + "'").status, 2);
}

TEST(ClusterOutputGroups, ListsBesideStepAndCommunicationFiles)
{
    // The 16-rank text output: its communication_group.json has no hashes; every list entry that no hashed group
    // (from the self-links) covers is listed once, p2p apart from collective.
    auto db = openFolder(dataDir() / "msprof_cluster_analysis" / "text");
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM cluster_comm_group"), 29); // 27 distinct collective + 2 p2p sets
    const auto listed = query::CommQuery::listedGroups(*db);
    EXPECT_EQ(std::count_if(listed.begin(), listed.end(), [](const auto& g) { return g.kind == "p2p"; }), 2);
    // cluster_analysis.db: CommunicationGroup lists collective (0..7) twice and p2p (0..7); the collective set is a
    // hashed group seen in the ops already, so only the p2p set is listed.
    auto clusterDb = openFolder(dataDir() / "msprof_cluster_analysis" / "db");
    ASSERT_TRUE(clusterDb);
    EXPECT_EQ(count(*clusterDb, "SELECT COUNT(*) FROM cluster_comm_group"), 2);
    const auto dbListed = query::CommQuery::listedGroups(*clusterDb);
    ASSERT_EQ(dbListed.size(), 1u);
    EXPECT_EQ(dbListed[0].kind, "p2p");
    EXPECT_EQ(dbListed[0].ranksSource, "cluster_analysis.db");
}

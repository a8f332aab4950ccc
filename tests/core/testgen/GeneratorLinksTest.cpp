// SPDX-License-Identifier: Apache-2.0
// The generator links each all-reduce as HCCL's hierarchical algorithm does (mesh on a server, ring across servers;
// docs/metrics.md, "Generated clusters: communication matrix links"); --all-to-all-groups keeps every pair. The op
// times and step breakdown do not depend on the link set.
#include "TestSupport.h"

#include "npuscope/query/CommQuery.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace npuscope;

namespace {

// 32 ranks, tp 8 (one server per tp group), dp 4 (one rank on each of 4 servers), pp 1.
std::unique_ptr<model::Database> generated(const test::ScratchDir& dir, bool allToAll)
{
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / (allToAll ? "a2a" : "hccl")).string();
    o.ranks = 32;
    o.tp = 8;
    o.dp = 4;
    o.steps = 2;
    o.traceMb = 0;
    o.allToAllGroups = allToAll;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return test::openFolder(o.outDir);
}

// The global dst ranks rank 0 links to in the group holding rank 0 and 8 (its dp group).
std::set<int64_t> dpPeersOfRank0(model::Database& db)
{
    std::set<int64_t> out;
    for (const auto& row : test::rows(db,
             "SELECT DISTINCT dst FROM comm_link WHERE rank_id = 0 AND src = 0 AND group_hash IN "
             "(SELECT group_hash FROM comm_group_rank WHERE global_rank = 8)"))
        out.insert(std::stoll(row));
    return out;
}

} // namespace

TEST(GeneratorLinks, MeshOnAServerRingAcrossServers)
{
    test::ScratchDir dir;
    const auto db = generated(dir, false);
    ASSERT_TRUE(db);
    // dp group {0, 8, 16, 24}: one rank per server, so a ring: rank 0 sends to 8 only (plus its LOCAL self link).
    EXPECT_EQ(dpPeersOfRank0(*db), (std::set<int64_t> { 0, 8 }));
    // tp group {0..7}: one server, a full mesh.
    EXPECT_EQ(test::count(*db,
                  "SELECT COUNT(DISTINCT dst) FROM comm_link WHERE rank_id = 0 AND src = 0 AND dst < 8 AND transport "
                  "IN ('HCCS', 'LOCAL')"),
        8);
    EXPECT_EQ(test::count(*db, "SELECT COUNT(*) FROM comm_link WHERE src = dst AND transport <> 'LOCAL'"), 0);
    // The ring link carries 2 (S-1)/S of the data, the mesh share of a 4-rank group would be 2/4: 3x more.
    const double ring = test::real(
        *db, "SELECT MAX(size_mb) FROM comm_link WHERE src = 0 AND dst = 8 AND slot IS NOT NULL AND slot <> 'total'");
    test::ScratchDir dir2;
    const auto a2a = generated(dir2, true);
    ASSERT_TRUE(a2a);
    EXPECT_EQ(dpPeersOfRank0(*a2a), (std::set<int64_t> { 0, 8, 16, 24 }));
    const double pair = test::real(
        *a2a, "SELECT MAX(size_mb) FROM comm_link WHERE src = 0 AND dst = 8 AND slot IS NOT NULL AND slot <> 'total'");
    EXPECT_NEAR(ring / pair, 3.0, 1e-3);
    // Same op times, so the same step breakdown, with either link set.
    const auto b1 = query::StepQuery::breakdown(*db);
    const auto b2 = query::StepQuery::breakdown(*a2a);
    ASSERT_EQ(b1.size(), b2.size());
    for (size_t i = 0; i < b1.size(); ++i) {
        for (int c = 0; c < query::kStepColumnCount; ++c) {
            const auto col = static_cast<query::StepColumn>(c);
            EXPECT_EQ(b1[i].value(col), b2[i].value(col)) << "row " << i << " column " << c;
        }
    }
    EXPECT_EQ(test::text(*db,
                  "SELECT group_concat(elapse_ns) FROM (SELECT elapse_ns FROM comm_op ORDER BY rank_id, step, "
                  "start_ns, op_key)"),
        test::text(*a2a,
            "SELECT group_concat(elapse_ns) FROM (SELECT elapse_ns FROM comm_op ORDER BY rank_id, step, start_ns, "
            "op_key)"));
}

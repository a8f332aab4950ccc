// SPDX-License-Identifier: Apache-2.0
// query::FlopsQuery's two sources on real files: the *_fops columns of a real ArithmeticUtilization kernel_details.csv
// (msprof-analyze's advisor sample) and the old MindSpore flops_summary_N.json (MindInsight's cluster_propose), plus
// FLOPS and its relative value on a generated cluster with a FLOPs-light rank.
#include "TestSupport.h"

#include "npuscope/query/FlopsQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace npuscope;
using npuscope::test::count;
using npuscope::test::dataDir;
using npuscope::test::openFolder;
using npuscope::test::ScratchDir;

TEST(FlopsSources, RealKernelDetailsWithFopsColumns)
{
    auto db = openFolder(dataDir() / "msprof_advisor_flops", true);
    ASSERT_TRUE(db);
    const auto s = query::FlopsQuery::perRank(*db);
    ASSERT_TRUE(s.recorded);
    EXPECT_FALSE(s.wholeRunOnly);
    ASSERT_EQ(s.ranks.size(), 1u);
    const auto& r = s.ranks[0];
    EXPECT_EQ(r.source, query::FlopsSource::Kernels);
    // Read from the CSV independently: 591 rows, 558 with at least one *_fops value that is not N/A (the 33 HCCL rows
    // have none); Σ of those values = 4539107856576; Σ Duration(us) of the 558 = 47446.54 µs.
    EXPECT_EQ(r.kernels, 558);
    EXPECT_DOUBLE_EQ(r.flops, 4539107856576.0);
    EXPECT_NEAR(static_cast<double>(r.computeNs), 47446540.0, 1.0);
    EXPECT_NEAR(r.flopsPerSecond(), 4539107856576.0 / 47446.54e-6, 1e6);
    EXPECT_DOUBLE_EQ(r.relative, 1.0);
    EXPECT_DOUBLE_EQ(r.relativePerSecond, 1.0);
    EXPECT_FALSE(r.utilizationPercent.has_value());
    // Every kernel of the file is in step 1.
    EXPECT_DOUBLE_EQ(query::FlopsQuery::perRank(*db, 1).ranks[0].flops, r.flops);
    EXPECT_EQ(query::FlopsQuery::perRank(*db, 2).ranks.size(), 0u);
}

TEST(FlopsSources, MindSporeFlopsSummary)
{
    auto db = openFolder(dataDir() / "mindspore_flat_profiler" / "cluster_propose");
    ASSERT_TRUE(db);
    const auto s = query::FlopsQuery::perRank(*db);
    ASSERT_TRUE(s.recorded);
    EXPECT_TRUE(s.wholeRunOnly);
    ASSERT_EQ(s.ranks.size(), 4u);
    // flops_summary_{0..3}.json: FLOPs in MFLOPs, FLOPS in GFLOPS, FLOPS_Utilization in percent.
    const double mflops[] = { 107146.763, 107145.034, 329608.369, 329612.4 };
    const double gflops[] = { 5385.552, 5386.261, 4859.39, 4897.642 };
    const double utilization[] = { 0.23, 0.229, 0.725, 0.725 };
    for (size_t i = 0; i < 4; ++i) {
        const auto& r = s.ranks[i];
        EXPECT_EQ(r.rank, static_cast<int64_t>(i));
        EXPECT_EQ(r.source, query::FlopsSource::MindSporeSummary);
        EXPECT_EQ(r.kernels, 0);
        EXPECT_DOUBLE_EQ(r.flops, mflops[i] * 1e6);
        ASSERT_TRUE(r.reportedFlopsPerSecond.has_value());
        EXPECT_DOUBLE_EQ(*r.reportedFlopsPerSecond, gflops[i] * 1e9);
        EXPECT_DOUBLE_EQ(r.flopsPerSecond(), gflops[i] * 1e9);
        ASSERT_TRUE(r.utilizationPercent.has_value());
        EXPECT_DOUBLE_EQ(*r.utilizationPercent, utilization[i]);
        // Busiest: rank 3 (329612.4 MFLOPs); fastest: rank 1 (5386.261 GFLOPS).
        EXPECT_DOUBLE_EQ(r.relative, mflops[i] / 329612.4);
        EXPECT_DOUBLE_EQ(r.relativePerSecond, gflops[i] / 5386.261);
    }
    // The file has one figure per run: a step asks for the same.
    EXPECT_DOUBLE_EQ(query::FlopsQuery::perRank(*db, 3).ranks[2].flops, mflops[2] * 1e6);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity <> 'info'"), 0);
}

TEST(FlopsSources, GeneratedLightRankIsLowestInFlopsAndFlopsPerSecondIsFlopsOverTime)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "gen").string();
    o.ranks = 8;
    o.traceMb = 0;
    o.flopsLightRank = 5;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    auto db = openFolder(o.outDir, true);
    ASSERT_TRUE(db);
    const auto s = query::FlopsQuery::perRank(*db);
    ASSERT_EQ(s.ranks.size(), 8u);
    double fastest = 0;
    for (const auto& r : s.ranks)
        fastest = std::max(fastest, r.flopsPerSecond());
    for (const auto& r : s.ranks) {
        EXPECT_DOUBLE_EQ(r.flopsPerSecond(), r.flops / (static_cast<double>(r.computeNs) * 1e-9)) << r.rank;
        EXPECT_DOUBLE_EQ(r.relativePerSecond, r.flopsPerSecond() / fastest) << r.rank;
        if (r.rank != 5) {
            EXPECT_GT(r.relative, s.ranks[5].relative) << r.rank;
        }
    }
}

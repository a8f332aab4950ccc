// SPDX-License-Identifier: Apache-2.0
#include "TestSupport.h"

#include "npuscope/query/ParallelLayoutQuery.h"
#include "npuscope/query/RankMetricQuery.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

using namespace npuscope;
using query::LayoutSource;
using query::ParallelLayout;
using query::ParallelLayoutMath;
using query::ParallelLayoutQuery;
using query::ParallelSizes;

namespace {

void expectCoord(const ParallelLayout& l, int64_t rank, int pp, int dp, int cp, int tp)
{
    const auto* c = l.find(rank);
    ASSERT_NE(c, nullptr) << rank;
    EXPECT_EQ(c->rank, rank);
    EXPECT_EQ(c->pp, pp) << "rank " << rank;
    EXPECT_EQ(c->dp, dp) << "rank " << rank;
    EXPECT_EQ(c->cp, cp) << "rank " << rank;
    EXPECT_EQ(c->tp, tp) << "rank " << rank;
    EXPECT_EQ(l.rankAt(pp, dp, cp, tp), std::optional<int64_t>(rank));
}

std::unique_ptr<model::Database> generated(const test::ScratchDir& dir, int ranks, int pp, int tp)
{
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "c").string();
    o.ranks = ranks;
    o.pp = pp;
    o.tp = tp;
    o.steps = 2;
    o.traceMb = 0;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return test::openFolder(o.outDir);
}

} // namespace

// metadata_8rank holds rank 0's profiler_metadata.json only: tp [0,1], dp [0,2], cp [0], pp [0,4] in a default group
// of 8 ranks. The groups' strides lay out the other seven ranks.
TEST(ParallelLayout, MetadataGroupsOfOneRankLayOutTheWorld)
{
    for (const char* sample : { "metadata_8rank", "msinsight_metadata_only" }) {
        SCOPED_TRACE(sample);
        auto db = test::openFolder(test::dataDir() / sample);
        const auto l = ParallelLayoutQuery::layout(*db);
        EXPECT_EQ(l.source, LayoutSource::ParallelGroups);
        EXPECT_EQ(l.sizes, (ParallelSizes { 2, 2, 1, 2, 1 }));
        EXPECT_EQ(l.worldSize, 8);
        ASSERT_EQ(l.ranks.size(), 8u);
        EXPECT_EQ(l.detail.english(), "pp/dp/cp/tp/exp groups of profiler_metadata.json");
        expectCoord(l, 0, 0, 0, 0, 0);
        expectCoord(l, 1, 0, 0, 0, 1);
        expectCoord(l, 2, 0, 1, 0, 0);
        expectCoord(l, 3, 0, 1, 0, 1);
        expectCoord(l, 4, 1, 0, 0, 0);
        expectCoord(l, 6, 1, 1, 0, 0);
        expectCoord(l, 7, 1, 1, 0, 1);
        ASSERT_EQ(l.stages.size(), 2u);
        EXPECT_EQ(l.stages[0].ranks, (std::vector<int64_t> { 0, 1, 2, 3 }));
        EXPECT_EQ(l.stages[1].ranks, (std::vector<int64_t> { 4, 5, 6, 7 }));
        // Only rank 0 was profiled.
        EXPECT_EQ(l.stages[0].loadedRanks, (std::vector<int64_t> { 0 }));
        EXPECT_TRUE(l.stages[1].loadedRanks.empty());
        EXPECT_TRUE(l.ranks[0].loaded);
        EXPECT_FALSE(l.ranks[5].loaded);
    }
}

// Megatron-LM's default order tp-cp-ep-dp-pp: rank = tp + TP·(cp + CP·(dp + DP·pp)).
TEST(ParallelLayout, MegatronOrderSpotRanks)
{
    const ParallelSizes s { 4, 2, 2, 4, 1 }; // PP 4, DP 2, CP 2, TP 4 = 64
    EXPECT_EQ(s.world(), 64);
    EXPECT_EQ(ParallelLayoutMath::megatronRank(0, 0, 0, 3, s), 3);
    EXPECT_EQ(ParallelLayoutMath::megatronRank(0, 0, 1, 0, s), 4);
    EXPECT_EQ(ParallelLayoutMath::megatronRank(0, 1, 0, 0, s), 8);
    EXPECT_EQ(ParallelLayoutMath::megatronRank(1, 0, 0, 0, s), 16);
    EXPECT_EQ(ParallelLayoutMath::megatronRank(2, 1, 1, 3, s), 47);
    const auto l = ParallelLayoutMath::megatron(s, { 0, 47, 63 }, LayoutSource::UserSizes, "test");
    ASSERT_EQ(l.ranks.size(), 64u);
    expectCoord(l, 47, 2, 1, 1, 3);
    expectCoord(l, 63, 3, 1, 1, 3);
    expectCoord(l, 21, 1, 0, 1, 1);
    EXPECT_TRUE(l.ranks[47].loaded);
    EXPECT_FALSE(l.ranks[46].loaded);
    ASSERT_EQ(l.stages.size(), 4u);
    EXPECT_EQ(l.stages[2].ranks.front(), 32);
    EXPECT_EQ(l.stages[2].ranks.back(), 47);
    EXPECT_EQ(l.stages[2].loadedRanks, (std::vector<int64_t> { 47 }));
    // Expert parallel: ep = (rank / TP) mod EP.
    const ParallelSizes e { 2, 4, 1, 2, 2 };
    EXPECT_EQ(ParallelLayoutMath::megatronCoord(5, e).ep, 0);
    EXPECT_EQ(ParallelLayoutMath::megatronCoord(6, e).ep, 1);
    EXPECT_EQ(ParallelLayoutMath::megatronCoord(6, e).dp, 3);
}

TEST(ParallelLayout, SizesThatDoNotFitSayWhy)
{
    EXPECT_EQ(ParallelLayoutMath::validate({ 4, 4, 1, 8, 1 }, 64, "world size").english(),
        "PP 4 \u00d7 DP 4 \u00d7 CP 1 \u00d7 TP 8 = 128 ranks, but the profile has 64 (world size)");
    EXPECT_EQ(ParallelLayoutMath::validate({ 4, 2, 1, 8, 1 }, 64, "world size").english(), "");
    EXPECT_EQ(ParallelLayoutMath::validate({ 0, 2, 1, 8, 1 }, 64, "x").english(), "every size must be at least 1");
    EXPECT_EQ(ParallelLayoutMath::validate({ 4, 2, 1, 8, 3 }, 64, "x").english(), "EP 3 must divide DP \u00d7 CP = 2");

    // Entered sizes that do not fit: a note, and the data's own layout.
    auto db = test::openFolder(test::dataDir() / "metadata_8rank");
    const auto bad = ParallelLayoutQuery::layout(*db, ParallelSizes { 2, 2, 1, 4, 1 });
    EXPECT_EQ(bad.source, LayoutSource::ParallelGroups);
    ASSERT_FALSE(bad.notes.empty());
    EXPECT_EQ(bad.notes.front().english(),
        "Entered sizes not used: PP 2 \u00d7 DP 2 \u00d7 CP 1 \u00d7 TP 4 = 16 ranks, but the profile has 8 (world "
        "size).");
    // Sizes that fit override the groups.
    const auto user = ParallelLayoutQuery::layout(*db, ParallelSizes { 1, 2, 1, 4, 1 });
    EXPECT_EQ(user.source, LayoutSource::UserSizes);
    expectCoord(user, 5, 0, 1, 0, 1);
}

// The generator writes tp / dp / pp groups in every rank's metadata.
TEST(ParallelLayout, GeneratedClusterPp4Tp8)
{
    test::ScratchDir dir;
    auto db = generated(dir, 64, 4, 8);
    const auto l = ParallelLayoutQuery::layout(*db);
    EXPECT_EQ(l.source, LayoutSource::ParallelGroups);
    EXPECT_EQ(l.sizes, (ParallelSizes { 4, 2, 1, 8, 1 }));
    ASSERT_EQ(l.stages.size(), 4u);
    for (int p = 0; p < 4; ++p) {
        std::vector<int64_t> expected;
        for (int64_t r = p * 16; r < (p + 1) * 16; ++r)
            expected.push_back(r);
        EXPECT_EQ(l.stages[static_cast<size_t>(p)].ranks, expected);
        EXPECT_EQ(l.stages[static_cast<size_t>(p)].loadedRanks, expected);
    }
    expectCoord(l, 27, 1, 1, 0, 3);
    expectCoord(l, 63, 3, 1, 0, 7);
    // Send / receive between neighbouring stages, same dp and tp.
    const auto pairs = ParallelLayoutQuery::p2pPairs(*db);
    ASSERT_FALSE(pairs.empty());
    for (const auto& [src, dst] : pairs) {
        const auto* a = l.find(src);
        const auto* b = l.find(dst);
        ASSERT_TRUE(a && b);
        EXPECT_EQ(std::abs(a->pp - b->pp), 1) << src << "->" << dst;
        EXPECT_EQ(a->tp, b->tp);
        EXPECT_EQ(a->dp, b->dp);
    }
}

// DP = 1 writes no dp groups (one-rank groups are left out): the world size gives the missing size.
TEST(ParallelLayout, MissingDimensionTakesWhatTheWorldLeaves)
{
    test::ScratchDir dir;
    auto db = generated(dir, 32, 4, 8);
    const auto l = ParallelLayoutQuery::layout(*db);
    EXPECT_EQ(l.source, LayoutSource::ParallelGroups);
    EXPECT_EQ(l.sizes, (ParallelSizes { 4, 1, 1, 8, 1 }));
    expectCoord(l, 13, 1, 0, 0, 5);
}

TEST(ParallelLayout, GroupsThatDisagreeAreRefused)
{
    TrText why;
    // Two tp groups of different sizes.
    EXPECT_FALSE(ParallelLayoutMath::fromGroups({ { "tp", { 0, 1 } }, { "tp", { 2, 3, 4 } } }, { 0 }, 5, &why));
    EXPECT_EQ(why.english(), "the tp groups differ in size");
    // Sizes that do not make the world.
    EXPECT_FALSE(ParallelLayoutMath::fromGroups(
        { { "tp", { 0, 1 } }, { "pp", { 0, 2 } }, { "dp", { 0, 4 } } }, { 0 }, 16, &why));
    EXPECT_EQ(why.english(), "the groups give PP 2 \u00d7 DP 2 \u00d7 CP 1 \u00d7 TP 2 = 8 ranks, world size 16");
    // The missing dp takes Megatron's stride (TP = 2), which the pp groups already use: two ranks collide.
    EXPECT_FALSE(ParallelLayoutMath::fromGroups({ { "tp", { 0, 1 } }, { "pp", { 0, 2 } } }, { 0 }, 8, &why));
    EXPECT_EQ(why.english(), "ranks 0 and 4 get the same coordinates");
    // Irregular but complete groups are read by membership.
    const auto l = ParallelLayoutMath::fromGroups(
        { { "tp", { 0, 3 } }, { "tp", { 1, 2 } }, { "pp", { 0, 1 } }, { "pp", { 2, 3 } } }, { 0, 1, 2, 3 }, 4, &why);
    ASSERT_TRUE(l.has_value()) << why.english();
    expectCoord(*l, 1, 1, 0, 0, 0);
    expectCoord(*l, 2, 0, 0, 0, 1);
    expectCoord(*l, 3, 1, 0, 0, 1);
}

TEST(ParallelLayout, MindSporeStagesAndFallback)
{
    auto ms = test::openFolder(test::dataDir() / "mindinsight_parallel_strategy");
    const auto l = ParallelLayoutQuery::layout(*ms);
    EXPECT_EQ(l.source, LayoutSource::MindSporeStages);
    EXPECT_EQ(l.sizes, (ParallelSizes { 1, 2, 1, 1, 1 }));
    expectCoord(l, 1, 0, 1, 0, 0);

    // The 2-rank torch_npu sample names no layout: one stage, DP = 2.
    auto two = test::openFolder(test::dataDir() / "torch_npu_2rank_level1");
    const auto f = ParallelLayoutQuery::layout(*two);
    EXPECT_EQ(f.source, LayoutSource::Fallback);
    EXPECT_EQ(f.sizes, (ParallelSizes { 1, 2, 1, 1, 1 }));
    EXPECT_EQ(f.stages.front().loadedRanks, (std::vector<int64_t> { 0, 1 }));
}

// MindInsight's cluster_propose sample: ascend_cluster_analyse_pipeline-parallel_2_4_{rank}.csv beside each rank's
// step trace names 2 stages of 4 ranks, MindInsight's contiguous ranges {0, 1} and {2, 3}. Without them the four ranks
// were one comparable set, and the advice called the stages' different Computing (14.7 against 123.2 ms) a dispersion
// between ranks doing the same work (the review of the golden files, tests/golden/cli/REVIEW.md, S1).
TEST(ParallelLayout, PipelineParallelFileNamesGiveTheStages)
{
    auto db = test::openFolder(test::dataDir() / "mindspore_flat_profiler" / "cluster_propose");
    const auto l = ParallelLayoutQuery::layout(*db);
    EXPECT_EQ(l.source, LayoutSource::ClusterAnalyseFiles);
    EXPECT_EQ(l.sizes, (ParallelSizes { 2, 2, 1, 1, 1 }));
    expectCoord(l, 0, 0, 0, 0, 0);
    expectCoord(l, 1, 0, 1, 0, 0);
    expectCoord(l, 2, 1, 0, 0, 0);
    expectCoord(l, 3, 1, 1, 0, 0);
    EXPECT_NE(l.detail.source.find("contiguous"), std::string::npos);
}

// The colouring figures are the existing queries' figures.
TEST(ParallelLayout, RankMetricsAreTheStepQueryFigures)
{
    auto db = test::openFolder(test::dataDir() / "torch_npu_2rank_level1");
    const auto steps = query::StepQuery::steps(*db);
    ASSERT_FALSE(steps.empty());
    const auto rows = query::StepQuery::breakdown(*db, steps.front());
    const auto wall = query::RankMetricQuery::values(*db, query::RankMetric::StepTime, steps.front(), false, 65536);
    const auto free = query::RankMetricQuery::values(*db, query::RankMetric::Free, steps.front(), false, 65536);
    ASSERT_EQ(wall.size(), rows.size());
    for (const auto& r : rows) {
        EXPECT_DOUBLE_EQ(wall.at(r.rank), static_cast<double>(*r.wallTime()));
        EXPECT_DOUBLE_EQ(free.at(r.rank), static_cast<double>(*r.value(query::StepColumn::Free)));
    }
    const auto memory = query::RankMetricQuery::values(*db, query::RankMetric::PeakMemoryRatio, {}, false, 65536);
    EXPECT_DOUBLE_EQ(memory.at(0), 2113.73046875 / 65536.0);
}

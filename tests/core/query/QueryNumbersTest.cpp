// SPDX-License-Identifier: Apache-2.0
// One source per number: the cluster mean rule, step deviations and packet buckets in the query layer; the
// in-memory indexes live in the database's own cache slots.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/ClusterMean.h"
#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/PacketBuckets.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/StepTimeGap.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

using namespace npuscope;
using namespace npuscope::query;

namespace {

StepBreakdown newRow(int64_t rank, int64_t computing, int64_t free)
{
    StepBreakdown b;
    b.rank = rank;
    b.values[static_cast<size_t>(StepColumn::Computing)] = computing;
    b.values[static_cast<size_t>(StepColumn::Free)] = free;
    return b;
}

StepBreakdown oldRow(int64_t rank, int64_t total)
{
    StepBreakdown b;
    b.rank = rank;
    b.values[static_cast<size_t>(StepColumn::Total)] = total;
    b.values[static_cast<size_t>(StepColumn::IterationInterval)] = total / 4;
    b.values[static_cast<size_t>(StepColumn::FpBp)] = total / 2;
    b.values[static_cast<size_t>(StepColumn::Tail)] = total / 4;
    b.values[static_cast<size_t>(StepColumn::Computing)] = 999;
    return b;
}

} // namespace

TEST(ClusterMean, TakesTheMajorityGenerationAndCountsTheOther)
{
    const auto m = ClusterMean::of({ newRow(0, 100, 10), newRow(1, 300, 30), oldRow(2, 1000) });
    EXPECT_EQ(m.ranks, 2);
    EXPECT_EQ(m.otherGenerationRanks, 1);
    const auto& computing = m.stats[static_cast<size_t>(StepColumn::Computing)];
    EXPECT_EQ(computing.count, 2); // the old rank's 999 is not averaged in
    EXPECT_EQ(computing.mean, 200.0);
    EXPECT_EQ(computing.minRank, 0);
    EXPECT_EQ(computing.maxRank, 1);
    EXPECT_FALSE(m.stats[static_cast<size_t>(StepColumn::Total)].mean);
    ASSERT_TRUE(m.split);
    EXPECT_FALSE(m.split->iterationTrace);
    EXPECT_EQ(m.split->computingNotOverlapped, 200);
    EXPECT_EQ(m.split->free, 20);
    ASSERT_TRUE(m.mean);
    EXPECT_EQ(m.mean->stepCount, 2);
}

TEST(ClusterMean, TieGoesToTheNewerGenerationAndNoRowsGiveNoMean)
{
    const auto tie = ClusterMean::of({ oldRow(0, 1000), newRow(1, 100, 0) });
    EXPECT_EQ(tie.ranks, 1);
    EXPECT_EQ(tie.otherGenerationRanks, 1);
    ASSERT_TRUE(tie.split);
    EXPECT_FALSE(tie.split->iterationTrace);
    const auto old = ClusterMean::of({ oldRow(0, 1000), oldRow(1, 2000), newRow(2, 100, 0) });
    ASSERT_TRUE(old.split);
    EXPECT_TRUE(old.split->iterationTrace);
    EXPECT_EQ(old.split->total(), 1500);
    const auto none = ClusterMean::of({});
    EXPECT_EQ(none.ranks, 0);
    EXPECT_FALSE(none.split);
    EXPECT_FALSE(none.mean);
}

TEST(ClusterMean, DeviationIsRelativeToTheColumnMean)
{
    const auto m = ClusterMean::of({ newRow(0, 100, 10), newRow(1, 300, 30) });
    const auto& stats = m.stats[static_cast<size_t>(StepColumn::Computing)];
    EXPECT_DOUBLE_EQ(*deviationFromMean(300, stats), 0.5);
    EXPECT_DOUBLE_EQ(*deviationFromMean(100, stats), -0.5);
    EXPECT_FALSE(deviationFromMean(std::nullopt, stats));
    // One rank: nothing to deviate from.
    const auto one = ClusterMean::of({ newRow(0, 100, 10) });
    EXPECT_FALSE(deviationFromMean(100, one.stats[static_cast<size_t>(StepColumn::Computing)]));
}

TEST(ClusterMean, MedianAndWallTimeStatistics)
{
    // Computing 100, 300, 1000: median 300 (mean 466.7); an even count takes the mean of the two middle values.
    const auto m = ClusterMean::of({ newRow(0, 100, 10), newRow(1, 1000, 30), newRow(2, 300, 20) });
    const auto& computing = m.stats[static_cast<size_t>(StepColumn::Computing)];
    EXPECT_EQ(computing.median, 300.0);
    EXPECT_DOUBLE_EQ(*deviationFromMedian(330, computing), 0.1);
    EXPECT_DOUBLE_EQ(*deviationFromMedian(270, computing), -0.1);
    EXPECT_FALSE(deviationFromMedian(std::nullopt, computing));
    // Wall time = Computing + Free here (no Communication(Not Overlapped), no Preparing): 110, 1030, 320.
    EXPECT_EQ(m.wallTime.count, 3);
    EXPECT_EQ(m.wallTime.median, 320.0);
    EXPECT_EQ(m.wallTime.maxRank, 1);
    EXPECT_EQ(m.wallTime.minRank, 0);
    const auto even = ClusterMean::of({ newRow(0, 100, 0), newRow(1, 200, 0), newRow(2, 400, 0), newRow(3, 900, 0) });
    EXPECT_EQ(even.stats[static_cast<size_t>(StepColumn::Computing)].median, 300.0);
    // One rank: nothing to deviate from.
    const auto one = ClusterMean::of({ newRow(0, 100, 10) });
    EXPECT_FALSE(deviationFromMedian(100, one.stats[static_cast<size_t>(StepColumn::Computing)]));
}

TEST(StepQuery, WithoutFirstStepDropsEachRanksLowestStepWhenItHasMore)
{
    auto row = [](int64_t rank, int64_t step) {
        StepBreakdown b = newRow(rank, 100, 0);
        b.step = step;
        return b;
    };
    // Rank 0 has steps 3, 4, 5; rank 1 only step 4 (kept, as averaged(db, true) keeps a rank's only step).
    const auto kept = StepQuery::withoutFirstStep({ row(0, 4), row(0, 3), row(1, 4), row(0, 5) });
    ASSERT_EQ(kept.size(), 3u);
    EXPECT_EQ(kept[0].step, 4);
    EXPECT_EQ(kept[1].rank, 1);
    EXPECT_EQ(kept[2].step, 5);
}

TEST(StepTimeGap, WallMinusStageIsPreparingPlusBubble)
{
    // Rank 0 of torch_npu_2rank_level1 step 50 (step_trace_time.csv, ns): Stage is written rounded (136581.0 µs
    // beside Computing + Communication(Not Overlapped) + Free = 136581.009 µs).
    StepBreakdown b;
    b.rank = 0;
    b.step = 50;
    b.values[static_cast<size_t>(StepColumn::Computing)] = 8873756;
    b.values[static_cast<size_t>(StepColumn::CommunicationNotOverlapped)] = 101963203;
    b.values[static_cast<size_t>(StepColumn::Overlapped)] = 4028675;
    b.values[static_cast<size_t>(StepColumn::Free)] = 25744050;
    b.values[static_cast<size_t>(StepColumn::Stage)] = 136581000;
    b.values[static_cast<size_t>(StepColumn::Bubble)] = 0;
    b.values[static_cast<size_t>(StepColumn::Preparing)] = 17902500;
    const auto gap = StepTimeGap::of(b);
    ASSERT_TRUE(gap);
    EXPECT_EQ(gap->wall, 154483509);
    EXPECT_EQ(gap->stage, 136581000);
    EXPECT_EQ(gap->difference(), 17902509);
    EXPECT_EQ(gap->preparing, 17902500);
    EXPECT_EQ(gap->bubble, 0);
    EXPECT_EQ(gap->rest, 9); // the 9 ns torch_npu's rounding of Stage dropped
    // No Stage (or an old-generation iteration trace): no gap to explain.
    b.values[static_cast<size_t>(StepColumn::Stage)].reset();
    EXPECT_FALSE(StepTimeGap::of(b));
    EXPECT_FALSE(StepTimeGap::of(oldRow(0, 1000)));
}

TEST(PacketBuckets, PowerOfTwoByteRangesWithInnerGapsKept)
{
    PacketDistribution d;
    d.transport = "RDMA";
    d.bins = { { 4.096e-3, 3, 30 }, { 4.0e-3, 1, 5 }, { 16.384e-3, 2, 7 } }; // 4,096 B, 4,000 B, 16,384 B
    const auto b = packetBuckets(d);
    ASSERT_EQ(b.size(), 4u); // 2^11 (4,000 B), 2^12 (4,096 B), 2^13 empty, 2^14
    EXPECT_EQ(b[0].count, 1);
    EXPECT_DOUBLE_EQ(b[0].lowMb, 2048 / 1.0e6);
    EXPECT_EQ(b[1].count, 3);
    EXPECT_EQ(b[1].totalNs, 30);
    EXPECT_DOUBLE_EQ(b[1].lowMb, 4096 / 1.0e6);
    EXPECT_DOUBLE_EQ(b[1].highMb, 8192 / 1.0e6);
    EXPECT_EQ(b[2].count, 0);
    EXPECT_EQ(b[3].count, 2);
    EXPECT_TRUE(packetBuckets(PacketDistribution {}).empty());
}

// The indexes live in the database's cache slots: shared while their tables are unchanged, rebuilt after a change to
// one of them (a change elsewhere keeps them: CommOpIndexTest's KeptAcrossRowChangesInOtherTablesDroppedByItsOwn).
TEST(DatabaseCache, IndexesAreSharedUntilTheModelChanges)
{
    const std::shared_ptr<model::Database> db = load::Loader::load(
        io::Detector::detect({ (test::dataDir() / "torch_npu_2rank_level1").string() }), load::LoadOptions {});
    ASSERT_TRUE(db);
    const auto ops = CommOpIndex::forDatabase(*db);
    const auto links = CommLinkIndex::forDatabase(*db);
    EXPECT_EQ(ops, CommOpIndex::forDatabase(db));
    EXPECT_EQ(links, CommLinkIndex::forDatabase(*db));
    const size_t before = ops->size();
    ASSERT_GT(before, 0u);
    db->exec("INSERT INTO comm_op(rank_id, kind, op_key, op_name, is_total) SELECT rank_id, kind, op_key, op_name, 0 "
             "FROM comm_op "
             "WHERE is_total = 0 LIMIT 1");
    const auto rebuilt = CommOpIndex::forDatabase(*db);
    EXPECT_NE(rebuilt, ops);
    EXPECT_EQ(rebuilt->size(), before + 1);
    EXPECT_EQ(ops->size(), before); // a holder of the old index keeps it intact
    EXPECT_EQ(CommLinkIndex::forDatabase(*db), links); // comm_op is not one of its tables
    // Another model has its own slots.
    const auto other = model::Database::createModel();
    EXPECT_EQ(CommOpIndex::forDatabase(*other)->size(), 0u);
}

// SPDX-License-Identifier: Apache-2.0
// The in-memory communication queries (CommOpIndex, CommLinkIndex) give exactly the SQL oracle's figures.
#include "CommSqlOracle.h"
#include "TestSupport.h"

#include "npuscope/core/RunOnThreads.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/IndexPrebuild.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using namespace npuscope;
using namespace npuscope::query;

namespace {

std::shared_ptr<model::Database> openModel(const fs::path& path)
{
    return load::Loader::load(io::Detector::detect({ path.string() }), load::LoadOptions {});
}

// Exact equality, doubles included: both paths sum the same rows in the same order.
void expectSame(const std::vector<RankDuration>& a, const std::vector<RankDuration>& b)
{
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        SCOPED_TRACE("rank " + std::to_string(a[i].rank));
        EXPECT_EQ(a[i].rank, b[i].rank);
        EXPECT_EQ(a[i].opCount, b[i].opCount);
        EXPECT_EQ(a[i].elapseNs, b[i].elapseNs);
        EXPECT_EQ(a[i].transitNs, b[i].transitNs);
        EXPECT_EQ(a[i].waitNs, b[i].waitNs);
        EXPECT_EQ(a[i].syncNs, b[i].syncNs);
        EXPECT_EQ(a[i].idleNs, b[i].idleNs);
        EXPECT_EQ(a[i].hasTransit, b[i].hasTransit);
        EXPECT_EQ(a[i].hasWait, b[i].hasWait);
        EXPECT_EQ(a[i].hasSync, b[i].hasSync);
        EXPECT_EQ(a[i].hasIdle, b[i].hasIdle);
        EXPECT_EQ(a[i].waitRatio, b[i].waitRatio);
        EXPECT_EQ(a[i].syncRatio, b[i].syncRatio);
        EXPECT_EQ(a[i].sdmaSizeMb, b[i].sdmaSizeMb);
        EXPECT_EQ(a[i].rdmaSizeMb, b[i].rdmaSizeMb);
        EXPECT_EQ(a[i].sdmaTimeNs, b[i].sdmaTimeNs);
        EXPECT_EQ(a[i].rdmaTimeNs, b[i].rdmaTimeNs);
        EXPECT_EQ(a[i].sdmaBandwidthGbps, b[i].sdmaBandwidthGbps);
        EXPECT_EQ(a[i].rdmaBandwidthGbps, b[i].rdmaBandwidthGbps);
    }
}

void expectSame(const std::vector<PacketDistribution>& a, const std::vector<PacketDistribution>& b)
{
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].transport, b[i].transport);
        EXPECT_EQ(a[i].packets, b[i].packets);
        EXPECT_EQ(a[i].largePacketRatio, b[i].largePacketRatio);
        ASSERT_EQ(a[i].bins.size(), b[i].bins.size());
        for (size_t k = 0; k < a[i].bins.size(); ++k) {
            EXPECT_EQ(a[i].bins[k].packageMb, b[i].bins[k].packageMb);
            EXPECT_EQ(a[i].bins[k].count, b[i].bins[k].count);
            EXPECT_EQ(a[i].bins[k].totalNs, b[i].bins[k].totalNs);
        }
    }
}

void expectSame(const OpStrip& a, const OpStrip& b)
{
    EXPECT_EQ(a.ranks, b.ranks);
    EXPECT_EQ(a.names, b.names);
    EXPECT_EQ(a.beginNs, b.beginNs);
    EXPECT_EQ(a.endNs, b.endNs);
    ASSERT_EQ(a.ops.size(), b.ops.size());
    for (size_t i = 0; i < a.ops.size(); ++i) {
        EXPECT_EQ(a.ops[i].rank, b.ops[i].rank);
        EXPECT_EQ(a.ops[i].startNs, b.ops[i].startNs);
        EXPECT_EQ(a.ops[i].elapseNs, b.ops[i].elapseNs);
        EXPECT_EQ(a.ops[i].waitNs, b.ops[i].waitNs);
        EXPECT_EQ(a.ops[i].transitNs, b.ops[i].transitNs);
        EXPECT_EQ(a.ops[i].nameIndex, b.ops[i].nameIndex);
        EXPECT_EQ(a.ops[i].groupHash, b.ops[i].groupHash);
    }
}

// Every step, every group and a few ops, alone and combined, plus selections nothing matches.
std::vector<CommSelection> selections(model::Database& db)
{
    std::vector<CommSelection> out(1);
    std::vector<std::optional<int64_t>> steps { std::nullopt };
    auto st = db.prepare("SELECT DISTINCT step FROM comm_op WHERE step IS NOT NULL ORDER BY step");
    while (st.step())
        steps.push_back(st.int64(0));
    steps.push_back(123456); // no such step
    std::vector<std::optional<std::string>> groups { std::nullopt, std::string("no-such-group") };
    for (const auto& g : CommQuery::groups(db))
        groups.push_back(g.hash);
    for (const auto& step : steps) {
        for (const auto& group : groups) {
            CommSelection sel;
            sel.step = step;
            sel.groupHash = group;
            out.push_back(sel);
            const auto names = test::CommSqlOracle::matrixOps(db, sel).opNames;
            for (size_t i = 0; i < names.size(); i += std::max<size_t>(1, names.size() / 3)) {
                sel.opName = names[i];
                out.push_back(sel);
            }
            sel.opName = "no_such_op";
            out.push_back(sel);
        }
    }
    return out;
}

void expectIndexEqualsSql(const std::shared_ptr<model::Database>& db)
{
    const auto ops = CommOpIndex::forDatabase(db);
    const auto links = CommLinkIndex::forDatabase(db);
    ASSERT_GT(ops->size(), 0u);
    EXPECT_EQ(ops, CommOpIndex::forDatabase(db)); // built once, shared
    std::vector<int64_t> ranks;
    auto st = db->prepare("SELECT DISTINCT rank_id FROM comm_op ORDER BY rank_id LIMIT 3");
    while (st.step())
        ranks.push_back(st.int64(0));
    for (const auto& sel : selections(*db)) {
        SCOPED_TRACE("step " + std::to_string(sel.step.value_or(-1)) + " group " + sel.groupHash.value_or("*") + " op "
            + sel.opName.value_or("*"));
        expectSame(test::CommSqlOracle::durations(*db, sel), CommAnalysisQuery::durations(*ops, sel));
        expectSame(test::CommSqlOracle::packets(*db, sel), CommAnalysisQuery::packets(*ops, sel));
        for (int64_t r : ranks)
            expectSame(test::CommSqlOracle::packets(*db, sel, r), CommAnalysisQuery::packets(*ops, sel, r));
        expectSame(test::CommSqlOracle::opStrip(*db, sel), CommAnalysisQuery::opStrip(*ops, sel));
        const auto a = test::CommSqlOracle::matrixOps(*db, sel);
        auto b = CommAnalysisQuery::matrixOps(*links, *ops, sel);
        for (auto& slots : b.typeSlots)
            std::sort(slots.begin(), slots.end());
        EXPECT_EQ(a.opTypes, b.opTypes);
        EXPECT_EQ(a.typeSlots, b.typeSlots);
        EXPECT_EQ(a.opNames, b.opNames);
    }
}

} // namespace

TEST(CommOpIndex, EqualsSqlOnRealSamples)
{
    for (const char* sample : { "torch_npu_2rank_level1", "torch_npu_2rank_level2", "mindinsight_r13_job/run" }) {
        SCOPED_TRACE(sample);
        const auto db = openModel(test::dataDir() / sample);
        ASSERT_TRUE(db);
        expectIndexEqualsSql(db);
    }
}

TEST(CommOpIndex, EqualsSqlOnAGeneratedCluster)
{
    test::ScratchDir dir;
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "c").string();
    o.ranks = 64;
    o.pp = 2;
    o.tp = 8;
    o.dp = 4;
    o.steps = 3;
    o.traceMb = 0;
    o.slowLink = std::make_pair(3, 4);
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    const auto db = openModel(dir.path() / "c");
    ASSERT_TRUE(db);
    expectIndexEqualsSql(db);
}

// MindSpore <= 2.2 hccl_raw has communication and wait cost only: transit, sync and idle are absent (not 0), so
// there is no Wait Ratio; the newer communication.json has all of them.
TEST(CommOpIndex, FiguresAFileGenerationLacksAreAbsentNotZero)
{
    const auto old = openModel(test::dataDir() / "mindinsight_r13_job" / "run");
    ASSERT_TRUE(old);
    const auto rows = CommAnalysisQuery::durations(*old, CommSelection {});
    ASSERT_EQ(rows.size(), 4u);
    for (const auto& d : rows) {
        EXPECT_TRUE(d.hasWait);
        EXPECT_FALSE(d.hasTransit);
        EXPECT_FALSE(d.hasSync);
        EXPECT_FALSE(d.hasIdle);
        EXPECT_FALSE(d.waitRatio);
        EXPECT_FALSE(d.syncRatio);
        EXPECT_GT(d.waitNs, 0);
    }
    const auto now = openModel(test::dataDir() / "torch_npu_2rank_level1");
    ASSERT_TRUE(now);
    for (const auto& d : CommAnalysisQuery::durations(*now, CommSelection {})) {
        EXPECT_TRUE(d.hasTransit && d.hasWait && d.hasSync && d.hasIdle);
        EXPECT_TRUE(d.waitRatio);
    }
}

// The time overview of an old-generation cluster uses the iteration trace's total as the step time; step 6 has
// hccl_raw ops but no step trace row, so it has communication figures and no step time.
TEST(CommOpIndex, TimeOverviewOfTheOldGenerationUsesTheIterationTotal)
{
    const auto db = openModel(test::dataDir() / "mindinsight_r13_job" / "run");
    ASSERT_TRUE(db);
    const TimeOverview t = CommAnalysisQuery::timeOverview(*db);
    ASSERT_EQ(t.steps.size(), 6u);
    std::map<std::pair<int64_t, int64_t>, int64_t> total; // (step, rank) -> total_ns
    auto st = db->prepare("SELECT step, rank_id, total_ns FROM step_trace WHERE step IS NOT NULL");
    while (st.step())
        total[{ st.int64(0), st.int64(1) }] = st.int64(2);
    ASSERT_EQ(total.size(), 20u);
    for (const auto& s : t.steps) {
        SCOPED_TRACE(s.step);
        if (s.step == 6) {
            EXPECT_EQ(s.ranks, 0);
            EXPECT_TRUE(s.meanWaitNs);
            continue;
        }
        EXPECT_EQ(s.ranks, 4);
        int64_t mx = 0;
        for (int64_t r = 0; r < 4; ++r)
            mx = std::max(mx, total.at({ s.step, r }));
        EXPECT_EQ(s.maxNs, mx);
        EXPECT_EQ(total.at({ s.step, s.maxRank }), mx);
    }
}

// "All steps but the first": each rank's warm-up step (the lowest) is left out of the mean when it has others.
TEST(StepMeans, SkipFirstLeavesOutEachRanksWarmUpStep)
{
    const auto db = openModel(test::dataDir() / "mindinsight_r13_job" / "run");
    ASSERT_TRUE(db);
    const auto all = query::StepQuery::averaged(*db);
    const auto skipped = query::StepQuery::averaged(*db, true);
    ASSERT_EQ(all.size(), 4u);
    ASSERT_EQ(skipped.size(), 4u);
    for (size_t i = 0; i < all.size(); ++i) {
        SCOPED_TRACE(all[i].rank);
        const auto expected
            = db->scalarInt("SELECT CAST(ROUND(AVG(total_ns)) AS INTEGER) FROM step_trace WHERE rank_id = "
                + std::to_string(all[i].rank) + " AND step > 1");
        ASSERT_TRUE(expected);
        EXPECT_EQ(skipped[i].value(query::StepColumn::Total), expected);
        EXPECT_EQ(skipped[i].stepCount, all[i].stepCount - 1);
    }
    // Rank 2: step 1 is the 0.58 s warm-up; without it the mean is about 179 ms like the other steps.
    EXPECT_GT(*all[2].value(query::StepColumn::Total), 500000000);
    EXPECT_LT(*skipped[2].value(query::StepColumn::Total), 200000000);
    // A rank with a single step keeps it.
    const auto one = openModel(test::dataDir() / "torch_npu_2rank_level1");
    ASSERT_TRUE(one);
    EXPECT_EQ(query::StepQuery::averaged(*one, true).size(), 2u);
    EXPECT_EQ(query::StepQuery::averaged(*one, true)[0].value(query::StepColumn::Computing),
        query::StepQuery::averaged(*one)[0].value(query::StepColumn::Computing));
}

// The indexes depend on their own tables only: a timeline imported later (rows in other tables) keeps them, a change
// to a communication table drops them.
TEST(CommOpIndex, KeptAcrossRowChangesInOtherTablesDroppedByItsOwn)
{
    const auto db = openModel(test::dataDir() / "torch_npu_2rank_level1");
    const auto ops = CommOpIndex::forDatabase(db);
    const auto links = CommLinkIndex::forDatabase(db);
    {
        auto guard = db->lock();
        db->exec("INSERT INTO parse_issue (severity, message) VALUES ('info', 'a row elsewhere')");
        db->exec("INSERT INTO parse_issue (severity, message) VALUES ('info', 'and another')");
    }
    EXPECT_EQ(ops, CommOpIndex::forDatabase(db));
    EXPECT_EQ(links, CommLinkIndex::forDatabase(db));
    {
        auto guard = db->lock();
        db->exec("UPDATE comm_op SET wait_ns = wait_ns WHERE id = (SELECT MIN(id) FROM comm_op)");
    }
    const auto rebuilt = CommOpIndex::forDatabase(db);
    EXPECT_NE(ops, rebuilt);
    EXPECT_EQ(links, CommLinkIndex::forDatabase(db));
    {
        auto guard = db->lock();
        db->exec("UPDATE comm_link_row SET size_mb = size_mb WHERE id = (SELECT MIN(id) FROM comm_link_row)");
    }
    EXPECT_NE(links, CommLinkIndex::forDatabase(db));
    EXPECT_EQ(rebuilt, CommOpIndex::forDatabase(db));
    // clearCaches() drops every slot.
    db->clearCaches();
    EXPECT_NE(rebuilt, CommOpIndex::forDatabase(db));
}

// Issue 36, the window's open: IndexPrebuild builds both indexes on a read-only copy of the model, a caller asking
// meanwhile waits for that build instead of making its own, and the prebuilt indexes give the SQL oracle's figures.
TEST(IndexPrebuild, IndexesBuiltOnTheCopyAreTheModelsAndWaitedFor)
{
    const auto db = openModel(test::dataDir() / "torch_npu_2rank_level1");
    ASSERT_TRUE(db);
    auto prebuild = IndexPrebuild::prepare(*db, 1ull << 30);
    ASSERT_TRUE(prebuild);
    EXPECT_EQ(prebuild->copyBytes(), db->sizeBytes());
    EXPECT_EQ(prebuild->parallel(), hardwareThreads() > 1);
    std::shared_ptr<const CommOpIndex> seen;
    std::atomic<bool> asked { false };
    std::thread asker([&] {
        asked = true;
        seen = CommOpIndex::forDatabase(db); // waits: the slot is reserved
    });
    while (!asked)
        std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(seen); // still waiting for the prebuild
    EXPECT_EQ(prebuild->run(), 2);
    asker.join();
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen, CommOpIndex::forDatabase(db));
    expectIndexEqualsSql(db);
}

// A row change in an index's tables before the prebuild ends drops that index's reservation: the caller builds it from
// the changed model; the other index is still the prebuilt one.
TEST(IndexPrebuild, ARowChangeDropsTheReservationAndTheCallerBuilds)
{
    const auto db = openModel(test::dataDir() / "torch_npu_2rank_level1");
    auto prebuild = IndexPrebuild::prepare(*db, 1ull << 30);
    ASSERT_TRUE(prebuild);
    {
        auto guard = db->lock();
        db->exec("UPDATE comm_op SET wait_ns = 123456789 WHERE id = (SELECT MIN(id) FROM comm_op WHERE is_total = 0)");
    }
    const auto ops = CommOpIndex::forDatabase(db); // not reserved any more: built here, from the changed row
    EXPECT_EQ(prebuild->run(), 1);
    EXPECT_EQ(ops, CommOpIndex::forDatabase(db));
    const int64_t changed = db->scalarInt("SELECT MIN(id) FROM comm_op WHERE is_total = 0").value_or(-1);
    const auto all = ops->ops(std::nullopt);
    const auto op = std::find_if(all.begin(), all.end(), [&](const CommOpIndex::Op& o) { return o.id == changed; });
    ASSERT_NE(op, all.end());
    EXPECT_EQ(op->waitNs, 123456789);
    expectIndexEqualsSql(db);
}

// A prebuild dropped unrun (the open was superseded) releases its waiters; nothing to build or a copy over the budget
// gives no prebuild.
TEST(IndexPrebuild, DroppedUnrunReleasesWaitersAndLimitsApply)
{
    const auto db = openModel(test::dataDir() / "torch_npu_2rank_level1");
    EXPECT_FALSE(IndexPrebuild::prepare(*db, 1024)); // the copy would exceed the budget: nothing reserved
    auto prebuild = IndexPrebuild::prepare(*db, 1ull << 30);
    ASSERT_TRUE(prebuild);
    EXPECT_FALSE(IndexPrebuild::prepare(*db, 1ull << 30)); // already reserved
    std::shared_ptr<const CommLinkIndex> seen;
    std::thread asker([&] { seen = CommLinkIndex::forDatabase(db); });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    prebuild.reset();
    asker.join();
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen, CommLinkIndex::forDatabase(db));
    const auto empty = std::shared_ptr<model::Database>(model::Database::createModel());
    EXPECT_FALSE(IndexPrebuild::prepare(*empty, 1ull << 30));
}

// A budget of one copy is enough to build both at once: the second thread reads the same pages (a view of the copy).
TEST(IndexPrebuild, ABudgetOfOneCopyBuildsBoth)
{
    const auto db = openModel(test::dataDir() / "torch_npu_2rank_level1");
    auto prebuild = IndexPrebuild::prepare(*db, db->sizeBytes());
    ASSERT_TRUE(prebuild);
    EXPECT_EQ(prebuild->parallel(), hardwareThreads() > 1);
    EXPECT_EQ(prebuild->run(), 2);
    expectIndexEqualsSql(db);
}

// The copy, and a view of it read on another thread at the same time, hold the model's rows and refuse writes; only a
// copy has a view.
TEST(IndexPrebuild, TheModelsCopyIsReadOnlyWithTheSameRows)
{
    const auto db = openModel(test::dataDir() / "torch_npu_2rank_level1");
    const auto copy = db->readOnlyCopy();
    const auto view = copy->readOnlyView();
    const std::vector<const char*> queries { "SELECT COUNT(*) FROM comm_op", "SELECT COUNT(*) FROM comm_link_row",
        "SELECT SUM(wait_ns) FROM comm_op", "SELECT COUNT(*) FROM step_trace" };
    std::vector<std::optional<int64_t>> fromView(queries.size());
    std::thread reader([&] {
        for (size_t i = 0; i < queries.size(); ++i)
            fromView[i] = view->scalarInt(queries[i]);
    });
    for (size_t i = 0; i < queries.size(); ++i)
        EXPECT_EQ(copy->scalarInt(queries[i]), db->scalarInt(queries[i])) << queries[i];
    reader.join();
    for (size_t i = 0; i < queries.size(); ++i)
        EXPECT_EQ(fromView[i], db->scalarInt(queries[i])) << queries[i];
    EXPECT_THROW(copy->exec("DELETE FROM comm_op"), model::DbError);
    EXPECT_THROW(view->exec("DELETE FROM comm_op"), model::DbError);
    EXPECT_THROW(db->readOnlyView(), model::DbError);
    EXPECT_GT(db->scalarInt("SELECT COUNT(*) FROM comm_op").value_or(0), 0);
}

// The window starts the builds from the loader (LoadOptions::beforeIndexes): once, with every summary row written and
// no secondary index yet, so the copy is smaller; build() there and run() after the load, which only fills the slots;
// the indexes are the model's.
TEST(IndexPrebuild, StartedBeforeTheModelsIndexesFromTheLoader)
{
    load::LoadOptions options;
    int calls = 0;
    int64_t indexesAtCall = -1;
    std::shared_ptr<IndexPrebuild> prebuild;
    uint64_t sizeAtCall = 0;
    options.beforeIndexes = [&](model::Database& model) {
        ++calls;
        indexesAtCall = model.scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
                            .value_or(-1);
        sizeAtCall = model.sizeBytes();
        prebuild = IndexPrebuild::prepare(model, 1ull << 30);
        ASSERT_TRUE(prebuild);
        std::thread([prebuild] { prebuild->build(); }).join();
    };
    std::shared_ptr<model::Database> db
        = load::Loader::load(io::Detector::detect({ (test::dataDir() / "torch_npu_2rank_level1").string() }), options);
    ASSERT_TRUE(db);
    EXPECT_EQ(calls, 1);
    EXPECT_LT(indexesAtCall,
        db->scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").value_or(0));
    EXPECT_LT(prebuild->copyBytes(), db->sizeBytes()); // copied before the indexes
    EXPECT_EQ(prebuild->copyBytes(), sizeAtCall);
    EXPECT_EQ(prebuild->run(), 2);
    EXPECT_EQ(prebuild->run(), 0); // once
    expectIndexEqualsSql(db);
}

// A prebuild may outlive its model (an open cancelled while the builds ran): its reservations are void then, and
// neither the builds nor dropping it touch the model that is gone.
TEST(IndexPrebuild, OutlivesItsModel)
{
    std::unique_ptr<IndexPrebuild> prebuild;
    {
        const auto db = openModel(test::dataDir() / "torch_npu_2rank_level1");
        prebuild = IndexPrebuild::prepare(*db, 1ull << 30);
        ASSERT_TRUE(prebuild);
    }
    EXPECT_EQ(prebuild->run(), 0);
    std::unique_ptr<IndexPrebuild> unrun;
    {
        const auto db = openModel(test::dataDir() / "torch_npu_2rank_level1");
        unrun = IndexPrebuild::prepare(*db, 1ull << 30);
        ASSERT_TRUE(unrun);
    }
    unrun.reset();
}

// SPDX-License-Identifier: Apache-2.0
// Deferred groups (timeline, kernels, memory), the summary's memory peaks and the kernel totals: each group imports
// only its files, two callers of one rank both return with the data there, the aggregates equal the full rows.
#include "TestSupport.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/query/FlopsQuery.h"
#include "npuscope/query/MemoryQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace npuscope;
using npuscope::test::count;
using npuscope::test::dataDir;
using npuscope::test::openFolder;
using npuscope::test::rows;
using npuscope::test::ScratchDir;
namespace fs = std::filesystem;

namespace {

const fs::path kLevel2 = dataDir() / "torch_npu_2rank_level2";

std::string status(model::Database& db, int64_t rank, const std::string& kind)
{
    return test::text(
        db, "SELECT status FROM rank_file WHERE rank_id = " + std::to_string(rank) + " AND kind = '" + kind + "'");
}

// Data lines of a CSV without quoted newlines.
int64_t dataLines(const fs::path& csv)
{
    std::ifstream in(csv);
    std::string line;
    int64_t n = -1; // the header
    while (std::getline(in, line))
        n += !line.empty();
    return n;
}

void expectSamePeaks(model::Database& db, const std::string& what)
{
    const auto aggregate = query::MemoryQuery::peaks(db, 65536.0);
    const auto records = query::MemoryQuery::peaks(db, 65536.0, query::MemoryQuery::Source::Records);
    ASSERT_EQ(aggregate.size(), records.size()) << what;
    int withPeak = 0;
    for (size_t i = 0; i < aggregate.size(); ++i) {
        const auto& a = aggregate[i];
        const auto& r = records[i];
        EXPECT_EQ(a.rank, r.rank) << what;
        EXPECT_EQ(a.peakReservedMb, r.peakReservedMb) << what << " rank " << a.rank;
        EXPECT_EQ(a.peakTimeNs, r.peakTimeNs) << what << " rank " << a.rank;
        EXPECT_EQ(a.component, r.component) << what << " rank " << a.rank;
        EXPECT_EQ(a.peakAllocatedMb, r.peakAllocatedMb) << what << " rank " << a.rank;
        EXPECT_EQ(a.ratio, r.ratio) << what << " rank " << a.rank;
        withPeak += a.peakReservedMb.has_value();
    }
    EXPECT_GT(withPeak, 0) << what;
}

std::string generate(const ScratchDir& dir, const std::string& name, bool flops, std::optional<int> memoryHeavy)
{
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / name).string();
    o.ranks = 4;
    o.traceMb = 0;
    o.flops = flops;
    o.flopsLightRank = flops ? std::optional<int>(1) : std::nullopt;
    o.memoryHeavyRank = memoryHeavy;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return o.outDir;
}

// kernel_total equals the same sums over the kernel table, rank by rank and step by step.
const char* kTotalsSql = "SELECT rank_id, step, kernels, flops_kernels, flops, flops_dur_ns FROM kernel_total "
                         "ORDER BY 1, 2";
const char* kKernelSql = "SELECT rank_id, step, COUNT(*), COUNT(flops), TOTAL(flops), "
                         "CAST(TOTAL(CASE WHEN flops IS NOT NULL THEN dur END) AS INTEGER) FROM kernel "
                         "GROUP BY 1, 2 ORDER BY 1, 2";

void expectSameFlops(const query::FlopsSummary& a, const query::FlopsSummary& b)
{
    EXPECT_EQ(a.recorded, b.recorded);
    ASSERT_EQ(a.ranks.size(), b.ranks.size());
    for (size_t i = 0; i < a.ranks.size(); ++i) {
        EXPECT_EQ(a.ranks[i].rank, b.ranks[i].rank);
        EXPECT_EQ(a.ranks[i].kernels, b.ranks[i].kernels);
        EXPECT_EQ(a.ranks[i].flops, b.ranks[i].flops);
        EXPECT_EQ(a.ranks[i].computeNs, b.ranks[i].computeNs);
        EXPECT_EQ(a.ranks[i].relative, b.ranks[i].relative);
    }
}

} // namespace

TEST(DeferredGroups, EachGroupImportsOnlyItsFiles)
{
    auto db = openFolder(kLevel2);
    ASSERT_TRUE(db);
    for (const char* kind : { "trace_view", "kernel_details", "memory_record", "operator_memory" })
        EXPECT_EQ(status(*db, 0, kind), "skipped") << kind;
    EXPECT_EQ(status(*db, 0, "npu_module_mem"), "loaded"); // small: stays in the summary
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM memory_record"), 0);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM memory_peak WHERE rank_id = 0"), 0);

    ASSERT_TRUE(load::Loader::loadDeferred(*db, 0, io::kKernelsGroup));
    EXPECT_EQ(status(*db, 0, "kernel_details"), "loaded");
    EXPECT_EQ(status(*db, 0, "trace_view"), "skipped");
    EXPECT_EQ(status(*db, 0, "memory_record"), "skipped");
    EXPECT_EQ(status(*db, 1, "kernel_details"), "skipped");
    const auto fullModel = openFolder(kLevel2, true);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel WHERE rank_id = 0"),
        count(*fullModel, "SELECT COUNT(*) FROM kernel WHERE rank_id = 0"));
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM kernel WHERE rank_id = 0"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM slice"), 0);
    EXPECT_FALSE(load::Loader::loadDeferred(*db, 0, io::kKernelsGroup)); // nothing left

    ASSERT_TRUE(load::Loader::loadDeferred(*db, 0, io::kMemoryGroup));
    EXPECT_EQ(status(*db, 0, "memory_record"), "loaded");
    EXPECT_EQ(status(*db, 0, "operator_memory"), "loaded");
    EXPECT_EQ(status(*db, 0, "trace_view"), "skipped");
    const auto out0 = kLevel2 / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
    EXPECT_EQ(
        count(*db, "SELECT COUNT(*) FROM memory_record WHERE rank_id = 0"), dataLines(out0 / "memory_record.csv"));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM operator_memory WHERE rank_id = 0"), 184);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM memory_record WHERE rank_id = 1"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM slice"), 0);

    ASSERT_TRUE(load::Loader::loadDeferred(*db, 0, io::kTimelineGroup));
    EXPECT_EQ(status(*db, 0, "trace_view"), "loaded");
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM slice WHERE rank_id = 0"),
        count(*fullModel, "SELECT COUNT(*) FROM slice WHERE rank_id = 0"));
    // The rank's file list keeps the plan's order however the groups were imported.
    EXPECT_EQ(rows(*db, "SELECT kind FROM rank_file WHERE rank_id = 0 ORDER BY rowid"),
        rows(*fullModel, "SELECT kind FROM rank_file WHERE rank_id = 0 ORDER BY rowid"));
}

TEST(DeferredGroups, SecondCallerWaitsForTheFirstAndBothSeeTheData)
{
    auto db = openFolder(kLevel2);
    ASSERT_TRUE(db);
    const auto fullModel = openFolder(kLevel2, true);
    const int64_t slices = count(*fullModel, "SELECT COUNT(*) FROM slice WHERE rank_id = 1");
    ASSERT_GT(slices, 0);

    std::atomic<bool> claimed { false };
    bool firstResult = false;
    // The first caller holds its import open (in its progress callback, after claiming the files) long enough
    // for the second caller to find them "loading".
    std::thread first([&] {
        firstResult = load::Loader::loadTimeline(*db, 1, [&](const load::LoadProgress&) {
            if (!claimed.exchange(true))
                std::this_thread::sleep_for(std::chrono::milliseconds(300));
        });
    });
    while (!claimed.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const bool secondResult = load::Loader::loadTimeline(*db, 1);
    int64_t seenBySecond = 0;
    {
        auto lock = db->lock();
        seenBySecond = count(*db, "SELECT COUNT(*) FROM slice WHERE rank_id = 1");
    }
    first.join();
    EXPECT_TRUE(firstResult);
    EXPECT_TRUE(secondResult); // the data arrived during its call
    EXPECT_EQ(seenBySecond, slices); // not "nothing to load" before the rows were there
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM slice WHERE rank_id = 1"), slices); // imported once
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank_file WHERE rank_id = 1 AND status = 'loading'"), 0);
}

TEST(DeferredGroups, MemoryPeaksFromTheAggregateEqualTheFullRows)
{
    // Text export (real), db export (real, MEMORY_RECORD + NPU_MEM app rows), generated with a memory-heavy rank.
    ScratchDir dir;
    const std::string generated = generate(dir, "heavy", false, 2);
    for (const fs::path& path : { kLevel2, dataDir() / "torch_npu_2rank_db" / "level1", fs::path(generated) }) {
        auto db = openFolder(path, true);
        ASSERT_TRUE(db) << path;
        expectSamePeaks(*db, path.string());
    }
    // The summary alone gives the same peaks (no memory_record row imported).
    auto summary = openFolder(generated);
    auto full = openFolder(generated, true);
    EXPECT_EQ(count(*summary, "SELECT COUNT(*) FROM memory_record"), 0);
    const auto a = query::MemoryQuery::peaks(*summary);
    const auto b = query::MemoryQuery::peaks(*full, std::nullopt, query::MemoryQuery::Source::Records);
    ASSERT_EQ(a.size(), 4u);
    ASSERT_EQ(b.size(), 4u);
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].peakReservedMb, b[i].peakReservedMb);
        EXPECT_EQ(a[i].peakTimeNs, b[i].peakTimeNs);
        EXPECT_EQ(a[i].device, b[i].device);
    }
    // The heavy rank stands out by the generator's factor.
    ASSERT_TRUE(a[2].peakReservedMb && a[0].peakReservedMb);
    EXPECT_GT(*a[2].peakReservedMb, 1.5 * *a[0].peakReservedMb);
}

TEST(DeferredGroups, KernelTotalsEqualTheKernelTable)
{
    ScratchDir dir;
    const std::string generated = generate(dir, "flops", true, std::nullopt);
    for (const fs::path& path : { fs::path(generated), kLevel2 }) {
        auto summary = openFolder(path);
        ASSERT_TRUE(summary) << path;
        const auto ranks = test::rows(*summary, "SELECT rank_id FROM rank ORDER BY 1");
        for (const auto& r : ranks)
            EXPECT_TRUE(load::Loader::loadKernelTotals(*summary, std::stoll(r))) << path << " rank " << r;
        EXPECT_FALSE(load::Loader::loadKernelTotals(*summary, 0)); // already there
        EXPECT_EQ(count(*summary, "SELECT COUNT(*) FROM kernel"), 0);
        auto full = openFolder(path, true);
        EXPECT_EQ(test::dump(*summary, kTotalsSql), test::dump(*full, kKernelSql)) << path;
        EXPECT_GT(count(*summary, "SELECT COUNT(*) FROM kernel_total"), 0);
        expectSameFlops(query::FlopsQuery::perRank(*summary), query::FlopsQuery::perRank(*full));
        for (const auto& step : test::rows(*full, "SELECT DISTINCT step FROM kernel WHERE step IS NOT NULL"))
            expectSameFlops(query::FlopsQuery::perRank(*summary, std::stoll(step)),
                query::FlopsQuery::perRank(*full, std::stoll(step)));
        // A rank's kernel table replaces its totals; the figures stay the same.
        ASSERT_TRUE(load::Loader::loadDeferred(*summary, 0, io::kKernelsGroup));
        EXPECT_EQ(count(*summary, "SELECT COUNT(*) FROM kernel_total WHERE rank_id = 0"), 0);
        expectSameFlops(query::FlopsQuery::perRank(*summary), query::FlopsQuery::perRank(*full));
        EXPECT_FALSE(load::Loader::loadKernelTotals(*summary, 0)); // the kernel table has them
    }
    auto generatedFull = openFolder(generated, true);
    const auto flops = query::FlopsQuery::perRank(*generatedFull);
    ASSERT_TRUE(flops.recorded);
    ASSERT_EQ(flops.ranks.size(), 4u);
    EXPECT_NEAR(flops.ranks[1].relative, testgen::GeneratorOptions::kFlopsLightFactor, 0.05);
}

TEST(DeferredGroups, SecondLoadOfAGroupOrTotalsIsACacheHit)
{
    ScratchDir cacheDir;
    const load::ParseCache cache({ cacheDir.path().string(), 1ull << 30 });
    for (int pass = 0; pass < 2; ++pass) {
        auto db = openFolder(kLevel2);
        ASSERT_TRUE(db);
        load::LoadReport memory;
        ASSERT_TRUE(load::Loader::loadDeferred(*db, 1, io::kMemoryGroup, {}, nullptr, &cache, &memory));
        load::LoadReport totals;
        ASSERT_TRUE(load::Loader::loadKernelTotals(*db, 1, {}, nullptr, &cache, &totals));
        EXPECT_EQ(memory.cacheHits, pass) << pass;
        EXPECT_EQ(memory.cacheMisses, 1 - pass) << pass;
        EXPECT_EQ(totals.cacheHits, pass) << pass;
        EXPECT_EQ(totals.cacheMisses, 1 - pass) << pass;
        EXPECT_EQ(memory.parsedFiles.size(), pass == 0 ? 2u : 0u); // memory_record.csv, operator_memory.csv
        EXPECT_EQ(totals.parsedFiles.size(), pass == 0 ? 1u : 0u); // kernel_details.csv
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM memory_record WHERE rank_id = 1"),
            dataLines(kLevel2 / "rank1_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "memory_record.csv"));
        EXPECT_GT(count(*db, "SELECT COUNT(*) FROM kernel_total WHERE rank_id = 1"), 0);
    }
}

TEST(DeferredGroups, DamagedMemoryRecordIsReportedWithItsLineAndTheRestLoads)
{
    ScratchDir dir;
    const fs::path out = dir.path() / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
    fs::create_directories(out);
    const auto source = kLevel2 / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
    fs::copy_file(source / "step_trace_time.csv", out / "step_trace_time.csv");
    {
        std::ofstream csv(out / "memory_record.csv");
        csv << "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device "
               "Type\n"
               "PTA+GE,1000.000,10.5,20.25,10.5,1,NPU:3\n"
               "PTA+GE,bogus,99,99,99,1,NPU:3\n" // line 3: no valid timestamp
               "PTA+GE,3000.000,12.5,30.75,12.5,1,NPU:3\n"
               "PTA+GE,4000.00"; // truncated last record: line 5
    }
    const auto file = (out / "memory_record.csv").string();
    auto db = openFolder(dir.path());
    ASSERT_TRUE(db);
    const std::string issues
        = "SELECT line FROM parse_issue WHERE file = '" + file + "' AND severity <> 'info' ORDER BY line";
    const auto summaryIssues = rows(*db, issues);
    ASSERT_FALSE(summaryIssues.empty());
    EXPECT_EQ(summaryIssues.front(), "3");
    // The good rows still give the peak (30.75 MB at 3000 µs; line 5 has a timestamp but no other cell).
    const auto peaks = query::MemoryQuery::peaks(*db);
    ASSERT_EQ(peaks.size(), 1u);
    ASSERT_TRUE(peaks[0].peakReservedMb);
    EXPECT_EQ(*peaks[0].peakReservedMb, 30.75);
    EXPECT_EQ(peaks[0].peakTimeNs, 3000000);
    EXPECT_EQ(peaks[0].device, 3); // the rank's device from the file's NPU:3
    // The Memory group reports the same problems once (not a second time) and imports the good rows.
    ASSERT_TRUE(load::Loader::loadDeferred(*db, 0, io::kMemoryGroup));
    EXPECT_EQ(rows(*db, issues), summaryIssues);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM memory_record WHERE ts = 3000000"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM memory_record WHERE ts = 1000000"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM memory_record WHERE allocated_mb = 99"), 0);
    const auto again = query::MemoryQuery::peaks(*db, std::nullopt, query::MemoryQuery::Source::Records);
    EXPECT_EQ(again[0].peakReservedMb, peaks[0].peakReservedMb);
}

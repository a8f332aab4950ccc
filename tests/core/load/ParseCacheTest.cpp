// SPDX-License-Identifier: Apache-2.0
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"

#include <gtest/gtest.h>

#include <fstream>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::dump;
using npuscope::test::ScratchDir;

namespace {

const char* kChecks[] = {
    "SELECT rank_id, step, computing_ns FROM step_trace ORDER BY 1, 2",
    "SELECT rank_id, kind, status FROM rank_file ORDER BY 1, 2",
    "SELECT rank_id, src, dst, matrix_op, bandwidth_gbps FROM comm_link ORDER BY 1, 2, 3, 4",
    "SELECT s.rank_id, s.ts, s.dur, s.depth, n.value FROM slice s JOIN string n ON n.id = s.name_id ORDER BY 1, 2, 4",
    // One element over two lines: parenthesised, so clang does not take it for a missing comma.
    ("SELECT f.cat, f.flow_id, a.ts, b.ts FROM flow f LEFT JOIN slice a ON a.id = f.src_slice_id "
     "LEFT JOIN slice b ON b.id = f.dst_slice_id ORDER BY 1, 2, 3, 4"),
    "SELECT severity, file, message FROM parse_issue ORDER BY 1, 2, 3",
};

size_t entries(const fs::path& dir)
{
    size_t n = 0;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        n += it->path().extension() == ".npdb";
    return n;
}

} // namespace

TEST(ParseCache, SecondOpenComesFromTheCacheAndEqualsTheFirst)
{
    ScratchDir cacheDir;
    load::ParseCache cache({ cacheDir.path().string(), 1ull << 30 });
    load::LoadOptions options;
    options.cache = &cache;
    options.loadTimelines = true;
    const auto plan = io::Detector::detect({ (dataDir() / "torch_npu_2rank_level1").string() });
    auto first = load::Loader::load(plan, options);
    ASSERT_TRUE(first);
    // The summary, one deferred entry per rank and group (timeline, kernels, memory) and the whole model.
    EXPECT_EQ(entries(cacheDir.path()), 8u);
    load::LoadReport report;
    options.report = &report;
    auto second = load::Loader::load(plan, options);
    ASSERT_TRUE(second);
    EXPECT_EQ(entries(cacheDir.path()), 8u);
    // The second open parsed no input file at all: the whole model came from one entry.
    EXPECT_TRUE(report.parsedFiles.empty()) << report.parsedFiles.front();
    EXPECT_EQ(report.cacheHits, 1);
    EXPECT_EQ(report.cacheMisses, 0);
    for (const char* sql : kChecks)
        EXPECT_EQ(dump(*first, sql), dump(*second, sql)) << sql;
    // Without the whole-model entry, the summary and the per-rank entries serve, still parsing nothing.
    for (const auto& e : fs::directory_iterator(cacheDir.path())) {
        if (e.path().filename().string().rfind("full-", 0) == 0)
            fs::remove(e.path());
    }
    load::LoadReport partsReport;
    options.report = &partsReport;
    auto third = load::Loader::load(plan, options);
    ASSERT_TRUE(third);
    EXPECT_TRUE(partsReport.parsedFiles.empty());
    EXPECT_EQ(partsReport.cacheHits, 7);
    EXPECT_EQ(partsReport.cacheMisses, 1); // the whole model is stored again
    for (const char* sql : kChecks)
        EXPECT_EQ(dump(*first, sql), dump(*third, sql)) << sql;
    // Nothing was written next to the profile.
    for (const auto& e : fs::recursive_directory_iterator(dataDir() / "torch_npu_2rank_level1"))
        EXPECT_NE(e.path().extension(), ".npdb");
}

TEST(ParseCache, ChangedInputIsParsedAgain)
{
    ScratchDir cacheDir;
    ScratchDir work;
    fs::copy(dataDir() / "torch_npu_2rank_level0", work.path() / "job", fs::copy_options::recursive);
    for (const auto& e : fs::recursive_directory_iterator(work.path()))
        fs::permissions(
            e.path(), fs::perms::owner_read | fs::perms::owner_write | fs::perms::owner_exec, fs::perm_options::add);
    load::ParseCache cache({ cacheDir.path().string(), 1ull << 30 });
    load::LoadOptions options;
    options.cache = &cache;
    options.loadTimelines = false;
    auto plan = io::Detector::detect({ (work.path() / "job").string() });
    auto first = load::Loader::load(plan, options);
    ASSERT_TRUE(first);
    EXPECT_EQ(entries(cacheDir.path()), 1u);
    const auto csv = work.path() / "job" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv";
    {
        std::ofstream out(csv, std::ios::trunc);
        out << "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
               "Communication(Not Overlapped and Exclude Receive),Preparing\n7,1,2,3,5,4,7,0,2,1\n";
    }
    fs::last_write_time(csv, fs::last_write_time(csv) + std::chrono::seconds(5));
    plan = io::Detector::detect({ (work.path() / "job").string() });
    auto second = load::Loader::load(plan, options);
    ASSERT_TRUE(second);
    EXPECT_EQ(entries(cacheDir.path()), 2u);
    EXPECT_EQ(second->scalarInt("SELECT step FROM step_trace WHERE rank_id = 0"), 7);
}

TEST(ParseCache, TimelineLoadedLaterUsesTheCache)
{
    ScratchDir cacheDir;
    load::ParseCache cache({ cacheDir.path().string(), 1ull << 30 });
    load::LoadOptions options;
    options.cache = &cache;
    options.loadTimelines = false;
    const auto plan = io::Detector::detect({ (dataDir() / "torch_npu_2rank_level1").string() });
    auto a = load::Loader::load(plan, options);
    ASSERT_TRUE(load::Loader::loadTimeline(*a, 1, {}, nullptr, &cache));
    EXPECT_EQ(entries(cacheDir.path()), 4u); // the summary and rank 1's timeline, kernels and memory groups
    auto b = load::Loader::load(plan, options);
    ASSERT_TRUE(load::Loader::loadTimeline(*b, 1, {}, nullptr, &cache));
    EXPECT_EQ(entries(cacheDir.path()), 4u);
    for (const char* sql : kChecks)
        EXPECT_EQ(dump(*a, sql), dump(*b, sql)) << sql;
}

TEST(ParseCache, SizeCapEvictsTheOldestAndClearEmpties)
{
    ScratchDir cacheDir;
    load::ParseCache unlimited({ cacheDir.path().string(), 1ull << 30 });
    load::LoadOptions options;
    options.cache = &unlimited;
    options.loadTimelines = false;
    for (const char* sample : { "torch_npu_2rank_level0", "torch_npu_2rank_level1", "torch_npu_2rank_level2" })
        ASSERT_TRUE(load::Loader::load(io::Detector::detect({ (dataDir() / sample).string() }), options));
    EXPECT_EQ(entries(cacheDir.path()), 3u);
    const uint64_t total = unlimited.sizeBytes();
    ASSERT_GT(total, 0u);
    // A cap that only fits two entries: storing one more evicts the least recently used.
    load::ParseCache capped({ cacheDir.path().string(), total - 1 });
    options.cache = &capped;
    ASSERT_TRUE(load::Loader::load(io::Detector::detect({ (dataDir() / "torch_npu_2023_2rank").string() }), options));
    EXPECT_LE(capped.sizeBytes(), total - 1);
    EXPECT_LT(entries(cacheDir.path()), 4u);
    EXPECT_GT(capped.clear(), 0u);
    EXPECT_EQ(entries(cacheDir.path()), 0u);
}

TEST(ParseCache, DamagedEntriesAreDiscardedWithAWarning)
{
    ScratchDir cacheDir;
    load::ParseCache cache({ cacheDir.path().string(), 1ull << 30 });
    load::LoadOptions options;
    options.cache = &cache;
    options.loadTimelines = true;
    const auto plan = io::Detector::detect({ (dataDir() / "torch_npu_2rank_level1").string() });
    auto first = load::Loader::load(plan, options);
    ASSERT_TRUE(first);
    // Damage every entry: keep the SQLite header, overwrite the rest with garbage.
    for (const auto& e : fs::directory_iterator(cacheDir.path())) {
        const auto size = fs::file_size(e.path());
        std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(std::min<uintmax_t>(size / 2, 4096)));
        const std::string junk(static_cast<size_t>(size / 2), '\x5a');
        f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
    }
    load::LoadReport report;
    options.report = &report;
    auto second = load::Loader::load(plan, options);
    ASSERT_TRUE(second);
    EXPECT_GE(report.cacheRejected, 1);
    EXPECT_FALSE(report.parsedFiles.empty()); // parsed again instead of trusting the damage
    EXPECT_GE(second->scalarInt("SELECT COUNT(*) FROM parse_issue WHERE message LIKE 'parse cache entry unusable%' "
                                "OR message LIKE 'parse cache entry %unusable%'"),
        1);
    for (const char* sql : kChecks) {
        if (std::string(sql).find("parse_issue") != std::string::npos)
            continue;
        EXPECT_EQ(dump(*first, sql), dump(*second, sql)) << sql;
    }
}

TEST(ParseCache, CancelLeavesNoEntryAndTheNextLoadWorks)
{
    ScratchDir cacheDir;
    load::ParseCache cache({ cacheDir.path().string(), 1ull << 30 });
    load::LoadOptions options;
    options.cache = &cache;
    options.loadTimelines = true;
    options.threads = 1;
    const auto plan = io::Detector::detect({ (dataDir() / "torch_npu_2rank_level1").string() });
    std::atomic<bool> cancel { false };
    int calls = 0;
    // Cancel in the middle of the first rank's files.
    auto db = load::Loader::load(
        plan, options, [&](const load::LoadProgress&) { cancel = ++calls > 3; }, &cancel);
    EXPECT_EQ(db, nullptr);
    EXPECT_EQ(entries(cacheDir.path()), 0u);
    cancel = false;
    auto again = load::Loader::load(plan, options, {}, &cancel);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->scalarInt("SELECT COUNT(*) FROM rank"), 2);
    EXPECT_GT(again->scalarInt("SELECT COUNT(*) FROM slice").value_or(0), 0);
    EXPECT_EQ(again->scalarInt("SELECT COUNT(*) FROM rank_file WHERE status IN ('planned', 'loading')"), 0);
}

// SPDX-License-Identifier: Apache-2.0
// Faults around the input and the parse cache (docs/robustness.md): a read that ends in the middle of a file, a file
// that cannot be read, a cache folder that cannot be written, a cache entry of another schema, a file that changes
// while it is read, and a cancel at every stage of a load. Each one must leave a usable result and say what happened.
#include "TestSupport.h"

#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/io/torch_npu/StepTraceImporter.h"
#include "npuscope/load/MemoryGuard.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/model/ModelWriter.h"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <thread>

using namespace npuscope;
using namespace npuscope::test;
namespace fs = std::filesystem;

namespace {

const fs::path kTwoRanks = dataDir() / "torch_npu_2023_2rank";

// A copy of the two-rank sample the test may change.
fs::path copyOfTwoRanks(const ScratchDir& scratch)
{
    const fs::path dst = scratch.path() / "job";
    fs::copy(kTwoRanks, dst, fs::copy_options::recursive);
    return dst;
}

int64_t issues(model::Database& db, const std::string& severity, const std::string& like)
{
    return count(
        db, "SELECT COUNT(*) FROM parse_issue WHERE severity = '" + severity + "' AND message LIKE '%" + like + "%'");
}

} // namespace

TEST(FaultInjection, ReadEndsInTheMiddleOfAFile)
{
    // A FIFO whose writer stops in the middle of the third record and closes: the reader sees the end early.
    ScratchDir scratch;
    const fs::path fifo = scratch.path() / "step_trace_time.csv";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {
        std::ofstream out(fifo, std::ios::binary);
        out << "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
               "Communication(Not Overlapped and Exclude Receive),Preparing\n"
               "1,100.5,20,5,25,3,0,0,20,1\n2,200.25,10,5,15,1,0,0,10,2\n3,30\"0.1,1";
    });
    auto db = model::Database::createModel();
    model::ModelWriter w(*db);
    w.begin();
    io::ImportContext ctx(w, 0, fifo.string());
    EXPECT_TRUE(io::StepTraceImporter::run(ctx));
    w.commit();
    writer.join();
    // The two whole records are in; the cut one is reported with its line, not half-imported.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace WHERE step IN (1, 2)"), 2);
    EXPECT_EQ(count(*db, "SELECT computing_ns FROM step_trace WHERE step = 2"), 200250);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace WHERE step = 3 AND computing_ns IS NOT NULL"), 0);
    EXPECT_GE(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE line = 4"), 1);
}

TEST(FaultInjection, UnreadableFileLeavesTheOthersLoaded)
{
    // kernel_details.csv replaced by a folder (a read fails with EISDIR): no kernel rows for that rank, the rest loads.
    ScratchDir scratch;
    const fs::path job = copyOfTwoRanks(scratch);
    const fs::path kernels = job / "test_rank_0/ASCEND_PROFILER_OUTPUT/kernel_details.csv";
    fs::remove(kernels);
    fs::create_directory(kernels);
    auto db = openFolder(job, true, 1);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 2);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM step_trace WHERE rank_id = 0"), 0);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM kernel WHERE rank_id = 1"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel WHERE rank_id = 0"), 0);
}

TEST(FaultInjection, CacheFolderThatCannotBeWrittenLoadsWithoutIt)
{
    // The cache folder's place is taken by a file (what a read-only or full disk gives too: no entry can be made).
    ScratchDir scratch;
    writeFile(scratch.path() / "not-a-folder", "x");
    load::ParseCache::Options options;
    options.dir = (scratch.path() / "not-a-folder" / "parse").string();
    const load::ParseCache cache(options);
    load::LoadOptions load;
    load.cache = &cache;
    load.loadTimelines = false;
    auto db = load::Loader::load(io::Detector::detect({ kTwoRanks.string() }), load);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 2);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM step_trace"), 0);
    EXPECT_EQ(issues(*db, "info", "parse cache not written"), 1);
    EXPECT_EQ(
        count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'info' AND file = '" + options.dir + "'"), 1);
}

TEST(FaultInjection, CacheOnAFullDiskLoadsWithoutIt)
{
    // A real write failure in the middle of the cache entry: the file size limit (RLIMIT_FSIZE, with SIGXFSZ
    // ignored) makes every write past 8 KiB fail with EFBIG, as a full disk fails with ENOSPC, while SQLite is
    // writing the entry. The load succeeds, says it once, and leaves no partial file in the cache folder.
    ScratchDir scratch;
    load::ParseCache::Options options;
    options.dir = (scratch.path() / "cache").string();
    const load::ParseCache cache(options);
    const auto plan = io::Detector::detect({ kTwoRanks.string() });
    load::LoadOptions load;
    load.cache = &cache;
    load.loadTimelines = false;
    load::LoadReport report;
    load.report = &report;
    rlimit saved {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit tiny = saved;
    tiny.rlim_cur = 8 * 1024;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &tiny), 0);
    auto db = load::Loader::load(plan, load);
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, oldHandler);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 2);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM step_trace"), 0);
    EXPECT_EQ(issues(*db, "info", "parse cache not written"), 1);
    EXPECT_EQ(report.cacheHits, 0);
    // No entry and no temporary file left: the next open parses again (and can store the entry).
    size_t left = 0;
    for (const auto& e : fs::directory_iterator(options.dir)) {
        ADD_FAILURE() << "left in the cache folder: " << e.path();
        ++left;
    }
    EXPECT_EQ(left, 0u);
    load::LoadReport again;
    load.report = &again;
    auto second = load::Loader::load(plan, load);
    ASSERT_TRUE(second);
    EXPECT_EQ(issues(*second, "info", "parse cache not written"), 0);
    EXPECT_EQ(again.cacheHits, 0);
    EXPECT_EQ(again.cacheMisses, 1);
}

TEST(FaultInjection, CacheEntryOfAnotherSchemaIsNotTrusted)
{
    // An entry under the right key whose tables differ (written by a newer or older npuscope, or edited): it is
    // refused, removed and the files are parsed again, with a warning.
    ScratchDir scratch;
    load::ParseCache::Options options;
    options.dir = (scratch.path() / "cache").string();
    const load::ParseCache cache(options);
    const auto plan = io::Detector::detect({ kTwoRanks.string() });
    load::LoadOptions load;
    load.cache = &cache;
    load.loadTimelines = false;
    auto first = load::Loader::load(plan, load);
    ASSERT_TRUE(first);
    const int64_t steps = count(*first, "SELECT COUNT(*) FROM step_trace");
    fs::path entry;
    for (const auto& e : fs::directory_iterator(options.dir))
        entry = e.path();
    ASSERT_FALSE(entry.empty());
    {
        auto edit = model::Database::createModelFromFile(entry.string());
        edit->exec("ALTER TABLE step_trace RENAME COLUMN computing_ns TO computing_us");
        edit->exec("CREATE TABLE added_by_a_newer_version (x INTEGER)");
        fs::remove(entry);
        edit->saveTo(entry.string());
    }
    load::LoadReport report;
    load.report = &report;
    auto second = load::Loader::load(plan, load);
    ASSERT_TRUE(second);
    EXPECT_EQ(report.cacheRejected, 1);
    EXPECT_EQ(report.cacheHits, 0);
    EXPECT_EQ(count(*second, "SELECT COUNT(*) FROM step_trace WHERE computing_ns IS NOT NULL"), steps);
    EXPECT_EQ(issues(*second, "warning", "parse cache entry"), 1);
}

TEST(FaultInjection, FileChangedWhileReadIsSaid)
{
    ScratchDir scratch;
    const fs::path job = copyOfTwoRanks(scratch);
    const fs::path steps = job / "test_rank_1/ASCEND_PROFILER_OUTPUT/step_trace_time.csv";
    bool appended = false;
    load::LoadOptions options;
    options.loadTimelines = false;
    options.threads = 1;
    // A job still writing its profile: the file grows while the loader is on it.
    auto db = load::Loader::load(io::Detector::detect({ job.string() }), options, [&](const load::LoadProgress& p) {
        if (!appended && p.currentFile == steps.string()) {
            std::ofstream(steps, std::ios::app) << "99,1,1,1,1,1,1,1,1\n";
            appended = true;
        }
    });
    ASSERT_TRUE(db);
    EXPECT_TRUE(appended);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'warning' AND rank_id = 1 AND file = '"
                      + steps.string() + "' AND message LIKE '%changed while it was read%reopen the folder%'"),
        1);
    EXPECT_EQ(issues(*db, "warning", "changed while it was read"), 1);
}

TEST(FaultInjection, FileChangedWhileReadIsReadAgainOnReopen)
{
    // The parse cache keys on the size and mtime seen before the read: the entry the changed load stored is never
    // found again, so reopening parses the file as it is now, without the warning.
    ScratchDir scratch;
    const fs::path job = copyOfTwoRanks(scratch);
    const fs::path steps = job / "test_rank_1/ASCEND_PROFILER_OUTPUT/step_trace_time.csv";
    load::ParseCache::Options cacheOptions;
    cacheOptions.dir = (scratch.path() / "cache").string();
    const load::ParseCache cache(cacheOptions);
    const auto plan = io::Detector::detect({ job.string() });
    bool appended = false;
    load::LoadOptions options;
    options.loadTimelines = false;
    options.threads = 1;
    options.cache = &cache;
    auto first = load::Loader::load(plan, options, [&](const load::LoadProgress& p) {
        if (!appended && p.currentFile == steps.string()) {
            std::ofstream(steps, std::ios::app) << "99,1,1,1,1,1,1,1,1\n";
            appended = true;
        }
    });
    ASSERT_TRUE(first && appended);
    EXPECT_EQ(issues(*first, "warning", "changed while it was read"), 1);
    load::LoadReport report;
    options.report = &report;
    auto second = load::Loader::load(io::Detector::detect({ job.string() }), options);
    ASSERT_TRUE(second);
    EXPECT_EQ(report.cacheHits, 0);
    EXPECT_EQ(report.cacheMisses, 1);
    EXPECT_EQ(issues(*second, "warning", "changed while it was read"), 0);
    // A third open, nothing changed since: from the cache.
    load::LoadReport third;
    options.report = &third;
    ASSERT_TRUE(load::Loader::load(io::Detector::detect({ job.string() }), options));
    EXPECT_EQ(third.cacheHits, 1);
}

TEST(FaultInjection, CancelAtEveryStageOfALoad)
{
    const auto plan = io::Detector::detect({ kTwoRanks.string() });
    load::LoadOptions options;
    options.threads = 1;
    int calls = 0;
    ASSERT_TRUE(load::Loader::load(plan, options, [&](const load::LoadProgress&) { ++calls; }));
    ASSERT_GT(calls, 5);
    // Cancel at the n-th progress report, for every n: the load returns nothing (or, past the last stage that checks,
    // the whole model), never a crash or a half model.
    int cancelled = 0;
    for (int n = 1; n <= calls; ++n) {
        std::atomic<bool> cancel { false };
        int seen = 0;
        auto db = load::Loader::load(
            plan, options,
            [&](const load::LoadProgress&) {
                if (++seen == n)
                    cancel = true;
            },
            &cancel);
        if (!db) {
            ++cancelled;
            continue;
        }
        SCOPED_TRACE(n);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 2);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank_file WHERE status = 'loaded'"),
            count(*db, "SELECT COUNT(*) FROM rank_file"));
    }
    EXPECT_GE(cancelled, calls - 2);
    // Deferred groups: a cancel leaves the files to import later ("skipped"), and a later call imports them.
    auto db = openPlan(plan);
    std::atomic<bool> cancel { true };
    EXPECT_FALSE(load::Loader::loadDeferred(*db, 0, io::kAllGroups, {}, &cancel));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel"), 0);
    EXPECT_TRUE(load::Loader::loadDeferred(*db, 0, io::kAllGroups));
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM kernel WHERE rank_id = 0"), 0);
}

TEST(FaultInjection, MemoryGuardSaysWhenALoadMayNotFit)
{
    const auto plan = io::Detector::detect({ kTwoRanks.string() });
    // The estimate is the planned bytes by kind: the communication matrices and summary CSVs count 2 per byte.
    uint64_t matrices = 0;
    for (const auto& r : plan.ranks) {
        for (const auto& f : r.files) {
            if (f.kind == io::FileKind::CommunicationMatrix)
                matrices += f.size;
        }
    }
    ASSERT_GT(matrices, 0u);
    const uint64_t summary = load::MemoryGuard::estimate(plan, false, io::kAllGroups);
    EXPECT_GE(summary, matrices * 2);
    EXPECT_GT(load::MemoryGuard::estimate(plan, true, io::kAllGroups), summary);
    EXPECT_TRUE(load::MemoryGuard::available().has_value()); // Linux: /proc/meminfo at least

    load::LoadOptions options;
    options.loadTimelines = false;
    // A machine too small for this load, then one large enough (silent).
    ::setenv("NPUSCOPE_MEMORY_AVAILABLE", std::to_string(summary / 2).c_str(), 1);
    auto db = load::Loader::load(plan, options);
    ::setenv("NPUSCOPE_MEMORY_AVAILABLE", std::to_string(summary * 2).c_str(), 1);
    auto enough = load::Loader::load(plan, options);
    ::unsetenv("NPUSCOPE_MEMORY_AVAILABLE");
    ASSERT_TRUE(db && enough);
    EXPECT_EQ(issues(*db, "warning", "this load may need about"), 1);
    EXPECT_EQ(issues(*enough, "warning", "this load may need about"), 0);
}

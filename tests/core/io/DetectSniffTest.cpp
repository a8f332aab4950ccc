// SPDX-License-Identifier: Apache-2.0
// Detection by content (SQLite tables, Chrome-trace JSON), several devices in one analysis db, folders holding only
// rank facts (profiler_info, parallel_strategy), report_<n>.db beside a cluster summary.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/io/detect/FileSniffer.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/StepQuery.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <fstream>

namespace fs = std::filesystem;
using namespace npuscope;
using namespace npuscope::test;

namespace {

const std::string kSqliteHeader("SQLite format 3\0", 16);

// Runs sql on a SQLite file (created when missing), leaving no journal or WAL beside it.
bool execOn(const fs::path& file, const std::string& sql)
{
    sqlite3* raw = nullptr;
    if (sqlite3_open(file.string().c_str(), &raw) != SQLITE_OK) {
        sqlite3_close(raw);
        return false;
    }
    const bool ok
        = sqlite3_exec(raw, (sql + "; PRAGMA journal_mode=DELETE;").c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(raw);
    return ok;
}

} // namespace

TEST(DetectSniff, MultiDeviceAnalysisDatPlansOneRankPerDevice)
{
    const auto plan = io::Detector::detect({ (dataDir() / "msinsight_multidevice_db").string() });
    ASSERT_EQ(plan.ranks.size(), 4u);
    EXPECT_EQ(plan.layout, io::LoadPlan::Layout::Cluster);
    for (int64_t i = 0; i < 4; ++i) {
        const auto& r = plan.ranks[static_cast<size_t>(i)];
        EXPECT_EQ(r.rank, i);
        EXPECT_EQ(r.rankSource, "device_id");
        ASSERT_EQ(r.files.size(), 1u);
        EXPECT_EQ(r.files[0].kind, io::FileKind::AnalysisDb);
        EXPECT_EQ(fs::path(r.files[0].path).filename(), "analysis.dat");
        EXPECT_EQ(r.files[0].size, 16384u);
    }
    EXPECT_TRUE(hasIssue(plan, "analysis.dat", "info"));
    EXPECT_TRUE(hasIssue(plan, "imported as analysis_db", "info"));
    EXPECT_TRUE(hasIssue(plan, "rank ids come from the device ids because there is no rank information", "info"));
}

TEST(DetectSniff, MultiDeviceAnalysisDatLoadsEachDevicesStepRow)
{
    auto db = openPlan(io::Detector::detect({ (dataDir() / "msinsight_multidevice_db").string() }));
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 4);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 4);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace WHERE rank_id <> device_id"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank WHERE rank_id = device_id"), 4);
    // Device 0: computing 75.72 µs, free 271016.82 µs, stage 271092.54 µs.
    EXPECT_EQ(count(*db, "SELECT computing_ns FROM step_trace WHERE rank_id = 0"), 75720);
    EXPECT_EQ(count(*db, "SELECT free_ns FROM step_trace WHERE rank_id = 0"), 271016820);
    EXPECT_EQ(count(*db, "SELECT stage_ns FROM step_trace WHERE rank_id = 0"), 271092540);
    EXPECT_EQ(count(*db, "SELECT computing_ns FROM step_trace WHERE rank_id = 3"), 76520);
    EXPECT_EQ(count(*db, "SELECT free_ns FROM step_trace WHERE rank_id = 2"), 218716660);
    const auto rows = query::StepQuery::breakdown(*db);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[1].rank, 1);
}

TEST(DetectSniff, SingleDeviceAnalysisDbKeepsTheFolderRank)
{
    ScratchDir dir;
    const auto rankDir = dir.path() / "worker_rank_5";
    fs::create_directories(rankDir / "ASCEND_PROFILER_OUTPUT");
    // A one-device copy: the sample's rows of device 2 only, under the usual name.
    const auto src = dataDir() / "msinsight_multidevice_db" / "ASCEND_PROFILER_OUTPUT" / "analysis.dat";
    const auto dst = rankDir / "ASCEND_PROFILER_OUTPUT" / "analysis.db";
    fs::copy_file(src, dst);
    fs::permissions(dst, fs::perms::owner_read | fs::perms::owner_write);
    ASSERT_TRUE(execOn(dst, "DELETE FROM StepTraceTime WHERE deviceId <> 2"));
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 5);
    EXPECT_EQ(plan.ranks[0].rankSource, "folder_name");
    auto db = openPlan(plan);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT computing_ns FROM step_trace WHERE rank_id = 5"), 73360);
    EXPECT_EQ(count(*db, "SELECT device_id FROM step_trace WHERE rank_id = 5"), 2);
}

TEST(DetectSniff, ChromeTraceJsonUnderAnotherNameIsATimeline)
{
    const auto dir = dataDir() / "msinsight_trace_tiny";
    const auto plan = io::Detector::detect({ dir.string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 0);
    EXPECT_EQ(plan.ranks[0].rankSource, "default");
    ASSERT_EQ(kindsOf(plan.ranks[0]), std::vector<io::FileKind> { io::FileKind::TraceView });
    EXPECT_TRUE(io::isDeferredKind(plan.ranks[0].files[0].kind));
    EXPECT_TRUE(hasIssue(plan, "imported as trace_view", "info"));

    // The file given directly is found the same way.
    const auto direct = io::Detector::detect({ (dir / "trace_view_tiny.json").string() });
    ASSERT_EQ(direct.ranks.size(), 1u);
    EXPECT_EQ(kindsOf(direct.ranks[0]), std::vector<io::FileKind> { io::FileKind::TraceView });

    auto db = openPlan(plan, true);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
    EXPECT_EQ(text(*db, "SELECT status FROM rank_file WHERE kind = 'trace_view'"), "loaded");
    // 23 metadata events only: named processes (Ascend Hardware, HBM, LLC, ...) and threads, no slices.
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM process"), 0);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM thread"), 0);
}

TEST(DetectSniff, TraceEventsObjectIsATimeline)
{
    ScratchDir dir;
    writeFile(dir.path() / "run_rank_2" / "my_trace.json",
        R"({"displayTimeUnit":"ns","traceEvents":[{"ph":"X","pid":1,"tid":1,"name":"a","ts":"1.000","dur":1}]})");
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 2);
    EXPECT_EQ(kindsOf(plan.ranks[0]), std::vector<io::FileKind> { io::FileKind::TraceView });
}

TEST(DetectSniff, UnknownBinaryAndOtherJsonAreIgnored)
{
    ScratchDir dir;
    writeFile(dir.path() / "blob.bin",
        std::string("\x7f"
                    "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0more",
            20));
    writeFile(dir.path() / "blob.db", std::string(4096, '\x01'));
    writeFile(dir.path() / "config.json", R"({"name":"x","pid":1,"ph":"X"})"); // an object, not a trace
    writeFile(dir.path() / "list.json", R"([1, 2, 3])");
    writeFile(dir.path() / "objects.json", R"([{"name":"a","value":1}])"); // no ph / pid
    writeFile(dir.path() / "broken.json", R"([{"name":)");
    const auto plan = io::Detector::detect({ dir.path().string() });
    EXPECT_TRUE(plan.ranks.empty());
    EXPECT_EQ(plan.layout, io::LoadPlan::Layout::Empty);
    ASSERT_EQ(plan.issues.size(), 1u);
    EXPECT_EQ(plan.issues[0].severity, "error");
    EXPECT_NE(plan.issues[0].message.find("no profiler output found"), std::string::npos);
    // The message names what was looked for, the new kinds included.
    for (const char* what : { "report_*.db", "parallel_strategy_*.json", "SQLite files", "Chrome-trace *.json",
             "communication_group.json" })
        EXPECT_NE(plan.issues[0].message.find(what), std::string::npos) << what;
}

TEST(DetectSniff, TruncatedSqliteFileIsNamedAndNothingCrashes)
{
    ScratchDir dir;
    const auto cut = dir.path() / "rank_1" / "export.dat";
    writeFile(cut, kSqliteHeader + std::string(30, '\0')); // the header, then nothing usable
    const auto half = dir.path() / "rank_1" / "half.db";
    writeFile(half, kSqliteHeader.substr(0, 10)); // not even the whole header
    const auto plan = io::Detector::detect({ dir.path().string() });
    EXPECT_TRUE(plan.ranks.empty());
    bool namedCut = false;
    bool namedHalf = false;
    for (const auto& i : plan.issues) {
        namedCut = namedCut
            || (i.path == fs::absolute(cut).lexically_normal().string() && i.severity == "warning"
                && i.message.find("SQLite header") != std::string::npos);
        namedHalf = namedHalf
            || (i.path == fs::absolute(half).lexically_normal().string()
                && i.message.find("truncated SQLite") != std::string::npos);
    }
    EXPECT_TRUE(namedCut);
    EXPECT_TRUE(namedHalf);
    EXPECT_TRUE(hasIssue(plan, "no profiler output found", "error"));
    auto db = openPlan(plan);
    ASSERT_TRUE(db); // an empty model with the issues, no crash
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 0);
}

TEST(DetectSniff, SqliteClassifiedByTables)
{
    ScratchDir dir;
    std::vector<io::PlanIssue> issues;
    auto make = [&](const std::string& name, const std::string& sql) {
        const auto p = dir.path() / name;
        EXPECT_TRUE(execOn(p, sql)) << name;
        return p;
    };
    const auto profiler = make("a.sqlite", "CREATE TABLE STRING_IDS(id INTEGER, value TEXT); CREATE TABLE TASK(x);");
    const auto report = make("b.sqlite", "CREATE TABLE API(startNs INTEGER);");
    const auto analysis = make("c.sqlite", "CREATE TABLE CommAnalyzerTime(hccl_op_name TEXT);");
    const auto cluster = make("d.sqlite", "CREATE TABLE ClusterStepTraceTime(step, type, \"index\");");
    const auto other = make("e.sqlite", "CREATE TABLE notes(text TEXT);");
    EXPECT_EQ(io::FileSniffer::sniff(profiler, issues)->kind, io::FileKind::ProfilerDb);
    EXPECT_EQ(io::FileSniffer::sniff(report, issues)->kind, io::FileKind::ProfilerDb);
    EXPECT_EQ(io::FileSniffer::sniff(analysis, issues)->kind, io::FileKind::AnalysisDb);
    EXPECT_EQ(io::FileSniffer::sniff(cluster, issues)->kind, io::FileKind::ClusterAnalysisDb);
    EXPECT_FALSE(io::FileSniffer::sniff(other, issues));
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].severity, "info");
    EXPECT_EQ(issues[0].path, fs::absolute(other).lexically_normal().string());
}

TEST(DetectSniff, SniffedCommAndProfilerDbInARankFolder)
{
    ScratchDir dir;
    const auto out = dir.path() / "x_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
    fs::create_directories(out);
    writeFile(dir.path() / "x_ascend_pt" / "profiler_info_3.json", R"({"rank_id": 3})");
    ASSERT_TRUE(execOn(
        out / "profile.sqlite", "CREATE TABLE STRING_IDS(id INTEGER, value TEXT); CREATE TABLE TASK(startNs INTEGER)"));
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 3);
    const auto kinds = kindsOf(plan.ranks[0]);
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), io::FileKind::ProfilerDb), 1);
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), io::FileKind::ProfilerDbTimeline), 1);
    EXPECT_TRUE(hasIssue(plan, "imported as profiler_db", "info"));
}

TEST(DetectSniff, ProfilerInfoOnlyFolderIsARankWithFacts)
{
    const auto dir = dataDir() / "mindinsight_parallel_strategy";
    const auto plan = io::Detector::detect({ dir.string() });
    ASSERT_EQ(plan.ranks.size(), 2u);
    EXPECT_EQ(plan.ranks[0].rank, 0);
    EXPECT_EQ(plan.ranks[0].rankSource, "file_name");
    EXPECT_EQ(kindsOf(plan.ranks[0]),
        (std::vector<io::FileKind> { io::FileKind::ProfilerInfo, io::FileKind::MsParallelStrategy }));
    EXPECT_EQ(plan.ranks[1].rank, 1);
    EXPECT_EQ(plan.ranks[1].rankSource, "file_name");
    EXPECT_EQ(kindsOf(plan.ranks[1]), std::vector<io::FileKind> { io::FileKind::MsParallelStrategy });
    EXPECT_TRUE(hasIssue(plan, "holds only profiler_info_0.json", "info"));
    EXPECT_TRUE(hasIssue(plan, "no step, communication or timeline data", "info"));
    EXPECT_TRUE(hasIssue(plan, "rank 1 is known only from parallel_strategy_1.json", "info"));
    for (const auto& i : plan.issues)
        EXPECT_NE(i.severity, "error") << i.message;

    auto db = openPlan(plan);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity IN ('error', 'warning')"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 2);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 0);
    EXPECT_EQ(count(*db, "SELECT world_size FROM rank WHERE rank_id = 0"), 2);
    EXPECT_EQ(text(*db, "SELECT framework FROM rank WHERE rank_id = 0"), "mindspore");
    auto info = [&](int rank, const std::string& key) {
        auto st = db->prepare("SELECT value FROM rank_info WHERE rank_id = ?1 AND key = ?2");
        st.bind(1, rank).bind(2, key);
        return st.step() ? st.text(0) : std::string("<none>");
    };
    EXPECT_EQ(info(0, "rank_size"), "2");
    EXPECT_EQ(info(0, "parallel_mode"), "auto_parallel");
    EXPECT_EQ(info(0, "stage_num"), "1");
    EXPECT_EQ(info(0, "context_mode"), "graph");
    EXPECT_EQ(info(0, "parallel_strategy.rankId"), "0");
    EXPECT_EQ(info(0, "parallel_strategy.stageId"), "0");
    EXPECT_EQ(info(0, "parallel_strategy.parallelType"), "auto_parallel");
    EXPECT_EQ(info(0, "parallel_strategy.stageDevices"), "[[0,1]]");
    EXPECT_EQ(info(0, "parallel_strategy.stageCount"), "1");
    EXPECT_EQ(info(0, "parallel_strategy.nodeCount"), "2");
    EXPECT_EQ(info(1, "parallel_strategy.rankId"), "1");
    EXPECT_EQ(info(1, "parallel_strategy.nodeCount"), "2");
    EXPECT_EQ(info(1, "rank_size"), "<none>");
}

TEST(DetectSniff, ParallelStrategyRankMismatchAndBadJsonAreReported)
{
    ScratchDir dir;
    writeFile(dir.path() / "p" / "profiler_info_4.json", R"({"rank_id": 4, "rank_size": 8})");
    writeFile(dir.path() / "p" / "parallel_strategy_4.json",
        R"({"config":{"rankId":5,"stageId":1,"stageDevices":[{"dim":[{"size":"4"}]},{"dim":[{"size":"5"}]}]},)"
        R"("graph":{"node":[{"name":"1"},{"name":"2"},{"name":"3"}]}})");
    writeFile(dir.path() / "p" / "parallel_strategy_6.json", R"({"config":{"rankId":6},"graph":{"node":[)");
    const auto plan = io::Detector::detect({ (dir.path() / "p").string() });
    ASSERT_EQ(plan.ranks.size(), 2u);
    auto db = openPlan(plan);
    ASSERT_TRUE(db);
    EXPECT_EQ(text(*db, "SELECT value FROM rank_info WHERE rank_id = 4 AND key = 'parallel_strategy.stageDevices'"),
        "[[4],[5]]");
    EXPECT_EQ(text(*db, "SELECT value FROM rank_info WHERE rank_id = 4 AND key = 'parallel_strategy.nodeCount'"), "3");
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE rank_id = 4 AND severity = 'warning' AND message "
                  "LIKE '%config.rankId is 5%'"),
        1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE rank_id = 6 AND severity = 'error'"), 1);
}

TEST(DetectSniff, EmptyOutputFolderWithProfilerInfoIsAWarnedFactsRank)
{
    ScratchDir dir;
    writeFile(dir.path() / "w_ascend_pt" / "profiler_info_2.json", R"({"rank_id": 2})");
    fs::create_directories(dir.path() / "w_ascend_pt" / "ASCEND_PROFILER_OUTPUT");
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 2);
    EXPECT_TRUE(hasIssue(plan, "ASCEND_PROFILER_OUTPUT holds no file npuscope imports", "warning"));
}

TEST(DetectSniff, ReportDbNamesItsRank)
{
    io::FileKind k;
    ASSERT_TRUE(io::fileKindOf("report_12.db", k));
    EXPECT_EQ(k, io::FileKind::ProfilerDb);
    ASSERT_TRUE(io::fileKindOf("parallel_strategy_3.json", k));
    EXPECT_EQ(k, io::FileKind::MsParallelStrategy);
    EXPECT_STREQ(io::fileKindName(io::FileKind::MsParallelStrategy), "parallel_strategy");
    EXPECT_FALSE(io::fileKindOf("report_.db", k));
    EXPECT_FALSE(io::fileKindOf("report_a.db", k));
    EXPECT_FALSE(io::fileKindOf("parallel_strategy.json", k));

    ScratchDir dir;
    fs::copy_file(dataDir() / "cann_report_db" / "report_0.db", dir.path() / "report_7.db");
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 7);
    EXPECT_EQ(plan.ranks[0].rankSource, "file_name");
    EXPECT_EQ(kindsOf(plan.ranks[0]),
        (std::vector<io::FileKind> { io::FileKind::ProfilerDb, io::FileKind::ProfilerDbTimeline }));
}

TEST(DetectSniff, ReportDbBesideClusterAnalysisDbJoinsTheSummaryRank)
{
    // The layout of msinsight full_db_2024-03: cluster_analysis.db (8 ranks) and report_0.db in one folder.
    ScratchDir dir;
    fs::copy_file(
        dataDir() / "msprof_cluster_analysis" / "db" / "cluster_analysis.db", dir.path() / "cluster_analysis.db");
    fs::copy_file(dataDir() / "cann_report_db" / "report_0.db", dir.path() / "report_0.db");
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 8u);
    EXPECT_EQ(plan.layout, io::LoadPlan::Layout::Cluster);
    for (const auto& r : plan.ranks)
        EXPECT_EQ(r.rankSource, "cluster_analysis");
    EXPECT_EQ(kindsOf(plan.ranks[0]),
        (std::vector<io::FileKind> {
            io::FileKind::ClusterAnalysisDb, io::FileKind::ProfilerDb, io::FileKind::ProfilerDbTimeline }));
    for (size_t i = 1; i < plan.ranks.size(); ++i)
        EXPECT_TRUE(plan.ranks[i].files.empty());
    EXPECT_TRUE(hasIssue(plan, "add the own data of rank 0", "info"));
    EXPECT_FALSE(hasIssue(plan, "not imported"));

    auto db = openPlan(plan);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 8);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace WHERE rank_id = 0"), 1); // from the summary only
    EXPECT_EQ(text(*db, "SELECT status FROM rank_file WHERE rank_id = 0 AND kind = 'profiler_db_timeline'"), "skipped");
}

// SPDX-License-Identifier: Apache-2.0
// A rank folder holding a db export and text files takes each kind of data from one file: the db where it holds that
// data in a table with rows, else the text file (torch_npu 2.7.1 writes the text export with an analysis.db that holds
// only step trace and communication; its kernels and memory must come from the text files).
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using namespace npuscope;
using namespace npuscope::test;

namespace {

// Data lines of a CSV file the generator or torch_npu wrote (one record per line, a header line).
int64_t csvRecords(const fs::path& file)
{
    std::ifstream in(file);
    std::string line;
    int64_t n = 0;
    while (std::getline(in, line)) {
        if (!line.empty())
            ++n;
    }
    return n - 1;
}

// Runs sql on a SQLite file, writable (to empty a table of a copied export).
void execOn(const fs::path& db, const std::string& sql)
{
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(db.string().c_str(), &h), SQLITE_OK);
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(h, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(h);
}

std::set<std::string> kindNames(const io::PlannedRank& rank)
{
    std::set<std::string> out;
    for (const auto& f : rank.files)
        out.insert(io::fileKindName(f.kind));
    return out;
}

std::unique_ptr<model::Database> loadWithTimelines(const io::LoadPlan& plan)
{
    load::LoadOptions options;
    options.loadTimelines = true; // kernel_details.csv and trace_view.json are deferred files
    options.cache = nullptr;
    return load::Loader::load(plan, options);
}

// The text export of torch_npu_2rank_level1's rank 0 copied to dir/rank0_ascend_pt, with the db files named (of the
// db sample's level1 rank 0) beside it; returns its ASCEND_PROFILER_OUTPUT.
fs::path textRankWithDb(const fs::path& dir, std::initializer_list<const char*> dbFiles)
{
    const auto rankDir = dir / "rank0_ascend_pt";
    fs::copy(dataDir() / "torch_npu_2rank_level1" / "rank0_ascend_pt", rankDir, fs::copy_options::recursive);
    const auto out = rankDir / "ASCEND_PROFILER_OUTPUT";
    fs::permissions(out, fs::perms::owner_all);
    for (const char* f : dbFiles)
        fs::copy_file(
            dataDir() / "torch_npu_2rank_db" / "level1" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / f, out / f);
    return out;
}

// A small generated cluster written with --analysis-db: text export + analysis.db per rank. Rank 0 also gets the
// api_statistic.csv and operator_memory.csv of a real torch_npu rank (the generator writes neither).
class SourcePerTableGenerated : public ::testing::Test {
protected:
    void SetUp() override
    {
        testgen::GeneratorOptions o;
        o.outDir = m_dir.path().string();
        o.ranks = 2;
        o.steps = 2;
        o.traceMb = 0;
        o.analysisDb = true;
        std::string error;
        ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
        for (const auto& e : fs::directory_iterator(m_dir.path())) {
            if (e.is_directory() && e.path().filename().string().rfind("rank0_", 0) == 0)
                m_out0 = e.path() / "ASCEND_PROFILER_OUTPUT";
        }
        ASSERT_FALSE(m_out0.empty());
        const auto real = dataDir() / "torch_npu_2rank_level2" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
        for (const char* f : { "api_statistic.csv", "operator_memory.csv" })
            fs::copy_file(real / f, m_out0 / f);
    }

    ScratchDir m_dir;
    fs::path m_out0; // rank 0's ASCEND_PROFILER_OUTPUT
};

} // namespace

TEST_F(SourcePerTableGenerated, PlansTheTextFilesTheDbDoesNotReplace)
{
    const auto plan = io::Detector::detect({ m_dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 2u);
    EXPECT_EQ(kindNames(plan.ranks[0]),
        (std::set<std::string> { "profiler_info", "profiler_metadata", "analysis_db", "api_statistic", "kernel_details",
            "memory_record", "npu_module_mem", "op_statistic", "operator_memory", "trace_view" }));
    EXPECT_EQ(kindNames(plan.ranks[1]),
        (std::set<std::string> { "profiler_info", "profiler_metadata", "analysis_db", "kernel_details", "memory_record",
            "npu_module_mem", "op_statistic", "trace_view" }));
    const std::string said = "rank folder holds a db export and text files; each kind of data comes from one file: "
                             "analysis.db: step trace, communication, communication matrix; text: api_statistic.csv, "
                             "kernel_details.csv, memory_record.csv, npu_module_mem.csv, op_statistic.csv, "
                             "operator_memory.csv, trace_view.json; ignored, as a db export holds their data: "
                             "communication.json, communication_matrix.json, step_trace_time.csv";
    int found = 0;
    for (const auto& i : plan.issues) {
        if (i.severity == "info" && i.path == plan.ranks[0].path) {
            found += i.message == said;
            EXPECT_EQ(i.message.find("using the db export"), std::string::npos) << i.message;
        }
    }
    EXPECT_EQ(found, 1);
}

TEST_F(SourcePerTableGenerated, KernelsMemoryAndStatisticsFromTextStepsAndCommFromDb)
{
    auto db = loadWithTimelines(io::Detector::detect({ m_dir.path().string() }));
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
    const auto out1
        = fs::path(text(*db, "SELECT path FROM rank_file WHERE rank_id = 1 AND kind = 'analysis_db'")).parent_path();
    const std::vector<std::pair<int, fs::path>> ranks { { 0, m_out0 }, { 1, out1 } };
    for (const auto& [rank, dir] : ranks) {
        SCOPED_TRACE("rank " + std::to_string(rank));
        const std::string of = " WHERE rank_id = " + std::to_string(rank);
        // From the text files: one row per CSV record.
        const int64_t kernels = csvRecords(dir / "kernel_details.csv");
        EXPECT_GT(kernels, 0);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel" + of), kernels);
        EXPECT_GT(csvRecords(dir / "op_statistic.csv"), 0);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM op_statistic" + of), csvRecords(dir / "op_statistic.csv"));
        EXPECT_GT(csvRecords(dir / "memory_record.csv"), 0);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM memory_record" + of), csvRecords(dir / "memory_record.csv"));
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM npu_module_mem" + of), csvRecords(dir / "npu_module_mem.csv"));
        EXPECT_GT(count(*db, "SELECT COUNT(*) FROM slice" + of), 0);
        // From analysis.db: the step trace and communication of its tables; the text's "Total Op Info" rows, which
        // the db export does not have, are absent.
        auto export_ = model::Database::openReadOnly((dir / "analysis.db").string());
        const int64_t steps = count(*export_, "SELECT COUNT(*) FROM StepTraceTime");
        const int64_t ops = count(*export_, "SELECT COUNT(*) FROM CommAnalyzerTime");
        EXPECT_EQ(steps, 2);
        EXPECT_GT(ops, 0);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace" + of), steps);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op" + of + " AND is_total = 0"), ops);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op" + of + " AND is_total = 1"), 0);
        EXPECT_EQ(count(*db,
                      "SELECT COUNT(*) FROM rank_file" + of
                          + " AND kind IN ('step_trace_time', 'communication', 'communication_matrix')"),
            0);
        EXPECT_EQ(
            count(*db, "SELECT COUNT(*) FROM rank_file" + of + " AND kind = 'analysis_db' AND status = 'loaded'"), 1);
    }
    // api_statistic.csv and operator_memory.csv (rank 0 only): every record.
    EXPECT_EQ(
        count(*db, "SELECT COUNT(*) FROM api_statistic WHERE rank_id = 0"), csvRecords(m_out0 / "api_statistic.csv"));
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM api_statistic WHERE rank_id = 0"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM operator_memory WHERE rank_id = 0"),
        csvRecords(m_out0 / "operator_memory.csv"));
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM operator_memory WHERE rank_id = 0"), 0);
}

TEST_F(SourcePerTableGenerated, AnEmptyTableCountsAsAbsent)
{
    execOn(m_out0 / "analysis.db", "DELETE FROM CommAnalyzerMatrix");
    const auto plan = io::Detector::detect({ m_dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 2u);
    const auto kinds = kindNames(plan.ranks[0]);
    EXPECT_TRUE(kinds.count("communication_matrix"));
    EXPECT_FALSE(kinds.count("communication"));
    EXPECT_FALSE(kindNames(plan.ranks[1]).count("communication_matrix"));
    EXPECT_TRUE(hasIssue(plan,
        "analysis.db: step trace, communication; text: api_statistic.csv, "
        "communication_matrix.json, kernel_details.csv",
        "info"));
    auto db = openPlan(plan);
    ASSERT_TRUE(db);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM comm_link WHERE rank_id = 0"), 0); // from the text matrix
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM rank_file WHERE rank_id = 0 AND kind = 'communication_matrix' AND "
                  "status = 'loaded'"),
        1);
}

// The db samples (full ascend_pytorch_profiler db + analysis.db, no text) import everything from the db, as before.
TEST(SourcePerTable, DbSamplesKeepTheDb)
{
    for (const char* level : { "level0", "level1" }) {
        SCOPED_TRACE(level);
        const auto dir = dataDir() / "torch_npu_2rank_db" / level;
        const auto plan = io::Detector::detect({ dir.string() });
        ASSERT_EQ(plan.ranks.size(), 2u);
        for (const auto& r : plan.ranks)
            EXPECT_EQ(kindNames(r),
                (std::set<std::string> { "profiler_info", "profiler_db", "analysis_db", "profiler_db_timeline" }));
        EXPECT_FALSE(hasIssue(plan, "each kind of data comes from one file"));
        auto db = openPlan(plan);
        ASSERT_TRUE(db);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel WHERE rank_id = 0"), 187 + 4); // compute + communication
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM operator_memory WHERE rank_id = 0"), 184);
        EXPECT_GT(count(*db, "SELECT COUNT(*) FROM memory_record WHERE rank_id = 0"), 990); // + NPU_MEM APP rows
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace WHERE rank_id = 0"), 1);
    }
}

// The full db export beside the text export of a torch_npu rank: the db gives kernels, memory, timeline, steps and
// communication; op and api statistics, which no db table holds, come from the text files.
TEST(SourcePerTable, FullDbBesideTextKeepsOnlyTheStatistics)
{
    ScratchDir dir;
    const auto out = textRankWithDb(dir.path(), { "analysis.db", "ascend_pytorch_profiler_0.db" });
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(kindNames(plan.ranks[0]),
        (std::set<std::string> { "profiler_info", "profiler_metadata", "profiler_db", "analysis_db",
            "profiler_db_timeline", "api_statistic", "op_statistic" }));
    EXPECT_TRUE(hasIssue(plan,
        "each kind of data comes from one file: analysis.db: step trace, communication, communication matrix; "
        "ascend_pytorch_profiler_0.db: kernels, memory record, operator memory, NPU module memory, timeline; text: "
        "api_statistic.csv, op_statistic.csv; ignored, as a db export holds their data: communication.json, "
        "communication_matrix.json, kernel_details.csv, memory_record.csv, npu_module_mem.csv, operator_memory.csv, "
        "step_trace_time.csv, trace_view.json",
        "info"));
    auto db = openPlan(plan);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM op_statistic"), csvRecords(out / "op_statistic.csv"));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM api_statistic"), csvRecords(out / "api_statistic.csv"));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel"), 187 + 4); // the db's TASK rows
}

// A profiler db whose timeline tables are empty leaves the timeline to trace_view.json; its other data stays.
TEST(SourcePerTable, EmptyTimelineTablesLeaveTheTextTrace)
{
    ScratchDir dir;
    const auto out = textRankWithDb(dir.path(), { "ascend_pytorch_profiler_0.db" });
    execOn(out / "ascend_pytorch_profiler_0.db",
        "DELETE FROM TASK; DELETE FROM CANN_API; DELETE FROM PYTORCH_API; DELETE FROM COMMUNICATION_OP; "
        "DROP TABLE IF EXISTS MSTX_EVENTS");
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    const auto kinds = kindNames(plan.ranks[0]);
    EXPECT_TRUE(kinds.count("trace_view"));
    EXPECT_TRUE(kinds.count("kernel_details")); // TASK is empty: no kernels in the db
    EXPECT_FALSE(kinds.count("profiler_db_timeline"));
    EXPECT_FALSE(kinds.count("memory_record")); // MEMORY_RECORD still has rows
    EXPECT_TRUE(hasIssue(plan,
        "ascend_pytorch_profiler_0.db: memory record, operator memory, NPU module memory; text: api_statistic.csv, "
        "communication.json",
        "info"));
    auto db = loadWithTimelines(plan);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel"), csvRecords(out / "kernel_details.csv"));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM operator_memory"), 184);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM slice"), 0);
}

// SPDX-License-Identifier: Apache-2.0
// Golden tests of the CSV importers on the real samples in tests/data, plus a generated bad-input corpus.
#include "npuscope/io/torch_npu/ApiStatisticImporter.h"
#include "npuscope/load/SourceDetails.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/io/torch_npu/KernelDetailsImporter.h"
#include "npuscope/io/torch_npu/MemoryRecordImporter.h"
#include "npuscope/io/torch_npu/NpuModuleMemImporter.h"
#include "npuscope/io/torch_npu/OpStatisticImporter.h"
#include "npuscope/io/torch_npu/OperatorMemoryImporter.h"
#include "npuscope/io/torch_npu/StepTraceImporter.h"
#include "npuscope/model/Database.h"
#include "npuscope/model/ModelWriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

using namespace npuscope;
using namespace npuscope::io;
using model::Database;
using model::ModelWriter;

namespace {

const std::string kData = NPUSCOPE_TEST_DATA;

using RunFn = bool (*)(ImportContext&);

struct Issue {
    std::string severity;
    std::optional<int64_t> line;
    std::string message;
};

class Model {
public:
    Model()
        : m_db(Database::createModel())
        , m_writer(*m_db)
    {
    }

    bool import(RunFn run, const std::string& path, int64_t rank = 0, const std::atomic<bool>* cancel = nullptr)
    {
        m_writer.begin();
        ImportContext ctx(m_writer, rank, path, cancel);
        const bool ok = run(ctx);
        m_writer.commit();
        return ok;
    }

    int64_t scalar(const std::string& sql) { return m_db->scalarInt(sql).value_or(-1); }
    // The PMU columns of the first kernel row matching `where` (read back from the CSV record it points into).
    std::optional<nlohmann::ordered_json> pmu(const std::string& where)
    {
        const auto rowid = m_db->scalarInt("SELECT MIN(rowid) FROM kernel " + where);
        return rowid ? load::SourceDetails::kernelPmu(*m_db, *rowid) : std::nullopt;
    }
    std::optional<int64_t> optScalar(const std::string& sql) { return m_db->scalarInt(sql); }
    model::Statement query(const std::string& sql) { return m_db->prepare(sql); }

    std::vector<Issue> issues(const std::string& file)
    {
        auto st = m_db->prepare("SELECT severity, line, message FROM parse_issue WHERE file = ?1 ORDER BY id");
        st.bind(1, file);
        std::vector<Issue> out;
        while (st.step())
            out.push_back({ st.text(0), st.optInt(1), st.text(2) });
        return out;
    }

    int64_t issueCount() { return scalar("SELECT count(*) FROM parse_issue"); }

private:
    std::unique_ptr<Database> m_db;
    ModelWriter m_writer;
};

std::string describe(const std::vector<Issue>& issues)
{
    std::string out;
    for (const auto& i : issues)
        out += i.severity + " line " + (i.line ? std::to_string(*i.line) : "-") + ": " + i.message + "\n";
    return out;
}

bool anyIssue(const std::vector<Issue>& issues, const std::string& severity, std::optional<int64_t> line,
    std::initializer_list<std::string> words)
{
    for (const auto& i : issues) {
        if (i.severity != severity || (line && i.line != line))
            continue;
        bool all = true;
        for (const auto& w : words)
            all = all && i.message.find(w) != std::string::npos;
        if (all)
            return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------------------------------
// Golden: every real sample, row counts equal the data rows of each file (counted with Python's csv module).

struct FileCase {
    const char* file;
    RunFn run;
    const char* table;
    int64_t rows;
};

struct RankCase {
    std::string dir; // relative to tests/data: the folder holding the CSV files
    std::vector<FileCase> files;
};

std::vector<RankCase> rankCases()
{
    const auto s = &StepTraceImporter::run;
    const auto k = &KernelDetailsImporter::run;
    const auto o = &OpStatisticImporter::run;
    const auto a = &ApiStatisticImporter::run;
    const auto m = &MemoryRecordImporter::run;
    const auto om = &OperatorMemoryImporter::run;
    const auto n = &NpuModuleMemImporter::run;
    const auto dir = [](const char* level, const char* rank) {
        return std::string("torch_npu_2rank_") + level + "/" + rank + "_ascend_pt/ASCEND_PROFILER_OUTPUT";
    };
    // level, rank, memory_record rows, npu_module_mem rows, api_statistic rows (0 = no file)
    struct Level {
        const char* level;
        const char* rank;
        int64_t memoryRecord, npuModuleMem, apiStatistic;
    };
    std::vector<RankCase> v;
    for (const Level& l : { Level { "level0", "rank0", 1003, 1001, 0 }, Level { "level0", "rank1", 1003, 1001, 0 },
             Level { "level1", "rank0", 1004, 1078, 57 }, Level { "level1", "rank1", 1004, 1078, 57 },
             Level { "level2", "rank0", 1003, 1001, 75 }, Level { "level2", "rank1", 1004, 1078, 75 } }) {
        RankCase c { dir(l.level, l.rank),
            { { "step_trace_time.csv", s, "step_trace", 1 }, { "kernel_details.csv", k, "kernel", 191 },
                { "memory_record.csv", m, "memory_record", l.memoryRecord },
                { "operator_memory.csv", om, "operator_memory", 184 },
                { "npu_module_mem.csv", n, "npu_module_mem", l.npuModuleMem } } };
        if (l.apiStatistic > 0) {
            c.files.push_back({ "op_statistic.csv", o, "op_statistic", 33 });
            c.files.push_back({ "api_statistic.csv", a, "api_statistic", l.apiStatistic });
        }
        v.push_back(std::move(c));
    }
    v.push_back({ "torch_npu_2023_2rank/test_rank_0/ASCEND_PROFILER_OUTPUT",
        { { "step_trace_time.csv", s, "step_trace", 1 }, { "kernel_details.csv", k, "kernel", 21 },
            { "memory_record.csv", m, "memory_record", 11 }, { "operator_memory.csv", om, "operator_memory", 28 },
            { "npu_module_mem.csv", n, "npu_module_mem", 78 } } });
    v.push_back({ "torch_npu_2023_2rank/test_rank_1/ASCEND_PROFILER_OUTPUT",
        { { "step_trace_time.csv", s, "step_trace", 1 }, { "kernel_details.csv", k, "kernel", 22 },
            { "memory_record.csv", m, "memory_record", 30 }, { "operator_memory.csv", om, "operator_memory", 21 } } });
    return v;
}

std::string samplePath(const std::string& dir, const std::string& file) { return kData + "/" + dir + "/" + file; }

} // namespace

TEST(CsvImporters, GoldenRowCountsAndNoIssues)
{
    int64_t rank = 0;
    for (const auto& c : rankCases()) {
        Model model;
        for (const auto& f : c.files) {
            const auto path = samplePath(c.dir, f.file);
            SCOPED_TRACE(path);
            EXPECT_TRUE(model.import(f.run, path, rank));
            EXPECT_EQ(model.scalar(
                          std::string("SELECT count(*) FROM ") + f.table + " WHERE rank_id = " + std::to_string(rank)),
                f.rows);
            const auto issues = model.issues(path);
            if (c.dir.find("test_rank_0") != std::string::npos && std::string(f.file) == "kernel_details.csv") {
                // The sample really has one row with 31 of 32 fields (line 17, a cell is missing): reported, still
                // imported, and its shifted cells make "NO" land in Mix Block Dim.
                ASSERT_EQ(issues.size(), 2u) << describe(issues);
                EXPECT_TRUE(anyIssue(issues, "warning", 17, { "31 fields", "32" })) << describe(issues);
                EXPECT_TRUE(anyIssue(issues, "warning", 17, { "\"NO\"", "\"Mix Block Dim\"" })) << describe(issues);
            } else if (c.dir.find("test_rank_1") != std::string::npos && std::string(f.file) == "memory_record.csv") {
                // Its timestamps went through a spreadsheet ("1.69512E+15"): said once, at the first row.
                ASSERT_EQ(issues.size(), 1u) << describe(issues);
                EXPECT_TRUE(anyIssue(issues, "warning", 2, { "scientific notation" })) << describe(issues);
            } else {
                EXPECT_TRUE(issues.empty()) << describe(issues);
            }
        }
        ++rank;
    }
}

TEST(CsvImporters, KernelDurationSumsMatchExactDecimalSums)
{
    // Σ round(Duration(us) * 1000) per file, computed with Python's decimal module.
    const std::vector<std::pair<std::string, int64_t>> sums {
        { "torch_npu_2rank_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT", 94344340 },
        { "torch_npu_2rank_level0/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT", 77418862 },
        { "torch_npu_2rank_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT", 114865613 },
        { "torch_npu_2rank_level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT", 109253559 },
        { "torch_npu_2rank_level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT", 108841491 },
        { "torch_npu_2rank_level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT", 106357602 },
        { "torch_npu_2023_2rank/test_rank_1/ASCEND_PROFILER_OUTPUT", 11514860 },
    };
    for (const auto& [dir, sum] : sums) {
        SCOPED_TRACE(dir);
        Model model;
        ASSERT_TRUE(model.import(&KernelDetailsImporter::run, samplePath(dir, "kernel_details.csv")));
        EXPECT_EQ(model.scalar("SELECT sum(dur) FROM kernel"), sum);
        EXPECT_EQ(model.scalar("SELECT count(*) FROM kernel WHERE step IS NOT NULL"),
            model.scalar("SELECT count(*) FROM kernel"));
    }
}

TEST(CsvImporters, StepTraceIdentitiesHoldForEveryRow)
{
    Model model;
    int64_t rank = 0;
    for (const auto& c : rankCases())
        ASSERT_TRUE(model.import(&StepTraceImporter::run, samplePath(c.dir, "step_trace_time.csv"), rank++));
    auto st = model.query("SELECT rank_id, computing_ns, communication_not_overlapped_ns, overlapped_ns, "
                          "communication_ns, free_ns, stage_ns, bubble_ns FROM step_trace");
    int rows = 0;
    while (st.step()) {
        SCOPED_TRACE("rank " + std::to_string(st.int64(0)));
        for (int col = 1; col <= 7; ++col)
            ASSERT_FALSE(st.isNull(col)) << col;
        const int64_t computing = st.int64(1), notOverlapped = st.int64(2), overlapped = st.int64(3);
        const int64_t communication = st.int64(4), freeNs = st.int64(5), stage = st.int64(6), bubble = st.int64(7);
        // Communication = Communication(Not Overlapped) + Overlapped, up to the rounding of each term to 1 ns.
        EXPECT_LE(std::llabs(communication - (notOverlapped + overlapped)), 1);
        // Computing + Not Overlapped + Free = Stage + Bubble. Stage is written with 0.25 µs resolution in every
        // sample (e.g. 116251.25, 291698.0) while the terms have ns digits: the samples differ by up to 125 ns.
        EXPECT_LE(std::llabs(computing + notOverlapped + freeNs - (stage + bubble)), 250);
        ++rows;
    }
    EXPECT_EQ(rows, 8);
}

TEST(CsvImporters, StepTraceSpotValues)
{
    Model model;
    const auto level1
        = samplePath("torch_npu_2rank_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT", "step_trace_time.csv");
    const auto old = samplePath("torch_npu_2023_2rank/test_rank_0/ASCEND_PROFILER_OUTPUT", "step_trace_time.csv");
    ASSERT_TRUE(model.import(&StepTraceImporter::run, level1, 0));
    ASSERT_TRUE(model.import(&StepTraceImporter::run, old, 1));

    auto st = model.query("SELECT device_id, step, computing_ns, communication_not_overlapped_ns, overlapped_ns, "
                          "communication_ns, free_ns, stage_ns, bubble_ns, "
                          "communication_not_overlapped_exclude_receive_ns, preparing_ns, source_line "
                          "FROM step_trace WHERE rank_id = 0");
    ASSERT_TRUE(st.step());
    EXPECT_TRUE(st.isNull(0));
    EXPECT_EQ(st.int64(1), 50);
    EXPECT_EQ(st.int64(2), 8873756); // 8873.756000000001
    EXPECT_EQ(st.int64(3), 101963203); // 101963.203
    EXPECT_EQ(st.int64(4), 4028675); // 4028.6750000000175
    EXPECT_EQ(st.int64(5), 105991878);
    EXPECT_EQ(st.int64(6), 25744050);
    EXPECT_EQ(st.int64(7), 136581000);
    EXPECT_EQ(st.int64(8), 0);
    EXPECT_EQ(st.int64(9), 101963203);
    EXPECT_EQ(st.int64(10), 17902500);
    EXPECT_EQ(st.int64(11), 2);
    EXPECT_FALSE(st.step());

    // 2023 header: no Preparing column -> NULL.
    EXPECT_EQ(model.scalar("SELECT step FROM step_trace WHERE rank_id = 1"), 2);
    EXPECT_EQ(model.scalar("SELECT computing_ns FROM step_trace WHERE rank_id = 1"), 75174575);
    EXPECT_EQ(model.scalar("SELECT count(*) FROM step_trace WHERE rank_id = 1 AND preparing_ns IS NULL"), 1);
}

TEST(CsvImporters, KernelLevel1SpotValues)
{
    Model model;
    ASSERT_TRUE(model.import(&KernelDetailsImporter::run,
        samplePath("torch_npu_2rank_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT", "kernel_details.csv")));
    auto st = model.query("SELECT k.device_id, k.step, k.model_id, k.task_id, k.stream_id, n.value, t.value, "
                          "k.op_state, k.accelerator_core, k.ts, k.dur, k.wait_ns, k.block_dim, k.mix_block_dim, "
                          "k.input_shapes, k.input_data_types, k.output_shapes, k.output_data_types, k.rowid "
                          "FROM kernel k JOIN string n ON n.id = k.name_id LEFT JOIN string t ON t.id = k.type_id "
                          "WHERE k.source_line = 2");
    ASSERT_TRUE(st.step());
    EXPECT_TRUE(st.isNull(0));
    EXPECT_EQ(st.int64(1), 50);
    EXPECT_EQ(st.int64(2), 4294967295LL);
    EXPECT_EQ(st.int64(3), 11051);
    EXPECT_EQ(st.int64(4), 2);
    EXPECT_EQ(st.text(5), "trans_TransData_0");
    EXPECT_EQ(st.text(6), "TransData");
    EXPECT_EQ(st.text(7), "dynamic");
    EXPECT_EQ(st.text(8), "AI_VECTOR_CORE");
    EXPECT_EQ(st.int64(9), 1736408883704643212); // "1736408883704643.212\t"
    EXPECT_EQ(st.int64(10), 53741);
    EXPECT_EQ(st.int64(11), 0);
    EXPECT_EQ(st.int64(12), 32);
    EXPECT_EQ(st.int64(13), 0);
    EXPECT_EQ(st.text(14), "32,3,224,224"); // literal quotes stripped
    EXPECT_EQ(st.text(15), "FLOAT");
    EXPECT_EQ(st.text(16), "32,1,224,224,8");
    EXPECT_EQ(st.text(17), "FLOAT");
    // The extra columns stay in the file; they are read back from the record's byte range.
    ASSERT_TRUE(model.scalar("SELECT pmu_file_id FROM kernel WHERE source_line = 2") > 0);
    const auto pmuRead = model.pmu("WHERE source_line = 2");
    ASSERT_TRUE(pmuRead);
    const auto& pmu = *pmuRead;
    ASSERT_TRUE(pmu.is_object());
    EXPECT_EQ(pmu.at("HF32 Eligible"), "NO");
    EXPECT_EQ(pmu.at("Input Formats"), "NCHW");
    EXPECT_EQ(pmu.at("Output Formats"), "NC1HWC0");
    EXPECT_FALSE(pmu.contains("Context ID")); // N/A is left out
    EXPECT_EQ(pmu.at("aiv_total_cycles"), 2910056);
    EXPECT_TRUE(pmu.at("aiv_total_cycles").is_number_integer());
    EXPECT_DOUBLE_EQ(pmu.at("aiv_time(us)").get<double>(), 50.522);
    EXPECT_DOUBLE_EQ(pmu.at("aiv_mte3_ratio").get<double>(), 0.667);
    EXPECT_EQ(pmu.at("cube_utilization(%)"), 0);
    EXPECT_FALSE(pmu.contains("Name"));
    EXPECT_FALSE(pmu.contains("Start Time(us)"));
    EXPECT_EQ(pmu.begin().key(), "HF32 Eligible"); // header order
    // 46 columns, 17 mapped to kernel fields, Context ID is N/A.
    EXPECT_EQ(pmu.size(), 46u - 17u - 1u);

    // A communication row: Task/Stream ID, OP State and the PMU columns are N/A.
    auto hccl = model.query("SELECT task_id, stream_id, op_state, accelerator_core, ts, dur, wait_ns, block_dim, "
                            "mix_block_dim, input_shapes, output_data_types, kernel.rowid, t.value "
                            "FROM kernel JOIN string t ON t.id = kernel.type_id WHERE source_line = 81");
    ASSERT_TRUE(hccl.step());
    EXPECT_TRUE(hccl.isNull(0));
    EXPECT_TRUE(hccl.isNull(1));
    EXPECT_TRUE(hccl.isNull(2));
    EXPECT_EQ(hccl.text(3), "HCCL");
    EXPECT_EQ(hccl.int64(4), 1736408883732241563);
    EXPECT_EQ(hccl.int64(5), 79089520);
    EXPECT_EQ(hccl.int64(6), 590331);
    EXPECT_EQ(hccl.int64(7), 0);
    EXPECT_TRUE(hccl.isNull(8));
    EXPECT_TRUE(hccl.isNull(9));
    EXPECT_TRUE(hccl.isNull(10));
    EXPECT_FALSE(model.pmu("WHERE source_line = 81")); // every extra column is N/A
    EXPECT_EQ(hccl.text(12), "hcom_allReduce_");
}

TEST(CsvImporters, KernelLevel0And2023Headers)
{
    Model model;
    const auto level0
        = samplePath("torch_npu_2rank_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT", "kernel_details.csv");
    const auto old = samplePath("torch_npu_2023_2rank/test_rank_0/ASCEND_PROFILER_OUTPUT", "kernel_details.csv");
    ASSERT_TRUE(model.import(&KernelDetailsImporter::run, level0, 0));
    ASSERT_TRUE(model.import(&KernelDetailsImporter::run, old, 1));

    // Level0: 8 columns, Type is N/A, Accelerator Core too except for the 4 HCCL rows; nothing is left for pmu_json.
    EXPECT_EQ(model.scalar("SELECT count(*) FROM kernel WHERE rank_id = 0 AND type_id IS NULL AND pmu_file_id IS NULL "
                           "AND model_id IS NULL AND task_id IS NULL"),
        191);
    EXPECT_EQ(model.scalar("SELECT count(*) FROM kernel WHERE rank_id = 0 AND accelerator_core IS NULL"), 187);
    EXPECT_EQ(model.scalar("SELECT count(*) FROM kernel WHERE rank_id = 0 AND accelerator_core = 'HCCL'"), 4);
    EXPECT_EQ(model.scalar("SELECT ts FROM kernel WHERE rank_id = 0 AND source_line = 2"), 1736405443881410320);
    EXPECT_EQ(model.scalar("SELECT dur FROM kernel WHERE rank_id = 0 AND source_line = 2"), 50621);
    EXPECT_EQ(model.scalar("SELECT wait_ns FROM kernel WHERE rank_id = 0 AND source_line = 3"), 105722);

    // 2023: no TAB, fewer decimals, L0B PMU columns.
    EXPECT_EQ(model.scalar("SELECT ts FROM kernel WHERE rank_id = 1 AND source_line = 2"), 1695115378713661000);
    EXPECT_EQ(model.scalar("SELECT ts FROM kernel WHERE rank_id = 1 AND source_line = 3"), 1695115378715400200);
    EXPECT_EQ(model.scalar("SELECT dur FROM kernel WHERE rank_id = 1 AND source_line = 3"), 4975266); // 4975.2664
    EXPECT_EQ(model.scalar("SELECT count(*) FROM kernel WHERE rank_id = 1 AND source_line = 3 AND task_id IS NULL "
                           "AND op_state IS NULL"),
        1);
    EXPECT_FALSE(model.pmu("WHERE rank_id = 1 AND source_line = 3")); // every extra cell N/A
    auto st = model.query("SELECT input_shapes, input_data_types, output_shapes FROM kernel "
                          "WHERE rank_id = 1 AND source_line = 6");
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.text(0), "2,8193;2;2");
    EXPECT_EQ(st.text(1), "INT32;INT64;INT64");
    EXPECT_EQ(st.text(2), "2,8192");
    const auto pmuRead = model.pmu("WHERE rank_id = 1 AND source_line = 6");
    ASSERT_TRUE(pmuRead);
    const auto& pmu = *pmuRead;
    EXPECT_EQ(pmu.at("aiv_total_cycles"), 5341);
    EXPECT_EQ(pmu.at("aic_l0a_read_bw(GB/s)"), 0);
    EXPECT_EQ(pmu.at("Input Formats"), "FORMAT_ND;FORMAT_ND;FORMAT_ND");
}

TEST(CsvImporters, StatisticsSpotValues)
{
    Model model;
    ASSERT_TRUE(model.import(&OpStatisticImporter::run,
        samplePath("torch_npu_2rank_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT", "op_statistic.csv")));
    ASSERT_TRUE(model.import(&ApiStatisticImporter::run,
        samplePath("torch_npu_2rank_level2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT", "api_statistic.csv")));

    auto op = model.query("SELECT device_id, core_type, count, total_ns, min_ns, avg_ns, max_ns, ratio_pct "
                          "FROM op_statistic WHERE op_type = 'ForeachAddList'");
    ASSERT_TRUE(op.step());
    EXPECT_TRUE(op.isNull(0));
    EXPECT_EQ(op.text(1), "AI_VECTOR_CORE");
    EXPECT_EQ(op.int64(2), 3);
    EXPECT_EQ(op.int64(3), 1959079);
    EXPECT_EQ(op.int64(4), 624152);
    EXPECT_EQ(op.int64(5), 653026);
    EXPECT_EQ(op.int64(6), 706614);
    EXPECT_DOUBLE_EQ(op.real(7), 22.077);
    EXPECT_EQ(model.scalar("SELECT sum(total_ns) FROM op_statistic"), 8873751); // ≈ Computing of step 50

    auto api = model.query("SELECT device_id, level, total_ns, count, avg_ns, min_ns, max_ns, variance "
                           "FROM api_statistic WHERE api_name = 'ContextGetCurrent'");
    ASSERT_TRUE(api.step());
    EXPECT_TRUE(api.isNull(0));
    EXPECT_EQ(api.text(1), "runtime");
    EXPECT_EQ(api.int64(2), 14680);
    EXPECT_EQ(api.int64(3), 30);
    EXPECT_EQ(api.int64(4), 489);
    EXPECT_EQ(api.int64(5), 170);
    EXPECT_EQ(api.int64(6), 3650);
    EXPECT_DOUBLE_EQ(api.real(7), 0.38);
    EXPECT_EQ(model.scalar("SELECT sum(total_ns) FROM api_statistic"), 210407540);
    EXPECT_EQ(model.scalar("SELECT sum(count) FROM api_statistic"), 1134);
}

TEST(CsvImporters, MemorySpotValues)
{
    Model model;
    const std::string l1 = "torch_npu_2rank_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT";
    const std::string r0 = "torch_npu_2023_2rank/test_rank_0/ASCEND_PROFILER_OUTPUT";
    const std::string r1 = "torch_npu_2023_2rank/test_rank_1/ASCEND_PROFILER_OUTPUT";
    ASSERT_TRUE(model.import(&MemoryRecordImporter::run, samplePath(l1, "memory_record.csv"), 0));
    ASSERT_TRUE(model.import(&MemoryRecordImporter::run, samplePath(r0, "memory_record.csv"), 1));
    ASSERT_TRUE(model.import(&MemoryRecordImporter::run, samplePath(r1, "memory_record.csv"), 2));
    ASSERT_TRUE(model.import(&OperatorMemoryImporter::run, samplePath(l1, "operator_memory.csv"), 0));
    ASSERT_TRUE(model.import(&OperatorMemoryImporter::run, samplePath(r0, "operator_memory.csv"), 1));
    ASSERT_TRUE(model.import(&NpuModuleMemImporter::run, samplePath(l1, "npu_module_mem.csv"), 0));
    ASSERT_TRUE(model.import(&NpuModuleMemImporter::run, samplePath(r0, "npu_module_mem.csv"), 1));

    auto mr = model.query("SELECT component, ts, allocated_mb, reserved_mb, active_mb, stream_ptr, device "
                          "FROM memory_record WHERE rank_id = 0 ORDER BY rowid LIMIT 1");
    ASSERT_TRUE(mr.step());
    EXPECT_EQ(mr.text(0), "APP");
    EXPECT_EQ(mr.int64(1), 1736408883573957920);
    EXPECT_TRUE(mr.isNull(2)); // empty cell
    EXPECT_DOUBLE_EQ(mr.real(3), 2109.6015625);
    EXPECT_TRUE(mr.isNull(4));
    EXPECT_TRUE(mr.isNull(5));
    EXPECT_EQ(mr.text(6), "NPU:0");
    EXPECT_EQ(model.scalar("SELECT count(*) FROM memory_record WHERE rank_id = 0 AND allocated_mb IS NULL"), 14);
    // 2023 header: no Total Active / Stream Ptr columns.
    EXPECT_EQ(model.scalar("SELECT count(*) FROM memory_record WHERE rank_id = 1 AND active_mb IS NULL "
                           "AND stream_ptr IS NULL"),
        11);
    EXPECT_EQ(model.scalar("SELECT min(ts) FROM memory_record WHERE rank_id = 1"), 1695115378653323500);
    // Excel-mangled "1.69512E+15" timestamps in the 2023 rank 1 sample are still numbers.
    EXPECT_EQ(model.scalar("SELECT min(ts) FROM memory_record WHERE rank_id = 2"), 1695120000000000000);

    auto om = model.query("SELECT size_kb, alloc_ts, release_ts, active_release_ts, dur, active_dur, "
                          "alloc_allocated_mb, alloc_reserved_mb, alloc_active_mb, release_allocated_mb, "
                          "release_reserved_mb, release_active_mb, stream_ptr, device FROM operator_memory "
                          "WHERE rank_id = 0 AND name = 'aten::_convolution' AND release_ts IS NOT NULL "
                          "ORDER BY rowid LIMIT 1");
    ASSERT_TRUE(om.step());
    EXPECT_DOUBLE_EQ(om.real(0), 25009.5);
    EXPECT_EQ(om.int64(1), 1736408883702735700);
    EXPECT_EQ(om.int64(2), 1736408883736793940);
    EXPECT_EQ(om.int64(3), 1736408883736793430);
    EXPECT_EQ(om.int64(4), 34058240);
    EXPECT_EQ(om.int64(5), 34057730);
    EXPECT_DOUBLE_EQ(om.real(6), 978.7939453125);
    EXPECT_DOUBLE_EQ(om.real(7), 1452.0);
    EXPECT_DOUBLE_EQ(om.real(8), 978.7939453125);
    EXPECT_DOUBLE_EQ(om.real(9), 977.6123046875);
    EXPECT_DOUBLE_EQ(om.real(10), 1452.0);
    EXPECT_DOUBLE_EQ(om.real(11), 977.6123046875);
    EXPECT_EQ(om.text(12), "897357296");
    EXPECT_EQ(om.text(13), "NPU:0");
    EXPECT_EQ(model.scalar("SELECT count(*) FROM operator_memory WHERE rank_id = 0 AND release_ts IS NULL"), 24);

    auto old = model.query("SELECT name, size_kb, alloc_ts, release_ts, active_release_ts, dur, active_dur, "
                           "alloc_allocated_mb, alloc_active_mb, release_reserved_mb, stream_ptr, device "
                           "FROM operator_memory WHERE rank_id = 1 ORDER BY rowid LIMIT 1");
    ASSERT_TRUE(old.step());
    EXPECT_EQ(old.text(0), "cann::Graph_70");
    EXPECT_DOUBLE_EQ(old.real(1), 192.0);
    EXPECT_EQ(old.int64(2), 1695115378723902500);
    EXPECT_EQ(old.int64(3), 1695115378723939200);
    EXPECT_TRUE(old.isNull(4));
    EXPECT_EQ(old.int64(5), 36730);
    EXPECT_TRUE(old.isNull(6));
    EXPECT_DOUBLE_EQ(old.real(7), 0.25);
    EXPECT_TRUE(old.isNull(8));
    EXPECT_DOUBLE_EQ(old.real(9), 242.0);
    EXPECT_TRUE(old.isNull(10));
    EXPECT_EQ(old.text(11), "NPU:0");

    auto nm = model.query("SELECT device_id, component, ts, reserved_mb, device FROM npu_module_mem "
                          "WHERE rank_id = 0 ORDER BY rowid LIMIT 1");
    ASSERT_TRUE(nm.step());
    EXPECT_TRUE(nm.isNull(0));
    EXPECT_EQ(nm.text(1), "SLOG");
    EXPECT_EQ(nm.int64(2), 1736408883657086220);
    EXPECT_DOUBLE_EQ(nm.real(3), 0.0);
    EXPECT_EQ(nm.text(4), "NPU:0");
    // CRLF file (2023 rank 0 npu_module_mem.csv): no stray CR in the last column.
    EXPECT_EQ(model.scalar("SELECT count(*) FROM npu_module_mem WHERE rank_id = 1 AND device = 'NPU:0'"), 78);
}

// ---------------------------------------------------------------------------------------------------------------
// Generated input: headers not in the samples and a corpus of broken files.

namespace {

class CsvImportersCorpus : public ::testing::Test {
protected:
    void SetUp() override
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_root = std::filesystem::path(::testing::TempDir()) / ("npuscope_csvimporters_" + std::to_string(::getpid()));
        m_dir = m_root / info->name();
        std::filesystem::remove_all(m_dir);
        std::filesystem::create_directories(m_dir);
    }
    void TearDown() override
    {
        std::error_code ec;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(m_dir, ec))
            std::filesystem::permissions(entry.path(), std::filesystem::perms::owner_all, ec);
        std::filesystem::remove_all(m_dir, ec);
        std::filesystem::remove(m_root, ec); // only when empty
    }

    std::string write(const std::string& name, const std::string& content)
    {
        const auto path = m_dir / name;
        std::ofstream out(path, std::ios::binary);
        out << content;
        return path.string();
    }

    std::filesystem::path m_root; // per process, so runs as different users or in parallel do not collide
    std::filesystem::path m_dir;
};

struct NamedImporter {
    const char* name;
    RunFn run;
    const char* table;
};

const std::vector<NamedImporter>& allImporters()
{
    static const std::vector<NamedImporter> all {
        { "StepTrace", &StepTraceImporter::run, "step_trace" },
        { "KernelDetails", &KernelDetailsImporter::run, "kernel" },
        { "OpStatistic", &OpStatisticImporter::run, "op_statistic" },
        { "ApiStatistic", &ApiStatisticImporter::run, "api_statistic" },
        { "MemoryRecord", &MemoryRecordImporter::run, "memory_record" },
        { "OperatorMemory", &OperatorMemoryImporter::run, "operator_memory" },
        { "NpuModuleMem", &NpuModuleMemImporter::run, "npu_module_mem" },
    };
    return all;
}

const char* kKernelHeader = "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\n";

} // namespace

TEST_F(CsvImportersCorpus, MultiDeviceHeaders)
{
    // torch_npu 2.7.1 puts Device_id first (FORMATS.md §6); no sample of it is in tests/data.
    Model model;
    const auto step = write("step_trace_time.csv",
        "Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
        "Communication(Not Overlapped and Exclude Receive),Preparing\n"
        "3,,10.5,2.25,1.0,3.25,0.5,13.25,0,2.25,7.125\n");
    const auto kernel = write("kernel_details.csv",
        "Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),"
        "Duration(us),Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,"
        "Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID,aicore_time(us)\n"
        "7,3,4294967295,N/A,N/A,hcom_allReduce__1_0_1,hcom_allReduce_,N/A,COMMUNICATION,1736408883704643.212\t,"
        "10,0.5,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A\n");
    const auto op = write("op_statistic.csv",
        "Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n"
        "3,MatMul,AI_CORE,2,10.0,4.0,5.0,6.0,100\n");
    const auto api = write("api_statistic.csv",
        "Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n"
        "host,acl,aclrtSynchronizeDevice,1.5,1,1.5,1.5,1.5,0\n");
    const auto npu = write("npu_module_mem.csv",
        "Device_id,Component,Timestamp(us),Total Reserved(MB),Device\n3,76,1736408883657086.220\t,12.5,NPU:3\n");
    ASSERT_TRUE(model.import(&StepTraceImporter::run, step));
    ASSERT_TRUE(model.import(&KernelDetailsImporter::run, kernel));
    ASSERT_TRUE(model.import(&OpStatisticImporter::run, op));
    ASSERT_TRUE(model.import(&ApiStatisticImporter::run, api));
    ASSERT_TRUE(model.import(&NpuModuleMemImporter::run, npu));
    EXPECT_EQ(model.issueCount(), 0);

    EXPECT_EQ(model.scalar("SELECT device_id FROM step_trace"), 3);
    EXPECT_EQ(model.scalar("SELECT count(*) FROM step_trace WHERE step IS NULL"), 1); // empty Step
    EXPECT_EQ(model.scalar("SELECT computing_ns FROM step_trace"), 10500);
    EXPECT_EQ(model.scalar("SELECT preparing_ns FROM step_trace"), 7125);
    EXPECT_EQ(model.scalar("SELECT device_id FROM kernel"), 3);
    EXPECT_EQ(model.scalar("SELECT step FROM kernel"), 7);
    EXPECT_EQ(model.scalar("SELECT ts FROM kernel"), 1736408883704643212);
    EXPECT_FALSE(model.pmu("WHERE accelerator_core = 'COMMUNICATION'")); // its extra cells are N/A
    EXPECT_EQ(model.scalar("SELECT device_id FROM op_statistic"), 3);
    EXPECT_EQ(model.scalar("SELECT total_ns FROM op_statistic WHERE op_type = 'MatMul'"), 10000);
    EXPECT_EQ(model.scalar("SELECT count(*) FROM api_statistic WHERE device_id = 'host' AND total_ns = 1500"), 1);
    EXPECT_EQ(model.scalar("SELECT device_id FROM npu_module_mem"), 3);
    EXPECT_EQ(model.scalar("SELECT count(*) FROM npu_module_mem WHERE component = '76'"), 1);
}

TEST_F(CsvImportersCorpus, KernelWithoutStepIdColumn)
{
    Model model;
    const auto path = write("kernel_details.csv",
        "Name,Type,Accelerator Core,Start Time(us),Duration(us)\nMatMul,MatMul,AI_CORE,100.5,2\n");
    ASSERT_TRUE(model.import(&KernelDetailsImporter::run, path));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM kernel WHERE step IS NULL AND ts = 100500 AND dur = 2000"), 1);
    EXPECT_TRUE(model.issues(path).empty());
}

TEST_F(CsvImportersCorpus, EveryImporterSurvivesEveryBrokenFile)
{
    std::string garbage = "\x89PNG\r\n\x1a\n";
    for (int i = 0; i < 4096; ++i)
        garbage.push_back(static_cast<char>((i * 131 + 7) % 256));
    const auto empty = write("empty.csv", "");
    const auto blank = write("blank.csv", "\n\r\n\n");
    const auto binary = write("binary.csv", garbage);
    const auto missing = (m_dir / "does_not_exist.csv").string();
    const auto directory = (m_dir / "a_directory.csv").string();
    std::filesystem::create_directories(directory);
    const auto unrelated = write("unrelated.csv", "foo,bar\n1,2\n");

    for (const auto& importer : allImporters()) {
        SCOPED_TRACE(importer.name);
        Model model;
        EXPECT_FALSE(model.import(importer.run, empty));
        EXPECT_TRUE(anyIssue(model.issues(empty), "error", std::nullopt, { "empty file" }))
            << describe(model.issues(empty));
        EXPECT_FALSE(model.import(importer.run, blank));
        EXPECT_TRUE(anyIssue(model.issues(blank), "error", std::nullopt, { "empty file" }));
        EXPECT_FALSE(model.import(importer.run, binary));
        EXPECT_TRUE(anyIssue(model.issues(binary), "error", std::nullopt, { "not a CSV text file" }))
            << describe(model.issues(binary));
        EXPECT_FALSE(model.import(importer.run, missing));
        EXPECT_TRUE(anyIssue(model.issues(missing), "error", std::nullopt, { "cannot open: ", "No such file" }))
            << describe(model.issues(missing));
        EXPECT_FALSE(model.import(importer.run, directory)); // reported, whatever the wording
        EXPECT_FALSE(model.issues(directory).empty());
        EXPECT_FALSE(model.import(importer.run, unrelated));
        EXPECT_TRUE(anyIssue(model.issues(unrelated), "error", 1, { "missing required column", "found:", "\"foo\"" }))
            << describe(model.issues(unrelated));
        EXPECT_EQ(model.scalar(std::string("SELECT count(*) FROM ") + importer.table), 0);
    }
}

TEST_F(CsvImportersCorpus, UnreadableFile)
{
    const auto path = write("step_trace_time.csv", "Step,Computing\n1,2\n");
    std::filesystem::permissions(path, std::filesystem::perms::none);
    if (::geteuid() == 0)
        GTEST_SKIP() << "running as root: chmod 000 does not stop root from reading";
    Model model;
    EXPECT_FALSE(model.import(&StepTraceImporter::run, path));
    EXPECT_TRUE(anyIssue(model.issues(path), "error", std::nullopt, { "cannot open: ", "Permission denied" }))
        << describe(model.issues(path));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM step_trace"), 0);
}

TEST_F(CsvImportersCorpus, MissingRequiredColumn)
{
    Model model;
    const auto path = write("kernel_details.csv",
        "Step Id,Name,Type,Accelerator Core,Start Time(us),Wait Time(us),Block Dim\n50,a,N/A,N/A,1.0,0,0\n");
    EXPECT_FALSE(model.import(&KernelDetailsImporter::run, path));
    const auto issues = model.issues(path);
    ASSERT_EQ(issues.size(), 1u) << describe(issues);
    EXPECT_TRUE(anyIssue(issues, "error", 1, { "missing required column", "\"Duration(us)\"", "\"Start Time(us)\"" }))
        << describe(issues);
    EXPECT_EQ(model.scalar("SELECT count(*) FROM kernel"), 0);
}

TEST_F(CsvImportersCorpus, RenamedColumn)
{
    Model model;
    const auto path = write("step_trace_time.csv",
        "Step,Compute,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble\n1,2,3,4,5,6,7,8\n");
    EXPECT_FALSE(model.import(&StepTraceImporter::run, path));
    EXPECT_TRUE(anyIssue(model.issues(path), "error", 1, { "\"Computing\"", "found:", "\"Compute\"" }))
        << describe(model.issues(path));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM step_trace"), 0);
}

TEST_F(CsvImportersCorpus, NotAvailableCells)
{
    Model model;
    const auto path = write("kernel_details.csv",
        std::string(kKernelHeader) + "N/A,MatMul,N/A,N/A,1736408883704643.212\t,N/A,N/A,N/A\n" // Duration N/A
            + "N/A,MatMul,N/A,N/A,1736408883704643.212\t,2.5,N/A,N/A\n" // optional N/A -> NULL
            + "1,N/A,MatMul,AI_CORE,1.0,2.0,0,1\n"); // Name N/A
    EXPECT_TRUE(model.import(&KernelDetailsImporter::run, path));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM kernel"), 1);
    EXPECT_EQ(model.scalar("SELECT count(*) FROM kernel WHERE step IS NULL AND type_id IS NULL AND wait_ns IS NULL "
                           "AND block_dim IS NULL AND accelerator_core IS NULL AND dur = 2500 AND source_line = 3"),
        1);
    const auto issues = model.issues(path);
    EXPECT_EQ(issues.size(), 2u) << describe(issues);
    EXPECT_TRUE(anyIssue(issues, "warning", 2, { "row skipped", "\"Duration(us)\"" })) << describe(issues);
    EXPECT_TRUE(anyIssue(issues, "warning", 4, { "row skipped", "\"Name\"" })) << describe(issues);
}

TEST_F(CsvImportersCorpus, MalformedNumbersAndCrlf)
{
    Model model;
    const auto path = write("step_trace_time.csv",
        "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
        "Communication(Not Overlapped and Exclude Receive),Preparing\r\n"
        "1,12.3.4,1.5,0.5,2.0,3,4,0,1.5,7\r\n"
        "x2,8.25,1.5,0.5,2.0,3,4,0,1.5,7.5\r\n");
    EXPECT_TRUE(model.import(&StepTraceImporter::run, path));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM step_trace"), 2);
    EXPECT_EQ(model.scalar("SELECT count(*) FROM step_trace WHERE source_line = 2 AND computing_ns IS NULL "
                           "AND communication_ns = 2000 AND preparing_ns = 7000"),
        1);
    EXPECT_EQ(model.scalar("SELECT count(*) FROM step_trace WHERE source_line = 3 AND step IS NULL "
                           "AND computing_ns = 8250 AND preparing_ns = 7500"),
        1); // the last cell of a CRLF line has no CR left
    const auto issues = model.issues(path);
    EXPECT_EQ(issues.size(), 2u) << describe(issues);
    EXPECT_TRUE(anyIssue(issues, "warning", 2, { "malformed number", "\"12.3.4\"", "\"Computing\"" }))
        << describe(issues);
    EXPECT_TRUE(anyIssue(issues, "warning", 3, { "malformed number", "\"x2\"", "\"Step\"" })) << describe(issues);
}

// torch_npu_2023_2rank's rank 1 memory_record.csv went through a spreadsheet: every Timestamp(us) reads
// "1.69512E+15". The value is read as written (1695120000000000 µs) and the rounding is said once, at the first row.
TEST_F(CsvImportersCorpus, TimestampsInScientificNotationAreReportedOnce)
{
    Model model;
    const auto path = write("memory_record.csv",
        "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n"
        "APP,1.69512E+15,,10750.375,,,NPU:1\n"
        "APP,1.69512E+15,,10751.375,,,NPU:1\n"
        "APP,1695120000000001.5,,10752.375,,,NPU:1\n");
    EXPECT_TRUE(model.import(&MemoryRecordImporter::run, path));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM memory_record WHERE ts = 1695120000000000000"), 2);
    const auto issues = model.issues(path);
    EXPECT_EQ(issues.size(), 1u) << describe(issues);
    EXPECT_TRUE(anyIssue(issues, "warning", 2, { "scientific notation", "\"1.69512E+15\"", "10^10 µs" }))
        << describe(issues);
}

TEST_F(CsvImportersCorpus, TabSuffixedNumbers)
{
    Model model;
    const auto path = write("memory_record.csv",
        "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n"
        "PTA,1736408883573957.920\t,1.5\t,2.5,\t,,NPU:0\n"
        "PTA,bad\t,1.5,2.5,,,NPU:0\n"
        "PTA+GE,\t,1.5,2.5,,,NPU:0\n");
    EXPECT_TRUE(model.import(&MemoryRecordImporter::run, path));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM memory_record"), 1);
    EXPECT_EQ(model.scalar("SELECT count(*) FROM memory_record WHERE ts = 1736408883573957920 AND allocated_mb = 1.5 "
                           "AND active_mb IS NULL AND stream_ptr IS NULL"),
        1);
    const auto issues = model.issues(path);
    EXPECT_EQ(issues.size(), 2u) << describe(issues);
    EXPECT_TRUE(anyIssue(issues, "warning", 3, { "row skipped", "\"bad\"", "\"Timestamp(us)\"" })) << describe(issues);
    EXPECT_TRUE(anyIssue(issues, "warning", 4, { "row skipped", "no value", "\"Timestamp(us)\"" })) << describe(issues);
}

TEST_F(CsvImportersCorpus, TruncatedMidRow)
{
    Model model;
    const auto cut = write("kernel_details.csv",
        std::string(kKernelHeader) + "50,a,T,AI_CORE,1736408883704643.212\t,1.5,0,1\n50,b,T,AI_CORE,17364088837");
    EXPECT_TRUE(model.import(&KernelDetailsImporter::run, cut));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM kernel"), 1);
    auto issues = model.issues(cut);
    EXPECT_TRUE(anyIssue(issues, "warning", 3, { "5 fields", "8" })) << describe(issues);
    EXPECT_TRUE(anyIssue(issues, "warning", 3, { "row skipped", "\"Duration(us)\"" })) << describe(issues);

    const auto quoted = write("operator_memory.csv",
        "Name,Size(KB),Allocation Time(us),Release Time(us),Duration(us),Device Type\n"
        "aten::empty,1.0,10.5,11.5,1.0,NPU:0\n"
        "\"aten::empty_strided,2.0,12.5");
    EXPECT_TRUE(model.import(&OperatorMemoryImporter::run, quoted));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM operator_memory"), 1);
    issues = model.issues(quoted);
    EXPECT_TRUE(anyIssue(issues, "warning", 3, { "truncated" })) << describe(issues);
}

TEST_F(CsvImportersCorpus, ExtraFieldsAreReported)
{
    Model model;
    const auto path = write("op_statistic.csv",
        "OP Type,Core Type,Count,Total Time(us)\nMatMul,AI_CORE,2,10.0,surplus\nAdd,AI_VECTOR_CORE,1,1.0\n");
    EXPECT_TRUE(model.import(&OpStatisticImporter::run, path));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM op_statistic"), 2);
    EXPECT_TRUE(anyIssue(model.issues(path), "warning", 2, { "5 fields", "4" })) << describe(model.issues(path));
}

TEST_F(CsvImportersCorpus, NonUtf8FileName)
{
    Model model;
    const std::string name = "op_statistic_\xff\xfe\x80.csv";
    const auto path = write(name, "OP Type,Core Type,Count,Total Time(us)\nMatMul,AI_CORE,two,10.0\n");
    EXPECT_TRUE(model.import(&OpStatisticImporter::run, path));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM op_statistic WHERE count IS NULL AND total_ns = 10000"), 1);
    const auto issues = model.issues(path); // parse_issue.file holds the exact bytes of the path
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_TRUE(anyIssue(issues, "warning", 2, { "\"two\"", "\"Count\"" })) << describe(issues);
}

TEST_F(CsvImportersCorpus, NonUtf8CellsInPmuJson)
{
    Model model;
    const auto path = write(
        "kernel_details.csv", "Name,Start Time(us),Duration(us),Input Formats\nMatMul\xff,1.0,2.0,ND\xfe\xff\n");
    EXPECT_TRUE(model.import(&KernelDetailsImporter::run, path));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM kernel WHERE pmu_file_id IS NOT NULL"), 1);
    const auto pmu = model.pmu("");
    ASSERT_TRUE(pmu);
    // The invalid bytes come back as they are; a consumer prints them with the replacing error handler.
    EXPECT_NO_THROW(pmu->dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

TEST_F(CsvImportersCorpus, HeaderOnlyIsNotAnError)
{
    Model model;
    const auto path = write("api_statistic.csv", "Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n");
    EXPECT_TRUE(model.import(&ApiStatisticImporter::run, path));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM parse_issue WHERE severity IN ('error', 'warning')"), 0);
}

TEST_F(CsvImportersCorpus, IssuesPerFileAreCapped)
{
    std::string content = "Component,Timestamp(us),Total Reserved(MB),Device\n";
    for (int i = 0; i < 200; ++i)
        content += "SLOG,1736408883657086.220\t,oops,NPU:0\n";
    const auto path = write("npu_module_mem.csv", content);
    Model model;
    EXPECT_TRUE(model.import(&NpuModuleMemImporter::run, path));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM npu_module_mem WHERE reserved_mb IS NULL"), 200);
    const auto issues = model.issues(path);
    ASSERT_EQ(issues.size(), static_cast<size_t>(ImportContext::kMaxIssuesPerFile) + 1);
    EXPECT_NE(issues.back().message.find("150 more problems"), std::string::npos) << issues.back().message;
}

TEST_F(CsvImportersCorpus, CancelStopsWithinOneBatch)
{
    std::string content = "OP Type,Core Type,Count,Total Time(us)\n";
    for (int i = 0; i < 10000; ++i)
        content += "Op" + std::to_string(i) + ",AI_CORE,1,1.0\n";
    const auto path = write("op_statistic.csv", content);
    Model model;
    std::atomic<bool> cancel { true };
    EXPECT_FALSE(model.import(&OpStatisticImporter::run, path, 0, &cancel));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM op_statistic"), 4095);
    cancel = false;
    EXPECT_TRUE(model.import(&OpStatisticImporter::run, path, 1, &cancel));
    EXPECT_EQ(model.scalar("SELECT count(*) FROM op_statistic WHERE rank_id = 1"), 10000);
}

TEST_F(CsvImportersCorpus, InputFilesAreNotModified)
{
    const auto source
        = samplePath("torch_npu_2rank_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT", "kernel_details.csv");
    const auto before = std::filesystem::last_write_time(source);
    const auto size = std::filesystem::file_size(source);
    Model model;
    ASSERT_TRUE(model.import(&KernelDetailsImporter::run, source));
    EXPECT_EQ(std::filesystem::last_write_time(source), before);
    EXPECT_EQ(std::filesystem::file_size(source), size);
}

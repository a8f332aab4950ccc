// SPDX-License-Identifier: Apache-2.0
// What the db exports give beyond kernels and the basic timeline: memory tables (ProfilerDbImporter), counters,
// HCCL ops and planes, MSTX, Overlap Analysis, flows by category and slice args read back from the .db
// (DbTimelineImporter, load::SourceDetails::sliceArgs). Expected figures are sqlite3 reads of the files, e.g. for
// tests/data/torch_npu_2rank_db/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db:
//   SELECT COUNT(*) FROM MEMORY_RECORD -> 990; NPU_MEM WHERE type = 363 ('app') -> 14; OP_MEMORY -> 184;
//   NPU_MODULE_MEM -> 1078; COMMUNICATION_OP -> 4; COMMUNICATION_TASK_INFO JOIN TASK -> 296; OVERLAP_ANALYSIS -> 382
//   connectionCats: HostToDevice / async_npu 191 ids (204 CANN_API|PYTORCH_API x device pairs, a communication op's
//   id ending on its COMMUNICATION_OP row), async_task_queue 159 ids, fwdbwd 27 ids (two PYTORCH_API rows each).
#include "TestSupport.h"

#include "npuscope/io/db/DbSliceArgs.h"
#include "npuscope/io/db/DbTimelineImporter.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/load/SourceDetails.h"
#include "npuscope/load/Loader.h"
#include "npuscope/io/db/ProfilerDbImporter.h"
#include "npuscope/model/Database.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/query/TimelineQuery.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <tuple>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::query::TimelineQuery;
using npuscope::test::dataDir;
using npuscope::test::ScratchDir;

namespace {

fs::path torchDb()
{
    return dataDir() / "torch_npu_2rank_db" / "level1" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
        / "ascend_pytorch_profiler_0.db";
}
fs::path msprofDb() { return dataDir() / "cann_msprof_db" / "msprof_0.db"; }
fs::path reportDb() { return dataDir() / "cann_report_db" / "report_0.db"; }

using RunFn = bool (*)(io::ImportContext&);

class Model {
public:
    Model()
        : m_db(model::Database::createModel())
        , m_writer(*m_db)
    {
    }

    bool import(RunFn run, const fs::path& path)
    {
        m_writer.begin();
        io::ImportContext ctx(m_writer, 0, path.string());
        const bool ok = run(ctx);
        m_writer.commit();
        return ok;
    }

    model::Database& db() { return *m_db; }
    int64_t count(const std::string& sql) { return m_db->scalarInt(sql).value_or(-1); }
    std::string text(const std::string& sql)
    {
        auto st = m_db->prepare(sql);
        std::string out;
        while (st.step()) {
            for (int c = 0; c < st.columnCount(); ++c)
                out += (c ? "|" : "") + st.optText(c).value_or("NULL");
            out += "\n";
        }
        return out;
    }
    double real(const std::string& sql)
    {
        auto st = m_db->prepare(sql);
        return st.step() ? st.optReal(0).value_or(NAN) : NAN;
    }
    // The slice with that name on a process of that name (first by ts).
    int64_t sliceId(const std::string& process, const std::string& name)
    {
        return count("SELECT s.id FROM slice s JOIN string n ON n.id = s.name_id JOIN process p ON p.rank_id = "
                     "s.rank_id AND p.pid = s.pid WHERE p.name = '"
            + process + "' AND n.value = '" + name + "' ORDER BY s.ts LIMIT 1");
    }
    nlohmann::json args(int64_t slice)
    {
        const auto a = load::SourceDetails::sliceArgs(*m_db, slice);
        EXPECT_TRUE(a.json) << a.error;
        return a.json ? nlohmann::json::parse(*a.json) : nlohmann::json();
    }
    int64_t errors() { return count("SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"); }

private:
    std::unique_ptr<model::Database> m_db;
    model::ModelWriter m_writer;
};

std::string counterCount(const char* process, const char* name, const char* series)
{
    return std::string("SELECT COUNT(*) FROM counter c JOIN string n ON n.id = c.name_id JOIN process p ON p.rank_id = "
                       "c.rank_id AND p.pid = c.pid WHERE p.name = '")
        + process + "' AND n.value = '" + name + "' AND c.series = '" + series + "'";
}

std::string firstCounterValue(const char* name, const char* series)
{
    return std::string("SELECT c.value FROM counter c JOIN string n ON n.id = c.name_id WHERE n.value = '") + name
        + "' AND c.series = '" + series + "' ORDER BY c.ts LIMIT 1";
}

std::string flowCount(const char* cat) { return std::string("SELECT COUNT(*) FROM flow WHERE cat = '") + cat + "'"; }

} // namespace

TEST(DbExportTables, MemoryTablesLikeTheCsvs)
{
    Model m;
    ASSERT_TRUE(m.import(&io::ProfilerDbImporter::run, torchDb()));
    EXPECT_EQ(m.errors(), 0);
    // 990 MEMORY_RECORD rows + 14 NPU_MEM "app" samples, as memory_record.csv has APP rows (1004 in the text run).
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM memory_record"), 990 + 14);
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM memory_record WHERE component = 'APP'"), 14);
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM memory_record WHERE component = 'PTA'"), 381);
    // First row: PTA, 1736410576394583320 ns, 981462016 B allocated = 935.9951171875 MB, 1522532352 B = 1452 MB.
    EXPECT_EQ(m.text("SELECT component, ts, allocated_mb, reserved_mb, active_mb, stream_ptr, device FROM "
                     "memory_record WHERE component <> 'APP' ORDER BY rowid LIMIT 1"),
        "PTA|1736410576394583320|935.9951171875|1452.0|935.9951171875|733279888|NPU:0\n");
    // APP: NPU_MEM app hbm 2212077568 B (+ ddr 0) = 2109.6015625 MB, as the CSV's first APP row of the text run.
    EXPECT_EQ(m.text("SELECT reserved_mb, allocated_mb IS NULL FROM memory_record WHERE component = 'APP' ORDER BY "
                     "ts LIMIT 1"),
        "2109.6015625|1\n");

    EXPECT_EQ(m.count("SELECT COUNT(*) FROM operator_memory"), 184);
    // Third OP_MEMORY row: 25609728 B = 25009.5 KB, released, times exact to the ns, 1026339840 B = 978.79... MB.
    EXPECT_EQ(m.text("SELECT size_kb, alloc_ts, release_ts, active_release_ts, dur, active_dur, alloc_allocated_mb, "
                     "release_reserved_mb, device FROM operator_memory ORDER BY rowid LIMIT 1 OFFSET 2"),
        "25009.5|1736410576401535490|1736410576436342580|1736410576436342320|34807090|34806830|978.7939453125|1452.0|"
        "NPU:0\n");
    // Not freed inside the window: release columns NULL, as the CSV leaves them empty.
    EXPECT_EQ(m.text("SELECT name, size_kb, release_ts IS NULL, dur IS NULL FROM operator_memory ORDER BY rowid "
                     "LIMIT 1"),
        "aten::empty_strided|18816.5|1|1\n");

    EXPECT_EQ(m.count("SELECT COUNT(*) FROM npu_module_mem"), 1078);
    EXPECT_EQ(m.count("SELECT COUNT(DISTINCT component) FROM npu_module_mem"), 77);
    // moduleId 3 = HCCL (ENUM_MODULE): 423690240 B = 404.0625 MB.
    EXPECT_EQ(m.text("SELECT component, ts, reserved_mb, device_id, device FROM npu_module_mem WHERE component = "
                     "'HCCL' ORDER BY ts LIMIT 1"),
        "HCCL|1736410576357979490|404.0625|0|NPU:0\n");
}

TEST(DbExportTables, MemoryTablesAbsentInCannExports)
{
    for (const auto& path : { msprofDb(), reportDb() }) {
        Model m;
        ASSERT_TRUE(m.import(&io::ProfilerDbImporter::run, path)) << path;
        EXPECT_EQ(m.errors(), 0) << path;
        EXPECT_EQ(m.count("SELECT COUNT(*) FROM memory_record"), 0);
        EXPECT_EQ(m.count("SELECT COUNT(*) FROM operator_memory"), 0);
        EXPECT_EQ(m.count("SELECT COUNT(*) FROM npu_module_mem"), 0);
    }
}

TEST(DbExportTables, HardwareCounters)
{
    Model m;
    ASSERT_TRUE(m.import(&io::DbTimelineImporter::run, torchDb()));
    EXPECT_EQ(m.errors(), 0);
    EXPECT_EQ(m.count(counterCount("AI Core Freq", "AI Core Freq", "MHz")), 3);
    EXPECT_EQ(m.real(firstCounterValue("AI Core Freq", "MHz")), 1800.0);
    // NPU_MEM: 14 app + 14 device samples; bytes / 1024 = the text's KB (2212077568 B = 2160232 KB).
    EXPECT_EQ(m.count(counterCount("NPU MEM", "APP/HBM", "KB")), 14);
    EXPECT_EQ(m.count(counterCount("NPU MEM", "Device/Memory", "KB")), 14);
    EXPECT_EQ(m.real(firstCounterValue("APP/HBM", "KB")), 2160232.0);
    // HBM: 104 rows = 4 hbmId x read/write x 13; B/s / 2^20 = MB/s.
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM counter c JOIN process p ON p.rank_id = c.rank_id AND p.pid = c.pid "
                      "WHERE p.name = 'HBM'"),
        104);
    EXPECT_EQ(m.count(counterCount("HBM", "HBM 0/Read", "Read(MB/s)")), 13);
    EXPECT_DOUBLE_EQ(m.real("SELECT c.value FROM counter c JOIN string n ON n.id = c.name_id WHERE n.value = 'HBM "
                            "0/Read' AND c.ts = 1736410576306286200"),
        28937346.0 / 1048576.0);
    // LLC: hit rate 85.9 -> 0.859 (the text writes the fraction under "Hit Rate(%)").
    EXPECT_EQ(m.count(counterCount("LLC", "LLC 0 Read/Hit Rate", "Hit Rate(%)")), 13);
    EXPECT_EQ(m.count(counterCount("LLC", "LLC 1 Read/Throughput", "Throughput(MB/s)")), 13);
    EXPECT_DOUBLE_EQ(m.real(firstCounterValue("LLC 0 Read/Hit Rate", "Hit Rate(%)")), 0.859);
    EXPECT_EQ(m.count(counterCount("Stars Soc Info", "Mata Bw Level", "Mata Bw Level")), 16);
    EXPECT_EQ(m.count(counterCount("Acc PMU", "read_bandwidth", "value")), 688);
    // MEMORY_RECORD as a Memory process, one counter per component.
    EXPECT_EQ(m.count(counterCount("Memory", "PTA", "Allocated(MB)")), 381);
    EXPECT_EQ(m.real(firstCounterValue("PTA", "Allocated(MB)")), 935.9951171875);
    // NPU_MODULE_MEM: only the modules that hold memory at some point (moduleId 3, 7, 33, 45), 14 samples each.
    EXPECT_EQ(m.text("SELECT DISTINCT n.value FROM counter c JOIN string n ON n.id = c.name_id JOIN process p ON "
                     "p.rank_id = c.rank_id AND p.pid = c.pid WHERE p.name = 'NPU Module Mem' ORDER BY 1"),
        "APP\nGE\nHCCL\nRUNTIME\n");
    EXPECT_EQ(m.count(counterCount("NPU Module Mem", "HCCL", "Reserved(MB)")), 14);
}

// The text and db samples are different runs of the same job: the same names must appear, not the same values.
TEST(DbExportTables, SameProcessesThreadsAndCountersAsTheTextTrace)
{
    load::LoadOptions options;
    options.loadTimelines = true;
    auto text = load::Loader::load(
        io::Detector::detect({ (dataDir() / "torch_npu_2rank_level1" / "rank0_ascend_pt").string() }), options);
    ASSERT_TRUE(text);
    Model m;
    ASSERT_TRUE(m.import(&io::DbTimelineImporter::run, torchDb()));

    auto rows = [](model::Database& db, const std::string& sql) {
        std::set<std::string> out;
        auto st = db.prepare(sql);
        while (st.step())
            out.insert(st.optText(0).value_or("NULL"));
        return out;
    };
    const std::string processes = "SELECT DISTINCT p.name FROM process p WHERE EXISTS (SELECT 1 FROM slice s WHERE "
                                  "s.pid = p.pid) OR EXISTS (SELECT 1 FROM counter c WHERE c.pid = p.pid)";
    const std::string threads = "SELECT DISTINCT p.name || ' / ' || t.name FROM thread t JOIN process p ON p.rank_id = "
                                "t.rank_id AND p.pid = t.pid WHERE p.name IN ('HCCL', 'Overlap Analysis')";
    const std::string counters = "SELECT DISTINCT p.name || ' / ' || n.value || ' / ' || c.series FROM counter c JOIN "
                                 "string n ON n.id = c.name_id JOIN process p ON p.rank_id = c.rank_id AND p.pid = "
                                 "c.pid";
    auto textProcesses = rows(*text, processes);
    textProcesses.erase("QoS"); // no QoS table in the db export
    const auto dbProcesses = rows(m.db(), processes);
    for (const auto& p : textProcesses)
        EXPECT_TRUE(dbProcesses.count(p)) << "process missing in the db timeline: " << p;
    EXPECT_EQ(rows(m.db(), threads), rows(*text, threads));
    const auto dbCounters = rows(m.db(), counters);
    for (const auto& c : rows(*text, counters)) {
        if (c.rfind("QoS", 0) != 0) {
            EXPECT_TRUE(dbCounters.count(c)) << "counter missing in the db timeline: " << c;
        }
    }
    // Flow categories of the text trace.
    EXPECT_EQ(rows(m.db(), "SELECT DISTINCT cat FROM flow"), rows(*text, "SELECT DISTINCT cat FROM flow"));
}

TEST(DbExportTables, CommunicationOpsAndPlanes)
{
    Model m;
    ASSERT_TRUE(m.import(&io::DbTimelineImporter::run, torchDb()));
    const std::string onThread = "SELECT COUNT(*) FROM slice s JOIN thread t ON t.rank_id = s.rank_id AND t.pid = "
                                 "s.pid AND t.tid = s.tid JOIN process p ON p.rank_id = s.rank_id AND p.pid = s.pid "
                                 "WHERE p.name = 'HCCL' AND t.name ";
    EXPECT_EQ(m.count(onThread + "= 'Group 0 Communication'"), 4); // = COUNT(*) FROM COMMUNICATION_OP
    EXPECT_EQ(m.count(onThread + "LIKE 'Plane %'"), 296); // TASK JOIN COMMUNICATION_TASK_INFO
    EXPECT_EQ(m.count(onThread + "= 'Plane 0'"), 16);
    EXPECT_EQ(m.text("SELECT s.ts, s.dur FROM slice s JOIN string n ON n.id = s.name_id WHERE n.value = "
                     "'hcom_allReduce__210_0_1'"),
        "1736410576431631806|88750993\n");
    // Plane slices are named by the task type, as the text trace's (Reduce_Inline, Memcpy, Notify_Wait, ...).
    EXPECT_EQ(m.count(onThread
                  + "LIKE 'Plane %' AND s.name_id = (SELECT id FROM string WHERE value = "
                    "'Reduce_Inline')"),
        36);
    const auto op = m.args(m.sliceId("HCCL", "hcom_allReduce__210_0_1"));
    EXPECT_EQ(op["group name"], "90.91.105.46%enp189s0f0_60000_0_1736410538306028");
    EXPECT_EQ(op["op type"], "hcom_allReduce_");
    EXPECT_EQ(op["alg_type"], "MESH-RING");
    EXPECT_EQ(op["data_type"], "FP32");
    EXPECT_EQ(op["count"], 4097000);
    EXPECT_EQ(op["connection_id"], 1175);
}

TEST(DbExportTables, SliceArgsFromTheDbRows)
{
    Model m;
    ASSERT_TRUE(m.import(&io::DbTimelineImporter::run, torchDb()));
    // Every slice but Overlap Analysis points at its row: args_len < 0 encodes the table.
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM source_file"), 1);
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM slice WHERE args_len < 0"), m.count("SELECT COUNT(*) FROM slice") - 382);
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM slice WHERE args IS NOT NULL"), 0);

    // TASK + COMPUTE_TASK_INFO + TASK_PMU_INFO.
    const auto task = m.args(m.sliceId("Ascend Hardware", "trans_TransData_0"));
    EXPECT_EQ(task["Type"], "TransData");
    EXPECT_EQ(task["Input Shapes"], "\"32,3,224,224\"");
    EXPECT_EQ(task["Input Formats"], "NCHW");
    EXPECT_EQ(task["Block Dim"], 32);
    EXPECT_EQ(task["Accelerator Core"], "AI_VECTOR_CORE");
    EXPECT_EQ(task["Stream Id"], 2);
    EXPECT_TRUE(task.contains("Output Shapes"));
    EXPECT_TRUE(task.contains("aiv_time(us)") || task.size() > 15) << task.dump();

    // A communication task on its HCCL plane: COMMUNICATION_TASK_INFO with enums resolved.
    const auto plane = m.args(m.sliceId("HCCL", "Reduce_Inline"));
    EXPECT_EQ(plane["op name"], "hcom_allReduce__210_0_1");
    EXPECT_EQ(plane["task type"], "Reduce_Inline");
    EXPECT_EQ(plane["transport type"], "SDMA");
    EXPECT_EQ(plane["data type"], "INT32"); // dataType 2 in ENUM_HCCL_DATA_TYPE

    // PYTORCH_API with its call stack from PYTORCH_CALLCHAINS (15 frames, outermost last).
    const auto py = m.args(m.count("SELECT s.id FROM slice s JOIN string n ON n.id = s.name_id WHERE n.value = "
                                   "'aten::detach_' AND s.ts = 1736410576388720000"));
    EXPECT_EQ(py["Sequence number"], 1350);
    EXPECT_EQ(py["Type"], "op");
    ASSERT_TRUE(py.contains("Call stack"));
    const std::string stack = py["Call stack"];
    EXPECT_EQ(
        stack.rfind("/home/z30057886/.local/lib/python3.9/site-packages/torch/_utils.py(180): _rebuild_tensor", 0), 0u);
    EXPECT_EQ(std::count(stack.begin(), stack.end(), '\n'), 14);
    EXPECT_TRUE(py.contains("Input type"));

    // CANN_API: the API level (and the text trace's name prefix for it).
    EXPECT_EQ(m.text("SELECT n.value FROM slice s JOIN string n ON n.id = s.name_id WHERE s.ts = 1736410576395215600 "
                     "AND s.cat_id = (SELECT id FROM string WHERE value = 'acl')"),
        "AscendCL@aclrtMemcpyAsync\n");
    const auto cann = m.args(m.count("SELECT s.id FROM slice s WHERE s.ts = 1736410576395215600 AND s.cat_id = "
                                     "(SELECT id FROM string WHERE value = 'acl')"));
    EXPECT_EQ(cann["level"], "acl");
    EXPECT_EQ(cann["connection_id"], 936);
}

TEST(DbExportTables, ArgsUnavailableWhenTheDbChanged)
{
    ScratchDir dir;
    const fs::path copy = dir.path() / "ascend_pytorch_profiler_0.db";
    fs::copy_file(torchDb(), copy);
    Model m;
    ASSERT_TRUE(m.import(&io::DbTimelineImporter::run, copy));
    const int64_t slice = m.sliceId("Ascend Hardware", "trans_TransData_0");
    ASSERT_TRUE(load::SourceDetails::sliceArgs(m.db(), slice).json);
    std::ofstream(copy, std::ios::app) << "x";
    const auto changed = load::SourceDetails::sliceArgs(m.db(), slice);
    EXPECT_FALSE(changed.json);
    EXPECT_EQ(changed.error, load::SourceDetails::kArgsUnavailable);
    fs::remove(copy);
    EXPECT_EQ(load::SourceDetails::sliceArgs(m.db(), slice).error, load::SourceDetails::kArgsUnavailable);
}

TEST(DbExportTables, FlowsPerCategory)
{
    Model m;
    ASSERT_TRUE(m.import(&io::DbTimelineImporter::run, torchDb()));
    EXPECT_EQ(m.count(flowCount("HostToDevice")), 204);
    EXPECT_EQ(m.count(flowCount("async_npu")), 204);
    EXPECT_EQ(m.count(flowCount("async_task_queue")), 159);
    EXPECT_EQ(m.count(flowCount("fwdbwd")), 27);
    // Both ends bound, at the bound slices' starts.
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM flow f JOIN slice a ON a.id = f.src_slice_id AND a.ts = f.src_ts JOIN "
                      "slice b ON b.id = f.dst_slice_id AND b.ts = f.dst_ts"),
        m.count("SELECT COUNT(*) FROM flow"));
    // A communication op's connection ends on the op (HCCL Group thread), not on its 75 tasks.
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM flow f JOIN process p ON p.rank_id = f.rank_id AND p.pid = f.dst_pid "
                      "WHERE p.name = 'HCCL' AND f.dst_tid = 0 AND f.cat = 'async_npu'"),
        4);
    // async_npu: from the Python op, enqueue -> dequeue and forward -> backward run forward in time.
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM flow f JOIN process p ON p.rank_id = f.rank_id AND p.pid = f.src_pid "
                      "WHERE f.cat = 'async_npu' AND p.name = 'Python'"),
        204);
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM flow WHERE cat IN ('async_task_queue', 'fwdbwd') AND dst_ts < src_ts"), 0);
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM flow f JOIN slice s ON s.id = f.src_slice_id JOIN string n ON n.id = "
                      "s.name_id WHERE f.cat = 'async_task_queue' AND n.value = 'Enqueue'"),
        159);
}

TEST(DbExportTables, ReportDbWithApiTable)
{
    Model summary;
    ASSERT_TRUE(summary.import(&io::ProfilerDbImporter::run, reportDb()));
    EXPECT_EQ(summary.errors(), 0);
    // 11 TASK JOIN COMPUTE_TASK_INFO; block_dim (old column name) still read.
    EXPECT_EQ(summary.count("SELECT COUNT(*) FROM kernel"), 11);
    EXPECT_EQ(summary.text("SELECT block_dim, input_shapes FROM kernel ORDER BY ts LIMIT 1"), "48|1676480000\n");

    Model m;
    ASSERT_TRUE(m.import(&io::DbTimelineImporter::run, reportDb()));
    EXPECT_EQ(m.errors(), 0);
    const std::string perProcess = "SELECT p.name, COUNT(*) FROM slice s JOIN process p ON p.rank_id = s.rank_id AND "
                                   "p.pid = s.pid GROUP BY p.name ORDER BY p.name";
    // 24 TASK rows, 3 API rows (the CANN_API of this version), 8 communication tasks on their planes.
    EXPECT_EQ(m.text(perProcess), "Ascend Hardware|24\nCANN|3\nHCCL|8\n");
    EXPECT_EQ(m.text("SELECT s.ts, s.dur FROM slice s JOIN string n ON n.id = s.name_id WHERE n.value = "
                     "'AscendCL@aclrtGetDeviceCount'"),
        "1698220811391886870|2560\n");
    // API.connectionId 0 = TASK.connectionId 0: one HostToDevice flow (no connectionCats table: inferred).
    EXPECT_EQ(m.count(flowCount("HostToDevice")), 1);
    const auto task = m.args(m.sliceId("Ascend Hardware", "aclnnInplaceZero_ZerosLikeAiCore_ZerosLike"));
    EXPECT_EQ(task["Type"], "ZerosLike");
    EXPECT_EQ(task["Block Dim"], 48);
    EXPECT_EQ(task["Input Shapes"], "\"1676480000\"");
    const auto api = m.args(m.sliceId("CANN", "AscendCL@aclrtGetDeviceCount"));
    EXPECT_EQ(api["level"], "acl");
    EXPECT_EQ(api["Global Task Id"], 2);
}

TEST(DbExportTables, MsprofDbMstxAndOverlap)
{
    Model m;
    ASSERT_TRUE(m.import(&io::DbTimelineImporter::run, msprofDb()));
    EXPECT_EQ(m.errors(), 0);
    const std::string onProcess = "SELECT COUNT(*) FROM slice s JOIN process p ON p.rank_id = s.rank_id AND p.pid = "
                                  "s.pid WHERE p.name = ";
    EXPECT_EQ(m.count(onProcess + "'MsTx'"), 13); // MSTX_EVENTS
    EXPECT_EQ(m.count(onProcess + "'Overlap Analysis'"), 22); // OVERLAP_ANALYSIS
    EXPECT_EQ(m.count(onProcess + "'Ascend Hardware'"), 24);
    EXPECT_EQ(m.count(onProcess + "'HCCL'"), 8); // TASK JOIN COMMUNICATION_TASK_INFO
    // First MSTX range by start: 1753431218824567380, 115336092750 ns long, connectionId 4000432498.
    const int64_t mstx = m.count("SELECT s.id FROM slice s JOIN process p ON p.rank_id = s.rank_id AND p.pid = s.pid "
                                 "WHERE p.name = 'MsTx' ORDER BY s.ts LIMIT 1");
    EXPECT_EQ(
        m.text("SELECT ts, dur FROM slice WHERE id = " + std::to_string(mstx)), "1753431218824567380|115336092750\n");
    const auto args = m.args(mstx);
    EXPECT_EQ(args["connection_id"], 4000432498);
    EXPECT_EQ(args["event type"], "start/end"); // eventType 2; this file has no ENUM_MSTX_EVENT_TYPE
    EXPECT_TRUE(args.contains("message"));
    EXPECT_FALSE(args.contains("range id")); // 4294967295 = none
    // The communication task's enums are STRING_IDS ids in this version.
    const auto plane = m.args(m.count("SELECT s.id FROM slice s JOIN process p ON p.rank_id = s.rank_id AND p.pid = "
                                      "s.pid WHERE p.name = 'HCCL' ORDER BY s.ts LIMIT 1"));
    EXPECT_TRUE(plane.contains("transport type"));
    EXPECT_TRUE(plane["transport type"].is_string()) << plane.dump();
}

// A made-up export with some tables missing columns or rows with NULLs: nothing is imported from what cannot be
// read, and nothing fails.
TEST(DbExportTables, DriftingSchemaIsSkipped)
{
    ScratchDir dir;
    const fs::path path = dir.path() / "msprof_0.db";
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(path.string().c_str(), &raw), SQLITE_OK);
    const char* sql = "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
                      "INSERT INTO STRING_IDS VALUES (1, 'PTA'), (2, 'read');"
                      "CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER, totalAllocated INTEGER);"
                      "INSERT INTO MEMORY_RECORD VALUES (1, 1000, 1048576), (1, NULL, 5);"
                      "CREATE TABLE OP_MEMORY (size INTEGER);"
                      "INSERT INTO OP_MEMORY VALUES (1);"
                      "CREATE TABLE NPU_MODULE_MEM (moduleId INTEGER, timestampNs INTEGER);"
                      "INSERT INTO NPU_MODULE_MEM VALUES (99, 5);"
                      "CREATE TABLE HBM (timestampNs INTEGER, hbmId INTEGER);"
                      "INSERT INTO HBM VALUES (1, 0);"
                      "CREATE TABLE LLC (timestampNs INTEGER, llcId INTEGER, mode INTEGER, hitRate REAL);"
                      "INSERT INTO LLC VALUES (1, 0, 2, NULL), (2, 0, 2, 50);"
                      "CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER);"
                      "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, globalTaskId INTEGER);"
                      "INSERT INTO TASK VALUES (10, 20, 1), (NULL, 5, 2);"
                      "CREATE TABLE COMMUNICATION_TASK_INFO (globalTaskId INTEGER);"
                      "INSERT INTO COMMUNICATION_TASK_INFO VALUES (1);"
                      "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER);"
                      "INSERT INTO PYTORCH_API VALUES ('30', '40', 4294967297, 7);"
                      "CREATE TABLE MSTX_EVENTS (startNs INTEGER, globalTid INTEGER);"
                      "INSERT INTO MSTX_EVENTS VALUES (50, 4294967297);";
    ASSERT_EQ(sqlite3_exec(raw, sql, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);

    Model m;
    ASSERT_TRUE(m.import(&io::ProfilerDbImporter::run, path));
    ASSERT_TRUE(m.import(&io::DbTimelineImporter::run, path));
    EXPECT_EQ(m.errors(), 0);
    EXPECT_EQ(m.text("SELECT component, ts, allocated_mb, reserved_mb FROM memory_record"), "PTA|1000|1.0|NULL\n");
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM operator_memory"), 0); // no name column
    EXPECT_EQ(m.text("SELECT component, reserved_mb FROM npu_module_mem"), "99|NULL\n");
    // HBM without bandwidth/type: nothing; LLC hit rate where present.
    EXPECT_EQ(m.text("SELECT n.value, c.series, c.ts, c.value FROM counter c JOIN string n ON n.id = c.name_id"),
        "LLC 0 Read/Hit Rate|Hit Rate(%)|2|0.5\nPTA|Allocated(MB)|1000|1.0\n");
    // TASK (1 usable row, also on its plane), PYTORCH_API, a MSTX marker (no endNs: 0 long).
    EXPECT_EQ(m.count("SELECT COUNT(*) FROM slice"), 4);
    EXPECT_EQ(m.text("SELECT ts, dur FROM slice WHERE ts = 50"), "50|0\n");
    // The args of a row whose detail tables are nearly empty still read.
    const auto a = load::SourceDetails::sliceArgs(m.db(), m.count("SELECT id FROM slice WHERE ts = 30"));
    EXPECT_TRUE(a.json || !a.error.empty());
}

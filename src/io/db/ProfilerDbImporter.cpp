// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/db/ProfilerDbImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/db/SqliteExport.h"
#include "npuscope/io/parse/MemoryPeakTracker.h"
#include "npuscope/model/ParallelGroupTable.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <vector>

namespace npuscope::io {

namespace {

constexpr int64_t kNoId = 4294967295; // "none" in TASK.modelId / contextId

struct StepRange {
    int64_t id = 0, start = 0, end = 0;
};

std::vector<StepRange> readSteps(SqliteExport& db)
{
    std::vector<StepRange> steps;
    const char* t = "STEP_TIME";
    if (!db.hasTable(t) || db.column(t, { "id" }).empty())
        return steps;
    auto st = db.db().prepare("SELECT " + db.column(t, { "id" }) + ", " + db.columnOrNull(t, { "startNs" }) + ", "
        + db.columnOrNull(t, { "endNs" }) + " FROM STEP_TIME");
    while (st.step()) {
        if (st.isNull(0) || st.isNull(1) || st.isNull(2))
            continue;
        steps.push_back({ st.int64(0), st.int64(1), st.int64(2) });
    }
    std::sort(steps.begin(), steps.end(), [](const StepRange& a, const StepRange& b) { return a.start < b.start; });
    return steps;
}

std::optional<int64_t> stepAt(const std::vector<StepRange>& steps, int64_t ts)
{
    for (const auto& s : steps) {
        if (ts >= s.start && ts <= s.end)
            return s.id;
    }
    return std::nullopt;
}

// Input/Output Shapes are stored with the literal quotes of kernel_details.csv ("32,3,224,224").
std::optional<std::string> unquoted(std::optional<std::string> s)
{
    if (!s)
        return s;
    std::string_view v = trim(*s);
    while (v.size() >= 2 && v.front() == '"' && v.back() == '"')
        v = trim(v.substr(1, v.size() - 2));
    if (isMissing(v))
        return std::nullopt;
    return std::string(v);
}

void importRankFacts(ImportContext& ctx, SqliteExport& db)
{
    auto& w = ctx.writer();
    model::RankRow row;
    row.rankId = ctx.rankId();
    if (db.hasTable("RANK_DEVICE_MAP")) {
        auto st = db.db().prepare("SELECT " + db.columnOrNull("RANK_DEVICE_MAP", { "rankId" }) + ", "
            + db.columnOrNull("RANK_DEVICE_MAP", { "deviceId" }) + " FROM RANK_DEVICE_MAP");
        while (st.step()) {
            if (st.isNull(1))
                continue;
            // A single-device export may write rank -1 when not distributed: take its device anyway.
            if (st.optInt(0) == ctx.rankId() || !row.deviceId)
                row.deviceId = st.int64(1);
        }
    }
    if (db.hasTable("HOST_INFO") && !db.column("HOST_INFO", { "hostName" }).empty()) {
        auto st = db.db().prepare("SELECT " + db.column("HOST_INFO", { "hostName" }) + " FROM HOST_INFO LIMIT 1");
        if (st.step())
            row.host = st.optText(0);
    }
    row.exportType = "db";
    w.updateRank(row);
    if (row.deviceId)
        w.updateRankDevice(ctx.rankId(), *row.deviceId);

    if (!db.hasTable("META_DATA"))
        return;
    auto st = db.db().prepare("SELECT " + db.columnOrNull("META_DATA", { "name" }) + ", "
        + db.columnOrNull("META_DATA", { "value" }) + " FROM META_DATA");
    while (st.step()) {
        const std::string name = st.optText(0).value_or(std::string());
        const std::string value = st.optText(1).value_or(std::string());
        const bool structured = name == "ENV_VARIABLES" || name == "parallel_group_info" || name == "distributed_args";
        if (!structured) {
            w.addRankInfo(ctx.rankId(), "db_meta." + name, value);
            continue;
        }
        const auto j = nlohmann::json::parse(value, nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
            ctx.warning(std::nullopt,
                issueText(
                    QT_TRANSLATE_NOOP("ParseIssue", "META_DATA %1 is not a JSON object; kept as text"), { name }));
            w.addRankInfo(ctx.rankId(), "db_meta." + name, value);
            continue;
        }
        // Same keys as the profiler_metadata.json importer, so group resolution treats both alike.
        const std::string prefix = name == "ENV_VARIABLES" ? "env." : name + ".";
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (name == "parallel_group_info") {
                // Parsed here, as the profiler_metadata.json importer does; an entry whose global_ranks
                // is not a list names no members and stays a plain fact.
                if (const auto group = model::ParallelGroupTable::fromJson(ctx.rankId(), it.key(), *it))
                    w.addParallelGroup(*group);
                else if (it->is_object() && it->contains("global_ranks"))
                    w.addRankInfo(ctx.rankId(), prefix + it.key(), it->dump());
            } else {
                w.addRankInfo(ctx.rankId(), prefix + it.key(), it->is_string() ? it->get<std::string>() : it->dump());
            }
        }
    }
}

std::unordered_map<int64_t, nlohmann::ordered_json> readPmu(SqliteExport& db)
{
    std::unordered_map<int64_t, nlohmann::ordered_json> pmu;
    const char* t = "TASK_PMU_INFO";
    if (!db.hasTable(t))
        return pmu;
    const std::string id = db.column(t, { "globalTaskId" });
    const std::string name = db.column(t, { "name" });
    const std::string value = db.column(t, { "value" });
    if (id.empty() || name.empty() || value.empty())
        return pmu;
    auto st = db.db().prepare("SELECT " + id + ", " + name + ", " + value + " FROM TASK_PMU_INFO ORDER BY rowid");
    while (st.step()) {
        if (st.isNull(0) || st.isNull(2))
            continue;
        const auto key = db.string(st.optInt(1));
        if (!key)
            continue;
        auto& obj = pmu[st.int64(0)];
        if (obj.is_null())
            obj = nlohmann::ordered_json::object();
        obj[*key] = st.real(2);
    }
    return pmu;
}

int64_t importComputeKernels(ImportContext& ctx, SqliteExport& db, const std::vector<StepRange>& steps)
{
    if (!db.hasTable("TASK") || !db.hasTable("COMPUTE_TASK_INFO"))
        return 0;
    auto pmu = readPmu(db);
    auto t = [&](std::initializer_list<std::string_view> names) { return "t." + db.columnOrNull("TASK", names); };
    auto c = [&](std::initializer_list<std::string_view> names) {
        const std::string col = db.column("COMPUTE_TASK_INFO", names);
        return col.empty() ? std::string("NULL") : "c." + col;
    };
    const std::string taskId = db.column("TASK", { "globalTaskId" });
    const std::string infoId = db.column("COMPUTE_TASK_INFO", { "globalTaskId" });
    if (taskId.empty() || infoId.empty() || db.column("TASK", { "startNs" }).empty()) {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "TASK / COMPUTE_TASK_INFO lack globalTaskId or startNs; no kernels imported")));
        return 0;
    }
    const std::string sql = "SELECT " + t({ "startNs" }) + ", " + t({ "endNs" }) + ", " + t({ "deviceId" }) + ", "
        + t({ "modelId" }) + ", " + t({ "taskId" }) + ", " + t({ "streamId" }) + ", " + t({ "contextId" }) + ", "
        + c({ "name" }) + ", " + c({ "opType", "op_type" }) + ", " + c({ "taskType", "task_type" }) + ", "
        + c({ "blockDim", "block_dim" }) + ", " + c({ "mixBlockDim", "mix_block_dim" }) + ", "
        + c({ "inputShapes", "input_shapes" }) + ", " + c({ "inputDataTypes", "input_data_types" }) + ", "
        + c({ "outputShapes", "output_shapes" }) + ", " + c({ "outputDataTypes", "output_data_types" }) + ", "
        + c({ "inputFormats", "input_formats" }) + ", " + c({ "outputFormats", "output_formats" }) + ", "
        + c({ "waitNs", "wait_ns" }) + ", t." + taskId + " FROM TASK t JOIN COMPUTE_TASK_INFO c ON c." + infoId
        + " = t." + taskId + " ORDER BY " + t({ "startNs" });
    auto st = db.db().prepare(sql);
    int64_t n = 0;
    while (st.step()) {
        if (ctx.cancelled())
            return n;
        model::KernelRow r;
        r.rankId = ctx.rankId();
        if (st.isNull(0)) {
            ctx.warning(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "TASK row without startNs; skipped")));
            continue;
        }
        r.ts = st.int64(0);
        r.dur = st.isNull(1) ? 0 : std::max<int64_t>(0, st.int64(1) - r.ts);
        r.deviceId = st.optInt(2);
        r.modelId = st.optInt(3);
        r.taskId = st.optInt(4);
        r.streamId = st.optInt(5);
        r.name = db.string(st.optInt(7)).value_or(std::string());
        r.type = db.string(st.optInt(8));
        r.acceleratorCore = db.string(st.optInt(9));
        r.blockDim = st.optInt(10);
        r.mixBlockDim = st.optInt(11);
        r.inputShapes = unquoted(db.string(st.optInt(12)));
        r.inputDataTypes = db.string(st.optInt(13));
        r.outputShapes = unquoted(db.string(st.optInt(14)));
        r.outputDataTypes = db.string(st.optInt(15));
        r.waitNs = st.optInt(18);
        r.step = stepAt(steps, r.ts);
        nlohmann::ordered_json extra = nlohmann::ordered_json::object();
        if (auto f = db.string(st.optInt(16)); f && !f->empty())
            extra["Input Formats"] = *f;
        if (auto f = db.string(st.optInt(17)); f && !f->empty())
            extra["Output Formats"] = *f;
        if (auto ctxId = st.optInt(6); ctxId && *ctxId != kNoId)
            extra["Context ID"] = *ctxId;
        if (auto it = pmu.find(st.int64(19)); it != pmu.end()) {
            for (auto p = it->second.begin(); p != it->second.end(); ++p) {
                extra[p.key()] = p.value();
                // The FLOPs counters, under the names the CSV export gives them (kernel.flops).
                if (p.value().is_number() && p.key().size() > 5 && p.key().ends_with("_fops"))
                    r.flops = r.flops.value_or(0.0) + p.value().get<double>();
            }
        }
        if (!extra.empty())
            r.pmuJson = extra.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
        ctx.writer().addKernel(r);
        ++n;
    }
    return n;
}

// kernel_details.csv lists every communication op as one HCCL row; COMMUNICATION_OP is that list.
int64_t importCommunicationKernels(ImportContext& ctx, SqliteExport& db, const std::vector<StepRange>& steps)
{
    const char* t = "COMMUNICATION_OP";
    if (!db.hasTable(t) || db.column(t, { "startNs" }).empty())
        return 0;
    const std::string sql = "SELECT " + db.columnOrNull(t, { "opName" }) + ", " + db.column(t, { "startNs" }) + ", "
        + db.columnOrNull(t, { "endNs" }) + ", " + db.columnOrNull(t, { "opType" }) + ", "
        + db.columnOrNull(t, { "waitNs" }) + " FROM COMMUNICATION_OP ORDER BY " + db.column(t, { "startNs" });
    auto st = db.db().prepare(sql);
    int64_t n = 0;
    while (st.step()) {
        if (st.isNull(1))
            continue;
        model::KernelRow r;
        r.rankId = ctx.rankId();
        r.name = db.string(st.optInt(0)).value_or(std::string());
        r.type = db.string(st.optInt(3));
        r.acceleratorCore = "HCCL";
        r.blockDim = 0; // as kernel_details.csv writes communication rows
        r.ts = st.int64(1);
        r.dur = st.isNull(2) ? 0 : std::max<int64_t>(0, st.int64(2) - r.ts);
        r.waitNs = st.optInt(4);
        r.step = stepAt(steps, r.ts);
        ctx.writer().addKernel(r);
        ++n;
    }
    return n;
}

// Bytes -> the text CSVs' units: Size(KB) and *(MB) are bytes / 1024 and / 1024^2 (operator_memory.csv
// 18816.5 KB = 19268096 B; memory_record.csv 1452.0 MB = 1522532352 B).
constexpr double kBytesPerKb = 1024.0;
constexpr double kBytesPerMb = 1024.0 * 1024.0;

std::optional<double> bytesIn(const model::Statement& st, int col, double unit)
{
    const auto v = SqliteExport::real(st, col);
    return v ? std::optional<double>(*v / unit) : std::nullopt;
}

// An ns column: INTEGER read exactly (a double loses the last digits of epoch ns), else REAL / TEXT through scaledNs.
std::optional<int64_t> exactNs(const model::Statement& st, int col)
{
    if (st.isNull(col))
        return std::nullopt;
    const auto i = st.optInt(col);
    if (i && st.text(col) == std::to_string(*i))
        return i;
    return SqliteExport::scaledNs(st, col, 1.0);
}

std::optional<std::string> npuDevice(std::optional<int64_t> device)
{
    return device ? std::optional<std::string>("NPU:" + std::to_string(*device)) : std::nullopt;
}

// "col" when table has one of names, else NULL; with a leading ", ".
std::string selectCol(SqliteExport& db, const char* table, std::initializer_list<std::string_view> names)
{
    return ", " + db.columnOrNull(table, names);
}

// MEMORY_RECORD (bytes, ns) -> memory_record as memory_record.csv gives it, plus the APP rows the CSV takes from
// the NPU_MEM "app" samples (Total Reserved = DDR + HBM, the other columns empty).
int64_t importMemoryRecords(ImportContext& ctx, SqliteExport& db)
{
    int64_t n = 0;
    MemoryPeakTracker peaks; // the summary's memory_peak rows, from the same rows
    const char* t = "MEMORY_RECORD";
    if (const std::string ts = db.column(t, { "timestamp", "timestampNs" }); !ts.empty()) {
        auto st = db.db().prepare("SELECT " + ts + selectCol(db, t, { "component" })
            + selectCol(db, t, { "totalAllocated" }) + selectCol(db, t, { "totalReserved" })
            + selectCol(db, t, { "totalActive" }) + selectCol(db, t, { "streamPtr" }) + selectCol(db, t, { "deviceId" })
            + " FROM MEMORY_RECORD ORDER BY rowid");
        while (st.step()) {
            if (st.isNull(0))
                continue;
            model::MemoryRecordRow r;
            r.rankId = ctx.rankId();
            r.ts = st.int64(0);
            r.component = db.string(st.optInt(1));
            r.allocatedMb = bytesIn(st, 2, kBytesPerMb);
            r.reservedMb = bytesIn(st, 3, kBytesPerMb);
            r.activeMb = bytesIn(st, 4, kBytesPerMb);
            r.streamPtr = st.optText(5);
            r.device = npuDevice(st.optInt(6));
            ctx.writer().addMemoryRecord(r);
            peaks.add(r);
            ++n;
        }
    }
    t = "NPU_MEM";
    if (const std::string ts = db.column(t, { "timestampNs" }); !ts.empty() && !db.column(t, { "type" }).empty()) {
        auto st = db.db().prepare("SELECT " + ts + selectCol(db, t, { "type" }) + selectCol(db, t, { "ddr" })
            + selectCol(db, t, { "hbm" }) + selectCol(db, t, { "deviceId" }) + " FROM NPU_MEM ORDER BY rowid");
        while (st.step()) {
            const auto type = db.label("ENUM_NPU_MEM_TYPE", st.optInt(1));
            if (st.isNull(0) || !type || (*type != "app" && *type != "APP"))
                continue;
            const auto ddr = SqliteExport::real(st, 2);
            const auto hbm = SqliteExport::real(st, 3);
            model::MemoryRecordRow r;
            r.rankId = ctx.rankId();
            r.ts = st.int64(0);
            r.component = "APP";
            if (ddr || hbm)
                r.reservedMb = (ddr.value_or(0) + hbm.value_or(0)) / kBytesPerMb;
            r.device = npuDevice(st.optInt(4));
            ctx.writer().addMemoryRecord(r);
            peaks.add(r);
            ++n;
        }
    }
    peaks.write(ctx.writer(), ctx.rankId());
    return n;
}

// OP_MEMORY (bytes, ns) -> operator_memory as operator_memory.csv gives it.
int64_t importOperatorMemory(ImportContext& ctx, SqliteExport& db)
{
    const char* t = "OP_MEMORY";
    if (!db.hasTable(t) || db.column(t, { "name" }).empty())
        return 0;
    auto st = db.db().prepare("SELECT " + db.column(t, { "name" }) + selectCol(db, t, { "size" })
        + selectCol(db, t, { "allocationTime" }) + selectCol(db, t, { "releaseTime" })
        + selectCol(db, t, { "activeReleaseTime" }) + selectCol(db, t, { "duration" })
        + selectCol(db, t, { "activeDuration" }) + selectCol(db, t, { "allocationTotalAllocated" })
        + selectCol(db, t, { "allocationTotalReserved" }) + selectCol(db, t, { "allocationTotalActive" })
        + selectCol(db, t, { "releaseTotalAllocated" }) + selectCol(db, t, { "releaseTotalReserved" })
        + selectCol(db, t, { "releaseTotalActive" }) + selectCol(db, t, { "streamPtr" })
        + selectCol(db, t, { "deviceId" }) + " FROM OP_MEMORY ORDER BY rowid");
    int64_t n = 0;
    while (st.step()) {
        model::OperatorMemoryRow r;
        r.rankId = ctx.rankId();
        r.name = db.string(st.optInt(0)).value_or(st.optText(0).value_or(std::string()));
        r.sizeKb = bytesIn(st, 1, kBytesPerKb);
        r.allocTs = exactNs(st, 2);
        r.releaseTs = exactNs(st, 3);
        r.activeReleaseTs = exactNs(st, 4);
        r.dur = exactNs(st, 5);
        r.activeDur = exactNs(st, 6);
        r.allocAllocatedMb = bytesIn(st, 7, kBytesPerMb);
        r.allocReservedMb = bytesIn(st, 8, kBytesPerMb);
        r.allocActiveMb = bytesIn(st, 9, kBytesPerMb);
        r.releaseAllocatedMb = bytesIn(st, 10, kBytesPerMb);
        r.releaseReservedMb = bytesIn(st, 11, kBytesPerMb);
        r.releaseActiveMb = bytesIn(st, 12, kBytesPerMb);
        r.streamPtr = st.optText(13);
        r.device = npuDevice(st.optInt(14));
        ctx.writer().addOperatorMemory(r);
        ++n;
    }
    return n;
}

// NPU_MODULE_MEM (bytes, ns, ENUM_MODULE ids) -> npu_module_mem as npu_module_mem.csv gives it.
int64_t importModuleMemory(ImportContext& ctx, SqliteExport& db)
{
    const char* t = "NPU_MODULE_MEM";
    const std::string ts = db.column(t, { "timestampNs", "timestamp" });
    if (ts.empty())
        return 0;
    auto st = db.db().prepare("SELECT " + ts + selectCol(db, t, { "moduleId" }) + selectCol(db, t, { "totalReserved" })
        + selectCol(db, t, { "deviceId" }) + " FROM NPU_MODULE_MEM ORDER BY rowid");
    int64_t n = 0;
    while (st.step()) {
        if (st.isNull(0))
            continue;
        model::NpuModuleMemRow r;
        r.rankId = ctx.rankId();
        r.ts = st.int64(0);
        r.component = db.enumName("ENUM_MODULE", st.optInt(1));
        if (!r.component && !st.isNull(1))
            r.component = st.text(1); // a module the enum does not list: the CSV writes the bare number too
        r.reservedMb = bytesIn(st, 2, kBytesPerMb);
        r.deviceId = st.optInt(3);
        r.device = npuDevice(st.optInt(3));
        ctx.writer().addNpuModuleMem(r);
        ++n;
    }
    return n;
}

} // namespace

bool ProfilerDbImporter::run(ImportContext& ctx)
{
    return SqliteExport::importWith(ctx, [&ctx](SqliteExport& db) {
        importRankFacts(ctx, db);
        const auto steps = readSteps(db);
        const int64_t kernels = importComputeKernels(ctx, db, steps) + importCommunicationKernels(ctx, db, steps);
        if (kernels == 0)
            ctx.info(std::nullopt,
                issueText(QT_TRANSLATE_NOOP(
                    "ParseIssue", "no TASK / COMPUTE_TASK_INFO / COMMUNICATION_OP rows; no kernels from this file")));
        importMemoryRecords(ctx, db);
        importOperatorMemory(ctx, db);
        importModuleMemory(ctx, db);
    });
}

} // namespace npuscope::io

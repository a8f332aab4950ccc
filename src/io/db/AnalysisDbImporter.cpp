// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/db/AnalysisDbImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/GroupHash.h"
#include "npuscope/io/db/SqliteExport.h"
#include "npuscope/io/parse/JsonFile.h"
#include "npuscope/io/torch_npu/CommunicationImporter.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

namespace npuscope::io {

namespace {

using Cell = SqliteExport;

std::string joined(const std::vector<int64_t>& values)
{
    std::string out;
    for (int64_t v : values)
        out += (out.empty() ? "" : ", ") + std::to_string(v);
    return out;
}

std::optional<double> ratio(std::optional<int64_t> part, std::optional<int64_t> transit)
{
    if (!part || !transit || *part + *transit == 0)
        return part && transit ? std::optional<double>(0.0) : std::nullopt;
    const double r = static_cast<double>(*part) / static_cast<double>(*part + *transit);
    return std::round(r * 1.0e4) / 1.0e4;
}

// " WHERE <device column> = <device>" when the file is split by device, else "".
std::string deviceFilter(SqliteExport& db, const char* table, std::optional<int64_t> device)
{
    if (!device)
        return {};
    return " WHERE \"" + db.column(table, { "deviceId", "device_id" }) + "\" = " + std::to_string(*device);
}

// Distinct StepTraceTime device ids, ascending (empty without a device column).
std::vector<int64_t> devicesOf(SqliteExport& db)
{
    std::vector<int64_t> out;
    const std::string col = db.column("StepTraceTime", { "deviceId", "device_id" });
    if (col.empty())
        return out;
    auto st = db.db().prepare(
        "SELECT DISTINCT \"" + col + "\" FROM StepTraceTime WHERE \"" + col + "\" IS NOT NULL ORDER BY 1");
    while (st.step()) {
        if (auto d = st.optInt(0))
            out.push_back(*d);
    }
    return out;
}

// A table of a several-device file without a device column cannot be split by device: skipped, said once (on the
// first device's rank).
bool splittable(ImportContext& ctx, SqliteExport& db, const char* table, std::optional<int64_t> device,
    const std::vector<int64_t>& devices)
{
    if (!device || !db.column(table, { "deviceId", "device_id" }).empty())
        return true;
    if (*device == devices.front())
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "%1 has no device column, so its rows cannot be told apart by device in this %2-device file; "
                          "not imported"),
                { std::string(table), std::to_string(devices.size()) }));
    return false;
}

void importStepTrace(ImportContext& ctx, SqliteExport& db, std::optional<int64_t> device)
{
    const char* t = "StepTraceTime";
    if (!db.hasTable(t)) {
        ctx.info(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "no StepTraceTime table; no step breakdown from this file")));
        return;
    }
    std::string sql
        = "SELECT " + db.columnOrNull(t, { "deviceId", "device_id" }) + ", " + db.columnOrNull(t, { "step" });
    for (int i = 0; i < model::kStepTraceFileColumnCount; ++i)
        sql += ", " + db.columnOrNull(t, { model::kStepColumns[static_cast<size_t>(i)].dbName });
    sql += " FROM StepTraceTime" + deviceFilter(db, t, device) + " ORDER BY rowid";
    auto st = db.db().prepare(sql);
    int64_t row = 0;
    while (st.step()) {
        ++row;
        model::StepTraceRow r;
        r.rankId = ctx.rankId();
        r.deviceId = st.optInt(0);
        if (auto step = st.optText(1); step && !isMissing(trim(*step)))
            r.step = stepFromKey(*step);
        for (int i = 0; i < model::kStepTraceFileColumnCount; ++i)
            r.*model::kStepColumns[static_cast<size_t>(i)].field = Cell::scaledNs(st, 2 + i, 1.0e3);
        r.sourceLine = row; // the table row, 1-based
        ctx.writer().addStepTrace(r);
    }
}

using OpIndex = std::map<std::tuple<std::string, std::string, std::string, std::string>, int64_t>;

void importCommTime(ImportContext& ctx, SqliteExport& db, OpIndex& ops, std::optional<int64_t> device)
{
    const char* t = "CommAnalyzerTime";
    const std::string sql = "SELECT " + db.columnOrNull(t, { "hccl_op_name" }) + ", "
        + db.columnOrNull(t, { "group_name" }) + ", " + db.columnOrNull(t, { "start_timestamp" }) + ", "
        + db.columnOrNull(t, { "elapse_time", "elapsed_time" }) + ", " + db.columnOrNull(t, { "transit_time" }) + ", "
        + db.columnOrNull(t, { "wait_time" }) + ", " + db.columnOrNull(t, { "synchronization_time" }) + ", "
        + db.columnOrNull(t, { "idle_time" }) + ", " + db.columnOrNull(t, { "step" }) + ", "
        + db.columnOrNull(t, { "type" }) + " FROM CommAnalyzerTime" + deviceFilter(db, t, device) + " ORDER BY rowid";
    auto st = db.db().prepare(sql);
    while (st.step()) {
        const std::string op = st.optText(0).value_or(std::string());
        if (op.empty()) {
            ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "CommAnalyzerTime row without hccl_op_name; skipped")));
            continue;
        }
        const std::string group = st.optText(1).value_or(std::string());
        const std::string stepText = st.optText(8).value_or(std::string());
        const std::string kind = st.optText(9).value_or("collective");
        model::CommOpRow r;
        r.rankId = ctx.rankId();
        r.step = stepFromKey(stepText);
        r.kind = kind;
        r.groupHash = Cell::groupHashOf(st.optText(1));
        setOpKey(r, op);
        r.isTotal = op == "Total Op Info";
        if (!st.isNull(2))
            r.startNs = doubleToNs(st.real(2), 1.0e3);
        readCommAnalyzerTimes(st, 3, r);
        r.waitRatio = ratio(r.waitNs, r.transitNs);
        r.syncRatio = ratio(r.syncNs, r.transitNs);
        ops[{ stepText, kind, op, group }] = ctx.writer().addCommOp(r);
    }
}

void importCommBandwidth(ImportContext& ctx, SqliteExport& db, const OpIndex& ops, std::optional<int64_t> device)
{
    const char* t = "CommAnalyzerBandwidth";
    const std::string sql = "SELECT " + db.columnOrNull(t, { "hccl_op_name" }) + ", "
        + db.columnOrNull(t, { "group_name" }) + ", " + db.columnOrNull(t, { "transport_type", "band_type" }) + ", "
        + db.columnOrNull(t, { "transit_size" }) + ", " + db.columnOrNull(t, { "transit_time" }) + ", "
        + db.columnOrNull(t, { "bandwidth" }) + ", " + db.columnOrNull(t, { "large_packet_ratio" }) + ", "
        + db.columnOrNull(t, { "package_size" }) + ", " + db.columnOrNull(t, { "count" }) + ", "
        + db.columnOrNull(t, { "total_duration" }) + ", " + db.columnOrNull(t, { "step" }) + ", "
        + db.columnOrNull(t, { "type" }) + " FROM CommAnalyzerBandwidth" + deviceFilter(db, t, device)
        + " ORDER BY rowid";
    auto st = db.db().prepare(sql);
    CommAnalyzerBandwidthRows bandwidths;
    int missing = 0;
    while (st.step()) {
        const std::string op = st.optText(0).value_or(std::string());
        const std::string group = st.optText(1).value_or(std::string());
        const std::string transport = st.optText(2).value_or(std::string());
        const auto opIt
            = ops.find({ st.optText(10).value_or(std::string()), st.optText(11).value_or("collective"), op, group });
        if (opIt == ops.end()) {
            ++missing;
            continue;
        }
        bandwidths.add(ctx, st, 3, opIt->second, transport, st.optInt(8));
    }
    if (missing > 0)
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "%1 CommAnalyzerBandwidth rows name an op missing from CommAnalyzerTime; skipped"),
                { std::to_string(missing) }));
}

void importCommMatrix(ImportContext& ctx, SqliteExport& db, std::optional<int64_t> device)
{
    const char* t = "CommAnalyzerMatrix";
    const std::string sql = "SELECT " + db.columnOrNull(t, { "hccl_op_name" }) + ", "
        + db.columnOrNull(t, { "group_name" }) + ", " + db.columnOrNull(t, { "src_rank" }) + ", "
        + db.columnOrNull(t, { "dst_rank" }) + ", " + db.columnOrNull(t, { "transport_type" }) + ", "
        + db.columnOrNull(t, { "transit_size" }) + ", " + db.columnOrNull(t, { "transit_time" }) + ", "
        + db.columnOrNull(t, { "bandwidth" }) + ", " + db.columnOrNull(t, { "step" }) + ", "
        + db.columnOrNull(t, { "type" }) + ", " + db.columnOrNull(t, { "op_name" }) + " FROM CommAnalyzerMatrix"
        + deviceFilter(db, t, device) + " ORDER BY rowid";
    auto st = db.db().prepare(sql);
    while (st.step()) {
        model::CommLinkRow r;
        r.rankId = ctx.rankId();
        r.step = stepFromKey(st.optText(8).value_or(std::string()));
        r.kind = st.optText(9).value_or("collective");
        const std::string op = st.optText(0).value_or(std::string());
        const OpKey parsed = parseOpKey(op);
        r.groupHash = Cell::groupHashOf(st.optText(1));
        setMatrixOp(r, op, parsed);
        r.localSrc = parseInt(st.optText(2).value_or(std::string()));
        r.localDst = parseInt(st.optText(3).value_or(std::string()));
        if (!r.localSrc || !r.localDst) {
            ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP(
                              "ParseIssue", "CommAnalyzerMatrix row of %1 without numeric src/dst rank; skipped"),
                    { op }));
            continue;
        }
        r.transport = st.optText(4);
        r.sizeMb = Cell::real(st, 5);
        r.timeNs = Cell::scaledNs(st, 6, 1.0e6);
        r.bandwidthGbps = Cell::real(st, 7);
        if (auto name = st.optText(10); name && !name->empty())
            r.opName = name;
        ctx.writer().addCommLink(r);
    }
}

} // namespace

bool AnalysisDbImporter::run(ImportContext& ctx)
{
    return SqliteExport::importWith(ctx, [&ctx](SqliteExport& db) {
        // One process driving several devices writes them all into one file; the Detector then plans one rank
        // per device (rank id = device id) and each rank takes its device's rows.
        const auto devices = devicesOf(db);
        std::optional<int64_t> device;
        if (devices.size() > 1) {
            if (std::find(devices.begin(), devices.end(), ctx.rankId()) == devices.end()) {
                ctx.warning(std::nullopt,
                    issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                  "the file holds devices %1 and none is this rank's id %2; nothing imported for it"),
                        { joined(devices), std::to_string(ctx.rankId()) }));
                return; // importWith finishes the import
            }
            device = ctx.rankId();
            ctx.info(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "the file holds devices %1: rows of device %2 imported for rank %3 (rank ids come from "
                              "device ids; the file has no rank information)"),
                    { joined(devices), std::to_string(*device), std::to_string(*device) }));
        }
        importStepTrace(ctx, db, device);
        if (db.hasTable("CommAnalyzerTime")) {
            if (splittable(ctx, db, "CommAnalyzerTime", device, devices)) {
                OpIndex ops;
                importCommTime(ctx, db, ops, device);
                if (db.hasTable("CommAnalyzerBandwidth")
                    && splittable(ctx, db, "CommAnalyzerBandwidth", device, devices))
                    importCommBandwidth(ctx, db, ops, device);
            }
        } else {
            ctx.info(std::nullopt,
                issueText(
                    QT_TRANSLATE_NOOP("ParseIssue", "no CommAnalyzerTime table; no communication ops from this file")));
        }
        if (db.hasTable("CommAnalyzerMatrix") && splittable(ctx, db, "CommAnalyzerMatrix", device, devices))
            importCommMatrix(ctx, db, device);
    });
}

} // namespace npuscope::io

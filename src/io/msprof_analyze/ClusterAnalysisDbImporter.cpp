// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/msprof_analyze/ClusterAnalysisDbImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/io/msprof_analyze/ClusterAnalysisImporter.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/GroupHash.h"
#include "npuscope/io/db/SqliteExport.h"
#include "npuscope/io/parse/JsonFile.h"
#include "npuscope/io/torch_npu/CommunicationImporter.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace npuscope::io {

namespace {

using Cell = SqliteExport;

std::optional<int64_t> intCell(const model::Statement& st, int col)
{
    if (st.isNull(col))
        return std::nullopt;
    return parseInt(trim(st.text(col)));
}

std::string kindOf(const std::optional<std::string>& rankSet) { return rankSet == "p2p" ? "p2p" : "collective"; }

std::string select(
    SqliteExport& db, const char* table, std::initializer_list<std::initializer_list<std::string_view>> cols)
{
    std::string sql = "SELECT ";
    bool first = true;
    for (const auto& names : cols) {
        if (!first)
            sql += ", ";
        first = false;
        const std::string c = db.column(table, names);
        sql += c.empty() ? std::string("NULL") : "\"" + c + "\"";
    }
    return sql + " FROM " + table + " ORDER BY rowid";
}

void importSteps(ImportContext& ctx, SqliteExport& db)
{
    const char* table = "ClusterStepTraceTime";
    const auto column = [&](std::string_view name) {
        const std::string c = db.column(table, { name });
        return c.empty() ? std::string("NULL") : "\"" + c + "\"";
    };
    std::string sql = "SELECT " + column("step") + ", " + column("type") + ", " + column("index");
    for (int i = 0; i < model::kStepTraceFileColumnCount; ++i)
        sql += ", " + column(model::kStepColumns[static_cast<size_t>(i)].dbName);
    auto st = db.db().prepare(sql + " FROM " + table + " ORDER BY rowid");
    // Columns 3.. are Computing .. Preparing (µs).
    const auto readDurations = [&st](model::StepDurations& d) {
        for (int i = 0; i < model::kStepTraceFileColumnCount; ++i)
            d.*model::kStepColumns[static_cast<size_t>(i)].field = Cell::scaledNs(st, 3 + i, 1.0e3);
    };
    int64_t row = 0;
    int64_t other = 0;
    std::vector<model::ClusterStageRow> stages;
    while (st.step()) {
        ++row;
        const auto type = st.optText(1);
        if (type == "stage") {
            // index is the stage's rank tuple, "(0,1,2,3)".
            model::ClusterStageRow s;
            s.step = intCell(st, 0);
            s.ranks = model::ClusterSummaryWriter::parseRanks(st.optText(2).value_or(std::string()));
            readDurations(s);
            s.sourceLine = row;
            stages.push_back(std::move(s));
            continue;
        }
        if (type != "rank") {
            ++other;
            continue;
        }
        const auto rank = intCell(st, 2);
        if (!rank) {
            ctx.warning(row,
                issueText(
                    QT_TRANSLATE_NOOP("ParseIssue", "ClusterStepTraceTime rank row without a numeric index; skipped")));
            continue;
        }
        if (ctx.rankState().skipsSummaryRank(*rank))
            continue; // its own per-rank folder gives this rank's figures
        model::StepTraceRow r;
        r.rankId = *rank;
        r.step = intCell(st, 0);
        readDurations(r);
        r.sourceLine = row;
        ctx.writer().addStepTrace(r);
    }
    ClusterAnalysisImporter::writeStages(ctx, stages);
    if (other > 0)
        ctx.info(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "%1 ClusterStepTraceTime rows of a type other than \"rank\" or \"stage\" were not imported"),
                { std::to_string(other) }));
}

// CommunicationGroup(type, rank_set) lists the groups like communication_group.json; newer builds may add the
// parallel-info columns, read when present.
void importGroups(ImportContext& ctx, SqliteExport& db)
{
    auto st = db.db().prepare(select(
        db, "CommunicationGroup", { { "type" }, { "rank_set" }, { "group_name" }, { "group_id" }, { "pg_name" } }));
    std::vector<model::ClusterCommGroupRow> groups;
    auto nonEmpty = [&st](int col) -> std::optional<std::string> {
        auto v = st.optText(col);
        return v && !v->empty() ? v : std::nullopt;
    };
    while (st.step()) {
        model::ClusterCommGroupRow g;
        g.kind = kindOf(st.optText(0));
        g.ranks = model::ClusterSummaryWriter::parseRanks(st.optText(1).value_or(std::string()));
        if (g.ranks.empty())
            continue;
        g.rawName = nonEmpty(3);
        g.groupHash = Cell::groupHashOf(nonEmpty(2));
        if (!g.groupHash)
            g.groupHash = Cell::groupHashOf(g.rawName);
        g.name = nonEmpty(4);
        g.source = "cluster_analysis.db";
        groups.push_back(std::move(g));
    }
    ClusterAnalysisImporter::writeCommGroups(ctx, groups);
}

using OpIndex = std::map<std::tuple<std::string, std::string, int64_t, std::string, std::string>, int64_t>;

void importTimes(ImportContext& ctx, SqliteExport& db, OpIndex& ops)
{
    auto st = db.db().prepare(select(db, "ClusterCommAnalyzerTime",
        { { "rank_set" }, { "step" }, { "rank_id" }, { "hccl_op_name" }, { "group_name" }, { "start_timestamp" },
            { "elapsed_time", "elapse_time" }, { "transit_time" }, { "wait_time" }, { "synchronization_time" },
            { "idle_time" }, { "synchronization_time_ratio" }, { "wait_time_ratio" } }));
    while (st.step()) {
        const auto rank = intCell(st, 2);
        const std::string op = st.optText(3).value_or(std::string());
        if (!rank || op.empty()) {
            ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP(
                    "ParseIssue", "ClusterCommAnalyzerTime row without rank_id or hccl_op_name; skipped")));
            continue;
        }
        if (ctx.rankState().skipsSummaryRank(*rank))
            continue;
        const auto rankSet = st.optText(0);
        const std::string stepText = st.optText(1).value_or(std::string());
        model::CommOpRow r;
        r.rankId = *rank;
        r.step = stepFromKey(stepText);
        r.kind = kindOf(rankSet);
        r.isTotal = op == "Total Op Info";
        r.groupHash = r.isTotal ? std::nullopt : Cell::groupHashOf(st.optText(4));
        setOpKey(r, op);
        // Total rows carry start 0: no start time.
        if (!r.isTotal && !st.isNull(5) && st.real(5) > 0)
            r.startNs = doubleToNs(st.real(5), 1.0e3);
        readCommAnalyzerTimes(st, 6, r);
        r.syncRatio = Cell::real(st, 11);
        r.waitRatio = Cell::real(st, 12);
        ops[{ rankSet.value_or(std::string()), stepText, *rank, op, st.optText(4).value_or(std::string()) }]
            = ctx.writer().addCommOp(r);
    }
}

void importBandwidth(ImportContext& ctx, SqliteExport& db, const OpIndex& ops)
{
    auto st = db.db().prepare(select(db, "ClusterCommAnalyzerBandwidth",
        { { "rank_set" }, { "step" }, { "rank_id" }, { "hccl_op_name" }, { "group_name" },
            { "band_type", "transport_type" }, { "transit_size" }, { "transit_time" }, { "bandwidth" },
            { "large_packet_ratio" }, { "package_size" }, { "count" }, { "total_duration" } }));
    CommAnalyzerBandwidthRows bandwidths;
    int64_t missing = 0;
    while (st.step()) {
        const auto rank = intCell(st, 2);
        if (rank && ctx.rankState().skipsSummaryRank(*rank))
            continue;
        const auto opIt = rank
            ? ops.find({ st.optText(0).value_or(std::string()), st.optText(1).value_or(std::string()), *rank,
                st.optText(3).value_or(std::string()), st.optText(4).value_or(std::string()) })
            : ops.end();
        if (opIt == ops.end()) {
            ++missing;
            continue;
        }
        const std::string transport = st.optText(5).value_or(std::string());
        bandwidths.add(ctx, st, 6, opIt->second, transport, intCell(st, 11));
    }
    if (missing > 0)
        ctx.warning(std::nullopt,
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue",
                    "%1 ClusterCommAnalyzerBandwidth rows name an op missing from ClusterCommAnalyzerTime; skipped"),
                { std::to_string(missing) }));
}

void importMatrix(ImportContext& ctx, SqliteExport& db)
{
    auto st = db.db().prepare(select(db, "ClusterCommAnalyzerMatrix",
        { { "rank_set" }, { "step" }, { "hccl_op_name" }, { "group_name" }, { "src_rank" }, { "dst_rank" },
            { "transit_size" }, { "transit_time" }, { "bandwidth" }, { "transport_type" }, { "op_name" } }));
    std::vector<model::CommLinkRow> links;
    while (st.step()) {
        const std::string op = st.optText(2).value_or(std::string());
        const auto src = intCell(st, 4);
        const auto dst = intCell(st, 5);
        if (!src || !dst) {
            ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP(
                              "ParseIssue", "ClusterCommAnalyzerMatrix row of %1 without numeric ranks; skipped"),
                    { op }));
            continue;
        }
        model::CommLinkRow r;
        r.rankId = *src;
        r.step = stepFromKey(st.optText(1).value_or(std::string()));
        r.kind = kindOf(st.optText(0));
        const OpKey parsed = parseOpKey(op);
        r.groupHash = Cell::groupHashOf(st.optText(3));
        setMatrixOp(r, op, parsed);
        r.localSrc = src;
        r.localDst = dst;
        r.src = src;
        r.dst = dst;
        r.sizeMb = Cell::real(st, 6);
        r.timeNs = Cell::scaledNs(st, 7, 1.0e6);
        r.bandwidthGbps = Cell::real(st, 8);
        r.transport = st.optText(9);
        if (auto name = st.optText(10); name && !name->empty())
            r.opName = name;
        links.push_back(std::move(r));
    }
    ClusterAnalysisImporter::writeGlobalLinks(ctx, links);
}

} // namespace

bool ClusterAnalysisDbImporter::run(ImportContext& ctx)
{
    return SqliteExport::importWith(ctx, [&ctx](SqliteExport& db) {
        if (db.hasTable("ClusterStepTraceTime"))
            importSteps(ctx, db);
        else
            ctx.info(std::nullopt,
                issueText(QT_TRANSLATE_NOOP(
                    "ParseIssue", "no ClusterStepTraceTime table; no step breakdown from this file")));
        if (db.hasTable("ClusterCommAnalyzerTime")) {
            OpIndex ops;
            importTimes(ctx, db, ops);
            if (db.hasTable("ClusterCommAnalyzerBandwidth"))
                importBandwidth(ctx, db, ops);
        }
        if (db.hasTable("ClusterCommAnalyzerMatrix"))
            importMatrix(ctx, db);
        if (db.hasTable("CommunicationGroup"))
            importGroups(ctx, db);
    });
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MindSporeStepTraceImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/core/Decimal.h"
#include "npuscope/io/parse/CsvImport.h"

#include <filesystem>
#include <map>
#include <regex>

namespace fs = std::filesystem;

namespace npuscope::io {

namespace {

constexpr int64_t kNsPerTick = 10; // syscnt at 100 MHz

struct Breakdown {
    std::optional<int64_t> computing, notOverlapped, stage, bubble, excludeReceive;
};

// ascend_cluster_analyse_*_{id}.csv next to the step trace: row i (1-based) = step i, the last row the average.
std::map<int64_t, Breakdown> readClusterAnalyse(ImportContext& ctx)
{
    std::map<int64_t, Breakdown> out;
    const fs::path file(ctx.file());
    static const std::regex kStepName(R"(^step_trace_raw_(\d+)_detail_time\.csv$)");
    std::smatch m;
    const std::string name = file.filename().string();
    if (!std::regex_match(name, m, kStepName))
        return out;
    const std::string suffix = "_" + m[1].str() + ".csv";
    fs::path analyse;
    std::error_code ec;
    for (fs::directory_iterator it(file.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
        const std::string n = it->path().filename().string();
        if (n.rfind("ascend_cluster_analyse_", 0) == 0 && n.size() > suffix.size()
            && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
            analyse = it->path();
    }
    if (analyse.empty())
        return out;
    // ascend_cluster_analyse_pipeline-parallel_{stage_num}_{rank_size}_{id}.csv names the pipeline layout (MindInsight
    // lays the stages out as contiguous rank ranges of rank_size / stage_num): kept as rank info for the parallel
    // layout (ParallelLayoutQuery), so ranks of different stages are not compared as peers.
    static const std::regex kPipeline(R"(^ascend_cluster_analyse_pipeline-parallel_(\d+)_(\d+)_\d+\.csv$)");
    const std::string analyseName = analyse.filename().string();
    if (std::smatch p; std::regex_match(analyseName, p, kPipeline)) {
        ctx.writer().addRankInfo(ctx.rankId(), "cluster_analyse.pipeline_stages", p[1].str());
        ctx.writer().addRankInfo(ctx.rankId(), "cluster_analyse.rank_size", p[2].str());
    }
    CsvReader reader;
    std::string error;
    std::vector<std::string> row;
    if (!reader.open(analyse.string(), error) || !reader.next(row)) {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1: cannot read (%2)"), { analyse.filename().string(), error }));
        return out;
    }
    const CsvHeader header(row);
    const int computing = header.find({ "computation_time", "computation" });
    const int notOverlapped = header.find({ "communication_alone_time" });
    const int stage = header.find({ "stage_time" });
    const int bubble = header.find({ "receive_alone_time" });
    const int excludeReceive = header.find({ "collective_communication_alone_time", "collective_communication_time" });
    auto ms = [&](int col) -> std::optional<int64_t> {
        const auto cell = trim(field(row, col));
        return col < 0 || isMissing(cell) ? std::nullopt : msToNs(cell);
    };
    std::vector<Breakdown> rows;
    while (reader.next(row)) {
        if (row.size() <= 1 && trim(field(row, 0)).empty())
            continue;
        rows.push_back({ ms(computing), ms(notOverlapped), ms(stage), ms(bubble), ms(excludeReceive) });
    }
    if (!rows.empty())
        rows.pop_back(); // the average row
    for (size_t i = 0; i < rows.size(); ++i)
        out[static_cast<int64_t>(i + 1)] = rows[i];
    ctx.info(std::nullopt,
        issueText(QT_TRANSLATE_NOOP("ParseIssue", "step breakdown columns from %1 (%2 steps)"),
            { analyse.filename().string(), std::to_string(rows.size()) }));
    return out;
}

struct OpColumns {
    std::string name;
    std::optional<int64_t> streamId;
    std::optional<std::string> opType;
    int dur = -1, start = -1, end = -1;
};

// Triples "<op>", "<op>_start_point", "<op>_end_point" in any order (newer builds: duration first; older: last).
std::vector<OpColumns> opColumns(const CsvHeader& header)
{
    std::vector<OpColumns> out;
    static const std::string kStart = "_start_point";
    for (const auto& n : header.names()) {
        if (n.size() <= kStart.size() || n.compare(n.size() - kStart.size(), kStart.size(), kStart) != 0)
            continue;
        OpColumns c;
        c.name = n.substr(0, n.size() - kStart.size());
        c.start = header.find({ n });
        c.end = header.find({ c.name + "_end_point" });
        c.dur = header.find({ c.name });
        if (c.name.rfind("stream_", 0) == 0)
            c.streamId = parseInt(c.name.substr(7, c.name.find('_', 7) - 7));
        if (const auto dash = c.name.rfind("-op"); dash != std::string::npos) {
            const auto under = c.name.rfind('_', dash);
            if (under != std::string::npos && under + 1 < dash)
                c.opType = c.name.substr(under + 1, dash - under - 1);
        }
        out.push_back(std::move(c));
    }
    return out;
}

// A tick count as ns; a count too large for int64 ns (only a corrupt file has one) is left out with a warning.
std::optional<int64_t> ticks(CsvImport& csv, int col)
{
    const auto v = csv.optInt(col);
    if (!v)
        return std::nullopt;
    int64_t ns = 0;
    if (__builtin_mul_overflow(*v, kNsPerTick, &ns)) {
        csv.context().warning(csv.line(),
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "tick count %1 is out of range; left out"), { std::to_string(*v) }));
        return std::nullopt;
    }
    return ns;
}

bool importRows(CsvImport& csv)
{
    if (!csv.open({ "step_num", "iteration_interval", "fp_and_bp", "tail" }))
        return false;
    auto& ctx = csv.context();
    const auto breakdown = readClusterAnalyse(ctx);
    const int stepCol = csv.column({ "step_num" });
    const int totalCol = csv.column({ "total" });
    const int intervalCol = csv.column({ "iteration_interval" });
    const int fpBpCol = csv.column({ "fp_and_bp" });
    const int tailCol = csv.column({ "tail" });
    const auto ops = opColumns(csv.header());
    while (csv.next()) {
        const auto stepText = trim(csv.raw(stepCol));
        if (stepText.empty())
            continue; // blank line of hand-made fixtures
        if (stepText == "-") {
            // The file's own average row. It is not the mean of the listed steps in real files (MindSpore averages
            // over more iterations than it lists), so it is kept as written, not as a step.
            const std::pair<const char*, int> kAverages[] = { { "total_ns", totalCol },
                { "iteration_interval_ns", intervalCol }, { "fp_bp_ns", fpBpCol }, { "tail_ns", tailCol } };
            for (const auto& [key, col] : kAverages) {
                if (const auto v = ticks(csv, col))
                    ctx.writer().addRankInfo(
                        ctx.rankId(), std::string("step_trace_raw.average.") + key, std::to_string(*v));
            }
            continue;
        }
        const auto step = csv.optInt(stepCol);
        if (!step || *step <= 0)
            continue; // "0,0,..." stands for the average in tiny fixtures
        model::StepTraceRow r;
        r.rankId = ctx.rankId();
        r.step = step;
        r.total = ticks(csv, totalCol);
        r.iterationInterval = ticks(csv, intervalCol);
        r.fpBp = ticks(csv, fpBpCol);
        r.tail = ticks(csv, tailCol);
        r.sourceLine = csv.line();
        if (const auto it = breakdown.find(*step); it != breakdown.end()) {
            r.computing = it->second.computing;
            r.communicationNotOverlapped = it->second.notOverlapped;
            r.stage = it->second.stage;
            r.bubble = it->second.bubble;
            r.communicationNotOverlappedExcludeReceive = it->second.excludeReceive;
        }
        if (csv.skipped())
            continue;
        ctx.writer().addStepTrace(r);
        for (const auto& op : ops) {
            model::StepTraceOpRow o;
            o.rankId = ctx.rankId();
            o.step = *step;
            o.columnName = op.name;
            o.streamId = op.streamId;
            o.opType = op.opType;
            o.startSyscntNs = ticks(csv, op.start);
            o.endSyscntNs = ticks(csv, op.end);
            o.dur = ticks(csv, op.dur);
            if (o.startSyscntNs || o.endSyscntNs || o.dur)
                ctx.writer().addStepTraceOp(o);
        }
        csv.countImported();
    }
    return csv.result();
}

} // namespace

bool MindSporeStepTraceImporter::run(ImportContext& ctx) { return CsvImport::run(ctx, importRows); }

bool MindSporeStepTraceImporter::readSpans(const std::string& path, std::vector<StepSpans>& out, std::string& error)
{
    out.clear();
    CsvReader reader;
    std::vector<std::string> row;
    if (!reader.open(path, error))
        return false;
    if (reader.looksBinary() || !reader.next(row)) {
        error = "not a CSV file or empty";
        return false;
    }
    const CsvHeader header(row);
    const int stepCol = header.find({ "step_num" });
    const int startCol = header.find({ "start_point" });
    const int endCol = header.find({ "end_point" });
    const int fpCol = header.find({ "fp_point" });
    const int bpCol = header.find({ "bp_point" });
    if (stepCol < 0 || startCol < 0 || endCol < 0) {
        error = "no step_num, start_point or end_point column";
        return false;
    }
    const auto ops = opColumns(header);
    auto tick = [&](int col) -> std::optional<int64_t> {
        const auto v = col < 0 ? std::nullopt : parseInt(trim(field(row, col)));
        return v ? std::optional<int64_t>(*v * kNsPerTick) : std::nullopt;
    };
    while (reader.next(row)) {
        const auto step = parseInt(trim(field(row, stepCol)));
        if (!step || *step <= 0)
            continue; // "-" average row, "0,..." fixture rows, blank lines
        StepSpans s;
        s.step = *step;
        s.start = tick(startCol);
        s.end = tick(endCol);
        s.fp = tick(fpCol);
        s.bp = tick(bpCol);
        for (const auto& op : ops) {
            StepSpans::Op o { op.name, op.streamId, tick(op.start), tick(op.end) };
            if (o.start && o.end)
                s.ops.push_back(std::move(o));
        }
        out.push_back(std::move(s));
    }
    if (reader.recordTooLarge()) {
        error = "record at line " + std::to_string(reader.recordLine()) + " is too large";
        return false;
    }
    return true;
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
// MindDataImporter, what the pipeline used: minddata_cpu_utilization_{rank}.json -> pipeline_cpu and
// device_queue_profiling_{rank}.txt -> pipeline_queue.
#include "npuscope/io/mindspore/MindDataImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/parse/JsonFile.h"

#include <algorithm>
#include <string>
#include <vector>

namespace npuscope::io {

namespace {

// Writes one row per series (an array of numbers) of a metrics object; reports what is not one.
int writeSeries(ImportContext& ctx, const nlohmann::json& metrics, const std::string& scope,
    std::optional<int64_t> opId, const std::string& where)
{
    if (!metrics.is_object()) {
        ctx.warning(
            std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 is not an object of series"), { where }));
        return 0;
    }
    int written = 0;
    for (auto it = metrics.begin(); it != metrics.end(); ++it) {
        const auto& series = it.value();
        const bool numbers = series.is_array()
            && std::all_of(series.begin(), series.end(), [](const nlohmann::json& v) { return v.is_number(); });
        if (!numbers) {
            ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1.%2 is not a list of numbers; the series is skipped"),
                    { where, it.key() }));
            continue;
        }
        model::PipelineCpuRow r;
        r.rankId = ctx.rankId();
        r.scope = scope;
        r.opId = opId;
        r.metric = it.key();
        r.samples = static_cast<int64_t>(series.size());
        if (!series.empty()) {
            double sum = 0, max = series.front().get<double>();
            for (const auto& v : series) {
                sum += v.get<double>();
                max = std::max(max, v.get<double>());
            }
            r.avgValue = sum / static_cast<double>(series.size());
            r.maxValue = max;
        }
        ctx.writer().addPipelineCpu(r);
        ++written;
    }
    return written;
}

// Whitespace-separated fields of one line.
std::vector<std::string_view> fieldsOf(std::string_view line)
{
    std::vector<std::string_view> out;
    size_t at = 0;
    while (at < line.size()) {
        const size_t start = line.find_first_not_of(" \t\r", at);
        if (start == std::string_view::npos)
            break;
        size_t end = line.find_first_of(" \t\r", start);
        if (end == std::string_view::npos)
            end = line.size();
        out.push_back(line.substr(start, end - start));
        at = end;
    }
    return out;
}

// One "1 <capacity> <step> <size> [<time>]" line as a row; nullopt (after saying why) when it is not one.
std::optional<model::PipelineQueueRow> queueRow(
    ImportContext& ctx, const std::vector<std::string_view>& f, int64_t lineNo)
{
    if (f.size() < 4) {
        ctx.warning(lineNo,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "queue line has %1 fields, expected 4 or 5; skipped"),
                { std::to_string(f.size()) }));
        return std::nullopt;
    }
    std::vector<std::optional<int64_t>> v;
    for (size_t i = 1; i < f.size() && i < 5; ++i) {
        v.push_back(parseInt(f[i]));
        if (!v.back()) {
            ctx.warning(lineNo,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "field %1 is not an integer: \"%2\"; the line is skipped"),
                    { std::to_string(i + 1), std::string(f[i]) }));
            return std::nullopt;
        }
    }
    model::PipelineQueueRow r;
    r.rankId = ctx.rankId();
    r.capacity = v[0];
    r.step = v[1];
    r.size = *v[2];
    if (v.size() > 3)
        r.sampleTime = v[3];
    return r;
}

} // namespace

bool MindDataImporter::runCpuUtilization(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    for (const char* key : { "cpu_processor_num", "sampling_interval" }) {
        if (jsonNumber(root, key))
            ctx.writer().addRankInfo(ctx.rankId(), std::string("minddata_cpu.") + key, root[key].dump());
    }
    int written = 0;
    for (const auto& [key, scope] :
        { std::pair { "device_info", "device" }, std::pair { "process_info", "process" } }) {
        if (const auto it = root.find(key); it != root.end())
            written += writeSeries(ctx, *it, scope, std::nullopt, key);
        else
            ctx.warning(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "no %1 object"), { key }));
    }
    if (const auto ops = root.find("op_info"); ops != root.end() && ops->is_array()) {
        for (size_t i = 0; i < ops->size(); ++i) {
            const auto& op = (*ops)[i];
            const auto where = "op_info[" + std::to_string(i) + "]";
            const auto opId = op.is_object() ? jsonInt(op, "op_id") : std::nullopt;
            const auto metrics = op.is_object() ? op.find("metrics") : op.end();
            if (!opId || metrics == op.end()) {
                ctx.warning(std::nullopt,
                    issueText(
                        QT_TRANSLATE_NOOP("ParseIssue", "%1 has no integer op_id or no metrics; skipped"), { where }));
                continue;
            }
            written += writeSeries(ctx, *metrics, "op", opId, where + ".metrics");
        }
    } else if (ops != root.end()) {
        ctx.warning(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "op_info is not an array")));
    }
    ctx.finish();
    return written > 0;
}

bool MindDataImporter::runDeviceQueue(ImportContext& ctx)
{
    std::string text;
    if (!readTextFile(ctx, text))
        return false;
    int64_t lineNo = 0, rows = 0;
    size_t at = 0;
    while (at <= text.size() && !ctx.cancelled()) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos)
            end = text.size();
        const auto fields = fieldsOf(std::string_view(text).substr(at, end - at));
        ++lineNo;
        at = end + 1;
        if (fields.empty() || fields[0] == "0")
            continue; // a blank line, or a get / push / total time line
        if (fields[0] != "1") {
            ctx.warning(lineNo,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "unknown record type \"%1\" (0 time, 1 queue); skipped"),
                    { std::string(fields[0]) }));
            continue;
        }
        if (const auto r = queueRow(ctx, fields, lineNo)) {
            ctx.writer().addPipelineQueue(*r);
            ++rows;
        }
    }
    if (rows == 0)
        ctx.info(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "no queue samples (\"1 ...\" lines)")));
    ctx.finish();
    return rows > 0;
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
// MindDataImporter, the dataset operator files: minddata_pipeline_raw_{rank}.csv and pipeline_profiling_{rank}.json
// -> pipeline_op.
#include "npuscope/io/mindspore/MindDataImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/parse/CsvImport.h"
#include "npuscope/io/parse/JsonFile.h"

#include <map>
#include <string>
#include <vector>

namespace npuscope::io {

namespace {

// The samples of an output queue: count, empty ones and their mean.
struct QueueSamples {
    int64_t count = 0;
    int64_t empty = 0;
    std::optional<double> mean;
};

// A JSON array of numbers ("[10, 20, 30]", the CSV writes the list as JSON); nullopt when it is not one.
std::optional<QueueSamples> samplesOf(const nlohmann::json& list)
{
    if (!list.is_array())
        return std::nullopt;
    QueueSamples out;
    double sum = 0;
    for (const auto& v : list) {
        if (!v.is_number())
            return std::nullopt;
        const double x = v.get<double>();
        sum += x;
        out.empty += x == 0;
        ++out.count;
    }
    if (out.count > 0)
        out.mean = sum / static_cast<double>(out.count);
    return out;
}

std::optional<QueueSamples> samplesOfCell(std::string_view cell)
{
    const auto list = nlohmann::json::parse(cell, nullptr, false);
    return list.is_discarded() ? std::nullopt : samplesOf(list);
}

bool importRawRows(CsvImport& csv)
{
    if (!csv.open({ "op_id", "op_type" }))
        return false;
    const int idCol = csv.column({ "op_id" });
    const int typeCol = csv.column({ "op_type" });
    const int workersCol = csv.column({ "num_workers" });
    const int sizeCol = csv.column({ "output_queue_size" });
    const int avgCol = csv.column({ "output_queue_average_size" });
    const int lengthCol = csv.column({ "output_queue_length" });
    const int usageCol = csv.column({ "output_queue_usage_rate" });
    const int intervalCol = csv.column({ "sample_interval" });
    const int parentCol = csv.column({ "parent_id" });
    auto& ctx = csv.context();
    while (csv.next()) {
        model::PipelineOpRow r;
        r.rankId = ctx.rankId();
        r.source = "minddata_pipeline_raw";
        const auto id = csv.text(idCol, true);
        r.opType = csv.text(typeCol, true).value_or(std::string());
        if (csv.skipped())
            continue;
        const auto opId = parseInt(*id);
        if (!opId) {
            ctx.warning(csv.line(),
                issueText(
                    QT_TRANSLATE_NOOP("ParseIssue", "op_id is not an integer: \"%1\"; the row is skipped"), { *id }));
            continue;
        }
        r.opId = *opId;
        r.numWorkers = csv.optInt(workersCol);
        r.parentId = csv.optInt(parentCol);
        r.queueCapacity = csv.optInt(lengthCol);
        r.queueAvgSize = csv.optReal(avgCol);
        r.queueUsageRate = csv.optReal(usageCol);
        r.sampleInterval = csv.optInt(intervalCol);
        if (const auto cell = csv.text(sizeCol); cell && !cell->empty()) {
            if (const auto samples = samplesOfCell(*cell)) {
                r.queueSamples = samples->count;
                r.queueEmptySamples = samples->empty;
                if (!r.queueAvgSize && samples->mean)
                    r.queueAvgSize = samples->mean;
            } else {
                ctx.warning(csv.line(),
                    issueText(QT_TRANSLATE_NOOP(
                                  "ParseIssue", "output_queue_size is not a list of numbers: \"%1\"; samples ignored"),
                        { *cell }));
            }
        }
        ctx.writer().addPipelineOp(r);
        csv.countImported();
    }
    return csv.result();
}

// One op_info element; false (after saying why) when it is unusable.
bool readProfilingOp(ImportContext& ctx, const nlohmann::json& op, size_t index, std::optional<int64_t> interval,
    model::PipelineOpRow& r)
{
    const auto where = "op_info[" + std::to_string(index) + "]";
    const auto opId = op.is_object() ? jsonInt(op, "op_id") : std::nullopt;
    if (!opId) {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 has no integer op_id; the operator is skipped"), { where }));
        return false;
    }
    r.rankId = ctx.rankId();
    r.source = "pipeline_profiling";
    r.opId = *opId;
    const auto type = op.find("op_type");
    r.opType = type != op.end() && type->is_string() ? type->get<std::string>() : std::string("?");
    r.numWorkers = jsonInt(op, "num_workers");
    r.sampleInterval = interval;
    const auto metrics = op.find("metrics");
    if (metrics == op.end() || metrics->is_null())
        return true; // e.g. EpochCtrlOp: no queue of its own
    const auto queue = metrics->is_object() ? metrics->find("output_queue") : metrics->end();
    if (queue == metrics->end() || !queue->is_object()) {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 metrics have no output_queue object"), { where }));
        return true;
    }
    r.queueCapacity = jsonInt(*queue, "length");
    if (const auto size = queue->find("size"); size != queue->end()) {
        if (const auto samples = samplesOf(*size)) {
            r.queueSamples = samples->count;
            r.queueEmptySamples = samples->empty;
            r.queueAvgSize = samples->mean;
        } else {
            ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 output_queue.size is not a list of numbers"), { where }));
        }
    }
    return true;
}

} // namespace

bool MindDataImporter::runPipelineRaw(ImportContext& ctx) { return CsvImport::run(ctx, importRawRows); }

bool MindDataImporter::runPipelineProfiling(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    const auto ops = root.find("op_info");
    if (ops == root.end() || !ops->is_array()) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "no op_info array")));
        ctx.finish();
        return false;
    }
    const auto interval = jsonInt(root, "sampling_interval");
    std::vector<model::PipelineOpRow> rows;
    std::map<int64_t, int64_t> parentOf; // child op_id -> the op listing it in children
    for (size_t i = 0; i < ops->size(); ++i) {
        const auto& op = (*ops)[i];
        model::PipelineOpRow r;
        if (!readProfilingOp(ctx, op, i, interval, r))
            continue;
        if (const auto children = op.find("children"); children != op.end() && children->is_array()) {
            for (const auto& c : *children) {
                if (c.is_number_integer())
                    parentOf[c.get<int64_t>()] = r.opId;
            }
        }
        rows.push_back(std::move(r));
    }
    for (auto& r : rows) {
        if (const auto it = parentOf.find(r.opId); it != parentOf.end())
            r.parentId = it->second;
        ctx.writer().addPipelineOp(r);
    }
    if (rows.empty())
        ctx.info(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "no dataset operators in op_info")));
    ctx.finish();
    return !rows.empty();
}

} // namespace npuscope::io

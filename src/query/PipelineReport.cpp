// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/PipelineReport.h"

#include "npuscope/query/PipelineQuery.h"

#include <cstdio>

namespace npuscope::query {

namespace {

using ojson = nlohmann::ordered_json;

template <typename T> ojson orNull(const std::optional<T>& v) { return v ? ojson(*v) : ojson(nullptr); }

ojson opJson(const PipelineOp& op)
{
    return { { "op_id", op.opId }, { "op_type", op.opType }, { "num_workers", orNull(op.numWorkers) },
        { "parent_id", orNull(op.parentId) }, { "queue_usage", orNull(op.queueUsage) },
        { "queue_capacity", orNull(op.queueCapacity) }, { "queue_avg_size", orNull(op.queueAvgSize) },
        { "queue_empty_rate", orNull(op.queueEmptyRate) }, { "queue_samples", orNull(op.queueSamples) },
        { "cpu_pct", orNull(op.cpuPct()) } };
}

ojson rankJson(const RankPipeline& p)
{
    ojson ops = ojson::array();
    for (const auto& op : p.ops)
        ops.push_back(opJson(op));
    ojson r { { "rank", p.rank }, { "source", p.source.empty() ? ojson(nullptr) : ojson(p.source) },
        { "ops", std::move(ops) }, { "process_cpu_pct", orNull(p.processCpuPct()) },
        { "host_cpu",
            { { "user_pct", orNull(p.hostCpuUserPct) }, { "sys_pct", orNull(p.hostCpuSysPct) },
                { "io_pct", orNull(p.hostCpuIoPct) }, { "idle_pct", orNull(p.hostCpuIdlePct) },
                { "processors", orNull(p.cpuProcessorNum) } } } };
    if (p.deviceQueueSamples > 0)
        r["device_queue"] = { { "samples", p.deviceQueueSamples }, { "empty", p.deviceQueueEmpty },
            { "full", p.deviceQueueFull }, { "capacity", orNull(p.deviceQueueCapacity) },
            { "avg_size", orNull(p.deviceQueueAvgSize) }, { "empty_rate", orNull(p.deviceQueueEmptyRate) } };
    else
        r["device_queue"] = nullptr;
    if (p.bottleneck) {
        const auto& b = *p.bottleneck;
        r["bottleneck"] = { { "op_id", b.opId }, { "op_type", b.opType }, { "rule", b.rule }, { "usage", b.usage },
            { "input_usage", orNull(b.inputUsage) }, { "explanation", PipelineQuery::ruleText(b) } };
    } else {
        r["bottleneck"] = nullptr;
        r["bottleneck_reason"] = PipelineQuery::reasonText(p);
    }
    return r;
}

std::string cell(const std::optional<double>& v, int decimals, double scale = 1)
{
    if (!v)
        return "—";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, *v * scale);
    return buf;
}

std::string cell(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "—"; }

// text right-aligned in width columns, counting UTF-8 characters (the "—" of an absent value is 3 bytes, 1 column).
std::string right(const std::string& text, size_t width)
{
    size_t columns = 0;
    for (const char c : text)
        columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return std::string(width > columns ? width - columns : 0, ' ') + text;
}

std::string rankText(const RankPipeline& p)
{
    std::string out = "rank " + std::to_string(p.rank) + (p.source.empty() ? "" : " (" + p.source + ")") + "\n";
    if (!p.ops.empty()) {
        out += "   op  type              parent  workers  queue used %  capacity  avg size  empty %  CPU %\n";
        for (const auto& op : p.ops) {
            char head[64];
            std::snprintf(head, sizeof head, "%5lld  %-16s", static_cast<long long>(op.opId), op.opType.c_str());
            out += head + ("  " + right(cell(op.parentId), 6)) + "  " + right(cell(op.numWorkers), 7) + "  "
                + right(cell(op.queueUsage, 1, 100), 12) + "  " + right(cell(op.queueCapacity), 8) + "  "
                + right(cell(op.queueAvgSize, 1), 8) + "  " + right(cell(op.queueEmptyRate, 1, 100), 7) + "  "
                + right(cell(op.cpuPct(), 1), 5) + "\n";
        }
    }
    if (p.deviceQueueSamples > 0)
        out += "  device queue: " + std::to_string(p.deviceQueueEmpty) + " of " + std::to_string(p.deviceQueueSamples)
            + " samples empty (" + cell(p.deviceQueueEmptyRate, 1, 100) + " %), " + std::to_string(p.deviceQueueFull)
            + " full, capacity " + cell(p.deviceQueueCapacity) + "\n";
    if (p.processCpuPct() || p.hostCpuUserPct)
        out += "  CPU: process " + cell(p.processCpuPct(), 1) + " %, host user " + cell(p.hostCpuUserPct, 1) + " % sys "
            + cell(p.hostCpuSysPct, 1) + " % io " + cell(p.hostCpuIoPct, 1) + " % idle " + cell(p.hostCpuIdlePct, 1)
            + " %\n";
    if (p.bottleneck)
        out += "  bottleneck: op " + std::to_string(p.bottleneck->opId) + " " + p.bottleneck->opType + " ("
            + p.bottleneck->rule + "): " + PipelineQuery::ruleText(*p.bottleneck) + "\n";
    else
        out += "  bottleneck: none (" + PipelineQuery::reasonText(p) + ")\n";
    return out;
}

} // namespace

nlohmann::ordered_json PipelineReport::json(model::Database& db)
{
    ojson ranks = ojson::array();
    for (const auto& p : PipelineQuery::ranks(db))
        ranks.push_back(rankJson(p));
    return ojson { { "schema", kSchema }, { "ranks", std::move(ranks) } };
}

std::string PipelineReport::text(model::Database& db)
{
    const auto ranks = PipelineQuery::ranks(db);
    if (ranks.empty())
        return "No MindSpore data pipeline files (minddata_pipeline_raw, pipeline_profiling, minddata_cpu_utilization, "
               "device_queue_profiling) were loaded.\n";
    std::string out;
    for (const auto& p : ranks)
        out += rankText(p);
    return out;
}

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/PipelineQuery.h"
#include "npuscope/model/ReadRow.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace npuscope::query {

namespace {

std::optional<double> sum(std::optional<double> a, std::optional<double> b)
{
    if (!a && !b)
        return std::nullopt;
    return a.value_or(0) + b.value_or(0);
}

std::vector<int64_t> pipelineRanks(model::Database& db)
{
    return model::readInts(db,
        "SELECT rank_id FROM pipeline_op UNION SELECT rank_id FROM pipeline_cpu "
        "UNION SELECT rank_id FROM pipeline_queue ORDER BY 1");
}

// The rank's operators from one source file: the CSV when the rank has one (it carries the usage rate;
// "minddata_pipeline_raw" sorts before "pipeline_profiling").
void readOps(model::Database& db, RankPipeline& p)
{
    auto st = db.prepare("SELECT source, op_id, op_type, num_workers, parent_id, queue_capacity, queue_samples, "
                         "queue_empty_samples, queue_avg_size, queue_usage_rate FROM pipeline_op WHERE rank_id = ?1 "
                         "AND source = (SELECT MIN(source) FROM pipeline_op WHERE rank_id = ?1) ORDER BY op_id");
    st.bind(1, p.rank);
    std::set<int64_t> seen;
    while (st.step()) {
        p.source = st.text(0);
        PipelineOp op;
        op.opId = st.int64(1);
        if (!seen.insert(op.opId).second)
            continue; // a repeated op_id: the first row stands
        op.opType = st.text(2);
        op.numWorkers = st.optInt(3);
        op.parentId = st.optInt(4);
        op.queueCapacity = st.optInt(5);
        op.queueSamples = st.optInt(6);
        const auto empty = st.optInt(7);
        op.queueAvgSize = st.optReal(8);
        op.queueUsage = st.optReal(9);
        if (!op.queueUsage && op.queueAvgSize && op.queueCapacity && *op.queueCapacity > 0)
            op.queueUsage = *op.queueAvgSize / static_cast<double>(*op.queueCapacity);
        if (op.queueSamples && *op.queueSamples > 0 && empty)
            op.queueEmptyRate = static_cast<double>(*empty) / static_cast<double>(*op.queueSamples);
        p.ops.push_back(std::move(op));
    }
}

// Children, depth (a parent outside the file, or a cycle, makes a root) and the drawing order.
void linkOps(std::vector<PipelineOp>& ops)
{
    std::map<int64_t, size_t> index;
    for (size_t i = 0; i < ops.size(); ++i)
        index[ops[i].opId] = i;
    for (auto& op : ops) {
        if (op.parentId && (!index.count(*op.parentId) || *op.parentId == op.opId))
            op.parentId.reset();
    }
    for (const auto& op : ops) {
        if (op.parentId)
            ops[index[*op.parentId]].children.push_back(op.opId);
    }
    for (auto& op : ops) {
        std::sort(op.children.begin(), op.children.end());
        int depth = 0;
        for (auto parent = op.parentId; parent && depth <= static_cast<int>(ops.size());
             parent = ops[index[*parent]].parentId)
            ++depth;
        op.depth = depth > static_cast<int>(ops.size()) ? 0 : depth;
    }
    std::stable_sort(ops.begin(), ops.end(), [](const PipelineOp& a, const PipelineOp& b) {
        return a.depth != b.depth ? a.depth > b.depth : a.opId < b.opId;
    });
}

void readCpu(model::Database& db, RankPipeline& p)
{
    std::map<int64_t, PipelineOp*> byId;
    for (auto& op : p.ops)
        byId[op.opId] = &op;
    auto st = db.prepare(
        "SELECT scope, op_id, metric, avg_value FROM pipeline_cpu WHERE rank_id = ?1 ORDER BY scope, op_id, metric");
    st.bind(1, p.rank);
    while (st.step()) {
        const std::string scope = st.text(0);
        const auto opId = st.optInt(1);
        const std::string metric = st.text(2);
        const auto value = st.optReal(3);
        if (scope == "process") {
            if (metric == "user_utilization")
                p.processCpuUserPct = value;
            else if (metric == "sys_utilization")
                p.processCpuSysPct = value;
        } else if (scope == "device") {
            if (metric == "user_utilization")
                p.hostCpuUserPct = value;
            else if (metric == "sys_utilization")
                p.hostCpuSysPct = value;
            else if (metric == "io_utilization")
                p.hostCpuIoPct = value;
            else if (metric == "idle_utilization")
                p.hostCpuIdlePct = value;
        } else if (scope == "op" && opId && byId.count(*opId)) {
            if (metric == "user_utilization")
                byId[*opId]->cpuUserPct = value;
            else if (metric == "sys_utilization")
                byId[*opId]->cpuSysPct = value;
        }
    }
    auto n = db.prepare(
        "SELECT CAST(value AS INTEGER) FROM rank_info WHERE rank_id = ?1 AND key = 'minddata_cpu.cpu_processor_num'");
    n.bind(1, p.rank);
    if (n.step())
        p.cpuProcessorNum = n.optInt(0);
}

void readDeviceQueue(model::Database& db, RankPipeline& p)
{
    auto st = db.prepare("SELECT COUNT(*), COALESCE(SUM(size = 0), 0), COALESCE(SUM(size = capacity), 0), "
                         "MAX(capacity), AVG(size) FROM pipeline_queue WHERE rank_id = ?1");
    st.bind(1, p.rank);
    if (!st.step())
        return;
    model::readRow(
        st, p.deviceQueueSamples, p.deviceQueueEmpty, p.deviceQueueFull, p.deviceQueueCapacity, p.deviceQueueAvgSize);
    if (p.deviceQueueSamples > 0)
        p.deviceQueueEmptyRate = static_cast<double>(p.deviceQueueEmpty) / static_cast<double>(p.deviceQueueSamples);
}

// An operator the rules can judge: its output queue was sampled and its usage is known.
bool judged(const PipelineOp& op) { return op.queueUsage && op.queueSamples && *op.queueSamples > 0; }

std::optional<PipelineBottleneck> queueDrop(const std::vector<PipelineOp>& ops)
{
    std::map<int64_t, const PipelineOp*> byId;
    for (const auto& op : ops)
        byId[op.opId] = &op;
    std::optional<PipelineBottleneck> best;
    double bestDrop = 0;
    for (const auto& op : ops) {
        if (!judged(op))
            continue;
        for (const int64_t c : op.children) {
            const PipelineOp& child = *byId[c];
            if (!judged(child))
                continue;
            const double drop = *child.queueUsage - *op.queueUsage;
            if (drop > PipelineQuery::kUsageDrop && (!best || drop > bestDrop)) {
                best = PipelineBottleneck { op.opId, op.opType, "queue_drop", *op.queueUsage, *child.queueUsage };
                bestDrop = drop;
            }
        }
    }
    return best;
}

std::optional<PipelineBottleneck> slowSource(const std::vector<PipelineOp>& ops)
{
    std::optional<PipelineBottleneck> best;
    for (const auto& op : ops) {
        if (!op.children.empty() || !judged(op) || *op.queueUsage >= PipelineQuery::kLowUsage)
            continue;
        if (!best || *op.queueUsage < best->usage)
            best = PipelineBottleneck { op.opId, op.opType, "slow_source", *op.queueUsage, std::nullopt };
    }
    return best;
}

std::optional<PipelineBottleneck> allQueuesFull(const std::vector<PipelineOp>& ops)
{
    const PipelineOp* root = nullptr;
    int below = 0;
    for (const auto& op : ops) {
        if (!op.parentId) {
            if (!root || op.opId < root->opId)
                root = &op;
            continue;
        }
        if (!judged(op))
            continue;
        if (*op.queueUsage < PipelineQuery::kHighUsage)
            return std::nullopt;
        ++below;
    }
    if (!root || below == 0)
        return std::nullopt;
    return PipelineBottleneck { root->opId, root->opType, "all_queues_full", root->queueUsage.value_or(0),
        std::nullopt };
}

void findBottleneck(RankPipeline& p)
{
    if (p.ops.empty()) {
        p.noBottleneck = NoBottleneck::NoOperators;
        return;
    }
    if (p.deviceQueueEmptyRate && *p.deviceQueueEmptyRate <= PipelineQuery::kDeviceQueueEmptyRate) {
        p.noBottleneck = NoBottleneck::KeepsUp;
        return;
    }
    if (std::none_of(p.ops.begin(), p.ops.end(), judged)) {
        p.noBottleneck = NoBottleneck::NoQueueFigures;
        return;
    }
    for (const auto rule : { &queueDrop, &slowSource, &allQueuesFull }) {
        if ((p.bottleneck = rule(p.ops))) {
            p.noBottleneck = NoBottleneck::None;
            return;
        }
    }
    p.noBottleneck = NoBottleneck::NoRuleFired;
}

std::string percent(double share)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", share * 100);
    return buf;
}

} // namespace

std::optional<double> PipelineOp::cpuPct() const { return sum(cpuUserPct, cpuSysPct); }

std::optional<double> RankPipeline::processCpuPct() const { return sum(processCpuUserPct, processCpuSysPct); }

std::optional<RankPipeline> PipelineQuery::rank(model::Database& db, int64_t rank)
{
    RankPipeline p;
    p.rank = rank;
    readOps(db, p);
    linkOps(p.ops);
    readCpu(db, p);
    readDeviceQueue(db, p);
    if (p.ops.empty() && p.deviceQueueSamples == 0 && !p.processCpuUserPct && !p.processCpuSysPct && !p.hostCpuUserPct)
        return std::nullopt;
    findBottleneck(p);
    return p;
}

std::vector<RankPipeline> PipelineQuery::ranks(model::Database& db)
{
    std::vector<RankPipeline> out;
    for (const int64_t r : pipelineRanks(db)) {
        if (auto p = rank(db, r))
            out.push_back(std::move(*p));
    }
    return out;
}

std::string PipelineQuery::reasonText(const RankPipeline& p)
{
    switch (p.noBottleneck) {
    case NoBottleneck::None:
        return {};
    case NoBottleneck::NoOperators:
        return "no dataset operators (minddata_pipeline_raw or pipeline_profiling) for this rank";
    case NoBottleneck::KeepsUp:
        return "the device queue was empty in " + percent(p.deviceQueueEmptyRate.value_or(0))
            + " of the samples (at most " + percent(kDeviceQueueEmptyRate) + "): the pipeline keeps up with the device";
    case NoBottleneck::NoQueueFigures:
        return "no operator has sampled output queue figures";
    case NoBottleneck::NoRuleFired:
        return "no operator's queues single one out (no queue drop above " + percent(kUsageDrop) + ", no source below "
            + percent(kLowUsage) + ", not every queue above " + percent(kHighUsage) + ")";
    }
    return {};
}

std::string PipelineQuery::ruleText(const PipelineBottleneck& b)
{
    if (b.rule == "queue_drop")
        return "its output queue (" + percent(b.usage) + " used) is emptier than its input queue ("
            + percent(b.inputUsage.value_or(0)) + ") by more than " + percent(kUsageDrop)
            + ": it consumes faster than it produces";
    if (b.rule == "slow_source")
        return "a source whose output queue is " + percent(b.usage) + " used (below " + percent(kLowUsage)
            + "): reading the data is too slow";
    if (b.rule == "all_queues_full")
        return "every queue below it is above " + percent(kHighUsage)
            + " used: the last operator or the transfer to the device is too slow";
    return b.rule;
}

} // namespace npuscope::query

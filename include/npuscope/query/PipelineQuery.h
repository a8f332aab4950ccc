// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

// One dataset operator of a MindSpore data pipeline (docs/metrics.md, "Data pipeline").
struct PipelineOp {
    int64_t opId = 0;
    std::string opType;
    std::optional<int64_t> numWorkers;
    std::optional<int64_t> parentId; // the operator it feeds; nullopt: the root, which feeds the device queue
    std::vector<int64_t> children; // operators feeding it, ascending
    int depth = 0; // operators between it and the device queue (root 0)
    std::optional<int64_t> queueCapacity; // output queue capacity (rows)
    std::optional<double> queueAvgSize; // mean rows in the output queue
    // Output queue usage, 0..1: the file's usage rate, else mean size ÷ capacity; nullopt without queue figures.
    std::optional<double> queueUsage;
    std::optional<int64_t> queueSamples;
    std::optional<double> queueEmptyRate; // samples with an empty output queue ÷ samples
    std::optional<double> cpuUserPct, cpuSysPct; // mean CPU use of the operator's threads (%), op_info series
    std::optional<double> cpuPct() const;
};

// Why a rank has no bottleneck operator.
enum class NoBottleneck {
    None, // there is one
    NoOperators, // no minddata_pipeline_raw / pipeline_profiling for the rank
    KeepsUp, // the device queue was rarely empty: the pipeline keeps up with the device
    NoQueueFigures, // the operators carry no output queue figures
    NoRuleFired, // the device waited, but no operator's queues single one out
};

// The operator a rule found (docs/metrics.md, "Data pipeline bottleneck").
struct PipelineBottleneck {
    int64_t opId = 0;
    std::string opType;
    // "queue_drop": its output queue is emptier than an input queue by more than kUsageDrop (it consumes faster than it
    // produces); "slow_source": a source operator whose output queue is below kLowUsage (reading is too slow);
    // "all_queues_full": every queue below the root is above kHighUsage (the root, or the device transfer, is slow).
    std::string rule;
    double usage = 0; // the operator's output queue usage
    std::optional<double> inputUsage; // queue_drop: the fullest input queue's usage
};

// The data pipeline of one rank: its operators from the sources to the device queue, CPU use and the device queue.
struct RankPipeline {
    int64_t rank = 0;
    std::string source; // file kind the operators come from: minddata_pipeline_raw | pipeline_profiling | ""
    // The operators as the chain draws them: deepest first (the sources), the root last; siblings by op_id.
    std::vector<PipelineOp> ops;
    std::optional<double> processCpuUserPct, processCpuSysPct; // the training process (process_info)
    std::optional<double> hostCpuUserPct, hostCpuSysPct, hostCpuIoPct, hostCpuIdlePct; // device_info (whole host)
    std::optional<int64_t> cpuProcessorNum;
    // device_queue_profiling: samples, of which empty (size 0) and full (size = capacity).
    int64_t deviceQueueSamples = 0, deviceQueueEmpty = 0, deviceQueueFull = 0;
    std::optional<int64_t> deviceQueueCapacity; // the largest capacity written
    std::optional<double> deviceQueueAvgSize;
    std::optional<double> deviceQueueEmptyRate; // empty ÷ samples; nullopt without samples
    std::optional<PipelineBottleneck> bottleneck;
    NoBottleneck noBottleneck = NoBottleneck::NoOperators; // None when bottleneck is set
    std::optional<double> processCpuPct() const;
};

// The data pipeline figures of the model's ranks (pipeline_op, pipeline_cpu, pipeline_queue). Plain functions over
// SQL; the caller holds the database lock.
class PipelineQuery {
public:
    // MindInsight's minddata analyser: the device queue empty in more than 30 % of the samples is a warning that data
    // processing is slower than the device (DEVICE_QUEUE_EMPTY_WARNING_THRESHOLD).
    static constexpr double kDeviceQueueEmptyRate = 0.3;
    // MindInsight's pipeline analyser: an operator whose input queue is fuller than its output queue by more than 0.1.
    static constexpr double kUsageDrop = 0.1;
    // npuscope: a source below a fifth of its queue is starved; every queue above four fifths is back-pressure.
    static constexpr double kLowUsage = 0.2;
    static constexpr double kHighUsage = 0.8;

    // Every rank with any pipeline data, ascending.
    static std::vector<RankPipeline> ranks(model::Database& db);
    // The figures of rank; nullopt when it has no pipeline data.
    static std::optional<RankPipeline> rank(model::Database& db, int64_t rank);
    // The English sentence for a missing bottleneck (the CLI's bottleneck_reason).
    static std::string reasonText(const RankPipeline& p);
    // The English rule description of a bottleneck.
    static std::string ruleText(const PipelineBottleneck& b);
};

} // namespace npuscope::query

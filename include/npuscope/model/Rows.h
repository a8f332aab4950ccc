// SPDX-License-Identifier: Apache-2.0
#pragma once

// Plain row structs importers fill and ModelWriter inserts. Times are int64 ns; std::nullopt is
// written as NULL ("absent from the file", never 0). Field meanings: resources/schema.sql.

#include "npuscope/core/TrText.h"
#include "npuscope/model/RankFileStatus.h"
#include "npuscope/model/StepColumns.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::model {

using OptInt = std::optional<int64_t>;
using OptReal = std::optional<double>;
using OptText = std::optional<std::string>;

struct RankRow {
    int64_t rankId = 0;
    OptInt deviceId;
    std::string path;
    std::string rankSource;
    OptText host, framework, profilerLevel, exportType, version, cannVersion;
    OptInt collectionEndNs, worldSize;
};

struct RankFileRow {
    int64_t rankId = 0;
    std::string kind, path; // kind: fileKindName of the planned file
    OptInt sizeBytes;
    RankFileStatus status = RankFileStatus::Planned;
};

// One parallel_group_info entry of a rank's metadata (profiler_metadata.json, or a db export's META_DATA).
struct ParallelGroupRow {
    int64_t rankId = 0;
    std::string rawName; // the entry's key: the raw group id, whose double hash is the '@' number of op names
    OptText name; // group_name when it is a string
    std::vector<int64_t> globalRanks; // the integer elements of global_ranks, ascending (local rank i = element i)
};

// One step of one rank: the durations (StepDurations, columns in StepColumns.h) and where the row came from.
struct StepTraceRow : StepDurations {
    int64_t rankId = 0;
    OptInt deviceId, step;
    int64_t sourceLine = 0;
};

struct StepTraceOpRow {
    int64_t rankId = 0, step = 0;
    std::string columnName;
    OptInt streamId;
    OptText opType;
    OptInt startSyscntNs, endSyscntNs, dur;
};

struct KernelRow {
    int64_t rankId = 0;
    OptInt deviceId, step, modelId, taskId, streamId;
    std::string name;
    OptText type, opState, acceleratorCore;
    int64_t ts = 0, dur = 0;
    OptInt waitNs, blockDim, mixBlockDim;
    OptText inputShapes, inputDataTypes, outputShapes, outputDataTypes, pmuJson;
    OptReal flops; // Σ of the *_cube_fops / *_vector_fops columns present; nullopt when none
    int64_t sourceLine = 0;
    OptInt pmuFileId, pmuOffset, pmuLen; // the CSV record by reference (source_file.id, byte range)
};

struct OpStatisticRow {
    int64_t rankId = 0;
    OptInt deviceId;
    std::string opType;
    OptText coreType;
    OptInt count, totalNs, minNs, avgNs, maxNs;
    OptReal ratioPct;
};

struct ApiStatisticRow {
    int64_t rankId = 0;
    OptText deviceId, level;
    std::string apiName;
    OptInt totalNs, count, avgNs, minNs, maxNs;
    OptReal variance;
};

struct CommOpRow {
    int64_t rankId = 0;
    OptInt step;
    std::string kind, opKey, opName;
    OptText opType, groupHash;
    bool isTotal = false;
    OptInt startNs, elapseNs, transitNs, waitNs, syncNs, idleNs;
    OptReal waitRatio, syncRatio;
    OptText zeroTransports; // transports listed with every figure 0 and no packets, comma separated (no rows of theirs)
};

struct CommBandwidthRow {
    int64_t commOpId = 0;
    std::string transport;
    OptReal sizeMb;
    OptInt transitNs;
    OptReal bandwidthGbps, largePacketRatio;
};

struct CommPacketRow {
    int64_t commBandwidthId = 0;
    double packageMb = 0;
    OptInt count, totalNs;
};

struct CommLinkRow {
    int64_t rankId = 0;
    OptInt step;
    std::string kind, matrixOp;
    OptText opType, slot, groupHash;
    OptInt localSrc, localDst, src, dst;
    OptText transport;
    OptReal sizeMb;
    OptInt timeNs;
    OptReal bandwidthGbps;
    OptText opName;
};

struct MemoryRecordRow {
    int64_t rankId = 0;
    OptText component;
    int64_t ts = 0;
    OptReal allocatedMb, reservedMb, activeMb;
    OptText streamPtr, device;
};

// memory_peak: one rank's peaks of one component (schema.sql).
struct MemoryPeakRow {
    int64_t rankId = 0;
    OptText component;
    OptReal peakReservedMb;
    OptInt reservedTs;
    OptReal peakAllocatedMb;
    OptInt allocatedTs;
    int64_t samples = 0;
    OptText device;
};

// kernel_total: one rank's kernel sums of one step (schema.sql).
struct KernelTotalRow {
    int64_t rankId = 0;
    OptInt step;
    int64_t kernels = 0;
    int64_t flopsKernels = 0;
    double flops = 0;
    int64_t flopsDurNs = 0;
};

// op_flops: one line of MindSpore's per-op flops_{rank}.txt (schema.sql); FLOPs and FLOP/s already scaled from the
// file's MFLOPs / GFLOPS.
struct OpFlopsRow {
    int64_t rankId = 0;
    std::string name;
    int64_t line = 0;
    OptReal flops, flopsPerSecond, utilizationPct;
    OptReal cubeFlops, cubeFlopsPerSecond, cubeUtilizationPct;
    OptReal vecFlops, vecFlopsPerSecond, vecUtilizationPct;
};

// flops_scope_link: one link of MindSpore's flops_scope_{rank}.json (schema.sql), FLOPs scaled from MFLOPs.
struct FlopsScopeLinkRow {
    int64_t rankId = 0;
    std::string source, target;
    double flops = 0;
};

// The columns that say which kernels a kernel_sum or step_kernel row is about: rank, step, name, type and accelerator
// core (schema.sql); name and type are interned.
struct KernelKey {
    int64_t rankId = 0;
    OptInt step;
    std::string name;
    OptText type;
    OptText acceleratorCore;
};

// kernel_sum: the kernels of one rank, step, name, type and accelerator core.
struct KernelSumRow : KernelKey {
    int64_t kernels = 0;
    int64_t durNs = 0;
};

// step_kernel: one kernel of the step a step-scoped scan kept.
struct StepKernelRow : KernelKey {
    int64_t ts = 0; // epoch ns
    int64_t dur = 0; // ns
    OptReal flops; // Σ of the *_fops cells, as KernelRow::flops
};

struct OperatorMemoryRow {
    int64_t rankId = 0;
    std::string name;
    OptReal sizeKb;
    OptInt allocTs, releaseTs, activeReleaseTs, dur, activeDur;
    OptReal allocAllocatedMb, allocReservedMb, allocActiveMb, releaseAllocatedMb, releaseReservedMb, releaseActiveMb;
    OptText streamPtr, device;
};

struct NpuModuleMemRow {
    int64_t rankId = 0;
    OptInt deviceId;
    OptText component;
    int64_t ts = 0;
    OptReal reservedMb;
    OptText device;
};

// pipeline_op: one dataset operator of a MindSpore data pipeline.
struct PipelineOpRow {
    int64_t rankId = 0;
    std::string source; // minddata_pipeline_raw | pipeline_profiling
    int64_t opId = 0;
    std::string opType;
    OptInt numWorkers, parentId, queueCapacity, queueSamples, queueEmptySamples;
    OptReal queueAvgSize, queueUsageRate;
    OptInt sampleInterval;
};

// strategy_node: one operator node of a parallel_strategy graph (resources/schema.sql).
struct StrategyNodeRow {
    enum Special : int64_t { Strategy = 1, Redistribution = 2, GradAggregation = 4 };
    int64_t rankId = 0, stage = 0, nodeIndex = 0;
    std::string nodeKey, name, opType, scope;
    OptText instanceName;
    int64_t special = 0;
    OptText strategy, groupName, groupRanks;
    OptInt srTag, peerRank;
    OptText outputShape, outputType;
    std::string inputs, attributes;
};

// strategy_edge: an input of a strategy node naming an operator node of the same file.
struct StrategyEdgeRow {
    int64_t rankId = 0, srcIndex = 0, dstIndex = 0;
    bool control = false;
};

// pipeline_cpu: one CPU utilisation series summarised.
struct PipelineCpuRow {
    int64_t rankId = 0;
    std::string scope; // device | process | op
    OptInt opId;
    std::string metric;
    int64_t samples = 0;
    OptReal avgValue, maxValue;
};

// ms_memory_node: one node of a graph of MindSpore's memory_usage_details file with its memory in use.
struct MsMemoryNodeRow {
    int64_t rankId = 0;
    OptInt graphId;
    int64_t nodeIndex = 0;
    OptInt nodeId;
    std::string name;
    double memoryGib = 0;
};

// pipeline_queue: one device queue sample.
struct PipelineQueueRow {
    int64_t rankId = 0;
    OptInt step;
    int64_t size = 0;
    OptInt capacity, sampleTime;
};

struct ProcessRow {
    int64_t rankId = 0, pid = 0;
    OptText name, label;
    OptInt sortIndex;
};

struct ThreadRow {
    int64_t rankId = 0, pid = 0, tid = 0;
    OptText name;
    OptInt sortIndex;
};

struct SliceRow {
    int64_t rankId = 0, pid = 0, tid = 0;
    int64_t ts = 0, dur = 0;
    int64_t depth = 0;
    int64_t nameId = 0;
    OptInt catId;
    OptText args; // args JSON text, for sources without a file to point into
    OptInt argsFileId, argsOffset, argsLen; // args by reference: source_file.id and byte range
};

struct CounterRow {
    int64_t rankId = 0, pid = 0;
    int64_t nameId = 0;
    std::string series;
    int64_t ts = 0;
    OptReal value;
};

struct FlowRow {
    int64_t rankId = 0;
    std::string cat;
    OptText name;
    std::string flowId;
    OptInt srcPid, srcTid, srcTs, dstPid, dstTid, dstTs, srcSliceId, dstSliceId;
};

enum class Severity { Info, Warning, Error };
const char* severityName(Severity s);

struct ParseIssueRow {
    Severity severity = Severity::Warning;
    OptInt rankId;
    OptText file;
    OptInt line;
    // Written as parse_issue.message (message.english()) and, when it holds a template, message_template
    // (message.toJson()) for the GUI to translate.
    TrText message;
};

} // namespace npuscope::model

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/detect/FileKinds.h"

#include "npuscope/io/cann/CannProfImporter.h"
#include "npuscope/io/db/AnalysisDbImporter.h"
#include "npuscope/io/db/DbTimelineImporter.h"
#include "npuscope/io/db/ProfilerDbImporter.h"
#include "npuscope/io/kineto/KinetoTraceImporter.h"
#include "npuscope/io/mindspore/MindDataImporter.h"
#include "npuscope/io/mindspore/MindSporeFlopsScopeImporter.h"
#include "npuscope/io/mindspore/MindSporeFlopsSummaryImporter.h"
#include "npuscope/io/mindspore/MindSporeHcclRawImporter.h"
#include "npuscope/io/mindspore/MindSporeOpFlopsImporter.h"
#include "npuscope/io/mindspore/MindSporeRankTableImporter.h"
#include "npuscope/io/mindspore/MindSporeMemoryImporter.h"
#include "npuscope/io/mindspore/MindSporeStepTraceImporter.h"
#include "npuscope/io/mindspore/MindSporeTimelineImporter.h"
#include "npuscope/io/mindspore/MsParallelStrategyImporter.h"
#include "npuscope/io/msprof_analyze/ClusterAnalysisDbImporter.h"
#include "npuscope/io/msprof_analyze/ClusterAnalysisImporter.h"
#include "npuscope/io/torch_npu/ApiStatisticImporter.h"
#include "npuscope/io/torch_npu/CommunicationImporter.h"
#include "npuscope/io/torch_npu/KernelDetailsImporter.h"
#include "npuscope/io/torch_npu/MemoryRecordImporter.h"
#include "npuscope/io/torch_npu/NpuModuleMemImporter.h"
#include "npuscope/io/torch_npu/OpStatisticImporter.h"
#include "npuscope/io/torch_npu/OperatorMemoryImporter.h"
#include "npuscope/io/torch_npu/ProfilerInfoImporter.h"
#include "npuscope/io/torch_npu/StepTraceImporter.h"
#include "npuscope/io/torch_npu/TraceViewImporter.h"

#include <array>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>

namespace npuscope::io {

namespace {

bool isDigits(std::string_view s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos; }

// profiler_info.json, profiler_info_<rank>.json (and whatever torch_npu put between).
bool profilerInfoName(std::string_view n) { return n.starts_with("profiler_info") && n.ends_with(".json"); }

// ascend_pytorch_profiler.db or _<rank>.db (msprof-analyze: ^ascend_pytorch_profiler(?:_\d+)?\.db$), the same for
// MindSpore's export.
bool profilerDbName(std::string_view n)
{
    for (const std::string_view prefix : { "ascend_pytorch_profiler", "ascend_mindspore_profiler" }) {
        if (n.size() < prefix.size() + 3 || !n.starts_with(prefix) || !n.ends_with(".db"))
            continue;
        const auto middle = n.substr(prefix.size(), n.size() - 3 - prefix.size());
        if (middle.empty() || (middle.size() > 1 && middle[0] == '_' && isDigits(middle.substr(1))))
            return true;
    }
    return false;
}

// CANN msprof op_summary.csv, op_summary_<n>.csv, op_summary_<dev>_<model>_<iter>.csv (numbers only).
bool opSummaryName(std::string_view n)
{
    if (!n.starts_with("op_summary") || n.size() < 14 || !n.ends_with(".csv"))
        return false;
    const auto middle = n.substr(10, n.size() - 14);
    for (size_t i = 0; i < middle.size(); ++i) {
        const bool ok = middle[i] == '_' ? i + 1 < middle.size() && middle[i + 1] != '_'
                                         : i > 0 && middle[i] >= '0' && middle[i] <= '9';
        if (!ok)
            return false;
    }
    return true;
}

bool runTraceView(ImportContext& ctx) { return TraceViewImporter::run(ctx); }
bool kernelStepAll(ImportContext& ctx) { return KernelDetailsImporter::runStep(ctx, std::nullopt); }
bool kernelStepOne(ImportContext& ctx) { return KernelDetailsImporter::runStep(ctx, 1); }

constexpr const char* kDbSeeds = "ascend_pytorch_profiler*.db msprof_*.db report_*.db";

std::vector<FileKindSpec> builtIns()
{
    using F = FileKind;
    using Fam = FileFamily;
    using Fmt = FileFormat;
    std::vector<FileKindSpec> t;
    t.push_back({ .kind = F::ProfilerInfo, .name = "profiler_info", .family = Fam::TorchNpu, .format = Fmt::Json,
        .matches = &profilerInfoName, .facts = true, .importer = &ProfilerInfoImporter::run, .importOrder = 0,
        .fuzz = { .target = "profiler_info", .fileName = "profiler_info_0.json", .seeds = "profiler_info*.json" } });
    t.push_back({ .kind = F::ProfilerMetadata, .name = "profiler_metadata", .family = Fam::TorchNpu,
        .format = Fmt::Json, .names = { "profiler_metadata.json" }, .facts = true,
        .importer = &MetadataImporter::run, .importOrder = 1,
        .fuzz = { .target = "profiler_metadata", .fileName = "profiler_metadata.json",
            .seeds = "profiler_metadata.json" } });
    t.push_back({ .kind = F::StepTraceTime, .name = "step_trace_time", .family = Fam::TorchNpu, .format = Fmt::Csv,
        .dataName = "step trace", .names = { "step_trace_time.csv" }, .importer = &StepTraceImporter::run,
        .fuzz = { .target = "step_trace_time", .fileName = "step_trace_time.csv", .seeds = "step_trace_time.csv" } });
    t.push_back({ .kind = F::KernelDetails, .name = "kernel_details", .family = Fam::TorchNpu, .format = Fmt::Csv,
        .dataName = "kernels", .names = { "kernel_details.csv" }, .deferred = kKernelsGroup,
        .importer = &KernelDetailsImporter::run,
        .fuzz = { .target = "kernel_details", .fileName = "kernel_details.csv",
            .seeds = "kernel_details.csv op_summary_*.csv",
            .alsoRun = { &KernelDetailsImporter::runTotals, &kernelStepAll, &kernelStepOne } } });
    t.push_back({ .kind = F::OpStatistic, .name = "op_statistic", .family = Fam::TorchNpu, .format = Fmt::Csv,
        .names = { "op_statistic.csv" }, .importer = &OpStatisticImporter::run,
        .fuzz = { .target = "op_statistic", .fileName = "op_statistic.csv", .seeds = "op_statistic.csv" } });
    t.push_back({ .kind = F::ApiStatistic, .name = "api_statistic", .family = Fam::TorchNpu, .format = Fmt::Csv,
        .names = { "api_statistic.csv" }, .importer = &ApiStatisticImporter::run,
        .fuzz = { .target = "api_statistic", .fileName = "api_statistic.csv", .seeds = "api_statistic.csv" } });
    // Communication files keep every op with its bandwidth rows and packets while parsing (4 bytes per input byte).
    t.push_back({ .kind = F::Communication, .name = "communication", .family = Fam::TorchNpu, .format = Fmt::Json,
        .dataName = "communication", .names = { "communication.json" }, .importer = &CommunicationImporter::run,
        .memoryWeight = 4.0,
        .fuzz = { .target = "communication", .fileName = "communication.json", .seeds = "communication.json",
            .prelude = FuzzPrelude::ProfilerMetadata } });
    // The matrix: every link becomes a row; a flat 1,024-rank every-pair cluster (2.0 GB of summary files, 1.94 GB of
    // them matrices) peaks at 1.49 bytes per byte, as workers merge in batches and the text summary streams its links
    // (it grew to 24 GB when the whole document and every link were held). 2 bytes per byte is the default weight.
    t.push_back({ .kind = F::CommunicationMatrix, .name = "communication_matrix", .family = Fam::TorchNpu,
        .format = Fmt::Json, .dataName = "communication matrix", .names = { "communication_matrix.json" },
        .importer = &CommunicationMatrixImporter::run, .leanImporter = &CommunicationMatrixImporter::runLean,
        .fuzz = { .target = "communication_matrix", .fileName = "communication_matrix.json",
            .seeds = "communication_matrix.json", .prelude = FuzzPrelude::ProfilerMetadata } });
    t.push_back({ .kind = F::MemoryRecord, .name = "memory_record", .family = Fam::TorchNpu, .format = Fmt::Csv,
        .dataName = "memory record", .names = { "memory_record.csv" }, .deferred = kMemoryGroup,
        .importer = &MemoryRecordImporter::run, .summaryPass = &MemoryRecordImporter::runPeaks,
        .fuzz = { .target = "memory_record", .fileName = "memory_record.csv", .seeds = "memory_record.csv",
            .alsoRun = { &MemoryRecordImporter::runPeaks } } });
    t.push_back({ .kind = F::OperatorMemory, .name = "operator_memory", .family = Fam::TorchNpu, .format = Fmt::Csv,
        .dataName = "operator memory", .names = { "operator_memory.csv" }, .deferred = kMemoryGroup,
        .importer = &OperatorMemoryImporter::run,
        .fuzz = { .target = "operator_memory", .fileName = "operator_memory.csv", .seeds = "operator_memory.csv" } });
    t.push_back({ .kind = F::NpuModuleMem, .name = "npu_module_mem", .family = Fam::TorchNpu, .format = Fmt::Csv,
        .dataName = "NPU module memory", .names = { "npu_module_mem.csv" }, .importer = &NpuModuleMemImporter::run,
        .fuzz = { .target = "npu_module_mem", .fileName = "npu_module_mem.csv", .seeds = "npu_module_mem.csv" } });
    // Timelines keep compact slice records until their track is sorted (3 bytes per input byte).
    t.push_back({ .kind = F::TraceView, .name = "trace_view", .family = Fam::TorchNpu, .format = Fmt::Json,
        .dataName = "timeline", .names = { "trace_view.json" }, .deferred = kTimelineGroup,
        .importer = &runTraceView, .importOrder = 3, .memoryWeight = 3.0,
        .fuzz = { .target = "trace_view", .fileName = "trace_view.json", .seeds = "trace_view*.json" } });
    t.push_back({ .kind = F::ProfilerDb, .name = "profiler_db", .family = Fam::ProfilerDb, .format = Fmt::Sqlite,
        // CANN msprof's db export msprof_<n>.db, and report_<n>.db of its older export (the same table style).
        .numbered = { { "msprof_", ".db" }, { "report_", ".db" } }, .matches = &profilerDbName,
        .importer = &ProfilerDbImporter::run,
        .fuzz = { .target = "profiler_db", .fileName = "ascend_pytorch_profiler_0.db", .seeds = kDbSeeds } });
    t.push_back({ .kind = F::AnalysisDb, .name = "analysis_db", .family = Fam::ProfilerDb, .format = Fmt::Sqlite,
        .names = { "analysis.db", "communication_analyzer.db" }, .importer = &AnalysisDbImporter::run,
        .fuzz = { .target = "analysis_db", .fileName = "analysis.db", .seeds = "analysis.db" } });
    t.push_back({ .kind = F::ClusterStepTrace, .name = "cluster_step_trace_time", .family = Fam::MsprofAnalyze,
        .format = Fmt::Csv, .names = { "cluster_step_trace_time.csv" },
        .importer = &ClusterAnalysisImporter::runStepTrace,
        .fuzz = { .target = "cluster_step_trace", .fileName = "cluster_step_trace_time.csv",
            .seeds = "cluster_step_trace_time.csv" } });
    t.push_back({ .kind = F::ClusterCommunication, .name = "cluster_communication", .family = Fam::MsprofAnalyze,
        .format = Fmt::Json, .names = { "cluster_communication.json" },
        .importer = &ClusterAnalysisImporter::runCommunication, .memoryWeight = 4.0,
        .fuzz = { .target = "cluster_communication", .fileName = "cluster_communication.json",
            .seeds = "cluster_communication.json" } });
    t.push_back({ .kind = F::ClusterCommunicationMatrix, .name = "cluster_communication_matrix",
        .family = Fam::MsprofAnalyze, .format = Fmt::Json, .names = { "cluster_communication_matrix.json" },
        .importer = &ClusterAnalysisImporter::runMatrix,
        .fuzz = { .target = "cluster_communication_matrix", .fileName = "cluster_communication_matrix.json",
            .seeds = "cluster_communication_matrix.json" } });
    t.push_back({ .kind = F::ClusterAnalysisDb, .name = "cluster_analysis_db", .family = Fam::MsprofAnalyze,
        .format = Fmt::Sqlite, .names = { "cluster_analysis.db" }, .importer = &ClusterAnalysisDbImporter::run,
        .fuzz = { .target = "cluster_analysis_db", .fileName = "cluster_analysis.db",
            .seeds = "cluster_analysis.db" } });
    t.push_back({ .kind = F::ClusterCommunicationGroup, .name = "cluster_communication_group",
        .family = Fam::MsprofAnalyze, .format = Fmt::Json, .names = { "communication_group.json" },
        .importer = &ClusterAnalysisImporter::runCommunicationGroup,
        .fuzz = { .target = "communication_group", .fileName = "communication_group.json",
            .seeds = "communication_group*.json" } });
    t.push_back({ .kind = F::MsStepTraceRaw, .name = "step_trace_raw", .family = Fam::MindSpore, .format = Fmt::Csv,
        .numbered = { { "step_trace_raw_", "_detail_time.csv" } }, .importer = &MindSporeStepTraceImporter::run,
        .fuzz = { .target = "ms_step_trace_raw", .fileName = "step_trace_raw_0_detail_time.csv",
            .seeds = "step_trace_raw_*_detail_time.csv" } });
    t.push_back({ .kind = F::MsHcclRaw, .name = "hccl_raw", .family = Fam::MindSpore, .format = Fmt::Csv,
        .numbered = { { "hccl_raw_", ".csv" } }, .importer = &MindSporeHcclRawImporter::run, .memoryWeight = 4.0,
        .fuzz = { .target = "ms_hccl_raw", .fileName = "hccl_raw_0.csv", .seeds = "hccl_raw_*.csv" } });
    t.push_back({ .kind = F::MsFlopsSummary, .name = "flops_summary", .family = Fam::MindSpore, .format = Fmt::Json,
        .numbered = { { "flops_summary_", ".json" } }, .importer = &MindSporeFlopsSummaryImporter::run,
        .fuzz = { .target = "ms_flops_summary", .fileName = "flops_summary_0.json", .seeds = "flops_summary_*.json" } });
    // The per-op and per-scope FLOPs files written beside flops_summary (small: one line per distinct op, one link
    // per scope pair), read with the summary of every rank.
    t.push_back({ .kind = F::MsOpFlops, .name = "op_flops", .family = Fam::MindSpore, .format = Fmt::Csv,
        .dataName = "FLOPs per op", .numbered = { { "flops_", ".txt" } },
        .importer = &MindSporeOpFlopsImporter::run,
        .fuzz = { .target = "ms_op_flops", .fileName = "flops_0.txt", .seeds = "flops_[0-9]*.txt" } });
    t.push_back({ .kind = F::MsFlopsScope, .name = "flops_scope", .family = Fam::MindSpore, .format = Fmt::Json,
        .dataName = "FLOPs per scope", .numbered = { { "flops_scope_", ".json" } },
        .importer = &MindSporeFlopsScopeImporter::run,
        .fuzz = { .target = "ms_flops_scope", .fileName = "flops_scope_0.json", .seeds = "flops_scope_*.json" } });
    t.push_back({ .kind = F::MsTimelineDisplay, .name = "ms_timeline_display", .family = Fam::MindSpore,
        .format = Fmt::Json, .numbered = { { "ascend_timeline_display_", ".json" }, { "timeline_display_", ".json" } },
        .deferred = kTimelineGroup, .importer = &MindSporeTimelineImporter::run, .importOrder = 3,
        .memoryWeight = 3.0,
        .fuzz = { .target = "ms_timeline_display", .fileName = "ascend_timeline_display_0.json",
            .seeds = "ascend_timeline_display_*.json timeline_display_*.json" } });
    // hccl.json with host_ips_mapping.txt: planned per rank by Detector's MindInsight job layout.
    t.push_back({ .kind = F::MiRankTable, .name = "rank_table", .family = Fam::MindSpore, .format = Fmt::Json,
        .importer = &MindSporeRankTableImporter::run,
        .fuzz = { .target = "ms_rank_table", .fileName = "hccl.json", .seeds = "hccl.json" } });
    // CANN PROF_*/device_<n>/ files: planned by Detector's PROF layout.
    t.push_back({ .kind = F::CannInfo, .name = "cann_info", .family = Fam::Cann, .format = Fmt::Json,
        .importer = &CannProfImporter::runInfo,
        .fuzz = { .target = "cann_info", .fileName = "info.json.0", .seeds = "info.json.[0-9]" } });
    t.push_back({ .kind = F::CannTimeline, .name = "cann_timeline", .family = Fam::Cann, .format = Fmt::Json,
        .importer = &CannProfImporter::runTimeline, .memoryWeight = 3.0,
        .fuzz = { .target = "cann_timeline", .fileName = "device_0/timeline/msprof_0_1_1.json",
            .seeds = "msprof_*.json", .prelude = FuzzPrelude::CannStartInfo } });
    t.push_back({ .kind = F::CannStepTrace, .name = "cann_step_trace", .family = Fam::Cann, .format = Fmt::Json,
        .importer = &CannProfImporter::runStepTrace,
        .fuzz = { .target = "cann_step_trace", .fileName = "device_0/timeline/step_trace_0_1_1.json",
            .seeds = "step_trace_*_*_*.json", .prelude = FuzzPrelude::CannStartInfo } });
    // A profiler db's timeline: the same file as its ProfilerDb entry, planned a second time (deferred).
    t.push_back({ .kind = F::ProfilerDbTimeline, .name = "profiler_db_timeline", .family = Fam::ProfilerDb,
        .format = Fmt::Sqlite, .deferred = kTimelineGroup, .importer = &DbTimelineImporter::run, .importOrder = 3,
        .fuzz = { .target = "profiler_db_timeline", .fileName = "ascend_pytorch_profiler_0.db", .seeds = kDbSeeds } });
    t.push_back({ .kind = F::MsParallelStrategy, .name = "parallel_strategy", .family = Fam::MindSpore,
        .format = Fmt::Json, .numbered = { { "parallel_strategy_", ".json" } }, .facts = true,
        .importer = &MsParallelStrategyImporter::run,
        .fuzz = { .target = "ms_parallel_strategy", .fileName = "parallel_strategy_0.json",
            .seeds = "parallel_strategy_*.json" } });
    t.push_back({ .kind = F::OpSummary, .name = "op_summary", .family = Fam::Cann, .format = Fmt::Csv,
        .dataName = "kernels", .matches = &opSummaryName, .deferred = kKernelsGroup,
        .importer = &KernelDetailsImporter::run, // the same importer, CANN's column names
        .fuzz = { .target = "op_summary", .fileName = "op_summary_0.csv", .seeds = "op_summary_*.csv" } });
    // rank_<id>.nprank: recognised by Detector (importedRankOf), merged as a model by the loader.
    t.push_back({ .kind = F::ImportedRank, .name = "imported_rank", .family = Fam::Npuscope, .format = Fmt::Sqlite,
        .noImporter = "a model written by npuscope-cli import: merged as it is (load::RankImport), never parsed",
        .fuzz = { .target = "imported_rank", .fileName = "rank_0.nprank", .seeds = "*.nprank", .viaLoad = true } });
    // PyTorch (Kineto) traces: found by content by Detector, one file per rank.
    t.push_back({ .kind = F::KinetoTrace, .name = "kineto_trace", .family = Fam::Kineto, .format = Fmt::Json,
        .importer = &KinetoTraceImporter::run, .importOrder = 3, .memoryWeight = 3.0,
        .fuzz = { .target = "kineto_trace", .fileName = "rank0.pt.trace.json",
            .seeds = "*.pt.trace.json *.pt.trace.json.gz" } });
    // MindSpore data pipeline (minddata) files: a few KB each, read with the summary of every rank.
    t.push_back({ .kind = F::MsPipelineRaw, .name = "minddata_pipeline_raw", .family = Fam::MindSpore,
        .format = Fmt::Csv, .dataName = "data pipeline", .numbered = { { "minddata_pipeline_raw_", ".csv" } },
        .importer = &MindDataImporter::runPipelineRaw,
        .fuzz = { .target = "ms_pipeline_raw", .fileName = "minddata_pipeline_raw_0.csv",
            .seeds = "minddata_pipeline_raw_*.csv" } });
    t.push_back({ .kind = F::MsPipelineProfiling, .name = "pipeline_profiling", .family = Fam::MindSpore,
        .format = Fmt::Json, .dataName = "data pipeline", .numbered = { { "pipeline_profiling_", ".json" } },
        .importer = &MindDataImporter::runPipelineProfiling,
        .fuzz = { .target = "ms_pipeline_profiling", .fileName = "pipeline_profiling_0.json",
            .seeds = "pipeline_profiling_*.json" } });
    t.push_back({ .kind = F::MsMinddataCpu, .name = "minddata_cpu_utilization", .family = Fam::MindSpore,
        .format = Fmt::Json, .dataName = "data pipeline CPU use",
        .numbered = { { "minddata_cpu_utilization_", ".json" } }, .importer = &MindDataImporter::runCpuUtilization,
        .fuzz = { .target = "ms_minddata_cpu", .fileName = "minddata_cpu_utilization_0.json",
            .seeds = "minddata_cpu_utilization_*.json" } });
    t.push_back({ .kind = F::MsDeviceQueue, .name = "device_queue_profiling", .family = Fam::MindSpore,
        .format = Fmt::Other, .dataName = "device queue", .numbered = { { "device_queue_profiling_", ".txt" } },
        .importer = &MindDataImporter::runDeviceQueue,
        .fuzz = { .target = "ms_device_queue", .fileName = "device_queue_profiling_0.txt",
            .seeds = "device_queue_profiling_*.txt" } });
    // MindSpore memory files: the summary is a few hundred bytes; the details hold every node's live tensors
    // ("breakdowns"), dropped while parsing (the DOM of the rest is about the text's size).
    t.push_back({ .kind = F::MsMemorySummary, .name = "memory_usage_summary", .family = Fam::MindSpore,
        .format = Fmt::Json, .dataName = "memory summary", .numbered = { { "memory_usage_summary_", ".json" } },
        .importer = &MindSporeMemoryImporter::runSummary,
        .fuzz = { .target = "ms_memory_summary", .fileName = "memory_usage_summary_0.json",
            .seeds = "memory_usage_summary_*.json" } });
    t.push_back({ .kind = F::MsMemoryDetails, .name = "memory_usage_details", .family = Fam::MindSpore,
        .format = Fmt::Json, .dataName = "memory per node", .numbered = { { "memory_usage_details_", ".json" } },
        .importer = &MindSporeMemoryImporter::runDetails, .memoryWeight = 2.0,
        .fuzz = { .target = "ms_memory_details", .fileName = "memory_usage_details_0.json",
            .seeds = "memory_usage_details_*.json" } });
    return t;
}

// Fixed slots, filled once each: a reader takes the count, then reads slots below it, which never change again.
constexpr size_t kCapacity = 96;

struct Table {
    std::array<FileKindSpec, kCapacity> slots;
    std::atomic<size_t> count { 0 };
    std::mutex adding;

    Table()
    {
        auto specs = builtIns();
        for (size_t i = 0; i < specs.size(); ++i)
            slots[i] = std::move(specs[i]);
        count.store(specs.size(), std::memory_order_release);
    }
};

Table& table()
{
    static Table t;
    return t;
}

} // namespace

std::span<const FileKindSpec> FileKinds::all()
{
    auto& t = table();
    return { t.slots.data(), t.count.load(std::memory_order_acquire) };
}

const FileKindSpec* FileKinds::find(FileKind kind)
{
    for (const auto& spec : all()) {
        if (spec.kind == kind)
            return &spec;
    }
    return nullptr;
}

const FileKindSpec* FileKinds::byName(std::string_view name)
{
    for (const auto& spec : all()) {
        if (name == spec.name)
            return &spec;
    }
    return nullptr;
}

bool FileKinds::recognises(const FileKindSpec& spec, std::string_view fileName)
{
    for (const char* n : spec.names) {
        if (fileName == n)
            return true;
    }
    for (const auto& [prefix, suffix] : spec.numbered) {
        const std::string_view p(prefix), s(suffix);
        if (fileName.size() > p.size() + s.size() && fileName.starts_with(p) && fileName.ends_with(s)
            && isDigits(fileName.substr(p.size(), fileName.size() - p.size() - s.size())))
            return true;
    }
    return spec.matches && spec.matches(fileName);
}

const FileKindSpec* FileKinds::ofFileName(std::string_view fileName)
{
    for (const auto& spec : all()) {
        if (recognises(spec, fileName))
            return &spec;
    }
    return nullptr;
}

void FileKinds::add(FileKindSpec spec)
{
    auto& t = table();
    std::lock_guard lock(t.adding);
    if (find(spec.kind) || byName(spec.name))
        throw std::invalid_argument(std::string("file kind added twice: ") + spec.name);
    const size_t n = t.count.load(std::memory_order_relaxed);
    if (n >= kCapacity)
        throw std::length_error("too many file kinds");
    t.slots[n] = std::move(spec);
    t.count.store(n + 1, std::memory_order_release);
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/detect/LoadPlan.h"

#include <array>
#include <string_view>
#include <tuple>
#include <utility>

namespace npuscope::io {

namespace {
constexpr std::array<std::pair<FileKind, const char*>, 32> kNames { {
    { FileKind::ProfilerInfo, "profiler_info" },
    { FileKind::ProfilerMetadata, "profiler_metadata" },
    { FileKind::StepTraceTime, "step_trace_time" },
    { FileKind::KernelDetails, "kernel_details" },
    { FileKind::OpStatistic, "op_statistic" },
    { FileKind::ApiStatistic, "api_statistic" },
    { FileKind::Communication, "communication" },
    { FileKind::CommunicationMatrix, "communication_matrix" },
    { FileKind::MemoryRecord, "memory_record" },
    { FileKind::OperatorMemory, "operator_memory" },
    { FileKind::NpuModuleMem, "npu_module_mem" },
    { FileKind::TraceView, "trace_view" },
    { FileKind::ProfilerDb, "profiler_db" },
    { FileKind::AnalysisDb, "analysis_db" },
    { FileKind::ClusterStepTrace, "cluster_step_trace_time" },
    { FileKind::ClusterCommunication, "cluster_communication" },
    { FileKind::ClusterCommunicationMatrix, "cluster_communication_matrix" },
    { FileKind::ClusterAnalysisDb, "cluster_analysis_db" },
    { FileKind::ClusterCommunicationGroup, "cluster_communication_group" },
    { FileKind::MsStepTraceRaw, "step_trace_raw" },
    { FileKind::MsHcclRaw, "hccl_raw" },
    { FileKind::MsFlopsSummary, "flops_summary" },
    { FileKind::MsTimelineDisplay, "ms_timeline_display" },
    { FileKind::MiRankTable, "rank_table" },
    { FileKind::CannInfo, "cann_info" },
    { FileKind::CannTimeline, "cann_timeline" },
    { FileKind::CannStepTrace, "cann_step_trace" },
    { FileKind::ProfilerDbTimeline, "profiler_db_timeline" },
    { FileKind::MsParallelStrategy, "parallel_strategy" },
    { FileKind::OpSummary, "op_summary" },
    { FileKind::ImportedRank, "imported_rank" },
    { FileKind::KinetoTrace, "kineto_trace" },
} };
constexpr std::string_view kImportedPrefix = "rank_";
constexpr std::string_view kImportedSuffix = ".nprank";
} // namespace

const char* fileKindName(FileKind kind)
{
    for (const auto& [k, n] : kNames) {
        if (k == kind)
            return n;
    }
    return "unknown";
}

const char* deferredGroupName(DeferredGroup group)
{
    switch (group) {
    case kTimelineGroup:
        return "timeline";
    case kKernelsGroup:
        return "kernels";
    case kMemoryGroup:
        return "memory";
    default:
        return "none";
    }
}

std::string importedRankFileName(int64_t rank)
{
    return std::string(kImportedPrefix) + std::to_string(rank) + std::string(kImportedSuffix);
}

std::optional<int64_t> importedRankOf(const std::string& fileName)
{
    const std::string_view name(fileName);
    if (name.size() <= kImportedPrefix.size() + kImportedSuffix.size() || !name.starts_with(kImportedPrefix)
        || !name.ends_with(kImportedSuffix))
        return std::nullopt;
    const auto digits
        = name.substr(kImportedPrefix.size(), name.size() - kImportedPrefix.size() - kImportedSuffix.size());
    if (digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    return std::stoll(std::string(digits));
}

bool fileKindFromName(const std::string& name, FileKind& kind)
{
    for (const auto& [k, n] : kNames) {
        if (name == n) {
            kind = k;
            return true;
        }
    }
    return false;
}

bool fileKindOf(const std::string& fileName, FileKind& kind)
{
    if (fileName.rfind("profiler_info", 0) == 0 && fileName.size() > 5
        && fileName.compare(fileName.size() - 5, 5, ".json") == 0) {
        kind = FileKind::ProfilerInfo;
        return true;
    }
    // ascend_pytorch_profiler.db or _<rank>.db (msprof-analyze: ^ascend_pytorch_profiler(?:_\d+)?\.db$).
    for (const char* prefix : { "ascend_pytorch_profiler", "ascend_mindspore_profiler" }) {
        const std::string p(prefix);
        if (fileName.size() >= p.size() + 3 && fileName.rfind(p, 0) == 0
            && fileName.compare(fileName.size() - 3, 3, ".db") == 0) {
            const std::string middle = fileName.substr(p.size(), fileName.size() - 3 - p.size());
            if (middle.empty()
                || (middle.size() > 1 && middle[0] == '_'
                    && middle.find_first_not_of("0123456789", 1) == std::string::npos)) {
                kind = FileKind::ProfilerDb;
                return true;
            }
        }
    }
    // CANN msprof db export msprof_<n>.db, and report_<n>.db of its older export (same table style: TASK,
    // COMPUTE_TASK_INFO, COMMUNICATION_OP, STRING_IDS, CANN_API or API).
    for (const std::string prefix : { "msprof_", "report_" }) {
        if (fileName.size() > prefix.size() + 3 && fileName.rfind(prefix, 0) == 0
            && fileName.compare(fileName.size() - 3, 3, ".db") == 0
            && fileName.substr(prefix.size(), fileName.size() - prefix.size() - 3).find_first_not_of("0123456789")
                == std::string::npos) {
            kind = FileKind::ProfilerDb;
            return true;
        }
    }
    // CANN msprof op_summary.csv, op_summary_<n>.csv, op_summary_<dev>_<model>_<iter>.csv (numbers only).
    if (fileName.rfind("op_summary", 0) == 0 && fileName.size() >= 14
        && fileName.compare(fileName.size() - 4, 4, ".csv") == 0) {
        const std::string middle = fileName.substr(10, fileName.size() - 14);
        bool numbers = true;
        for (size_t i = 0; i < middle.size() && numbers; ++i)
            numbers = middle[i] == '_' ? i + 1 < middle.size() && middle[i + 1] != '_'
                                       : i > 0 && middle[i] >= '0' && middle[i] <= '9';
        if (numbers) {
            kind = FileKind::OpSummary;
            return true;
        }
    }
    if (fileName == "analysis.db" || fileName == "communication_analyzer.db") {
        kind = FileKind::AnalysisDb;
        return true;
    }
    // Old MindSpore per-rank files: <prefix><digits><suffix>.
    static const std::array<std::tuple<const char*, const char*, FileKind>, 6> kMsFiles { {
        { "parallel_strategy_", ".json", FileKind::MsParallelStrategy },
        { "step_trace_raw_", "_detail_time.csv", FileKind::MsStepTraceRaw },
        { "hccl_raw_", ".csv", FileKind::MsHcclRaw },
        { "flops_summary_", ".json", FileKind::MsFlopsSummary },
        { "ascend_timeline_display_", ".json", FileKind::MsTimelineDisplay },
        { "timeline_display_", ".json", FileKind::MsTimelineDisplay },
    } };
    for (const auto& [prefix, suffix, k] : kMsFiles) {
        const std::string p(prefix);
        const std::string x(suffix);
        if (fileName.size() > p.size() + x.size() && fileName.rfind(p, 0) == 0
            && fileName.compare(fileName.size() - x.size(), x.size(), x) == 0
            && fileName.substr(p.size(), fileName.size() - p.size() - x.size()).find_first_not_of("0123456789")
                == std::string::npos) {
            kind = k;
            return true;
        }
    }
    static const std::array<std::pair<const char*, FileKind>, 5> kClusterFiles { {
        { "cluster_step_trace_time.csv", FileKind::ClusterStepTrace },
        { "cluster_communication.json", FileKind::ClusterCommunication },
        { "cluster_communication_matrix.json", FileKind::ClusterCommunicationMatrix },
        { "cluster_analysis.db", FileKind::ClusterAnalysisDb },
        { "communication_group.json", FileKind::ClusterCommunicationGroup },
    } };
    for (const auto& [n, k] : kClusterFiles) {
        if (fileName == n) {
            kind = k;
            return true;
        }
    }
    static const std::array<std::pair<const char*, FileKind>, 11> kFiles { {
        { "profiler_metadata.json", FileKind::ProfilerMetadata },
        { "step_trace_time.csv", FileKind::StepTraceTime },
        { "kernel_details.csv", FileKind::KernelDetails },
        { "op_statistic.csv", FileKind::OpStatistic },
        { "api_statistic.csv", FileKind::ApiStatistic },
        { "communication.json", FileKind::Communication },
        { "communication_matrix.json", FileKind::CommunicationMatrix },
        { "memory_record.csv", FileKind::MemoryRecord },
        { "operator_memory.csv", FileKind::OperatorMemory },
        { "npu_module_mem.csv", FileKind::NpuModuleMem },
        { "trace_view.json", FileKind::TraceView },
    } };
    for (const auto& [n, k] : kFiles) {
        if (fileName == n) {
            kind = k;
            return true;
        }
    }
    return false;
}

uint64_t LoadPlan::totalBytes() const
{
    uint64_t total = 0;
    for (const auto& r : ranks) {
        for (const auto& f : r.files)
            total += f.size;
    }
    return total;
}

const char* LoadPlan::layoutName() const
{
    switch (layout) {
    case Layout::Empty:
        return "empty";
    case Layout::SingleRank:
        return "single rank";
    case Layout::Cluster:
        return "cluster";
    case Layout::Mixed:
        return "mixed";
    }
    return "empty";
}

} // namespace npuscope::io

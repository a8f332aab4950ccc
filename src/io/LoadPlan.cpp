// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/LoadPlan.h"

#include <array>
#include <utility>

namespace npuscope::io {

namespace {
constexpr std::array<std::pair<FileKind, const char*>, 12> kNames { {
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
} };
} // namespace

const char* fileKindName(FileKind kind)
{
    for (const auto& [k, n] : kNames) {
        if (k == kind)
            return n;
    }
    return "unknown";
}

bool fileKindOf(const std::string& fileName, FileKind& kind)
{
    if (fileName.rfind("profiler_info", 0) == 0 && fileName.size() > 5
        && fileName.compare(fileName.size() - 5, 5, ".json") == 0) {
        kind = FileKind::ProfilerInfo;
        return true;
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

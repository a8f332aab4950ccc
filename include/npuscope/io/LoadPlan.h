// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npuscope::io {

// The files npuscope knows how to import.
enum class FileKind {
    ProfilerInfo,
    ProfilerMetadata,
    StepTraceTime,
    KernelDetails,
    OpStatistic,
    ApiStatistic,
    Communication,
    CommunicationMatrix,
    MemoryRecord,
    OperatorMemory,
    NpuModuleMem,
    TraceView,
    ProfilerDb, // ascend_pytorch_profiler[_{rank}].db / ascend_mindspore_profiler[_{rank}].db (SQLite export)
    AnalysisDb, // analysis.db / communication_analyzer.db of a db export (step trace + communication)
};

// Stable name used in rank_file.kind and the summary ("step_trace_time", ...).
const char* fileKindName(FileKind kind);
// Kind of a file by its name inside ASCEND_PROFILER_OUTPUT or the rank folder; false if unknown.
bool fileKindOf(const std::string& fileName, FileKind& kind);
// Large per-rank files no cluster view needs: loaded with a rank's timeline, when it is first
// needed (GUIDE §2: the cluster views come from the small summary files of every rank).
inline bool isDeferredKind(FileKind k) { return k == FileKind::TraceView || k == FileKind::KernelDetails; }

struct PlannedFile {
    FileKind kind;
    std::string path; // absolute
    uint64_t size = 0;
};

struct PlannedRank {
    int64_t rank = 0;
    std::string rankSource; // file_name | rank_id_field | folder_name | default
    std::string path;       // rank folder
    std::vector<PlannedFile> files;
};

struct PlanIssue {
    std::string severity; // error | warning | info
    std::string path;
    std::string message;
};

// What detection found. Nothing is parsed yet except the tiny profiler_info files for rank ids.
struct LoadPlan {
    enum class Layout { Empty, SingleRank, Cluster, Mixed };
    Layout layout = Layout::Empty;
    std::vector<PlannedRank> ranks; // ordered by rank id
    std::vector<PlanIssue> issues;
    std::vector<std::string> inputs; // the paths given

    uint64_t totalBytes() const;
    const char* layoutName() const;
};

} // namespace npuscope::io

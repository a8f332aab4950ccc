// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/IssueText.h"
#include <cstdint>
#include <optional>
#include <set>
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
    ProfilerDb, // ascend_pytorch_profiler[_{rank}].db / ascend_mindspore_profiler[_{rank}].db / CANN msprof_<n>.db and
                // report_<n>.db
    AnalysisDb, // analysis.db / communication_analyzer.db of a db export (step trace + communication)
    // msprof-analyze cluster_analysis_output (summary-only cluster; each file holds every rank):
    ClusterStepTrace, // cluster_step_trace_time.csv
    ClusterCommunication, // cluster_communication.json
    ClusterCommunicationMatrix, // cluster_communication_matrix.json (global link ranks)
    ClusterAnalysisDb, // cluster_analysis.db (db mode of the same)
    ClusterCommunicationGroup, // communication_group.json (group rank sets; pg_name / hash in newer builds)
    // Old MindSpore (<= 2.2) profiler/ folder, one file per rank or device id in a flat folder:
    MsStepTraceRaw, // step_trace_raw_{id}_detail_time.csv (+ the sibling ascend_cluster_analyse_*_{id}.csv)
    MsHcclRaw, // hccl_raw_{id}.csv
    MsFlopsSummary, // flops_summary_{id}.json
    MsTimelineDisplay, // ascend_timeline_display_{id}.json / timeline_display_{id}.json (relative µs X events)
    MiRankTable, // MindInsight <= r1.3 job: the rank table (hccl.json) + host_ips_mapping.txt, planned per rank
    // CANN msprof PROF_*/device_<n>/ folders (2023 layout):
    CannInfo, // info.json.<n> (+ start_info.<n> / end_info.<n> next to it)
    CannTimeline, // timeline/msprof_*.json, step_trace_*.json (CLOCK_MONOTONIC_RAW µs, converted to epoch)
    CannStepTrace, // one timeline/step_trace_*.json per model, read again for the step table (iteration split)
    ProfilerDbTimeline, // the timeline of a ProfilerDb file (same path, planned a second time, deferred)
    MsParallelStrategy, // MindSpore parallel_strategy_{rank}.json (auto-parallel strategy: config facts, node count)
    OpSummary, // CANN msprof op_summary_*.csv (mindstudio_profiler_output/op_summary_{timestamp}.csv, older
               // device_<n>/summary/op_summary_{dev}_{model}_{iter}.csv): the kernel table, as kernel_details.csv
    ImportedRank, // rank_<id>.nprank written by `npuscope-cli import` (load::RankImport): one rank's summary model
    KinetoTrace, // PyTorch profiler (Kineto) GPU trace, *.pt.trace.json[.gz] or any JSON with Kineto's top-level
                 // keys: one file per rank, imported whole at summary time (steps, kernels, collectives, timeline)
    MsOpFlops, // MindSpore flops_{id}.txt: FLOPs per op (old profiler/ folder, beside flops_summary_{id}.json)
    MsFlopsScope, // MindSpore flops_scope_{id}.json: FLOPs per name scope (Sankey links)
    // MindSpore data pipeline (minddata) files, in old profiler/ folders and ASCEND_PROFILER_OUTPUT alike:
    MsPipelineRaw, // minddata_pipeline_raw_{rank}.csv (dataset operators with their output queues)
    MsPipelineProfiling, // pipeline_profiling_{rank}.json (the same operators, raw queue samples)
    MsMinddataCpu, // minddata_cpu_utilization_{rank}.json (host, process and per-operator CPU use)
    MsDeviceQueue, // device_queue_profiling_{rank}.txt (size of the queue feeding the device, per step)
    // MindSpore memory files (old profiler/ folder):
    MsMemorySummary, // memory_usage_summary_{rank}.json (device capacity, peak and static memory, GiB)
    MsMemoryDetails, // memory_usage_details_{rank}.json (memory in use at each node of each graph, GiB)
};

// Stable name used in rank_file.kind and the summary ("step_trace_time", ...).
const char* fileKindName(FileKind kind);
// Reverse of fileKindName; false for an unknown name.
bool fileKindFromName(const std::string& name, FileKind& kind);
// Name of the per-rank model file `npuscope-cli import` writes for a rank: "rank_<id>.nprank".
std::string importedRankFileName(int64_t rank);
// The rank id of such a file name; nullopt for any other name (temporary files of an import under way included).
std::optional<int64_t> importedRankOf(const std::string& fileName);
// Kind of a file by its name inside ASCEND_PROFILER_OUTPUT or the rank folder; false if unknown.
bool fileKindOf(const std::string& fileName, FileKind& kind);
// Large per-rank files no cluster view needs are "deferred": imported per rank when a view needs them (GUIDE §2:
// the cluster views come from the small summary files of every rank), in groups so a view imports only what it
// reads (load::Loader::loadDeferred). Bit flags.
enum DeferredGroup : unsigned {
    kNoGroup = 0,
    kTimelineGroup = 1, // trace_view.json, MindSpore timeline, the db export's timeline
    kKernelsGroup = 2, // kernel_details.csv, op_summary
    kMemoryGroup = 4, // memory_record.csv rows, operator_memory.csv
    kAllGroups = kTimelineGroup | kKernelsGroup | kMemoryGroup,
};
using DeferredGroups = unsigned;

// The group of a kind (its FileKinds entry), kNoGroup for a kind read with the summary.
DeferredGroup deferredGroupOf(FileKind k);
inline bool isDeferredKind(FileKind k) { return deferredGroupOf(k) != kNoGroup; }
// Deferred files the summary still reads, in a cheap pass that writes a few aggregate rows (FileKindSpec::summaryPass:
// memory_record.csv's memory_peak). Their content is part of the summary's cache key.
bool isReadAtSummary(FileKind k);
// "timeline" | "kernels" | "memory" for one group (cache keys, messages).
const char* deferredGroupName(DeferredGroup group);

struct PlannedFile {
    FileKind kind;
    std::string path; // absolute
    uint64_t size = 0;
};

struct PlannedRank {
    int64_t rank = 0;
    std::string rankSource; // file_name | rank_id_field | folder_name | default
    std::string path; // rank folder
    std::vector<PlannedFile> files;
    // Only on the rank carrying a cluster summary's files: summary ranks whose own per-rank folder has its own
    // summary files (step_trace_time, communication, analysis db, ...); the summary's rows of these ranks are skipped.
    std::set<int64_t> summaryReplaced;
};

struct PlanIssue {
    PlanIssue() = default;
    PlanIssue(std::string issueSeverity, std::string issuePath, TrText issueText)
        : severity(std::move(issueSeverity))
        , path(std::move(issuePath))
        , message(issueText.english())
        , text(std::move(issueText))
    {
    }

    std::string severity; // error | warning | info
    std::string path;
    std::string message; // in English, as the CLI prints it (text.english())
    TrText text; // the message as a template marked QT_TRANSLATE_NOOP("ParseIssue", ...) (issueText), for the GUI
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

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/detect/LoadPlan.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::io {

// Classifies a file whose name the name rules (fileKindOf) do not know, from its content, for the Detector.
// Cheap by design: at most the first 16 bytes of any file are read; a file starting with the SQLite header is
// then opened read-only and immutable and only its table list (sqlite_master, PRAGMA table_info) is read; a
// *.json or *.json.gz file is read up to its first kJsonPrefixBytes (decompressed). Nothing is ever written. Called by the Detector's thread.
class FileSniffer {
public:
    static constexpr std::size_t kJsonPrefixBytes = 16 * 1024;

    struct Result {
        FileKind kind;
        std::string why; // "SQLite file with StepTraceTime", "Chrome trace JSON array", ...
        std::optional<int64_t> rank; // KinetoTrace: distributedInfo.rank when the file's header has it
    };

    // The kind of file by content, or nullopt when it is none npuscope imports. A file that starts like SQLite but
    // cannot be read (truncated, damaged) adds a warning naming it to issues and gives nullopt.
    static std::optional<Result> sniff(const std::filesystem::path& file, std::vector<PlanIssue>& issues);

    // True when the file starts with the 16-byte "SQLite format 3\0" header.
    static bool hasSqliteHeader(const std::filesystem::path& file);

    // Distinct StepTraceTime device ids of an analysis db (ascending); empty when the table has no device column,
    // holds no device, or the file cannot be read. StepTraceTime holds one row per step and device, so this
    // stays cheap even for a large db.
    static std::vector<int64_t> analysisDbDevices(const std::string& path);

    // The kinds of text file whose data the db export at path (dbKind ProfilerDb or AnalysisDb) holds, so that the
    // db replaces them: a kind is held when a table its importer reads has at least one row (a table present but
    // empty counts as absent). ProfilerDb: kernel_details / op_summary (TASK with COMPUTE_TASK_INFO, or
    // COMMUNICATION_OP), memory_record (MEMORY_RECORD or NPU_MEM), operator_memory (OP_MEMORY), npu_module_mem
    // (NPU_MODULE_MEM), trace_view (TASK, CANN_API, API, PYTORCH_API, COMMUNICATION_OP or MSTX_EVENTS). AnalysisDb:
    // step_trace_time (StepTraceTime), communication (CommAnalyzerTime), communication_matrix (CommAnalyzerMatrix).
    // Nothing else has a db table (op_statistic, api_statistic). Reads the table list and one row per table checked.
    // An unreadable file adds a warning to issues and holds nothing, so the text files stay.
    static std::vector<FileKind> heldTextKinds(
        const std::string& path, FileKind dbKind, std::vector<PlanIssue>& issues);
};

} // namespace npuscope::io

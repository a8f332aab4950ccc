// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace npuscope::io {

// Which table of a profiler db export a slice came from. Slices of a db export keep their args by reference
// to the row, not as text: slice.args_file_id = the source_file row of the .db, slice.args_offset = the row's
// rowid and slice.args_len = -(the kind below). A negative args_len is what tells a row reference from a byte
// range of a JSON file (args_len >= 2 there).
enum class DbRowKind : int {
    Task = 1, // TASK (+ COMPUTE_TASK_INFO / COMMUNICATION_TASK_INFO / TASK_PMU_INFO by globalTaskId)
    CannApi = 2, // CANN_API, or API in report_N.db
    PytorchApi = 3, // PYTORCH_API (+ PYTORCH_CALLCHAINS)
    CommunicationOp = 4, // COMMUNICATION_OP
    Mstx = 5, // MSTX_EVENTS
};

// Builds the args object of one db row on demand (load::SourceDetails::sliceArgs). Opens the export read-only and
// immutable, like the importers. Thread-safe (no shared state); does file I/O.
class DbSliceArgs {
public:
    static int64_t encodeLength(DbRowKind kind) { return -static_cast<int64_t>(kind); }
    // The kind encoded in a slice.args_len, or nullopt when the value is not a db row reference.
    static std::optional<DbRowKind> decodeLength(int64_t argsLen);

    // The args of row `rowid` of the kind's table as a JSON object text (STRING_IDS / ENUM_* resolved), or
    // nullopt when the file cannot be opened or the row is not there. The caller checks the file's stamp first.
    static std::optional<std::string> read(const std::string& path, DbRowKind kind, int64_t rowid);
};

} // namespace npuscope::io

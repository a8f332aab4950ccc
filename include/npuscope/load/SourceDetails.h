// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/TimelineQuery.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace npuscope::load {

// A slice's args, whichever way the model stores them (slice.args text, or a byte range of the
// input file: see source_file in docs/schema.md).
struct SliceArgs {
    std::optional<std::string> json; // the args object as JSON text; nullopt when absent or unavailable
    std::string error; // set when the slice has args that cannot be read, e.g. kArgsUnavailable
};

// Details the model keeps by reference into the input files (slice args, kernel PMU columns), read back on demand:
// query::SourceRefQuery says where, the io layer reads the bytes. Input files are only read. The caller holds the
// database lock (or owns the database). Does file I/O: worker thread.
class SourceDetails {
public:
    static constexpr const char* kArgsUnavailable = "args unavailable: file changed or missing";

    // The args of one slice. A file that is missing or differs in size or mtime from the import gives error
    // kArgsUnavailable, never other text.
    static SliceArgs sliceArgs(model::Database& db, int64_t sliceId);
    // query::TimelineQuery::details with the args filled in (argsJson, argsError).
    static std::optional<query::SliceDetails> slice(model::Database& db, int64_t sliceId);
    // The PMU / extra columns of a kernel row (kernel.rowid): pmu_json when the row has it (.db exports), else read
    // from the CSV record it points into. nullopt, with the reason in error, when the row has none (every cell N/A,
    // or no extra column), or the file changed or is missing since the import.
    static std::optional<nlohmann::ordered_json> kernelPmu(
        model::Database& db, int64_t kernelRowId, std::string* error = nullptr);
};

} // namespace npuscope::load

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <string>

namespace npuscope::query {

// A part of an input file a model row points into instead of copying it (docs/schema.md, source_file): the file as
// it was at import (size, mtime) and the byte range, or for a db export row the rowid and the row kind.
struct SourceRef {
    std::string path;
    int64_t sizeBytes = 0;
    int64_t mtimeNs = 0;
    int64_t offset = 0; // byte offset, or the rowid of a db export row
    int64_t length = 0; // byte length (>= 2 for a JSON object), or minus the db row kind (io::DbSliceArgs)
};

// Where a slice's args are: inline text in the model, a reference into an input file, or nowhere.
struct SliceArgsRef {
    std::optional<std::string> json; // slice.args, when the model holds the text itself
    std::optional<SourceRef> ref; // else the reference, when the slice has args
    bool brokenRef = false; // args_offset/args_len set but the source_file row is missing
};

// Where a kernel row's PMU / extra columns are: pmu_json in the model (db exports) or a CSV record.
struct KernelPmuRef {
    std::optional<std::string> json; // kernel.pmu_json
    std::optional<SourceRef> ref; // the kernel_details.csv / op_summary record
};

// The model side of reading details back from input files: which file and range. Reading the bytes is the load
// layer's work (load::SourceDetails). The caller holds the database lock; no file I/O here.
class SourceRefQuery {
public:
    // nullopt when there is no such slice.
    static std::optional<SliceArgsRef> sliceArgs(model::Database& db, int64_t sliceId);
    // nullopt when there is no such kernel row (kernel.rowid).
    static std::optional<KernelPmuRef> kernelPmu(model::Database& db, int64_t kernelRowId);
};

} // namespace npuscope::query

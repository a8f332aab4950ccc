// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// Imports memory_record.csv (FORMATS.md §6.7) into memory_record: Timestamp(us) -> epoch ns, sizes in MB.
// Both header generations (2023 lacks Total Active and Stream Ptr -> NULL); empty cells are NULL.
// Required column: Timestamp(us); a row without a valid timestamp is skipped with a warning.
// Streams the file; runs on the thread that owns ctx.writer(). Never throws: problems become parse_issue rows
// with the CSV line, and ctx.finish() is called before returning.
class MemoryRecordImporter {
public:
    // False when nothing could be imported (unreadable, empty, binary, missing required column, cancelled).
    static bool run(ImportContext& ctx);
    // The summary's pass: streams the same file with the same checks (and parse issues) but writes only its
    // memory_peak rows (io::MemoryPeakTracker), a few rows however large the file; the rows come later with the
    // rank's Memory group (load::Loader::loadDeferred).
    static bool runPeaks(ImportContext& ctx);
};

} // namespace npuscope::io

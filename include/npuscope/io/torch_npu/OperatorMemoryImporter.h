// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// Imports operator_memory.csv (FORMATS.md §6.7) into operator_memory: times µs -> epoch ns, durations µs -> ns.
// Both header generations (2023 lacks the Active and Stream Ptr columns -> NULL); empty cells (not freed inside
// the window) are NULL. Required columns: Name, Allocation Time(us); a row without a Name is skipped.
// Streams the file; runs on the thread that owns ctx.writer(). Never throws: problems become parse_issue rows
// with the CSV line, and ctx.finish() is called before returning.
class OperatorMemoryImporter {
public:
    // False when nothing could be imported (unreadable, empty, binary, missing required column, cancelled).
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

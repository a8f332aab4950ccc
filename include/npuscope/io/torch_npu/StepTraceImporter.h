// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// Imports step_trace_time.csv (FORMATS.md §6.6) into step_trace, one row per step, µs converted exactly to ns.
// Header generations: 2023 (no Preparing -> NULL), 2025-01, 2.7.1 (leading Device_id). Required columns: Step,
// Computing. Empty cells (including an empty Step) are NULL; a malformed number is reported and stored as NULL.
// Streams the file; runs on the thread that owns ctx.writer(). Never throws: problems become parse_issue rows
// with the CSV line, and ctx.finish() is called before returning.
class StepTraceImporter {
public:
    // False when nothing could be imported (unreadable, empty, binary, missing required column, cancelled).
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

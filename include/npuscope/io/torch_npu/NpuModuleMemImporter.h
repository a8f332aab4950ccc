// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// Imports npu_module_mem.csv (FORMATS.md §6.7) into npu_module_mem: per CANN module reserved memory over time,
// Timestamp(us) -> epoch ns. Optional leading Device_id. Required column: Timestamp(us); a row without a valid
// timestamp is skipped with a warning.
// Streams the file; runs on the thread that owns ctx.writer(). Never throws: problems become parse_issue rows
// with the CSV line, and ctx.finish() is called before returning.
class NpuModuleMemImporter {
public:
    // False when nothing could be imported (unreadable, empty, binary, missing required column, cancelled).
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

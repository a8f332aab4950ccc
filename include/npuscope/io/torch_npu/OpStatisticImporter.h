// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// Imports op_statistic.csv (FORMATS.md §6.2) into op_statistic: per op type totals, times µs -> ns.
// Optional leading Device_id (2.7.1). Required column: OP Type.
// Streams the file; runs on the thread that owns ctx.writer(). Never throws: problems become parse_issue rows
// with the CSV line, and ctx.finish() is called before returning.
class OpStatisticImporter {
public:
    // False when nothing could be imported (unreadable, empty, binary, missing required column, cancelled).
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

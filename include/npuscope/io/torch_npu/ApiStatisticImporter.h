// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// Imports api_statistic.csv (FORMATS.md §6.3) into api_statistic: host API totals, times µs -> ns, Variance as
// written. Optional leading Device_id, kept as text ("host"). Required column: API Name.
// Streams the file; runs on the thread that owns ctx.writer(). Never throws: problems become parse_issue rows
// with the CSV line, and ctx.finish() is called before returning.
class ApiStatisticImporter {
public:
    // False when nothing could be imported (unreadable, empty, binary, missing required column, cancelled).
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

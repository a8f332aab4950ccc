// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/ImportContext.h"

namespace npuscope::io {

// Imports kernel_details.csv (FORMATS.md §6.1) into kernel, one row per device task. Columns are located by header
// name, so the 2023, early-2024, 2025-01 Level1/2 (46 columns), Level0 (8 columns) and 2.7.1 (Device_id) headers all
// work, and so does the CANN msprof op_summary_*.csv of the same tasks, read under its own column names (Op Name,
// OP Type, Task Type -> accelerator_core, Start Time(us) or Task Start Time(us), Task Duration(us), Task Wait
// Time(us)). Start/duration/wait times become ns; N/A and empty cells are NULL; the literal quotes around Input/Output
// Shapes values are stripped. Every column without a kernel field (formats, Context ID, PMU counters) is kept in
// pmu_json as an object {header: number|string} in header order; N/A cells are left out and pmu_json is NULL when
// nothing is left. Required columns: Name, Start Time(us), Duration(us) (or their op_summary names); a row without a
// valid value in one of them is skipped with a warning naming the line.
// Streams the file; runs on the thread that owns ctx.writer(). Never throws: problems become parse_issue rows
// with the CSV line, and ctx.finish() is called before returning.
class KernelDetailsImporter {
public:
    // False when nothing could be imported (unreadable, empty, binary, missing required column, cancelled).
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

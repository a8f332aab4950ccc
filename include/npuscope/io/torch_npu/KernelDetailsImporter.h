// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/io/parse/SourceFile.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace npuscope::io {

// Imports kernel_details.csv (FORMATS.md §6.1) into kernel, one row per device task. Columns are located by header
// name, so the 2023, early-2024, 2025-01 Level1/2 (46 columns), Level0 (8 columns) and 2.7.1 (Device_id) headers all
// work, and so does the CANN msprof op_summary_*.csv of the same tasks, read under its own column names (Op Name,
// OP Type, Task Type -> accelerator_core, Start Time(us) or Task Start Time(us), Task Duration(us), Task Wait
// Time(us)). Start/duration/wait times become ns; N/A and empty cells are NULL; the literal quotes around Input/Output
// Shapes values are stripped. The columns without a kernel field (formats, Context ID, PMU counters: most of the
// file's bytes) stay in the file: each row keeps its record's byte range (kernel.pmu_file_id / pmu_offset / pmu_len)
// and pmuOfRecord() reads them back as an object {header: number|string} in header order, N/A cells left out. Required
// columns: Name, Start Time(us), Duration(us) (or their op_summary names); a row without a valid value in one of them
// is skipped with a warning naming the line. Streams the file; runs on the thread that owns ctx.writer(). Never throws:
// problems become parse_issue rows with the CSV line, and ctx.finish() is called before returning.
class KernelDetailsImporter {
public:
    // False when nothing could be imported (unreadable, empty, binary, missing required column, cancelled).
    static bool run(ImportContext& ctx);
    // Only the kernel_total rows of the file (schema.sql): one row per Step Id with the kernel count and the FLOPs
    // sums FlopsQuery takes from the kernel table, from the same records with the same checks (a row run() would skip
    // is not counted), reading no other cell. Same parse issues as run().
    static bool runTotals(ImportContext& ctx);
    // Only the step_kernel rows of the file (schema.sql): the kernels whose Step Id is step (every kernel when step
    // is nullopt) with name, type, accelerator core, start and duration, from the same records with the same checks
    // and parse issues as run() (every record is checked, whatever its step).
    static bool runStep(ImportContext& ctx, std::optional<int64_t> step);
    // Only the kernel_sum rows of the file (schema.sql): per Step Id, Name, Type and Accelerator Core the count and
    // Σ Duration of the records run() would import, with the same checks and parse issues.
    static bool runSums(ImportContext& ctx);

    // The PMU / extra columns of one CSV record (the byte range [offset, offset + length) of path, checked against
    // the file's stamp at import) as {header: number|string} in header order, N/A cells left out. nullopt, with the
    // reason in error, when every cell is empty or N/A, or the file changed or is missing since the import.
    // Reads the file only; any thread (load::SourceDetails::kernelPmu finds the range in the model).
    static std::optional<nlohmann::ordered_json> pmuOfRecord(
        const std::string& path, const FileStamp& stamp, int64_t offset, int64_t length, std::string* error = nullptr);
};

} // namespace npuscope::io

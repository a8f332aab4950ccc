// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/MemoryRecordImporter.h"

#include "npuscope/io/parse/CsvImport.h"
#include "npuscope/io/parse/MemoryPeakTracker.h"

#include <string>

namespace npuscope::io {

namespace {

// rows: write every memory_record row; else only the memory_peak rows of the file (same parsing, same skips).
bool importRows(CsvImport& csv, bool rows)
{
    if (!csv.open({ "Timestamp(us)" }))
        return false;

    using Row = model::MemoryRecordRow;
    auto& ctx = csv.context();
    MemoryPeakTracker peaks;
    const bool result = csv.readFields<Row>(
        {
            { { "Component" }, &Row::component },
            { { "Timestamp(us)" }, &Row::ts },
            { { "Total Allocated(MB)" }, &Row::allocatedMb },
            { { "Total Reserved(MB)" }, &Row::reservedMb },
            { { "Total Active(MB)" }, &Row::activeMb }, // absent in 2023 builds -> NULL
            { { "Stream Ptr" }, &Row::streamPtr }, // absent in 2023 builds -> NULL
            { { "Device Type" }, &Row::device },
        },
        [&](const Row& r) {
            if (rows)
                ctx.writer().addMemoryRecord(r);
            else
                peaks.add(r);
        });
    if (!rows)
        peaks.write(ctx.writer(), ctx.rankId());
    return result;
}

} // namespace

bool MemoryRecordImporter::run(ImportContext& ctx)
{
    return CsvImport::run(ctx, [](CsvImport& csv) { return importRows(csv, true); });
}

bool MemoryRecordImporter::runPeaks(ImportContext& ctx)
{
    return CsvImport::run(ctx, [](CsvImport& csv) { return importRows(csv, false); });
}

} // namespace npuscope::io

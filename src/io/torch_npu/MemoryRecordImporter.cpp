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

    const int componentCol = csv.column({ "Component" });
    const int tsCol = csv.column({ "Timestamp(us)" });
    const int allocatedCol = csv.column({ "Total Allocated(MB)" });
    const int reservedCol = csv.column({ "Total Reserved(MB)" });
    const int activeCol = csv.column({ "Total Active(MB)" }); // absent in 2023 builds -> NULL
    const int streamCol = csv.column({ "Stream Ptr" }); // absent in 2023 builds -> NULL
    const int deviceCol = csv.column({ "Device Type" });

    auto& ctx = csv.context();
    MemoryPeakTracker peaks;
    const bool result = csv.readRows<model::MemoryRecordRow>(
        [&](model::MemoryRecordRow& r) {
            r.component = csv.text(componentCol);
            r.ts = csv.usNs(tsCol, true).value_or(0);
            r.allocatedMb = csv.optReal(allocatedCol);
            r.reservedMb = csv.optReal(reservedCol);
            r.activeMb = csv.optReal(activeCol);
            r.streamPtr = csv.text(streamCol);
            r.device = csv.text(deviceCol);
        },
        [&](const model::MemoryRecordRow& r) {
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

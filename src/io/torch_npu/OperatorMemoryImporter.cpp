// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/OperatorMemoryImporter.h"

#include "npuscope/io/parse/CsvImport.h"

#include <string>

namespace npuscope::io {

namespace {

bool importRows(CsvImport& csv)
{
    if (!csv.open({ "Name", "Allocation Time(us)" }))
        return false;

    const int nameCol = csv.column({ "Name" });
    const int sizeCol = csv.column({ "Size(KB)" });
    const int allocCol = csv.column({ "Allocation Time(us)" });
    const int releaseCol = csv.column({ "Release Time(us)" });
    const int activeReleaseCol = csv.column({ "Active Release Time(us)" }); // absent in 2023 builds -> NULL
    const int durCol = csv.column({ "Duration(us)" });
    const int activeDurCol = csv.column({ "Active Duration(us)" }); // absent in 2023 builds -> NULL
    const int allocAllocatedCol = csv.column({ "Allocation Total Allocated(MB)" });
    const int allocReservedCol = csv.column({ "Allocation Total Reserved(MB)" });
    const int allocActiveCol = csv.column({ "Allocation Total Active(MB)" });
    const int releaseAllocatedCol = csv.column({ "Release Total Allocated(MB)" });
    const int releaseReservedCol = csv.column({ "Release Total Reserved(MB)" });
    const int releaseActiveCol = csv.column({ "Release Total Active(MB)" });
    const int streamCol = csv.column({ "Stream Ptr" });
    const int deviceCol = csv.column({ "Device Type" });

    return csv.readRows<model::OperatorMemoryRow>(
        [&](model::OperatorMemoryRow& r) {
            r.name = csv.text(nameCol, true).value_or(std::string());
            r.sizeKb = csv.optReal(sizeCol);
            r.allocTs = csv.usNs(allocCol);
            r.releaseTs = csv.usNs(releaseCol); // empty when not freed inside the window
            r.activeReleaseTs = csv.usNs(activeReleaseCol);
            r.dur = csv.usNs(durCol);
            r.activeDur = csv.usNs(activeDurCol);
            r.allocAllocatedMb = csv.optReal(allocAllocatedCol);
            r.allocReservedMb = csv.optReal(allocReservedCol);
            r.allocActiveMb = csv.optReal(allocActiveCol);
            r.releaseAllocatedMb = csv.optReal(releaseAllocatedCol);
            r.releaseReservedMb = csv.optReal(releaseReservedCol);
            r.releaseActiveMb = csv.optReal(releaseActiveCol);
            r.streamPtr = csv.text(streamCol);
            r.device = csv.text(deviceCol);
        },
        [&](const model::OperatorMemoryRow& r) { csv.context().writer().addOperatorMemory(r); });
}

} // namespace

bool OperatorMemoryImporter::run(ImportContext& ctx) { return CsvImport::run(ctx, importRows); }

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/NpuModuleMemImporter.h"

#include "npuscope/io/parse/CsvImport.h"

#include <string>

namespace npuscope::io {

namespace {

bool importRows(CsvImport& csv)
{
    if (!csv.open({ "Timestamp(us)" }))
        return false;

    const int deviceIdCol = csv.column({ "Device_id", "Device Id", "Device ID" });
    const int componentCol = csv.column({ "Component" });
    const int tsCol = csv.column({ "Timestamp(us)" });
    const int reservedCol = csv.column({ "Total Reserved(MB)" });
    const int deviceCol = csv.column({ "Device" });

    return csv.readRows<model::NpuModuleMemRow>(
        [&](model::NpuModuleMemRow& r) {
            r.deviceId = csv.optInt(deviceIdCol);
            r.component = csv.text(componentCol);
            r.ts = csv.usNs(tsCol, true).value_or(0);
            r.reservedMb = csv.optReal(reservedCol);
            r.device = csv.text(deviceCol);
        },
        [&](const model::NpuModuleMemRow& r) { csv.context().writer().addNpuModuleMem(r); });
}

} // namespace

bool NpuModuleMemImporter::run(ImportContext& ctx) { return CsvImport::run(ctx, importRows); }

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/StepTraceImporter.h"

#include "npuscope/io/parse/CsvImport.h"
#include "npuscope/io/parse/StepTraceColumns.h"

#include <string>

namespace npuscope::io {

namespace {

bool importRows(CsvImport& csv)
{
    if (!csv.open({ "Step", "Computing" }))
        return false;

    const int deviceCol = csv.column({ "Device_id", "Device Id", "Device ID" });
    const StepTraceColumns columns(csv);

    return csv.readRows<model::StepTraceRow>(
        [&](model::StepTraceRow& r) {
            r.deviceId = csv.optInt(deviceCol);
            columns.read(csv, r);
            r.sourceLine = csv.line();
        },
        [&](const model::StepTraceRow& r) { csv.context().writer().addStepTrace(r); });
}

} // namespace

bool StepTraceImporter::run(ImportContext& ctx) { return CsvImport::run(ctx, importRows); }

} // namespace npuscope::io

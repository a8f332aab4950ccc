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

    auto& ctx = csv.context();
    while (csv.next()) {
        model::StepTraceRow r;
        r.rankId = ctx.rankId();
        r.deviceId = csv.optInt(deviceCol);
        columns.read(csv, r);
        r.sourceLine = csv.line();
        if (csv.skipped())
            continue;
        ctx.writer().addStepTrace(r);
        csv.countImported();
    }
    return csv.result();
}

} // namespace

bool StepTraceImporter::run(ImportContext& ctx) { return CsvImport::run(ctx, importRows); }

} // namespace npuscope::io

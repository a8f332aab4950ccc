// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/StepTraceImporter.h"

#include "npuscope/io/parse/CsvImport.h"

#include <string>

namespace npuscope::io {

namespace {

bool importRows(CsvImport& csv)
{
    if (!csv.open({ "Step", "Computing" }))
        return false;

    const int deviceCol = csv.column({ "Device_id", "Device Id", "Device ID" });
    const int stepCol = csv.column({ "Step" });
    const int computingCol = csv.column({ "Computing" });
    const int notOverlappedCol = csv.column({ "Communication(Not Overlapped)" });
    const int overlappedCol = csv.column({ "Overlapped" });
    const int communicationCol = csv.column({ "Communication" });
    const int freeCol = csv.column({ "Free" });
    const int stageCol = csv.column({ "Stage" });
    const int bubbleCol = csv.column({ "Bubble" });
    const int excludeReceiveCol = csv.column({ "Communication(Not Overlapped and Exclude Receive)" });
    const int preparingCol = csv.column({ "Preparing" }); // absent before 2024 -> NULL

    auto& ctx = csv.context();
    while (csv.next()) {
        model::StepTraceRow r;
        r.rankId = ctx.rankId();
        r.deviceId = csv.optInt(deviceCol);
        r.step = csv.optInt(stepCol);
        r.computing = csv.usNs(computingCol);
        r.communicationNotOverlapped = csv.usNs(notOverlappedCol);
        r.overlapped = csv.usNs(overlappedCol);
        r.communication = csv.usNs(communicationCol);
        r.free = csv.usNs(freeCol);
        r.stage = csv.usNs(stageCol);
        r.bubble = csv.usNs(bubbleCol);
        r.communicationNotOverlappedExcludeReceive = csv.usNs(excludeReceiveCol);
        r.preparing = csv.usNs(preparingCol);
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

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/OpStatisticImporter.h"

#include "npuscope/io/parse/CsvImport.h"

#include <string>

namespace npuscope::io {

namespace {

bool importRows(CsvImport& csv)
{
    if (!csv.open({ "OP Type" }))
        return false;

    const int deviceCol = csv.column({ "Device_id", "Device Id", "Device ID" });
    const int opTypeCol = csv.column({ "OP Type" });
    const int coreTypeCol = csv.column({ "Core Type" });
    const int countCol = csv.column({ "Count" });
    const int totalCol = csv.column({ "Total Time(us)" });
    const int minCol = csv.column({ "Min Time(us)" });
    const int avgCol = csv.column({ "Avg Time(us)" });
    const int maxCol = csv.column({ "Max Time(us)" });
    const int ratioCol = csv.column({ "Ratio(%)" });

    return csv.readRows<model::OpStatisticRow>(
        [&](model::OpStatisticRow& r) {
            r.deviceId = csv.optInt(deviceCol);
            r.opType = csv.text(opTypeCol, true).value_or(std::string());
            r.coreType = csv.text(coreTypeCol);
            r.count = csv.optInt(countCol);
            r.totalNs = csv.usNs(totalCol);
            r.minNs = csv.usNs(minCol);
            r.avgNs = csv.usNs(avgCol);
            r.maxNs = csv.usNs(maxCol);
            r.ratioPct = csv.optReal(ratioCol);
        },
        [&](const model::OpStatisticRow& r) { csv.context().writer().addOpStatistic(r); });
}

} // namespace

bool OpStatisticImporter::run(ImportContext& ctx) { return CsvImport::run(ctx, importRows); }

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/ApiStatisticImporter.h"

#include "npuscope/io/parse/CsvImport.h"

#include <string>

namespace npuscope::io {

namespace {

bool importRows(CsvImport& csv)
{
    if (!csv.open({ "API Name" }))
        return false;

    const int deviceCol = csv.column({ "Device_id", "Device Id", "Device ID" }); // text: "host" on the host side
    const int levelCol = csv.column({ "Level" });
    const int nameCol = csv.column({ "API Name" });
    const int timeCol = csv.column({ "Time(us)" });
    const int countCol = csv.column({ "Count" });
    const int avgCol = csv.column({ "Avg(us)" });
    const int minCol = csv.column({ "Min(us)" });
    const int maxCol = csv.column({ "Max(us)" });
    const int varianceCol = csv.column({ "Variance" });

    return csv.readRows<model::ApiStatisticRow>(
        [&](model::ApiStatisticRow& r) {
            r.deviceId = csv.text(deviceCol);
            r.level = csv.text(levelCol);
            r.apiName = csv.text(nameCol, true).value_or(std::string());
            r.totalNs = csv.usNs(timeCol);
            r.count = csv.optInt(countCol);
            r.avgNs = csv.usNs(avgCol);
            r.minNs = csv.usNs(minCol);
            r.maxNs = csv.usNs(maxCol);
            r.variance = csv.optReal(varianceCol);
        },
        [&](const model::ApiStatisticRow& r) { csv.context().writer().addApiStatistic(r); });
}

} // namespace

bool ApiStatisticImporter::run(ImportContext& ctx) { return CsvImport::run(ctx, importRows); }

} // namespace npuscope::io

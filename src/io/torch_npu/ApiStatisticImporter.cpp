// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/ApiStatisticImporter.h"

#include "npuscope/io/parse/CsvImport.h"

namespace npuscope::io {

bool ApiStatisticImporter::run(ImportContext& ctx)
{
    using Row = model::ApiStatisticRow;
    using Field = CsvField<Row>;
    return CsvImport::runFields<Row>(ctx, { "API Name" },
        {
            { { "Device_id", "Device Id", "Device ID" }, &Row::deviceId }, // text: "host" on the host side
            { { "Level" }, &Row::level },
            { { "API Name" }, &Row::apiName },
            { { "Time(us)" }, &Row::totalNs, Field::Us },
            { { "Count" }, &Row::count },
            { { "Avg(us)" }, &Row::avgNs, Field::Us },
            { { "Min(us)" }, &Row::minNs, Field::Us },
            { { "Max(us)" }, &Row::maxNs, Field::Us },
            { { "Variance" }, &Row::variance },
        },
        [&ctx](const Row& r) { ctx.writer().addApiStatistic(r); });
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/OpStatisticImporter.h"

#include "npuscope/io/parse/CsvImport.h"

namespace npuscope::io {

bool OpStatisticImporter::run(ImportContext& ctx)
{
    using Row = model::OpStatisticRow;
    using Field = CsvField<Row>;
    return CsvImport::runFields<Row>(ctx, { "OP Type" },
        {
            { { "Device_id", "Device Id", "Device ID" }, &Row::deviceId },
            { { "OP Type" }, &Row::opType },
            { { "Core Type" }, &Row::coreType },
            { { "Count" }, &Row::count },
            { { "Total Time(us)" }, &Row::totalNs, Field::Us },
            { { "Min Time(us)" }, &Row::minNs, Field::Us },
            { { "Avg Time(us)" }, &Row::avgNs, Field::Us },
            { { "Max Time(us)" }, &Row::maxNs, Field::Us },
            { { "Ratio(%)" }, &Row::ratioPct },
        },
        [&ctx](const Row& r) { ctx.writer().addOpStatistic(r); });
}

} // namespace npuscope::io

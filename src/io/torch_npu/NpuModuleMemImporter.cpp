// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/NpuModuleMemImporter.h"

#include "npuscope/io/parse/CsvImport.h"

namespace npuscope::io {

bool NpuModuleMemImporter::run(ImportContext& ctx)
{
    using Row = model::NpuModuleMemRow;
    return CsvImport::runFields<Row>(ctx, { "Timestamp(us)" },
        {
            { { "Device_id", "Device Id", "Device ID" }, &Row::deviceId },
            { { "Component" }, &Row::component },
            { { "Timestamp(us)" }, &Row::ts },
            { { "Total Reserved(MB)" }, &Row::reservedMb },
            { { "Device" }, &Row::device },
        },
        [&ctx](const Row& r) { ctx.writer().addNpuModuleMem(r); });
}

} // namespace npuscope::io

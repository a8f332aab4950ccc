// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/OperatorMemoryImporter.h"

#include "npuscope/io/parse/CsvImport.h"

namespace npuscope::io {

bool OperatorMemoryImporter::run(ImportContext& ctx)
{
    using Row = model::OperatorMemoryRow;
    using Field = CsvField<Row>;
    return CsvImport::runFields<Row>(ctx, { "Name", "Allocation Time(us)" },
        {
            { { "Name" }, &Row::name },
            { { "Size(KB)" }, &Row::sizeKb },
            { { "Allocation Time(us)" }, &Row::allocTs, Field::Us },
            { { "Release Time(us)" }, &Row::releaseTs, Field::Us }, // empty when not freed inside the window
            { { "Active Release Time(us)" }, &Row::activeReleaseTs, Field::Us }, // absent in 2023 builds -> NULL
            { { "Duration(us)" }, &Row::dur, Field::Us },
            { { "Active Duration(us)" }, &Row::activeDur, Field::Us }, // absent in 2023 builds -> NULL
            { { "Allocation Total Allocated(MB)" }, &Row::allocAllocatedMb },
            { { "Allocation Total Reserved(MB)" }, &Row::allocReservedMb },
            { { "Allocation Total Active(MB)" }, &Row::allocActiveMb },
            { { "Release Total Allocated(MB)" }, &Row::releaseAllocatedMb },
            { { "Release Total Reserved(MB)" }, &Row::releaseReservedMb },
            { { "Release Total Active(MB)" }, &Row::releaseActiveMb },
            { { "Stream Ptr" }, &Row::streamPtr },
            { { "Device Type" }, &Row::device },
        },
        [&ctx](const Row& r) { ctx.writer().addOperatorMemory(r); });
}

} // namespace npuscope::io

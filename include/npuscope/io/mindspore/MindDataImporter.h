// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// The MindSpore data pipeline (minddata) profiling files of one rank (docs/schema.md, pipeline_op / pipeline_cpu /
// pipeline_queue). Small files (KB), read whole at summary time. Bad input (a truncated or malformed CSV record, a
// missing column, a non-numeric value, broken JSON, a short line) becomes a parse issue naming the file and, where
// known, the line; the rest of the file and of the job still loads. The importer's thread only.
//  - minddata_pipeline_raw_{rank}.csv (op_id, op_type, num_workers, output_queue_size, output_queue_average_size,
//    output_queue_length, output_queue_usage_rate, sample_interval, parent_id, children_id) -> pipeline_op
//  - pipeline_profiling_{rank}.json ({"sampling_interval", "op_info": [{op_id, op_type, num_workers,
//    metrics: {output_queue: {size: [...], length}} | null, children: [...] | null}]}) -> pipeline_op
//  - minddata_cpu_utilization_{rank}.json ({"sampling_interval", "cpu_processor_num", "device_info": {series},
//    "process_info": {series}, "op_info": [{"op_id", "metrics": {series}}]}) -> pipeline_cpu
//  - device_queue_profiling_{rank}.txt ("1 <capacity> <step> <size> <time>" queue samples; "0 ..." time lines are
//    skipped) -> pipeline_queue
class MindDataImporter {
public:
    static bool runPipelineRaw(ImportContext& ctx);
    static bool runPipelineProfiling(ImportContext& ctx);
    static bool runCpuUtilization(ImportContext& ctx);
    static bool runDeviceQueue(ImportContext& ctx);
};

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// ascend_pytorch_profiler_{rank}.db / ascend_mindspore_profiler_{rank}.db (read-only): the rank's device
// (RANK_DEVICE_MAP), host name (HOST_INFO), META_DATA (ENV_VARIABLES, parallel_group_info, distributed_args, as
// profiler_metadata.json gives them), and the kernel table as kernel_details.csv would give it: TASK joined with
// COMPUTE_TASK_INFO (STRING_IDS resolved, TASK_PMU_INFO into pmu_json) plus one HCCL row per COMMUNICATION_OP;
// the step comes from STEP_TIME. The memory files as the text export writes them: MEMORY_RECORD (+ the NPU_MEM
// "app" samples) -> memory_record, OP_MEMORY -> operator_memory, NPU_MODULE_MEM -> npu_module_mem, bytes turned into
// the CSVs' KB / MB (1024-based). Columns are located with PRAGMA table_info (names drift between versions).
class ProfilerDbImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// The timeline of a profiler db export (ascend_pytorch_profiler_{rank}.db, msprof_N.db, report_N.db), deferred like
// trace_view.json and named like it: TASK rows on "Ascend Hardware" (a thread per stream, named from
// COMPUTE_TASK_INFO, else the task type), CANN_API / API rows on "CANN", PYTORCH_API rows on "Python",
// COMMUNICATION_OP and the communication tasks on "HCCL" (group and plane threads), OVERLAP_ANALYSIS, MSTX_EVENTS,
// the hardware and memory counter tables, and flows by connection id (HostToDevice, async_npu, async_task_queue,
// fwdbwd). Slice args point at their row (DbSliceArgs). Columns are located with PRAGMA table_info; missing tables
// and columns are skipped.
class DbTimelineImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

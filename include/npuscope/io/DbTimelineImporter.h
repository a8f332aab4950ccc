// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/ImportContext.h"

namespace npuscope::io {

// The timeline of a profiler db export (ascend_pytorch_profiler_{rank}.db, msprof_*.db), deferred like
// trace_view.json: TASK rows as slices of an "Ascend Hardware" process (one thread per stream, named from
// COMPUTE_TASK_INFO via globalTaskId, else the task type), CANN_API rows on a "CANN" process, PYTORCH_API rows on a
// "Python" process, and HostToDevice flows between a CANN_API and a TASK row that share a connectionId. Columns are
// located with PRAGMA table_info; missing tables are skipped.
class DbTimelineImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

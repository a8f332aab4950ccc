// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/ImportContext.h"

namespace npuscope::io {

// Old MindSpore (<= 2.2) step_trace_raw_{id}_detail_time.csv: one step_trace row per step with total,
// iteration_interval, fp_and_bp and tail (10 ns syscnt ticks -> ns). The "-" average row is not a step: its values
// go to rank_info step_trace_raw.average.* (ns); the "0,0,..." rows of hand-made fixtures are skipped.
// The per-op / parallel-stream column triples (both column orders) go to step_trace_op (x 10 ns; their start/end are
// device syscnt times, not epoch). The sibling ascend_cluster_analyse_{mode}_{stage}_{size}_{id}.csv, when present,
// fills the breakdown columns of the same rows (row i = step i, ms): computation -> Computing,
// communication_alone_time -> Communication(Not Overlapped), stage_time -> Stage, receive_alone_time -> Bubble,
// collective_communication_(alone_)time -> Communication(Not Overlapped and Exclude Receive).
class MindSporeStepTraceImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

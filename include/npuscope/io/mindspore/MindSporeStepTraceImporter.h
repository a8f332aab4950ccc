// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

#include <optional>
#include <string>
#include <vector>

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

    // One step of a step_trace_raw file as spans on the device syscnt clock (ticks x 10 ns), for drawing the
    // steps on a timeline that is on the same clock. Unset points were empty or not numbers in the file.
    struct StepSpans {
        int64_t step = 0;
        std::optional<int64_t> start, end, fp, bp; // start_point, end_point, fp_point, bp_point
        struct Op {
            std::string name; // the triple's column name, e.g. stream_48_0_Receive-op663
            std::optional<int64_t> streamId;
            std::optional<int64_t> start, end;
        };
        std::vector<Op> ops;
    };
    // Reads the steps of a step_trace_raw_{id}_detail_time.csv without a model (the "-" and "0" rows are not
    // steps). Returns false and sets error when the file cannot be read or lacks step_num/start_point/end_point.
    static bool readSpans(const std::string& path, std::vector<StepSpans>& out, std::string& error);
};

} // namespace npuscope::io

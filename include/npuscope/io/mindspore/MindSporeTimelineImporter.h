// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// Old MindSpore / MindInsight timeline display files (FORMATS.md §11): ascend_timeline_display_{id}.json and
// timeline_display_{id}.json, a bare array of ph "X" events whose ts / dur are float µs relative to the first task
// (the first event has ts 0.0), tid a stream id (string or int), pid 1 (device tasks) or 9000 (AI CPU data queue
// tasks), and no metadata events. Streamed through TraceViewImporter into the slice tables; processes and streams
// get names ("Device", "AI CPU", "Stream <tid>").
//
// These files carry no epoch anchor. When min_cycle_counter_{id}.txt lies next to the file (the syscnt tick of the
// first task, 10 ns ticks), the slices are placed on the device system counter clock (ns = tick x 10 + ts), the
// clock step_trace_raw_{id}_detail_time.csv is written in: its steps are then drawn as a "Step Trace" process
// (ProfilerStep#N with Iteration interval / FP+BP / Tail, and one row per stream of the per-op columns), so step
// selection and "align on step" work. Without the counter the slices keep their relative times (0 = the first task).
// Either way an info parse_issue says which clock the rank's timeline is on.
//
// Same threading and transaction rules as TraceViewImporter::run.
class MindSporeTimelineImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/ImportContext.h"

namespace npuscope::io {

// Old MindSpore / MindInsight timeline display files (FORMATS.md §11): ascend_timeline_display_{id}.json and
// timeline_display_{id}.json, a bare array of ph "X" events whose ts / dur are float µs relative to the first task
// (the first event has ts 0.0), tid a stream id (string or int), pid 1 (device tasks) or 9000 (AI CPU data queue
// tasks), and no metadata events. Streamed through TraceViewImporter into the slice tables; processes and streams
// get names ("Device", "AI CPU", "Stream <tid>").
//
// These files carry no epoch anchor and the rank's other old MindSpore files give none either (step_trace_raw is
// in device syscnt ticks, the old profiler_info has no start time), so the slices keep their relative times
// (0 = the first task) and an info parse_issue says so.
//
// Same threading and transaction rules as TraceViewImporter::run.
class MindSporeTimelineImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

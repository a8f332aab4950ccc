// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/io/detect/LoadPlan.h"

#include <filesystem>
#include <vector>

namespace npuscope::io {

// CANN msprof PROF_*/device_<n>/ folders (FORMATS.md §1.6, §11; 2023 layout).
//  - runInfo(info.json.<n>): rank.device_id (devices), rank.host (hostname), rank.collection_end_ns (end_info.<n>
//    collectionTimeEnd), rank_info cann.* (start/end, clock, hwts frequency, core counts). MAC/net card fields are
//    not kept.
//  - runTimeline(timeline/*.json): bare arrays of trace events whose ts are µs of CLOCK_MONOTONIC_RAW; converted to
//    epoch ns with start_info.<n>: epoch_ns = ts_us * 1000 - clockMonotonicRaw_ns + collectionTimeBegin_us * 1000.
//    X events -> slice (depth per track within the file), M process/thread names and sort indexes -> process /
//    thread. Flow and counter events are not imported.
class CannProfImporter {
public:
    static bool runInfo(ImportContext& ctx);
    static bool runTimeline(ImportContext& ctx);
    // runStepTrace(timeline/step_trace_{dev}_{model}_{n}.json): the "Iteration <N>" events as old-generation
    // step_trace rows (docs/metrics.md): total = Iteration Time(ns), fp_bp = FP_BP Time(ns), tail = Iteration
    // Refresh(ns) (BP end -> iteration end), iteration interval = total - fp_bp - tail (iteration start -> FP start).
    // Every step_trace_*_<n>.json of a model repeats all iterations, so the Detector plans one file per model.
    static bool runStepTrace(ImportContext& ctx);

    // The device folders of a PROF_* folder, planned as ranks (rank_id of info.json, else the device id). Empty when
    // dir is not a PROF_* folder with device_<n> children. Read-only; the Detector's thread.
    static bool isProfDir(const std::filesystem::path& dir);
    static std::vector<PlannedRank> planRanks(const std::filesystem::path& dir);
};

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/detect/LoadPlan.h"

#include <filesystem>
#include <vector>

namespace npuscope::io {

// Detection of the old MindSpore / MindInsight layouts (FORMATS.md §1.4, §1.5). Read-only; the Detector's thread.
//  - a flat profiler/ folder: every rank's files side by side, named with the rank (or device) id:
//    step_trace_raw_{id}_detail_time.csv, hccl_raw_{id}.csv, flops_summary_{id}.json, flops_{id}.txt,
//    flops_scope_{id}.json, profiler_info_{id}.json;
//  - a MindInsight <= r1.3 cluster job: <run>/cluster_profiler/<host mapping id>/profiler/ flat folders whose ids
//    are device ids, a rank table (hccl.json, else the first *.json in <run>) and host_ips_mapping.txt; the rank
//    is looked up as (host mapping id, device id) in the rank table.
class MindSporeLayout {
public:
    static bool isFlatProfilerDir(const std::filesystem::path& dir);
    // One planned rank per id found in the file names (rank source "file_name").
    static std::vector<PlannedRank> flatRanks(const std::filesystem::path& dir);

    static bool isClusterJob(const std::filesystem::path& dir);
    // Planned ranks of the job (rank source "rank_table"); problems are added to issues without any host IP.
    static std::vector<PlannedRank> jobRanks(const std::filesystem::path& dir, std::vector<PlanIssue>& issues);
};

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/detect/LoadPlan.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npuscope::io {

// An msprof-analyze cluster_analysis_output folder found by the Detector: a summary-only cluster (text files
// cluster_step_trace_time.csv / cluster_communication.json / cluster_communication_matrix.json /
// communication_group.json, or cluster_analysis.db). Its ranks are read from the small files themselves (step trace
// Index column, communication_group.json rank sets, the db's rank columns). A folder with only
// communication_group.json is a cluster of ranks and groups without step or communication data (an info issue says
// so). Read-only; called by the Detector's thread.
struct ClusterSummary {
    std::string path; // the folder
    std::vector<PlannedFile> files; // the files to import (db preferred when both modes are present)
    std::set<int64_t> ranks; // every rank the files name
    std::vector<PlanIssue> issues; // what was noticed while probing
    bool hadRankFiles = false; // per-rank exports were found next to it (set by the Detector)

    // The summary in dir, or nullopt when dir holds none of the cluster files.
    static std::optional<ClusterSummary> probe(const std::filesystem::path& dir);
    // True for the file names probe() looks for.
    static bool isClusterFileName(const std::string& fileName);
    // Adds the ranks a cluster_analysis.db names (ClusterStepTraceTime Type=rank rows, CommunicationGroup rank_set,
    // ClusterCommAnalyzerTime rank_id) to out; a read error becomes an issue naming the file.
    static void ranksOfDb(const std::filesystem::path& file, std::set<int64_t>& out, std::vector<PlanIssue>& issues);
};

} // namespace npuscope::io

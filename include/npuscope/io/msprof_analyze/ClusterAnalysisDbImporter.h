// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// msprof-analyze cluster_analysis.db (db mode of cluster_analysis_output, read-only): ClusterStepTraceTime rows of
// type "rank" -> step_trace (rank = index), ClusterCommAnalyzerTime -> comm_op (per rank_id, "Total Op Info"
// rows included, ratios as written), ClusterCommAnalyzerBandwidth -> comm_bandwidth + comm_packet,
// ClusterCommAnalyzerMatrix (global ranks) -> comm_link with rank_id = src, as ClusterAnalysisImporter does;
// ClusterStepTraceTime rows of type "stage" -> cluster_stage_step, CommunicationGroup -> cluster_comm_group.
class ClusterAnalysisDbImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

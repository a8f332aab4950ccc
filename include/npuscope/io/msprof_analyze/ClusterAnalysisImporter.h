// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/model/ClusterSummaryWriter.h"

#include <vector>

namespace npuscope::io {

// msprof-analyze cluster_analysis_output text files: one file holds every rank, so rows carry the rank read from
// the file, not ctx.rankId() (the Detector plans the ranks of a summary-only cluster from the same files).
//  - cluster_step_trace_time.csv: rows of Type "rank" -> step_trace (rank = Index, Step may be empty -> NULL);
//    rows of Type "stage" (Index = the stage's rank tuple, values = max over its ranks) -> cluster_stage_step.
//  - communication_group.json: {"collective": [[ranks]], "p2p": [[ranks]], "comm_group_parallel_info": [{type,
//    rank_set, group_name (hash), group_id (raw id), pg_name}]} -> cluster_comm_group (PostLoad names the groups).
//  - cluster_communication.json: {rank_set|"p2p": {step<N>: {op: {"<rank>": OPINFO}}}} -> comm_op/bandwidth/packet.
//  - cluster_communication_matrix.json: {rank_set|"p2p": {step<N>: {op: {"<src>-<dst>": LINK}}}} with GLOBAL
//    ranks -> comm_link with rank_id = src and local_src/local_dst = the global ranks as written, so each
//    rank's self-link "k-k" maps the group's local k to global k (identity) in PostLoad::resolveGroups.
class ClusterAnalysisImporter {
public:
    static bool runStepTrace(ImportContext& ctx);
    static bool runCommunication(ImportContext& ctx);
    static bool runMatrix(ImportContext& ctx);
    static bool runCommunicationGroup(ImportContext& ctx);

    // Writes links whose src/dst are already global (PostLoad only maps links without src/dst).
    static void writeGlobalLinks(ImportContext& ctx, std::vector<model::CommLinkRow>& links);
    // Numbers the stages (distinct rank sets by lowest rank) and writes them.
    static void writeStages(ImportContext& ctx, std::vector<model::ClusterStageRow>& stages);
    // Writes each distinct group once: rows with a hash once per hash, hashless rows once per (kind, ranks) and only
    // when no hashed row of that kind has the same ranks.
    static void writeCommGroups(ImportContext& ctx, std::vector<model::ClusterCommGroupRow>& groups);
};

} // namespace npuscope::io

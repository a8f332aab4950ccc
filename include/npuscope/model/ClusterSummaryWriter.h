// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/ModelWriter.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npuscope::model {

// A pipeline stage row of cluster_step_trace_time.csv / ClusterStepTraceTime (Type "stage"). Times in ns; nullopt
// is written as NULL. Field meanings: resources/schema.sql cluster_stage_step.
// Only the step_trace_time.csv columns (Computing .. Preparing) are written; the iteration trace ones stay unset.
struct ClusterStageRow : StepDurations {
    OptInt step;
    int64_t stageIndex = 0;
    std::vector<int64_t> ranks; // ascending
    int64_t sourceLine = 0;
};

// One group of communication_group.json / CommunicationGroup (resources/schema.sql cluster_comm_group).
struct ClusterCommGroupRow {
    std::string kind; // collective | p2p
    OptText groupHash, rawName, name;
    std::vector<int64_t> ranks; // ascending
    std::string source; // communication_group.json | cluster_analysis.db
};

// Inserts the msprof-analyze cluster_analysis_output tables that have no per-rank counterpart. Uses the
// ModelWriter's database and transaction; same thread rules as ModelWriter.
class ClusterSummaryWriter {
public:
    explicit ClusterSummaryWriter(ModelWriter& writer);
    ~ClusterSummaryWriter();
    ClusterSummaryWriter(const ClusterSummaryWriter&) = delete;
    ClusterSummaryWriter& operator=(const ClusterSummaryWriter&) = delete;

    void addStage(const ClusterStageRow& r);
    void addCommGroup(const ClusterCommGroupRow& r);

    // "0,1,2" for {0, 1, 2}: the text form of the ranks columns.
    static std::string rankText(const std::vector<int64_t>& ranks);
    // Reverse of rankText; tolerates "(0, 1, 2)" and "[0,1]". Ascending, without duplicates.
    static std::vector<int64_t> parseRanks(const std::string& text);

private:
    struct Statements;
    std::unique_ptr<Statements> m_st;
};

} // namespace npuscope::model

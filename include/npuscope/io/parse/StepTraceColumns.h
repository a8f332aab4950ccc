// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/CsvImport.h"

namespace npuscope::io {

// The columns step_trace_time.csv and cluster_step_trace_time.csv share (Step and the per-step durations in µs),
// found once in the header and read into any row with those fields (model::StepTraceRow, model::ClusterStageRow)
// as exact ns. A column the file lacks reads as NULL. Used by the thread running the importer.
class StepTraceColumns {
public:
    explicit StepTraceColumns(const CsvImport& csv);

    // Fills step and the durations from the current record; a malformed value is reported by csv.
    template <typename Row> void read(CsvImport& csv, Row& row) const
    {
        row.step = csv.optInt(m_step);
        row.computing = csv.usNs(m_computing);
        row.communicationNotOverlapped = csv.usNs(m_notOverlapped);
        row.overlapped = csv.usNs(m_overlapped);
        row.communication = csv.usNs(m_communication);
        row.free = csv.usNs(m_free);
        row.stage = csv.usNs(m_stage);
        row.bubble = csv.usNs(m_bubble);
        row.communicationNotOverlappedExcludeReceive = csv.usNs(m_excludeReceive);
        row.preparing = csv.usNs(m_preparing);
    }

private:
    int m_step;
    int m_computing;
    int m_notOverlapped;
    int m_overlapped;
    int m_communication;
    int m_free;
    int m_stage;
    int m_bubble;
    int m_excludeReceive;
    int m_preparing; // absent before 2024
};

} // namespace npuscope::io

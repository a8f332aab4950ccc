// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/CsvImport.h"
#include "npuscope/model/StepColumns.h"

#include <array>

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
        for (int i = 0; i < model::kStepTraceFileColumnCount; ++i)
            row.*model::kStepColumns[static_cast<size_t>(i)].field = csv.usNs(m_columns[static_cast<size_t>(i)]);
    }

private:
    int m_step;
    // The file's column of each of Computing .. Preparing (model::kStepColumns); Preparing is absent before 2024.
    std::array<int, model::kStepTraceFileColumnCount> m_columns {};
};

} // namespace npuscope::io

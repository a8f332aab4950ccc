// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/query/StepQuery.h"

#include "npuscope/gui/common/RowTableModel.h"

#include <optional>
#include <vector>

namespace npuscope::gui {

// msprof-analyze's pipeline stage rows (cluster_step_trace_time.csv Type "stage"): one row per stage for the selected
// step, or each stage's mean over steps. Each value is the maximum of that column over the stage's ranks, as
// msprof-analyze writes it. GUI thread only; rows come from StepQuery::stages / averagedStages in a worker.
class StageTableModel : public RowTableModel<query::StageBreakdown> {
    Q_OBJECT
public:
    enum Column {
        Stage,
        Ranks,
        Computing,
        CommunicationNotOverlapped,
        Overlapped,
        Communication,
        Free,
        StageTime,
        Bubble,
        Preparing,
        ColumnCount
    };
    enum Role {
        // qlonglong: ns for time columns, the stage number for Stage, the rank count for Ranks; invalid when absent.
        RawValueRole = ValueRole,
    };

    explicit StageTableModel(QObject* parent = nullptr);

    void setRows(std::vector<query::StageBreakdown> rows);
    void clear() { setRows({}); }
    void setUnit(TimeFormat::Unit unit);

    // The StepColumn behind a time column, nullopt for Stage / Ranks.
    static std::optional<query::StepColumn> stepColumn(int column);

    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    TimeFormat::Unit m_unit = TimeFormat::Unit::Milliseconds;
};

} // namespace npuscope::gui

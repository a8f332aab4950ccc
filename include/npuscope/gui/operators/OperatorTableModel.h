// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/query/OperatorQuery.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace npuscope::query {
struct OperatorDiff;
struct RunDiff;
}

namespace npuscope::gui {

// Operator rows of one rank (OperatorQuery::group) or of a baseline rank compared with another
// (OperatorQuery::compare). A plain group row is held as a compare row without a comparison side, so one column set
// serves both: the dock hides Total in compare mode and the compare columns otherwise, and Shapes unless grouped by
// name + shapes, and FLOPs / FLOPS unless a row has them. Times in ns (ValueRole),
// shown in µs. GUI thread only; the rows come from OperatorQuery in a worker.
class OperatorTableModel : public RowTableModel<query::OperatorCompareRow> {
    Q_OBJECT
public:
    enum Column {
        Key,
        Count,
        Total,
        Mean,
        Min,
        Max,
        Wait,
        BlockDim,
        Shapes,
        Accelerator,
        Flops,
        FlopsPerSecond,
        BaseTotal,
        CompareTotal,
        Difference,
        ColumnCount
    };

    explicit OperatorTableModel(QObject* parent = nullptr);

    // Rows of one rank.
    void setRows(const std::vector<query::OperatorRow>& rows);
    // Rows of a comparison (baseline = base.rank, comparison = compareRank).
    void setCompareRows(std::vector<query::OperatorCompareRow> rows);
    bool isCompare() const { return m_compare; }
    // True when some row has FLOPs from a MindSpore FLOPs file (the dock shows the FLOPs columns only then).
    bool hasFlops() const;

    // Compare mode against a baseline run (BaselineComparison): Base / New / Δ / Δ % of the key's ms per rank and step
    // from the run comparison (its op types when grouped by type, its kernel names when grouped by name; not by name +
    // shapes, where the cells say "—"), appended after ColumnCount; nullptr removes them. A model reset.
    void setComparison(std::shared_ptr<const query::RunDiff> diff, query::OperatorGroupBy by);
    // The run comparison's Δ column, -1 without one.
    int runDeltaColumn() const { return m_diff ? ColumnCount + 2 : -1; }

private:
    bool m_compare = false;
    std::vector<RowColumn<query::OperatorCompareRow>> m_ownColumns;
    std::shared_ptr<const query::RunDiff> m_diff;
    query::OperatorGroupBy m_diffBy = query::OperatorGroupBy::Type;
    std::map<std::string, const query::OperatorDiff*> m_diffRows;
};

} // namespace npuscope::gui

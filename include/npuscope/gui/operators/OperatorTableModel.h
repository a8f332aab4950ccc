// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/query/OperatorQuery.h"

#include <vector>

namespace npuscope::gui {

// Operator rows of one rank (OperatorQuery::group) or of a baseline rank compared with another
// (OperatorQuery::compare). A plain group row is held as a compare row without a comparison side, so one column set
// serves both: the dock hides Total in compare mode and the compare columns otherwise, and Shapes unless grouped by
// name + shapes. Times in ns (ValueRole),
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

private:
    bool m_compare = false;
};

} // namespace npuscope::gui

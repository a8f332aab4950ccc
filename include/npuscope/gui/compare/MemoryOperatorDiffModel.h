// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/query/compare/RunComparison.h"

namespace npuscope::gui {

// The operators of one rank whose allocation changed between the baseline and the opened run
// (query::RunDiff::memoryOperators): name, allocation count of each side, Base / New / Δ / Δ % of Σ Size (MB over the
// whole profiled window, operator_memory rows). The Δ column sorts by |Δ|. GUI thread only.
class MemoryOperatorDiffModel : public RowTableModel<query::MemoryOperatorDiff> {
    Q_OBJECT
public:
    enum Column { Name, BaseCount, NewCount, BaseMb, NewMb, DeltaMb, DeltaPct, ColumnCount };

    explicit MemoryOperatorDiffModel(QObject* parent = nullptr);
    // The rows of diff for the opened run's rank (its matched base rank), in the query's order (|Δ| descending).
    static std::vector<query::MemoryOperatorDiff> rowsOfRank(const query::RunDiff& diff, int64_t newRank);
};

} // namespace npuscope::gui

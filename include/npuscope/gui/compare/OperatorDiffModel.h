// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/query/compare/RunComparison.h"

namespace npuscope::gui {

// Operator keys (categories, op types or kernel names) of a comparison: base / new count and ms per rank and step,
// Δ ms and Δ % tinted by sign; rows as the query orders them (|Δ| descending). GUI thread only.
class OperatorDiffModel : public RowTableModel<query::OperatorDiff> {
    Q_OBJECT
public:
    enum Column { Key, Category, BaseCount, NewCount, BaseMs, NewMs, DeltaMs, DeltaPct, ColumnCount };

    // keyTitle: the first column's header ("Category", "Op type", "Kernel").
    OperatorDiffModel(const QString& keyTitle, QObject* parent = nullptr);
};

} // namespace npuscope::gui

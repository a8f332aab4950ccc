// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/query/compare/RunComparison.h"

namespace npuscope::gui {

// Communication of a comparison per op type and group: base / new count, elapse, wait and bandwidth, Δ elapse tinted
// by sign; rows as the query orders them (|Δ elapse| descending). Times ms per rank and step. GUI thread only.
class CommDiffModel : public RowTableModel<query::CommDiff> {
    Q_OBJECT
public:
    enum Column { OpType, Group }; // the first two columns; the figures follow
    explicit CommDiffModel(QObject* parent = nullptr);
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/query/PipelineQuery.h"

#include <vector>

namespace npuscope::gui {

// The dataset operators of one rank's data pipeline (query::PipelineQuery), one row each, in the chain's order
// (sources first). GUI thread only.
class PipelineOpTableModel : public RowTableModel<query::PipelineOp> {
    Q_OBJECT
public:
    enum Column { OpId, OpType, Parent, Workers, QueueUsage, Capacity, AvgSize, EmptyRate, Cpu, ColumnCount };
    explicit PipelineOpTableModel(QObject* parent = nullptr);
};

} // namespace npuscope::gui

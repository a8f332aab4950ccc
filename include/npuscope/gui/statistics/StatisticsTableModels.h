// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/query/StatisticsQuery.h"

#include <vector>

namespace npuscope::gui {

// op_statistic.csv rows (the device's totals by op type) summed over the ranks shown. GUI thread only.
class OpStatisticTableModel : public RowTableModel<query::OpStatisticRow> {
    Q_OBJECT
public:
    enum Column { OpType, CoreType, Ranks, Count, Total, Mean, Min, Max, Share };
    explicit OpStatisticTableModel(QObject* parent = nullptr);
};

// api_statistic.csv rows (host API totals) summed over the ranks shown. GUI thread only.
class ApiStatisticTableModel : public RowTableModel<query::ApiStatisticRow> {
    Q_OBJECT
public:
    enum Column { Level, Api, Ranks, Count, Total, Mean, Min, Max, Share };
    explicit ApiStatisticTableModel(QObject* parent = nullptr);
};

} // namespace npuscope::gui

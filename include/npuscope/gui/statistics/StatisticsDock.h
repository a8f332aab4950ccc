// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/gui/statistics/StatisticsTableModels.h"
#include "npuscope/query/StatisticsQuery.h"

#include <vector>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace npuscope::gui {

// The profiler's own statistics tables, op_statistic (device time by op type) and api_statistic (host API time), for
// the selected ranks (every rank when none is selected): sortable, filtered by a text, copied and exported as CSV by
// the shared table toolbar. GUI thread only.
class StatisticsDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "statisticsDock";

    explicit StatisticsDock(Workspace* workspace, QWidget* parent = nullptr);

    OpStatisticTableModel* opModel() const { return m_opModel; }
    ApiStatisticTableModel* apiModel() const { return m_apiModel; }
    QSortFilterProxyModel* opFilter() const { return m_opFilter; }
    QSortFilterProxyModel* apiFilter() const { return m_apiFilter; }
    QLineEdit* filterEdit() const { return m_filterEdit; }
    QLabel* scopeLabel() const { return m_scope; }

private:
    struct Result {
        std::vector<query::OpStatisticRow> ops;
        std::vector<query::ApiStatisticRow> apis;
        std::vector<int64_t> opRanks, apiRanks; // ranks with each table's rows
    };
    void reload() override;
    void showResult(Result r, const std::vector<int64_t>& chosen);

    OpStatisticTableModel* m_opModel;
    ApiStatisticTableModel* m_apiModel;
    QSortFilterProxyModel* m_opFilter;
    QSortFilterProxyModel* m_apiFilter;
    QLineEdit* m_filterEdit = nullptr;
    QLabel* m_scope = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTableView* m_opTable = nullptr;
    QTableView* m_apiTable = nullptr;
};

} // namespace npuscope::gui

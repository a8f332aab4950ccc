// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace npuscope::gui {

class GroupTableModel;

// Communication groups with name, ranks and op count. Choosing a row sets the Workspace group,
// which the matrix, duration and link docks follow; "All groups" clears it. GUI thread only.
class GroupsDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "groupsDock";

    explicit GroupsDock(Workspace* workspace, QWidget* parent = nullptr);

    GroupTableModel* model() const { return m_model; }
    QSortFilterProxyModel* proxyModel() const { return m_proxy; }
    QTableView* tableView() const { return m_table; }

private:
    void reload() override;
    void syncSelection();
    // Compare mode: the table gains the Workspace comparison's Base / New / Δ elapse columns.
    void applyComparison();
    void fitColumns();

    GroupTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLabel* m_summary;
    QPushButton* m_all;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"

class QComboBox;
class QToolButton;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace npuscope::gui {

class LinkTableModel;

// Link tables for the Workspace step and group: the selected rank's links (as src or dst) and the
// whole cluster's links, filterable by src, dst and transport and sorted by bandwidth so the
// slowest links come first. Double-click selects the link's src rank. GUI thread only.
class LinksDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "linksDock";
    // The cluster table keeps the slowest this many links (filters narrow it further).
    static constexpr size_t kMaxClusterRows = 5000;

    explicit LinksDock(Workspace* workspace, QWidget* parent = nullptr);

    LinkTableModel* rankModel() const { return m_rankModel; }
    LinkTableModel* clusterModel() const { return m_clusterModel; }
    QSortFilterProxyModel* clusterProxy() const { return m_clusterProxy; }
    QLabel* clusterTitle() const { return m_clusterTitle; }
    QLineEdit* srcFilter() const { return m_src; }
    QComboBox* transportFilter() const { return m_transport; }
    // The inherited step filter as a removable chip (hidden when not filtering).
    QToolButton* stepChip() const { return m_stepChip; }

private:
    // Both tables.
    void reload() override;
    void reloadRank();
    void reloadCluster();

    QueryRunner* m_clusterRunner;
    LinkTableModel* m_rankModel;
    LinkTableModel* m_clusterModel;
    QSortFilterProxyModel* m_rankProxy;
    QSortFilterProxyModel* m_clusterProxy;
    QTableView* m_rankTable;
    QTableView* m_clusterTable;
    QLabel* m_rankTitle;
    QLabel* m_clusterTitle;
    QLineEdit* m_src;
    QLineEdit* m_dst;
    QComboBox* m_transport;
    QToolButton* m_stepChip = nullptr;
    QToolButton* m_groupChip = nullptr;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace npuscope::gui {

class CommDurationModel;
class CommRankChart;
class CommSelectionBar;
class OpStripView;
class PacketChart;

// Communication duration analysis for the Workspace step, group and op: a sortable per-rank table
// (Elapsed, Transit, Wait, Sync, Idle, ratios, SDMA / RDMA bandwidth) with a per-rank bar chart,
// the packet-size distribution per transport, and a per-rank strip of the ops over the step.
// Clicking a rank selects it; clicking an op in the strip sets the Workspace time window. Queries run
// over the shared in-memory CommOpIndex without the database lock; a hidden dock waits until shown.
// GUI thread only.
class CommDurationDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "commDurationDock";

    explicit CommDurationDock(Workspace* workspace, QWidget* parent = nullptr);

    CommDurationModel* model() const { return m_model; }
    QSortFilterProxyModel* proxyModel() const { return m_proxy; }
    QTableView* tableView() const { return m_table; }
    CommRankChart* chart() const { return m_chart; }
    PacketChart* packetChart() const { return m_packets; }
    OpStripView* opStrip() const { return m_strip; }
    QLabel* chartTitle() const { return m_chartTitle; }
    QLabel* summaryLabel() const { return m_summary; }
    CommSelectionBar* selectionBar() const { return m_bar; }
    double lastQueryMs() const { return m_lastQueryMs; }
    int resultsApplied() const { return m_resultsApplied; }

private:
    void reload() override;
    void fitColumns();
    void syncSelection();

    CommSelectionBar* m_bar;
    QLabel* m_summary;
    CommDurationModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    CommRankChart* m_chart;
    PacketChart* m_packets;
    OpStripView* m_strip;
    QLabel* m_chartTitle = nullptr;
    double m_lastQueryMs = 0;
    int m_resultsApplied = 0;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/query/advice/AdviceQuery.h"

class QLabel;
class QPushButton;
class QTableView;
class QTextBrowser;

namespace npuscope::gui {

class AdviceTableModel;

// The advice findings (docs/metrics.md, "Advice rules"), critical first, and the selected finding's detail (rule,
// threshold, measured value, suggestion, the ranks / links / ops / steps it names). "Show evidence" (or a double-click)
// selects the finding's rank, step and communication op in the Workspace and asks the window to raise the view that
// shows the evidence (Workspace::requestShowView). The memory rule uses the device memory of the Memory heatmap
// (MemoryHeatmapDock::kCapacitySetting). GUI thread only.
class AdviceDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "adviceDock";

    explicit AdviceDock(Workspace* workspace, QWidget* parent = nullptr);

    AdviceTableModel* model() const { return m_model; }
    QTableView* tableView() const { return m_table; }
    QTextBrowser* detailView() const { return m_detail; }
    QPushButton* evidenceButton() const { return m_evidence; }
    QLabel* summaryLabel() const { return m_summary; }

    // The options the dock and File > Export report run the advice with: the workspace's device memory.
    static query::advice::AdviceOptions adviceOptions(const Workspace& workspace);
    // The translated title of the view an evidence names ("timeoverview": "Time overview"); else the name itself.
    static QString viewTitle(const std::string& view);

    // The finding of the current table row, nullptr when none.
    const query::advice::Finding* currentFinding() const;
    // Sets the Workspace selection the finding's evidence names and requests its view.
    void showEvidence(const query::advice::Finding& finding);
    // Runs the rules again (the "Run again" button): the timeline rules examine the ranks whose timeline is loaded
    // now.
    void runAgain() { requestReload(); }

private:
    void reload() override;
    void showDetail();

    AdviceTableModel* m_model;
    QTableView* m_table;
    QTextBrowser* m_detail;
    QPushButton* m_evidence;
    QLabel* m_summary;
};

} // namespace npuscope::gui

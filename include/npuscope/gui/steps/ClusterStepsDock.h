// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/StepQuery.h"

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/gui/common/TimeFormat.h"

#include <vector>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace npuscope::gui {

class StageTableModel;
class StepStatsModel;
class StepTableModel;

// The cluster step breakdown: one row per rank for the selected step (or each rank's mean over
// all steps), sortable, coloured by deviation from the column's median (DivergingScale), with a min / median / max /
// mean / spread footer. The summary names the slowest rank, the top of the Step wall time column; a cluster of more
// than 16 ranks opens sorted by that column, slowest first. Double-click selects the rank in the Workspace. Under it,
// only when the input has msprof-analyze pipeline stage rows (cluster_step_trace_time.csv Type "stage"), a small table
// of the stages for the same step. GUI thread only.
class ClusterStepsDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "clusterStepsDock";

    explicit ClusterStepsDock(Workspace* workspace, QWidget* parent = nullptr);

    StepTableModel* model() const { return m_model; }
    StepStatsModel* statsModel() const { return m_statsModel; }
    QSortFilterProxyModel* proxyModel() const { return m_proxy; }
    QTableView* tableView() const { return m_table; }
    QComboBox* stepCombo() const { return m_stepCombo; }
    StageTableModel* stageModel() const { return m_stageModel; }
    QTableView* stageTableView() const { return m_stageTable; }
    // The unit of the tables (Settings → Time unit sets the initial one; the Unit box changes it after).
    void setTimeUnit(TimeFormat::Unit unit);

private:
    // The step list, then the table.
    void reload() override;
    void reloadSteps();
    void reloadTable();
    void syncStepCombo();
    void syncSelection();
    void fitColumns();
    // Compare mode: the table gains the Workspace comparison's Base / New / Δ columns (StepTableModel::setComparison).
    void applyComparison();
    // Unless the user sorted the table: more than StepTableModel::kRankOrderMaxRanks ranks by the step wall time,
    // slowest first; fewer by rank.
    void applyDefaultSort();
    // Fills the stage table and shows it (with its title) only when there are stage rows.
    void setStages(std::vector<query::StageBreakdown> stages);
    // Hides the columns the loaded data does not have (StepTableModel::isColumnShown), in table and footer.
    void applyColumnVisibility();
    // Compare mode: the footer gets as many (empty) columns as the table, and the compare columns move to the front
    // (after Rank, Device, Host), where a 1366-pixel-wide window shows them.
    void placeCompareColumns();
    void onActivated(const QModelIndex& proxyIndex);

    QueryRunner* m_tableRunner;
    StepTableModel* m_model;
    StepStatsModel* m_statsModel;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QTableView* m_footer;
    StageTableModel* m_stageModel;
    QLabel* m_stageTitle;
    QTableView* m_stageTable;
    QComboBox* m_stepCombo;
    QComboBox* m_unitCombo;
    QLabel* m_summary;
    bool m_updatingCombo = false;
    bool m_userSorted = false; // a header click chose the order; a reload keeps it
};

} // namespace npuscope::gui

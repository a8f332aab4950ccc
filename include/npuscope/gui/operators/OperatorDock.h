// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace npuscope::gui {

class OperatorTableModel;
class PieChart;

// Operator figures (query::OperatorQuery) of one rank or of every loaded rank ("All ranks": count, total, wait summed
// over the ranks, min / max over all), grouped by op type, name or name + input shapes, or the comparison of a rank
// (baseline) with another, sorted by difference so the comparison rank's extra time is on top. Two pies above the
// table: total time by op type (the top N types and "other") and by accelerator core class; in compare mode each pie
// has two rings in the same colours, the comparison rank outside and the baseline inside (a pie cannot show a
// difference's sign; the table sorted by difference does). The Top N box limits the table and the type pie to the N
// largest keys. Double-clicking a row publishes it as the Workspace's selected operator (the timeline highlights its
// occurrences).
// Kernel rows live in the deferred per-rank files the cluster load skips: the dock imports them in the background
// (load::Loader::loadDeferred with the kernels group only, through the Workspace's parse cache) for the ranks it shows,
// once per rank
// and model, at most two at a time and only while the dock is visible, and says so ("kernels of N of M ranks").
// "All ranks" imports at most kAutoImportRanks ranks by itself (a real rank's kernel table is up to millions of rows:
// at 1,024 ranks that is gigabytes in memory); "Load all" imports the rest. The rank follows the Workspace's selected rank. GUI thread only.
class OperatorDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "operatorDock";
    // Ranks "All ranks" imports without asking.
    static constexpr int kAutoImportRanks = 64;
    // Deferred-file imports running at once.
    static constexpr int kParallelImports = 2;
    // The Top N box's default.
    static constexpr int kDefaultTopN = 15;

    explicit OperatorDock(Workspace* workspace, QWidget* parent = nullptr);

    OperatorTableModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    QComboBox* groupByCombo() const { return m_groupBy; }
    QComboBox* rankCombo() const { return m_rank; }
    QComboBox* compareCombo() const { return m_compare; }
    QSpinBox* topNSpin() const { return m_topN; }
    QLineEdit* filterEdit() const { return m_filter; }
    QLabel* statusLabel() const { return m_status; }
    QPushButton* loadAllButton() const { return m_loadAll; }
    PieChart* typePie() const { return m_typePie; }
    PieChart* corePie() const { return m_corePie; }
    // Ranks whose deferred files are being imported or wait to be.
    bool isImporting() const { return !m_importing.empty() || !m_queue.empty(); }

    // Shows every loaded rank ("All ranks"), or one rank; before the ranks are listed the choice waits for them.
    void showAllRanks();
    void setRank(int64_t rank);
    // The comparison rank R2; nullopt for none.
    void setCompareRank(std::optional<int64_t> rank);
    // Publishes the operator of a view row of the table (what a double-click does).
    void selectOperatorAt(int viewRow);

protected:
    void showEvent(QShowEvent* event) override;

private:
    // A new model: list its ranks, then show.
    void reload() override;
    // Imports what the shown ranks still lack, else queries the table.
    void refresh();
    void followSelectedRank();
    // Compare mode: the table's Base / New / Δ columns of the run comparison (OperatorTableModel::setComparison for
    // the current grouping), then layoutColumns().
    void applyComparison();
    // Which columns show (rank compare or not, shapes), the sort (the run comparison's |Δ| when comparing with a
    // baseline) and the widths.
    void layoutColumns();
    // Starts queued imports while fewer than kParallelImports run.
    void startImports();
    std::optional<int64_t> shownRank() const;
    std::optional<int64_t> comparedRank() const;
    bool allRanks() const;
    // Ranks the current choice needs imported (all-ranks: capped unless "Load all" was pressed).
    std::vector<int64_t> neededRanks() const;

    OperatorTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QComboBox* m_groupBy;
    QComboBox* m_rank;
    QComboBox* m_compare;
    QSpinBox* m_topN;
    QLineEdit* m_filter;
    QLabel* m_status;
    QPushButton* m_loadAll;
    PieChart* m_typePie;
    PieChart* m_corePie;
    std::vector<int64_t> m_ranks; // every rank of the model, ascending
    // Ranks of this model whose deferred files were imported (or found already imported, or failed: not retried).
    std::set<int64_t> m_imported;
    std::set<int64_t> m_importing;
    std::deque<int64_t> m_queue;
    std::optional<int64_t> m_pendingRank;
    std::optional<int64_t> m_pendingCompare;
    // "Load all" lifted the all-ranks cap for this model.
    bool m_importAll = false;
    // An import waits until the dock is shown.
    bool m_waitingForShow = false;
};

} // namespace npuscope::gui

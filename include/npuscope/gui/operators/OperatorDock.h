// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"

#include <cstdint>
#include <optional>
#include <set>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace npuscope::gui {

class OperatorTableModel;

// Operator figures (query::OperatorQuery) of one rank, grouped by op type, name or name + input shapes, or the
// comparison of that rank (baseline) with another, sorted by difference so the comparison rank's extra time is on
// top. Kernel rows live in the deferred per-rank files the cluster load skips: the dock imports them in the
// background (load::Loader::loadTimeline, which also imports that rank's trace_view.json) for the ranks it shows,
// once per rank and model and only while the dock is visible, and says so ("loading kernels of rank N…") meanwhile.
// The rank follows the Workspace's selected rank. GUI thread only.
class OperatorDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "operatorDock";

    explicit OperatorDock(Workspace* workspace, QWidget* parent = nullptr);

    OperatorTableModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    QComboBox* groupByCombo() const { return m_groupBy; }
    QComboBox* rankCombo() const { return m_rank; }
    QComboBox* compareCombo() const { return m_compare; }
    QLineEdit* filterEdit() const { return m_filter; }
    QLabel* statusLabel() const { return m_status; }
    // Ranks whose deferred files are being imported.
    bool isImporting() const { return !m_importing.empty(); }

protected:
    void showEvent(QShowEvent* event) override;

private:
    // A new model: list its ranks, then show.
    void reload() override;
    // Imports what the shown ranks still lack, else queries the table.
    void refresh();
    void followSelectedRank();
    void importRank(int64_t rank);
    std::optional<int64_t> shownRank() const;
    std::optional<int64_t> comparedRank() const;

    QueryRunner* m_importRunner;
    OperatorTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QComboBox* m_groupBy;
    QComboBox* m_rank;
    QComboBox* m_compare;
    QLineEdit* m_filter;
    QLabel* m_status;
    // Ranks of this model whose deferred files were imported (or found already imported, or failed: not retried).
    std::set<int64_t> m_imported;
    std::set<int64_t> m_importing;
    // An import waits until the dock is shown.
    bool m_waitingForShow = false;
};

} // namespace npuscope::gui

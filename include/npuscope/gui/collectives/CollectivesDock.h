// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/query/BlameAnalysis.h"

#include <memory>

class QComboBox;
class QLabel;
class QTableView;

namespace npuscope::gui {

class CollectivesTableModel;

// Every communication op matched across its ranks (query::CollectiveInstances), by wait cost, filtered by step, group
// and op type, with its last arriver and blame root (docs/metrics.md, "Collective instances and blame"). Selecting
// an instance selects its member ranks and its step in the Workspace. GUI thread only.
class CollectivesDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "collectivesDock";

    explicit CollectivesDock(Workspace* workspace, QWidget* parent = nullptr);

    CollectivesTableModel* model() const { return m_model; }
    QTableView* tableView() const { return m_table; }
    QComboBox* stepFilter() const { return m_step; }
    QComboBox* groupFilter() const { return m_group; }
    QComboBox* typeFilter() const { return m_type; }
    QLabel* summaryLabel() const { return m_summary; }

private:
    void reload() override;
    void fillFilters();
    void applyFilters();
    void selectCurrent();

    std::shared_ptr<const query::BlameResult> m_result;
    CollectivesTableModel* m_model;
    QTableView* m_table;
    QComboBox* m_step;
    QComboBox* m_group;
    QComboBox* m_type;
    QLabel* m_summary;
};

} // namespace npuscope::gui

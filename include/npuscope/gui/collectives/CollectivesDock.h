// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/query/BlameAnalysis.h"

#include <cstdint>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class QToolButton;

namespace npuscope::gui {

class CollectivesTableModel;

// Every communication op matched across its ranks (query::CollectiveInstances), by wait cost, filtered by step, group
// and op type, with its last arriver and blame root (docs/metrics.md, "Collective instances and blame"). Selecting
// an instance selects its member ranks and its step in the Workspace and makes it the
// Workspace's collective focus, which the timeline marks; "Align ranks on this collective" asks the timeline to line
// the members' ends up. Workspace::requestCollectivesOf (the Cluster steps, Links and Matrix menus) keeps the
// instances a rank or a link's two ends take part in, shown as a chip that drops the filter. GUI thread only.
class CollectivesDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "collectivesDock";

    explicit CollectivesDock(Workspace* workspace, QWidget* parent = nullptr);

    CollectivesTableModel* model() const { return m_model; }
    QTableView* tableView() const { return m_table; }
    QComboBox* stepFilter() const { return m_step; }
    QComboBox* typeFilter() const { return m_type; }
    QLabel* summaryLabel() const { return m_summary; }
    QPushButton* alignButton() const { return m_align; }
    QPushButton* resetAlignButton() const { return m_resetAlign; }
    // The ranks every listed instance must have among its members (empty: no such filter).
    void setMemberFilter(std::vector<int64_t> ranks);
    const std::vector<int64_t>& memberFilter() const { return m_members; }
    QToolButton* memberChip() const { return m_memberChip; }

private:
    void reload() override;
    void fillFilters();
    void applyFilters();
    void selectCurrent();

    std::shared_ptr<const query::BlameResult> m_result;
    QueryRunner* m_filterRunner; // the rows of the chosen filters, built off the GUI thread
    CollectivesTableModel* m_model;
    QTableView* m_table;
    QComboBox* m_step;
    QComboBox* m_group;
    QComboBox* m_type;
    QLabel* m_summary;
    QPushButton* m_align;
    QPushButton* m_resetAlign;
    QToolButton* m_memberChip;
    std::vector<int64_t> m_members;
};

} // namespace npuscope::gui

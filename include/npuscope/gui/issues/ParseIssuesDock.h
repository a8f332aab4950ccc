// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/query/RankQuery.h"

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace npuscope::gui {

class IssueFilterModel;
class IssueTableModel;

// Problems found while importing (parse_issue rows), then the errors of failed view queries
// (Workspace::viewErrors): severity, rank, file, line, message, with a text filter and a severity filter.
// GUI thread only.
class ParseIssuesDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "parseIssuesDock";

    explicit ParseIssuesDock(Workspace* workspace, QWidget* parent = nullptr);

    IssueTableModel* model() const { return m_model; }
    IssueFilterModel* filterModel() const { return m_filter; }
    QTableView* tableView() const { return m_table; }
    QLineEdit* filterEdit() const { return m_filterEdit; }
    QComboBox* severityCombo() const { return m_severityCombo; }

private:
    void reload() override;
    // The model's rows: the model's issues, then the view errors.
    void showIssues();
    void updateCount();

    std::vector<query::ParseIssue> m_modelIssues;
    IssueTableModel* m_model;
    IssueFilterModel* m_filter;
    QTableView* m_table;
    QLineEdit* m_filterEdit;
    QComboBox* m_severityCombo;
    QLabel* m_count;
};

} // namespace npuscope::gui

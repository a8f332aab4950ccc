// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/RankQuery.h"

#include <QAbstractTableModel>

#include <vector>

namespace npuscope::gui {

// The parse_issue rows (IssueQuery::issues): what went wrong while importing, with file and line.
// GUI thread only.
class IssueTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Severity, Rank, File, Line, Message, ColumnCount };
    enum Role {
        // Raw values: severity string, rank / line as qlonglong, the full file path; invalid when absent.
        RawValueRole = Qt::UserRole + 1,
        // 0 error, 1 warning, 2 info, 3 other: sorts errors first.
        SeverityLevelRole,
    };

    explicit IssueTableModel(QObject* parent = nullptr);

    void setIssues(std::vector<query::ParseIssue> issues);
    const std::vector<query::ParseIssue>& issues() const { return m_issues; }
    static int severityLevel(const std::string& severity);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<query::ParseIssue> m_issues;
};

} // namespace npuscope::gui

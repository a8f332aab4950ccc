// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/RankQuery.h"

#include "npuscope/gui/common/RowTableModel.h"

#include <vector>

namespace npuscope::gui {

// The parse_issue rows (IssueQuery::issues): what went wrong while importing, with file and line.
// GUI thread only.
class IssueTableModel : public RowTableModel<query::ParseIssue> {
    Q_OBJECT
public:
    enum Column { Severity, Rank, File, Line, Message, ColumnCount };
    enum Role {
        // Raw values: severity string, rank / line as qlonglong, the full file path; invalid when absent.
        RawValueRole = ValueRole,
        // 0 error, 1 warning, 2 info, 3 other: sorts errors first.
        SeverityLevelRole,
    };

    explicit IssueTableModel(QObject* parent = nullptr);

    // The rows as given, except that a message with a template (message_template) is rendered in the GUI's language
    // (the stored English message when the template cannot be read).
    void setIssues(std::vector<query::ParseIssue> issues);
    const std::vector<query::ParseIssue>& issues() const { return rows(); }
    static int severityLevel(const std::string& severity);

protected:
    std::optional<QVariant> cellData(const query::ParseIssue& issue, int column, int role) const override;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSortFilterProxyModel>

#include <optional>

namespace npuscope::gui {

// Filters IssueTableModel rows by severity and by a case-insensitive text found in any column
// (file path included); sorts by raw values. GUI thread only.
class IssueFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit IssueFilterModel(QObject* parent = nullptr);

    // Severity level as IssueTableModel::severityLevel(); nullopt shows all.
    void setSeverityLevel(std::optional<int> level);
    void setText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    std::optional<int> m_level;
    QString m_text;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/issues/IssueFilterModel.h"

#include "npuscope/gui/issues/IssueTableModel.h"

namespace npuscope::gui {

IssueFilterModel::IssueFilterModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
}

void IssueFilterModel::setSeverityLevel(std::optional<int> level)
{
    if (level == m_level)
        return;
    m_level = level;
    invalidateFilter();
}

void IssueFilterModel::setText(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    invalidateFilter();
}

bool IssueFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QAbstractItemModel* model = sourceModel();
    if (m_level) {
        const QModelIndex index = model->index(sourceRow, IssueTableModel::Severity, sourceParent);
        if (index.data(IssueTableModel::SeverityLevelRole).toInt() != *m_level)
            return false;
    }
    if (m_text.isEmpty())
        return true;
    for (int column = 0; column < IssueTableModel::ColumnCount; ++column) {
        const QModelIndex index = model->index(sourceRow, column, sourceParent);
        if (index.data(Qt::DisplayRole).toString().contains(m_text, Qt::CaseInsensitive)
            || index.data(IssueTableModel::RawValueRole).toString().contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

bool IssueFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    if (left.column() == IssueTableModel::Severity) {
        return left.data(IssueTableModel::SeverityLevelRole).toInt()
            < right.data(IssueTableModel::SeverityLevelRole).toInt();
    }
    const QVariant l = left.data(IssueTableModel::RawValueRole);
    const QVariant r = right.data(IssueTableModel::RawValueRole);
    if (!l.isValid() || !r.isValid())
        return l.isValid() < r.isValid();
    return QVariant::compare(l, r) == QPartialOrdering::Less;
}

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/issues/IssueTableModel.h"

#include <QBrush>
#include <QColor>
#include <QDir>
#include <QFileInfo>

namespace npuscope::gui {

IssueTableModel::IssueTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void IssueTableModel::setIssues(std::vector<query::ParseIssue> issues)
{
    beginResetModel();
    m_issues = std::move(issues);
    endResetModel();
}

int IssueTableModel::severityLevel(const std::string& severity)
{
    if (severity == "error")
        return 0;
    if (severity == "warning")
        return 1;
    if (severity == "info")
        return 2;
    return 3;
}

int IssueTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_issues.size());
}

int IssueTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant IssueTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& issue = m_issues[static_cast<size_t>(index.row())];
    const int column = index.column();

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Severity:
            return QString::fromStdString(issue.severity);
        case Rank:
            return issue.rank ? QString::number(*issue.rank) : QString();
        case File:
            // The folder and file name identify it; the full path is in the tooltip.
            if (issue.file) {
                const QFileInfo info(QString::fromStdString(*issue.file));
                const QString dir = info.dir().dirName();
                return dir.isEmpty() || dir == QLatin1String(".") ? info.fileName()
                                                                  : dir + QLatin1Char('/') + info.fileName();
            }
            return QString();
        case Line:
            return issue.line ? QString::number(*issue.line) : QString();
        case Message:
            return QString::fromStdString(issue.message);
        default:
            return {};
        }
    case RawValueRole:
        switch (column) {
        case Severity:
            return QString::fromStdString(issue.severity);
        case Rank:
            return issue.rank ? QVariant::fromValue<qlonglong>(*issue.rank) : QVariant();
        case File:
            return issue.file ? QVariant(QString::fromStdString(*issue.file)) : QVariant();
        case Line:
            return issue.line ? QVariant::fromValue<qlonglong>(*issue.line) : QVariant();
        case Message:
            return QString::fromStdString(issue.message);
        default:
            return {};
        }
    case SeverityLevelRole:
        return severityLevel(issue.severity);
    case Qt::ForegroundRole:
        if (column == Severity) {
            switch (severityLevel(issue.severity)) {
            case 0:
                return QBrush(QColor(190, 35, 30));
            case 1:
                return QBrush(QColor(170, 100, 0));
            default:
                return QBrush(QColor(90, 90, 90));
            }
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column == Rank || column == Line)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case Qt::ToolTipRole: {
        QString tip = QString::fromStdString(issue.message);
        if (issue.file)
            tip += QStringLiteral("\n%1%2").arg(
                QString::fromStdString(*issue.file), issue.line ? QStringLiteral(":%1").arg(*issue.line) : QString());
        return tip;
    }
    default:
        return {};
    }
}

QVariant IssueTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Severity:
        return tr("Severity");
    case Rank:
        return tr("Rank");
    case File:
        return tr("File");
    case Line:
        return tr("Line");
    case Message:
        return tr("Message");
    default:
        return {};
    }
}

} // namespace npuscope::gui

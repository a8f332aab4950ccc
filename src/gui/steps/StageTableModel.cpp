// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/steps/StageTableModel.h"

#include "npuscope/gui/comm/GroupTableModel.h"

namespace npuscope::gui {

using query::StepColumn;

StageTableModel::StageTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void StageTableModel::setRows(std::vector<query::StageBreakdown> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

void StageTableModel::setUnit(TimeFormat::Unit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), { Qt::DisplayRole });
}

std::optional<StepColumn> StageTableModel::stepColumn(int column)
{
    switch (column) {
    case Computing:
        return StepColumn::Computing;
    case CommunicationNotOverlapped:
        return StepColumn::CommunicationNotOverlapped;
    case Overlapped:
        return StepColumn::Overlapped;
    case Communication:
        return StepColumn::Communication;
    case Free:
        return StepColumn::Free;
    case StageTime:
        return StepColumn::Stage;
    case Bubble:
        return StepColumn::Bubble;
    case Preparing:
        return StepColumn::Preparing;
    default:
        return std::nullopt;
    }
}

int StageTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int StageTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant StageTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& row = m_rows[static_cast<size_t>(index.row())];
    const int column = index.column();
    const auto c = stepColumn(column);
    switch (role) {
    case Qt::DisplayRole:
        if (column == Stage)
            return QString::number(row.stage);
        if (column == Ranks)
            return row.ranks.empty() ? QStringLiteral("()") : GroupTableModel::rankList(row.ranks);
        return TimeFormat::format(c ? row.value(*c) : std::nullopt, m_unit);
    case RawValueRole:
        if (column == Stage)
            return QVariant::fromValue<qlonglong>(row.stage);
        if (column == Ranks)
            return QVariant::fromValue<qlonglong>(static_cast<qlonglong>(row.ranks.size()));
        if (const auto v = c ? row.value(*c) : std::nullopt)
            return QVariant::fromValue<qlonglong>(*v);
        return {};
    case Qt::TextAlignmentRole:
        return column == Ranks ? QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter))
                               : QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("Stage %1 (ranks %2)")
                          .arg(row.stage)
                          .arg(row.ranks.empty() ? QStringLiteral("()") : GroupTableModel::rankList(row.ranks));
        if (c) {
            tip += QStringLiteral("\n%1: max over the stage's ranks")
                       .arg(QString::fromUtf8(query::stepColumnTitle(*c)));
            if (const auto v = row.value(*c))
                tip += QStringLiteral("\n%1 ns").arg(*v);
        }
        if (row.stepCount > 1)
            tip += QStringLiteral("\nmean of %1 steps").arg(row.stepCount);
        return tip;
    }
    default:
        return {};
    }
}

QVariant StageTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        if (section == Stage)
            return tr("Stage #");
        if (section == Ranks)
            return tr("Ranks");
        QString title = QString::fromUtf8(query::stepColumnTitle(*stepColumn(section)));
        title.replace(QStringLiteral("("), QStringLiteral("\n("));
        return title + QStringLiteral(" [%1]").arg(TimeFormat::unitSuffix(m_unit));
    }
    if (role == Qt::ToolTipRole)
        return tr("msprof-analyze pipeline stage row: each value is the maximum over the stage's ranks");
    return {};
}

} // namespace npuscope::gui

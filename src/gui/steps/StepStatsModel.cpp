// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/steps/StepStatsModel.h"

#include "npuscope/gui/steps/StepTableModel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

static_assert(static_cast<int>(StepStatsModel::ColumnCount) == static_cast<int>(StepTableModel::ColumnCount));

StepStatsModel::StepStatsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void StepStatsModel::setStats(
    const std::array<query::ColumnStats, query::kStepColumnCount>& stats, const query::ColumnStats& wallStats)
{
    beginResetModel();
    m_stats = stats;
    m_wallStats = wallStats;
    m_hasStats = true;
    endResetModel();
}

void StepStatsModel::clear()
{
    beginResetModel();
    m_stats = {};
    m_wallStats = {};
    m_hasStats = false;
    endResetModel();
}

void StepStatsModel::setUnit(TimeFormat::Unit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    emit dataChanged(index(0, 0), index(RowCount - 1, ColumnCount - 1), { Qt::DisplayRole });
}

int StepStatsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : RowCount; }

int StepStatsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount + m_extraColumns;
}

void StepStatsModel::setExtraColumns(int count)
{
    count = std::max(0, count);
    if (count == m_extraColumns)
        return;
    beginResetModel();
    m_extraColumns = count;
    endResetModel();
}

const query::ColumnStats* StepStatsModel::statsFor(int column) const
{
    if (!m_hasStats)
        return nullptr;
    if (column == StepTableModel::WallTime)
        return &m_wallStats;
    const auto c = StepTableModel::stepColumn(column);
    if (!c)
        return nullptr;
    return &m_stats[static_cast<size_t>(*c)];
}

QVariant StepStatsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const int column = index.column();
    if (column >= ColumnCount)
        return {}; // compare mode's columns (setExtraColumns): no statistic

    if (column == LabelColumn) {
        static const char* const kLabels[RowCount]
            = { QT_TR_NOOP("min"), QT_TR_NOOP("median"), QT_TR_NOOP("max"), QT_TR_NOOP("mean"), QT_TR_NOOP("spread") };
        if (role == Qt::DisplayRole)
            return tr(kLabels[row]);
        if (role == Qt::ToolTipRole && row == Spread)
            return tr("(max \u2212 min) / mean over ranks");
        if (role == Qt::ToolTipRole && row == Median)
            return tr("The middle value over ranks: the reference of the table's colours");
        if (role == Qt::FontRole) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        return {};
    }

    const query::ColumnStats* stats = statsFor(column);
    std::optional<double> value;
    std::optional<int64_t> rank;
    if (stats) {
        switch (row) {
        case Min:
            value = stats->min;
            rank = stats->minRank;
            break;
        case Max:
            value = stats->max;
            rank = stats->maxRank;
            break;
        case Median:
            value = stats->median;
            break;
        case Mean:
            value = stats->mean;
            break;
        case Spread:
            value = stats->spread;
            break;
        default:
            break;
        }
    }

    switch (role) {
    case Qt::DisplayRole:
        if (!value)
            return column == StepTableModel::Device || column == StepTableModel::Host ? QString() : TimeFormat::kAbsent;
        if (row == Spread)
            return QStringLiteral("%1 %").arg(*value * 100.0, 0, 'f', 2);
        {
            QString text = TimeFormat::tableCell(static_cast<int64_t>(std::llround(*value)), m_unit);
            if (rank)
                text = QStringLiteral("r%1  ").arg(*rank) + text;
            return text;
        }
    case RawValueRole:
        return value ? QVariant(*value) : QVariant();
    case RankIdRole:
        return rank ? QVariant::fromValue<qlonglong>(*rank) : QVariant();
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ForegroundRole:
        if (row == Spread && value && *value > 0.10)
            return QBrush(QColor(190, 40, 30));
        return {};
    case Qt::ToolTipRole:
        if (rank)
            return (row == Min ? tr("Minimum %1 on rank %2") : tr("Maximum %1 on rank %2"))
                .arg(StepTableModel::tr(StepTableModel::columnTitle(column).toUtf8().constData()))
                .arg(*rank);
        return {};
    default:
        return {};
    }
}

QVariant StepStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < ColumnCount)
        return StepTableModel::columnTitle(section);
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace npuscope::gui

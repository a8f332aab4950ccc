// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/timeline/AreaStatsModel.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <QFile>
#include <QTextStream>

#include <algorithm>
#include <numeric>

namespace npuscope::gui {

AreaStatsModel::AreaStatsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void AreaStatsModel::setStats(std::vector<query::AreaStat> stats)
{
    beginResetModel();
    m_stats = std::move(stats);
    endResetModel();
}

int AreaStatsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_stats.size());
}

int AreaStatsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant AreaStatsModel::sortValue(const query::AreaStat& s, int column) const
{
    switch (column) {
    case Name:
        return QString::fromStdString(s.name);
    case Count:
        return static_cast<qlonglong>(s.count);
    case TotalWall:
        return static_cast<qlonglong>(s.totalWall);
    case TotalSelf:
        return static_cast<qlonglong>(s.totalSelf);
    case Average:
        return s.average();
    case Min:
        return static_cast<qlonglong>(s.minWall);
    case Max:
        return static_cast<qlonglong>(s.maxWall);
    default:
        return {};
    }
}

QVariant AreaStatsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const query::AreaStat& s = m_stats[static_cast<size_t>(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        if (column == Name || column == Count)
            return sortValue(s, column);
        if (column == Average)
            return TimeFormat::withUnit(static_cast<int64_t>(s.average() + 0.5), TimeFormat::Unit::Microseconds);
        return TimeFormat::withUnit(sortValue(s, column).toLongLong(), TimeFormat::Unit::Microseconds);
    case SortRole:
        return sortValue(s, column);
    case Qt::TextAlignmentRole:
        return column == Name ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return column == Name ? QString::fromStdString(s.name) : QVariant();
    default:
        return {};
    }
}

QVariant AreaStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Name");
    case Count:
        return tr("Count");
    case TotalWall:
        return tr("Total wall");
    case TotalSelf:
        return tr("Total self");
    case Average:
        return tr("Average");
    case Min:
        return tr("Min");
    case Max:
        return tr("Max");
    default:
        return {};
    }
}

void AreaStatsModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= ColumnCount)
        return;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    std::vector<size_t> perm(m_stats.size());
    std::iota(perm.begin(), perm.end(), size_t { 0 });
    auto less = [&](size_t a, size_t b) {
        const QVariant va = sortValue(m_stats[a], column), vb = sortValue(m_stats[b], column);
        const auto c = QVariant::compare(va, vb);
        if (c == QPartialOrdering::Equivalent)
            return m_stats[a].name < m_stats[b].name;
        return order == Qt::AscendingOrder ? c == QPartialOrdering::Less : c == QPartialOrdering::Greater;
    };
    std::stable_sort(perm.begin(), perm.end(), less);
    std::vector<query::AreaStat> sorted;
    sorted.reserve(m_stats.size());
    std::vector<int> newRow(m_stats.size());
    for (size_t i = 0; i < perm.size(); ++i) {
        sorted.push_back(std::move(m_stats[perm[i]]));
        newRow[perm[i]] = static_cast<int>(i);
    }
    m_stats = std::move(sorted);
    // Persistent indexes (a view's selection) follow their rows.
    const QModelIndexList from = persistentIndexList();
    QModelIndexList to;
    to.reserve(from.size());
    for (const QModelIndex& i : from)
        to.append(index(newRow[static_cast<size_t>(i.row())], i.column()));
    changePersistentIndexList(from, to);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

bool AreaStatsModel::exportCsv(const QString& path) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return false;
    QTextStream out(&file);
    out << "name,count,total_wall_ns,total_self_ns,average_ns,min_ns,max_ns\n";
    for (const query::AreaStat& s : m_stats) {
        QString name = QString::fromStdString(s.name);
        name.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        out << '"' << name << '"' << ',' << s.count << ',' << s.totalWall << ',' << s.totalSelf << ','
            << static_cast<qint64>(s.average() + 0.5) << ',' << s.minWall << ',' << s.maxWall << '\n';
    }
    return out.status() == QTextStream::Ok;
}

} // namespace npuscope::gui

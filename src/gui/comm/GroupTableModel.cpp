// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/GroupTableModel.h"

#include <algorithm>

namespace npuscope::gui {

GroupTableModel::GroupTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void GroupTableModel::setGroups(std::vector<query::Group> groups, bool commLoaded)
{
    beginResetModel();
    m_groups = std::move(groups);
    m_commLoaded = commLoaded;
    endResetModel();
}

int GroupTableModel::rowOfHash(const std::string& hash) const
{
    for (size_t i = 0; i < m_groups.size(); ++i) {
        if (m_groups[i].hash == hash)
            return static_cast<int>(i);
    }
    return -1;
}

QString GroupTableModel::rankList(const std::vector<int64_t>& ranks)
{
    std::vector<int64_t> sorted = ranks;
    std::sort(sorted.begin(), sorted.end());
    QStringList parts;
    for (size_t i = 0; i < sorted.size();) {
        size_t j = i;
        while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1)
            ++j;
        parts << (j > i + 1
                ? QStringLiteral("%1-%2").arg(sorted[i]).arg(sorted[j])
                : (j == i + 1 ? QStringLiteral("%1,%2").arg(sorted[i]).arg(sorted[j]) : QString::number(sorted[i])));
        i = j + 1;
    }
    return parts.join(QLatin1Char(','));
}

int GroupTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_groups.size());
}

int GroupTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant GroupTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const auto& g = m_groups[static_cast<size_t>(index.row())];
    const bool listed = g.hash.empty();
    QVariant raw;
    switch (index.column()) {
    case Name:
        raw = QString::fromStdString(g.name.value_or(listed ? g.kind.value_or("group") : g.hash));
        break;
    case Hash:
        raw = listed ? QStringLiteral("\u2014") : QString::fromStdString(g.hash);
        break;
    case Size:
        raw = QVariant::fromValue<qlonglong>(static_cast<qlonglong>(g.ranks.size()));
        break;
    case Ranks:
        raw = rankList(g.ranks);
        break;
    case Source:
        raw = QString::fromStdString(g.ranksSource);
        break;
    case Ops:
        if ((listed || !m_commLoaded) && role == Qt::DisplayRole)
            return QStringLiteral("\u2014");
        raw = QVariant::fromValue<qlonglong>(g.opCount);
        break;
    default:
        break;
    }
    switch (role) {
    case Qt::DisplayRole:
    case RawValueRole:
        return raw;
    case GroupHashRole:
        return QString::fromStdString(g.hash);
    case Qt::ToolTipRole:
        if (listed)
            return tr("%1 group listed in communication_group.json without a group hash: no op or link names it")
                .arg(QString::fromStdString(g.kind.value_or("")));
        if (index.column() == Name && g.rawName)
            return tr("raw HCCL group id: %1").arg(QString::fromStdString(*g.rawName));
        if (index.column() == Ranks)
            return raw;
        if (index.column() == Ops && !m_commLoaded)
            return tr("No communication ops are loaded (no communication.json or communication tables)");
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == Size || index.column() == Ops ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                               : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant GroupTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    static const char* const kTitles[] = { "Name", "Hash", "Size", "Ops", "Membership from", "Global ranks" };
    return tr(kTitles[section]);
}

} // namespace npuscope::gui

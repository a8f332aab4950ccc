// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/LinkTableModel.h"

#include "npuscope/gui/common/TimeFormat.h"

namespace npuscope::gui {

LinkTableModel::LinkTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void LinkTableModel::setRows(std::vector<query::LinkRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

void LinkTableModel::setGroupNames(std::vector<std::pair<std::string, std::string>> names)
{
    m_groupNames = std::move(names);
    if (!m_rows.empty())
        emit dataChanged(index(0, Group), index(rowCount() - 1, Group));
}

QString LinkTableModel::groupName(const std::optional<std::string>& hash) const
{
    if (!hash)
        return TimeFormat::kAbsent;
    for (const auto& [h, n] : m_groupNames) {
        if (h == *hash)
            return QString::fromStdString(n);
    }
    return QString::fromStdString(*hash);
}

int LinkTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int LinkTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant LinkTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const auto& r = m_rows[static_cast<size_t>(index.row())];
    QVariant raw;
    switch (index.column()) {
    case Src:
        raw = QVariant::fromValue<qlonglong>(r.src);
        break;
    case Dst:
        raw = QVariant::fromValue<qlonglong>(r.dst);
        break;
    case Transport:
        raw = QString::fromStdString(r.transport);
        break;
    case Time:
        raw = QVariant::fromValue<qlonglong>(r.timeNs);
        break;
    case Size:
        raw = r.sizeMb;
        break;
    case Bandwidth:
        raw = r.bandwidthGbps ? QVariant(*r.bandwidthGbps) : QVariant();
        break;
    case Op:
        raw = QString::fromStdString(r.opType);
        break;
    case Group:
        raw = groupName(r.groupHash);
        break;
    case Step:
        raw = r.step ? QVariant::fromValue<qlonglong>(*r.step) : QVariant();
        break;
    case SlowestOp:
        raw = QString::fromStdString(r.slowestOp);
        break;
    default:
        break;
    }
    switch (role) {
    case RawValueRole:
        return raw;
    case Qt::TextAlignmentRole:
        return index.column() == Transport || index.column() == Op || index.column() == Group
                || index.column() == SlowestOp
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::DisplayRole:
        if (index.column() == Step && !raw.isValid())
            return tr("all");
        if (!raw.isValid())
            return TimeFormat::kAbsent;
        if (index.column() == Time)
            return TimeFormat::format(static_cast<int64_t>(r.timeNs), TimeFormat::Unit::Milliseconds);
        if (index.column() == Size || index.column() == Bandwidth)
            return QString::number(raw.toDouble(), 'f', 3);
        if (r.localRanks && (index.column() == Src || index.column() == Dst))
            return QStringLiteral("L%1").arg(raw.toLongLong()); // group-local rank
        return raw.toString();
    case Qt::ToolTipRole:
        if (r.localRanks && (index.column() == Src || index.column() == Dst))
            return tr("Group-local rank as written in communication_matrix.json: the global ranks of group %1 are "
                      "unknown")
                .arg(groupName(r.groupHash));
        return {};
    default:
        return {};
    }
}

QVariant LinkTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole && section == Bandwidth)
        return tr("\u03a3 transit size / \u03a3 transit time of the link's ops (total slot)");
    if (role != Qt::DisplayRole)
        return {};
    static const char* const kTitles[] = { "Src", "Dst", "Transport", "Time (ms)", "Size (MB)", "Bandwidth (GB/s)",
        "Op", "Group", "Step", "Slowest op" };
    return tr(kTitles[section]);
}

} // namespace npuscope::gui

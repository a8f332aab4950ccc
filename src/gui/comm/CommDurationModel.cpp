// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/CommDurationModel.h"

#include "npuscope/gui/common/TimeFormat.h"

namespace npuscope::gui {

CommDurationModel::CommDurationModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void CommDurationModel::setRows(std::vector<query::RankDuration> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int CommDurationModel::rowOfRank(int64_t rank) const
{
    for (size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].rank == rank)
            return static_cast<int>(i);
    }
    return -1;
}

std::vector<int> CommDurationModel::widestRows(int column) const
{
    int low = -1, high = -1, absent = -1;
    double lowValue = 0, highValue = 0;
    for (int row = 0; row < rowCount(); ++row) {
        const QVariant raw = data(index(row, column), RawValueRole);
        if (!raw.isValid()) {
            absent = absent < 0 ? row : absent;
            continue;
        }
        const double v = raw.toDouble();
        if (low < 0 || v < lowValue) {
            low = row;
            lowValue = v;
        }
        if (high < 0 || v > highValue) {
            high = row;
            highValue = v;
        }
    }
    std::vector<int> out;
    for (int row : { low, high, absent }) {
        if (row >= 0)
            out.push_back(row);
    }
    return out;
}

int CommDurationModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CommDurationModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CommDurationModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const auto& r = m_rows[static_cast<size_t>(index.row())];
    auto optReal = [](const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(); };
    QVariant raw;
    switch (index.column()) {
    case Rank:
        raw = QVariant::fromValue<qlonglong>(r.rank);
        break;
    case Ops:
        raw = QVariant::fromValue<qlonglong>(r.opCount);
        break;
    case Elapsed:
        raw = QVariant::fromValue<qlonglong>(r.elapseNs);
        break;
    case Transit:
        raw = r.hasTransit ? QVariant::fromValue<qlonglong>(r.transitNs) : QVariant();
        break;
    case Wait:
        raw = r.hasWait ? QVariant::fromValue<qlonglong>(r.waitNs) : QVariant();
        break;
    case Sync:
        raw = r.hasSync ? QVariant::fromValue<qlonglong>(r.syncNs) : QVariant();
        break;
    case Idle:
        raw = r.hasIdle ? QVariant::fromValue<qlonglong>(r.idleNs) : QVariant();
        break;
    case WaitRatio:
        raw = optReal(r.waitRatio);
        break;
    case SyncRatio:
        raw = optReal(r.syncRatio);
        break;
    case SdmaBandwidth:
        raw = optReal(r.sdmaBandwidthGbps);
        break;
    case RdmaBandwidth:
        raw = optReal(r.rdmaBandwidthGbps);
        break;
    default:
        break;
    }
    switch (role) {
    case RawValueRole:
        return raw;
    case RankIdRole:
        return QVariant::fromValue<qlonglong>(r.rank);
    case Qt::TextAlignmentRole:
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::DisplayRole:
        if (!raw.isValid())
            return TimeFormat::kAbsent;
        if (index.column() >= Elapsed && index.column() <= Idle)
            return TimeFormat::format(static_cast<int64_t>(raw.toLongLong()), TimeFormat::Unit::Milliseconds);
        if (index.column() == WaitRatio || index.column() == SyncRatio)
            return QString::number(raw.toDouble(), 'f', 4);
        if (index.column() >= SdmaBandwidth)
            return QString::number(raw.toDouble(), 'f', 3);
        return raw.toString();
    case Qt::ToolTipRole:
        if (!raw.isValid() && index.column() >= Transit && index.column() <= SyncRatio)
            return tr("Not in these files: this generation (e.g. MindSpore hccl_raw) records communication and "
                      "wait cost only");
        if (index.column() == SdmaBandwidth)
            return tr("%1 MB in %2 ms")
                .arg(r.sdmaSizeMb, 0, 'f', 3)
                .arg(TimeFormat::format(r.sdmaTimeNs, TimeFormat::Unit::Milliseconds));
        if (index.column() == RdmaBandwidth)
            return tr("%1 MB in %2 ms")
                .arg(r.rdmaSizeMb, 0, 'f', 3)
                .arg(TimeFormat::format(r.rdmaTimeNs, TimeFormat::Unit::Milliseconds));
        return {};
    default:
        return {};
    }
}

QVariant CommDurationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case WaitRatio:
            return tr("Wait / (Wait + Transit)");
        case SyncRatio:
            return tr("Synchronization / (Synchronization + Transit)");
        case SdmaBandwidth:
        case RdmaBandwidth:
            return tr("\u03a3 size / \u03a3 transit time over the selected ops");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    static const char* const kTitles[] = { "Rank", "Ops", "Elapsed (ms)", "Transit (ms)", "Wait (ms)", "Sync (ms)",
        "Idle (ms)", "Wait Ratio", "Sync Ratio", "SDMA (GB/s)", "RDMA (GB/s)" };
    return tr(kTitles[section]);
}

} // namespace npuscope::gui

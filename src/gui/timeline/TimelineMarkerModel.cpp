// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/timeline/TimelineMarkerModel.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <algorithm>

namespace npuscope::gui {

TimelineMarkerModel::TimelineMarkerModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

int TimelineMarkerModel::addMarker(int64_t begin, int64_t end, const QString& name)
{
    TimelineRenderer::Marker m { name, std::min(begin, end), std::max(begin, end) };
    if (m.name.isEmpty())
        m.name = (m.isRange() ? tr("Range %1") : tr("Marker %1")).arg(m_nextNumber);
    ++m_nextNumber;
    const auto it = std::upper_bound(m_markers.begin(), m_markers.end(), m.begin,
        [](int64_t v, const TimelineRenderer::Marker& x) { return v < x.begin; });
    const int row = static_cast<int>(it - m_markers.begin());
    beginInsertRows({}, row, row);
    m_markers.insert(it, std::move(m));
    endInsertRows();
    emit markersChanged();
    return row;
}

bool TimelineMarkerModel::removeRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || count <= 0 || row + count > rowCount())
        return false;
    beginRemoveRows({}, row, row + count - 1);
    m_markers.erase(m_markers.begin() + row, m_markers.begin() + row + count);
    endRemoveRows();
    emit markersChanged();
    return true;
}

void TimelineMarkerModel::clear()
{
    beginResetModel();
    m_markers.clear();
    m_nextNumber = 1;
    endResetModel();
    emit markersChanged();
}

void TimelineMarkerModel::setOrigin(int64_t origin)
{
    if (origin == m_origin)
        return;
    m_origin = origin;
    if (!m_markers.empty())
        emit dataChanged(index(0, Start), index(rowCount() - 1, Duration));
}

int TimelineMarkerModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_markers.size());
}

int TimelineMarkerModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TimelineMarkerModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const TimelineRenderer::Marker& m = m_markers[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case Name:
            return m.name;
        case Start:
            return QStringLiteral("+") + TimeFormat::withUnit(m.begin - m_origin, TimeFormat::Unit::Microseconds);
        case Duration:
            return m.isRange() ? TimeFormat::withUnit(m.end - m.begin, TimeFormat::Unit::Microseconds) : tr("point");
        default:
            return {};
        }
    case BeginRole:
        return static_cast<qlonglong>(m.begin);
    case EndRole:
        return static_cast<qlonglong>(m.end);
    default:
        return {};
    }
}

bool TimelineMarkerModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || index.column() != Name || role != Qt::EditRole || index.row() >= rowCount())
        return false;
    m_markers[static_cast<size_t>(index.row())].name = value.toString();
    emit dataChanged(index, index);
    emit markersChanged();
    return true;
}

Qt::ItemFlags TimelineMarkerModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == Name)
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant TimelineMarkerModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Marker");
    case Start:
        return tr("Start");
    case Duration:
        return tr("Duration");
    default:
        return {};
    }
}

} // namespace npuscope::gui

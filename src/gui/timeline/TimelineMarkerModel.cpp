// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/timeline/TimelineMarkerModel.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <algorithm>

namespace npuscope::gui {

using Marker = TimelineRenderer::Marker;

TimelineMarkerModel::TimelineMarkerModel(QObject* parent)
    : RowTableModel(parent)
{
    auto ns = [](int64_t v) { return QVariant::fromValue<qlonglong>(v); };
    setColumns({
        { tr("Marker"), tr("Marker name (editable)"), [](const Marker& m) { return QVariant(m.name); }, {}, {} },
        { tr("Start"), tr("Start of the marker, from the start of the loaded data"),
            [ns](const Marker& m) { return ns(m.begin); },
            [this](const Marker& m) {
                return QStringLiteral("+") + TimeFormat::withUnit(m.begin - m_origin, TimeFormat::Unit::Microseconds);
            },
            {} },
        { tr("Duration"), tr("End \u2212 start of a range marker; point for a point marker"),
            [ns](const Marker& m) { return ns(m.end - m.begin); },
            [](const Marker& m) {
                return m.isRange() ? TimeFormat::withUnit(m.end - m.begin, TimeFormat::Unit::Microseconds) : tr("point");
            },
            {} },
    });
}

int TimelineMarkerModel::addMarker(int64_t begin, int64_t end, const QString& name)
{
    Marker m { name, std::min(begin, end), std::max(begin, end) };
    if (m.name.isEmpty())
        m.name = (m.isRange() ? tr("Range %1") : tr("Marker %1")).arg(m_nextNumber);
    ++m_nextNumber;
    auto& markers = mutableRows();
    const auto it = std::upper_bound(
        markers.begin(), markers.end(), m.begin, [](int64_t v, const Marker& x) { return v < x.begin; });
    const int row = static_cast<int>(it - markers.begin());
    beginInsertRows({}, row, row);
    markers.insert(it, std::move(m));
    endInsertRows();
    emit markersChanged();
    return row;
}

bool TimelineMarkerModel::removeRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || count <= 0 || row + count > rowCount())
        return false;
    beginRemoveRows({}, row, row + count - 1);
    auto& markers = mutableRows();
    markers.erase(markers.begin() + row, markers.begin() + row + count);
    endRemoveRows();
    emit markersChanged();
    return true;
}

void TimelineMarkerModel::clear()
{
    m_nextNumber = 1;
    resetRows({});
    emit markersChanged();
}

void TimelineMarkerModel::setOrigin(int64_t origin)
{
    if (origin == m_origin)
        return;
    m_origin = origin;
    emitColumnChanged(Start, Duration);
}

std::optional<QVariant> TimelineMarkerModel::cellData(const Marker& marker, int column, int role) const
{
    switch (role) {
    case Qt::EditRole:
        return QVariant(textOf(marker, column));
    case BeginRole:
        return QVariant::fromValue<qlonglong>(marker.begin);
    case EndRole:
        return QVariant::fromValue<qlonglong>(marker.end);
    default:
        return std::nullopt;
    }
}

bool TimelineMarkerModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || index.column() != Name || role != Qt::EditRole || index.row() >= rowCount())
        return false;
    mutableRows()[static_cast<size_t>(index.row())].name = value.toString();
    emit dataChanged(index, index);
    emit markersChanged();
    return true;
}

Qt::ItemFlags TimelineMarkerModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = RowTableModel::flags(index);
    if (index.isValid() && index.column() == Name)
        f |= Qt::ItemIsEditable;
    return f;
}

} // namespace npuscope::gui

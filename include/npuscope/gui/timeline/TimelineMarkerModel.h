// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/timeline/TimelineRenderer.h"

#include "npuscope/gui/common/RowTableModel.h"

#include <cstdint>
#include <vector>

namespace npuscope::gui {

// The timeline's point and range markers (display time, ns), kept in start order. Names are
// editable; times are shown relative to origin(). Emits markersChanged after every change so the
// timeline can redraw them. GUI thread only.
class TimelineMarkerModel : public RowTableModel<TimelineRenderer::Marker> {
    Q_OBJECT
public:
    enum Column { Name, Start, Duration, ColumnCount };
    enum Role { BeginRole = Qt::UserRole, EndRole };

    explicit TimelineMarkerModel(QObject* parent = nullptr);

    const std::vector<TimelineRenderer::Marker>& markers() const { return rows(); }
    // Adds a marker (end < begin is swapped; end == begin is a point); returns its row.
    int addMarker(int64_t begin, int64_t end, const QString& name = {});
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;
    void clear();
    // Times are shown relative to this (the start of the loaded data).
    void setOrigin(int64_t origin);

    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

signals:
    void markersChanged();

protected:
    std::optional<QVariant> cellData(const TimelineRenderer::Marker& marker, int column, int role) const override;

private:
    int64_t m_origin = 0;
    int m_nextNumber = 1;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/ChartWidget.h"

#include <QColor>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

class QScrollArea;

namespace npuscope::gui {

// Base of the per-device heatmaps (memory, FLOPs): one cell per rank on a host × device grid, a legend above it.
// Layout: one row per host in natural order ("node2" before "node10"; ranks without a host in one last row "—"), one
// column per device id; when no rank has a host the ranks are laid out in rank order, kRanksPerRow to a row. Cells
// shrink to fit the widget down to kMinCell px (1,024 devices stay one scrollable picture; meant for a QScrollArea
// with widgetResizable). Column and row labels are thinned to the ones that fit. Items are indexes into places() (the
// order setPlaces got them in). A subclass supplies each cell's colour, its text and tooltip, and the legend's
// content. GUI thread only.
class DeviceHeatmap : public ChartWidget {
    Q_OBJECT
public:
    // Where a rank sits: its host and device id as the data names them.
    struct Place {
        int64_t rank = 0;
        std::optional<std::string> host;
        std::optional<int64_t> device;
    };
    // A place as laid out.
    struct Slot {
        int64_t rank = 0;
        QString host; // as drawn: the rank's host, or "—"
        int row = 0;
        int column = 0;
    };
    // The colour key drawn above the grid: a title, a ramp over 0..1 with labelled ticks, then swatches.
    struct Legend {
        struct Tick {
            double at = 0; // 0..1
            QString label;
            Qt::Alignment align = Qt::AlignHCenter; // of the label to its tick (close ticks: one left, one right)
        };
        QString title;
        std::function<QColor(double)> ramp;
        std::vector<Tick> ticks;
        std::vector<std::pair<QColor, QString>> swatches;
    };

    // A point of a colour ramp: the colour at `at` (0..1); between points the colour is interpolated in RGB.
    struct ColorStop {
        double at = 0;
        QColor color;
    };
    // The colour of value on a ramp (stops ascending; clamped to the first and last).
    static QColor rampColor(std::span<const ColorStop> stops, double value);

    static constexpr int kRanksPerRow = 16;
    static constexpr int kMinCell = 6; // px
    static constexpr int kMaxCellWidth = 96; // px
    static constexpr int kMaxCellHeight = 56; // px

    explicit DeviceHeatmap(QWidget* parent = nullptr);

    const std::vector<Slot>& grid() const { return m_slots; }
    int rowCount() const { return static_cast<int>(m_rowLabels.size()); }
    int columnCount() const { return m_columns; }
    const std::vector<QString>& rowLabels() const { return m_rowLabels; }

    // Index of a rank's cell, -1 when absent.
    int cellOfRank(int64_t rank) const;
    void setSelectedRank(std::optional<int64_t> rank);
    // The cell rectangle of cell `index` at the current size (px).
    QRect cellRect(int index) const;
    // What the widget says when it has no cells.
    void setEmptyText(const QString& text);
    // A frameless, widget-resizable scroll area (owned by parent) holding this heatmap, so 1,024 devices scroll.
    QScrollArea* makeScrollArea(QWidget* parent);
    // A ratio as a cell or tooltip shows it: "63 %", one decimal under 10 % ("4.5 %").
    static QString percent(double ratio);

    int itemAt(const QPoint& pos) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void rankClicked(qint64 rank);

protected:
    // Lays the cells out (in this order: item i is places[i]) and repaints; the subclass sets its own per-cell data
    // before calling this.
    void setPlaces(const std::vector<Place>& places);
    // A cell's fill.
    virtual QColor cellColor(int index) const = 0;
    // A cell's value as drawn inside it when it fits (e.g. "63 %"); the widest such text is cellTextSample().
    virtual QString cellText(int index) const = 0;
    virtual QString cellTextSample() const { return QStringLiteral("100 %"); }
    virtual Legend legend() const = 0;
    // A tooltip row "name  value" (value escaped) for itemToolTip implementations.
    static void addToolTipRow(QString& html, const QString& name, const QString& value);

    void paintEvent(QPaintEvent* event) override;

private:
    struct Geometry {
        int left = 0, top = 0, cellWidth = 0, cellHeight = 0;
    };
    Geometry geometry() const;
    int labelWidth() const;
    int legendHeight() const;
    void paintLegend(QPainter& p) const;

    std::vector<Slot> m_slots;
    std::vector<QString> m_rowLabels;
    // labelWidth()'s widest row label, for these labels in this font (-1: to measure).
    mutable int m_labelWidth = -1;
    mutable QFont m_labelWidthFont;
    mutable size_t m_labelWidthRows = 0;
    std::vector<QString> m_columnLabels;
    int m_columns = 0;
    std::vector<int> m_cellAt; // row * m_columns + column -> cell index, -1 for an empty slot
    QString m_emptyText;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/ChartWidget.h"

#include <QColor>
#include <QFontMetrics>
#include <QString>

#include <cstdint>
#include <vector>

class QPainter;

namespace npuscope::gui {

// A donut of named parts with one ring or two (e.g. a comparison rank outside, its baseline inside, in the same
// colours), a title, the first ring's total in the middle and a legend (name, value per ring, share of the first
// ring). Hover: the part, its value and share % of its ring; context menu: Save image. Values are ns, shown in ms.
// The slice geometry (paintSlices, sliceAt) is shared with StepSplitPie. GUI thread only.
class PieChart : public ChartWidget {
    Q_OBJECT
public:
    struct Part {
        QString name;
        QColor color;
    };
    struct Ring {
        QString name; // e.g. "rank 3"; the legend's column title when there are two rings
        std::vector<int64_t> values; // ns, one per part; negative values draw as 0
        int64_t total() const;
    };

    explicit PieChart(QWidget* parent = nullptr);

    // rings[0] is the outer ring. An empty or all-zero chart shows the placeholder.
    void setData(const QString& title, std::vector<Part> parts, std::vector<Ring> rings);
    void setPlaceholder(const QString& text);
    const std::vector<Part>& parts() const { return m_parts; }
    const std::vector<Ring>& rings() const { return m_rings; }
    QString title() const { return m_title; }

    // Items are ring * parts().size() + part.
    int itemAt(const QPoint& pos) const override;
    QString itemToolTip(int item) const override;
    // The share of a part in its ring, 0..1 (0 for an empty ring).
    double share(int ring, int part) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // Draws values as pie slices in rect, from 12 o'clock clockwise, each part its colour, separated by `border`.
    // Angles come from the running sum so rounding never leaves a gap.
    // The total written in a donut hole holeWidth px wide in font metrics fm: `full` when it fits a few pixels clear of
    // the ring, else ns to three significant digits ("115 ms"), elided as a last resort.
    static QString holeText(const QString& full, int64_t ns, const QFontMetrics& fm, int holeWidth);
    static void paintSlices(QPainter& p, const QRect& rect, const std::vector<int64_t>& values,
        const std::vector<QColor>& colors, const QColor& border);
    // The slice of values at an angle measured from 12 o'clock clockwise (degrees, 0..360), -1 when all are 0.
    static int sliceAt(const std::vector<int64_t>& values, double degrees);
    // The clockwise angle from 12 o'clock (degrees, 0..360) of a point seen from centre.
    static double clockAngle(const QPointF& centre, const QPointF& point);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    // The pie's square and the radius fraction where each ring starts (computed by paintEvent's layout).
    QRect pieRect() const;

    QString m_title;
    QString m_placeholder;
    std::vector<Part> m_parts;
    std::vector<Ring> m_rings;
};

} // namespace npuscope::gui

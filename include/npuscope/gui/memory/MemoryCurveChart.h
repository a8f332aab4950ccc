// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/TimeAxis.h"
#include "npuscope/gui/common/ChartWidget.h"
#include "npuscope/query/MemoryDetailQuery.h"

#include <QColor>
#include <QPolygonF>
#include <QString>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

class QPainter;

namespace npuscope::gui {

// Memory curves of one rank (memory_record: Allocated / Reserved / Active per component, MB) as step lines over
// time, with the rank's step boundaries as vertical lines, the Workspace's time window as a shaded band, a legend
// whose entries toggle their series (click), a hover tooltip with the time and every shown value, wheel zoom,
// double-click to show everything, and a left drag that selects a time range (rangeSelected).
//
// Large inputs stay fast: prepare() keeps, beside each series, an overview reduced by core::downsampleLttb when the
// rank has more than kReduceAbove points, and a coarse level of kCoarsePoints; a frame takes the visible part of the
// coarsest level that still has at least 2 × kPointsPerPx points per pixel there (else the finest), reduced to about
// kPointsPerPx points per pixel (docs/metrics.md "Memory curve downsampling"). Frames are cached until the view, the
// size or the data change. GUI thread only (prepare(): any thread).
class MemoryCurveChart : public ChartWidget {
    Q_OBJECT
public:
    static constexpr size_t kReduceAbove = 1'000'000; // points of a rank before overviews are kept
    static constexpr size_t kCoarsePoints = 16'384; // points of a series' coarse level
    static constexpr double kPointsPerPx = 2.0; // a frame's reduction target
    static constexpr int kLegendItemBase = 0; // items [0, series count): legend entries
    static constexpr int kPlotItemBase = 1 << 20; // items kPlotItemBase + x: the plot at pixel column x

    struct Series {
        query::MemoryCurve curve; // raw points
        std::vector<core::CurvePoint> overview; // reduced points; empty when the raw points are few enough
        std::vector<core::CurvePoint> coarse; // at most kCoarsePoints; empty when the series has no more
        double maxValue = 0; // the largest value (MB)
        QColor color;
        bool visible = true;
    };
    // Series of curves with their overviews and colours (component hue, metric pen). Any thread.
    static std::vector<Series> prepare(std::vector<query::MemoryCurve> curves, size_t reduceAbove = kReduceAbove);

    explicit MemoryCurveChart(QWidget* parent = nullptr);

    void setSeries(std::vector<Series> series);
    const std::vector<Series>& series() const { return m_series; }
    void setSeriesVisible(int index, bool visible);
    void setSteps(std::vector<query::MemoryStep> steps);
    const std::vector<query::MemoryStep>& steps() const { return m_steps; }
    // The shaded window [begin, end) epoch ns, nullopt for none.
    void setWindow(std::optional<std::pair<int64_t, int64_t>> window);
    std::optional<std::pair<int64_t, int64_t>> window() const { return m_window; }
    // The message drawn when there are no series.
    void setEmptyText(const QString& text);

    core::TimeAxis& axis() { return m_axis; }
    // Shows every point (and step).
    void fitAll();
    // Points drawn by the last frame over all series (after reduction).
    size_t drawnPoints() const { return m_drawnPoints; }
    // Draws the chart at the widget's size (paintEvent and the bench).
    void paint(QPainter& p);

    // Value of a series at time t (its last sample at or before t), nullopt before its first sample.
    static std::optional<double> valueAt(const Series& s, int64_t t);

    int itemAt(const QPoint& pos) const override;
    QString itemToolTip(int item) const override;
    QSize sizeHint() const override { return { 800, 320 }; }
    QSize minimumSizeHint() const override { return { 300, 160 }; }

signals:
    // A left drag over the plot selected [begin, end) epoch ns.
    void rangeSelected(qint64 begin, qint64 end);
    void seriesToggled(int index, bool visible);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Frame {
        int64_t start = 0;
        double windowNs = 0;
        QSize size;
        double yMax = 0;
        std::vector<QPolygonF> lines; // per series, empty when hidden
        size_t points = 0;
        bool valid = false;
    };
    void buildFrame();
    void layoutLegend(const QFontMetrics& fm);
    double yMaxOfVisible() const;
    double toY(double mb) const;
    QRect plotArea() const;

    std::vector<Series> m_series;
    std::vector<query::MemoryStep> m_steps;
    std::optional<std::pair<int64_t, int64_t>> m_window;
    QString m_emptyText;
    core::TimeAxis m_axis;
    int64_t m_origin = 0; // time axis labels are relative to the first point
    Frame m_frame;
    std::vector<QRect> m_legendRects; // per series
    int m_legendHeight = 0;
    std::optional<int> m_dragFrom; // px
    int m_dragTo = 0;
    int m_hoverX = -1;
    size_t m_drawnPoints = 0;
};

} // namespace npuscope::gui

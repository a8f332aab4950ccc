// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"

#include <QImage>
#include "npuscope/gui/common/ChartWidget.h"

#include <optional>
#include <vector>

namespace npuscope::gui {

// Heatmap of src (rows) × dst (columns) global ranks. The cells are rendered once into an image
// with one pixel per cell; a paint only scales the visible part of it, so a frame costs the widget's
// pixels, not the number of ranks (1,024² cells stay interactive). Wheel zooms around the cursor,
// drag pans, double-click resets. Hover shows the cell. GUI thread only.
class CommMatrixView : public ChartWidget {
    Q_OBJECT
public:
    enum class Metric { Bandwidth, Size, Time, Transport };

    explicit CommMatrixView(QWidget* parent = nullptr);

    void setMatrix(query::CommMatrix matrix);
    const query::CommMatrix& matrix() const { return m_matrix; }
    void setMetric(Metric metric);
    Metric metric() const { return m_metric; }
    // Hides the diagonal and LOCAL cells (and leaves them out of the colour range).
    void setHideLocal(bool hide);

    // Colour range of the current metric over the shown cells; nullopt without cells.
    std::optional<std::pair<double, double>> valueRange() const { return m_range; }
    std::optional<double> cellValue(const query::MatrixCell& cell) const;
    // Cell under a widget position, nullptr outside or on an empty cell.
    const query::MatrixCell* cellAt(const QPoint& pos) const;
    QString toolTipFor(const query::MatrixCell& cell) const;
    // Zoom factor (1 = whole matrix fits) and the top-left visible cell.
    double zoom() const { return m_zoom; }
    void setZoom(double zoom, QPointF anchorCell = { -1, -1 });
    void resetView();
    // Widget rectangle of the plot area.
    QRect plotRect() const;
    static QColor transportColor(const std::string& transport);
    // Where the last paint outlined the slowest cell (inside plotRect()); null when it drew none.
    QRectF slowestRing() const { return m_slowestRing; }
    bool hideLocal() const { return m_hideLocal; }

signals:
    // A cell was clicked: the src rank.
    void rankClicked(qint64 rank);
    // "Costliest collectives" was chosen on a cell's context menu: its src and dst ranks.
    void collectivesRequested(qint64 src, qint64 dst);

protected:
    void addContextActions(QMenu& menu, const QPoint& pos) override;
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    void rebuildImage();
    QColor colorFor(double value) const;
    double cellPixels() const;
    void clampOffset();
    bool shown(const query::MatrixCell& c) const;

    query::CommMatrix m_matrix;
    std::vector<int> m_position; // rank -> axis position (dense by rank id)
    std::vector<int32_t> m_cellAt; // axis row * n + col -> cell index, -1 empty
    QImage m_image;
    Metric m_metric = Metric::Bandwidth;
    bool m_hideLocal = true;
    std::optional<std::pair<double, double>> m_range;
    double m_zoom = 1.0;
    QPointF m_offset; // top-left visible cell (fractional)
    std::optional<QPoint> m_drag; // last drag position
    QRectF m_slowestRing;
    QPointF m_dragOffset;
};

} // namespace npuscope::gui

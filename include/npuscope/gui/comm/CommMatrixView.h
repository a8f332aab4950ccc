// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"

#include "npuscope/gui/common/ChartWidget.h"
#include <QImage>
#include <QPointer>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

class QThreadPool;

namespace npuscope::gui {

// Heatmap of src (rows) × dst (columns) ranks in the matrix's axis order, filling the widget (cells need not be
// square). The cells are rendered once into an image with one pixel per cell; a paint only scales the visible part of
// it, so a frame costs the widget's pixels, not the number of ranks.
//
// Aggregated mode: when a single rank's cell would be below kMinCellPx on either axis, each cell summarises a block of
// k × k axis positions (k a power of two, the same on both axes so the diagonal stays the diagonal) with one
// statistic per metric (statisticText(): the minimum bandwidth, the summed size, the longest time of the block's
// links, or the transport they share), drawn from a cached image per k. Zooming in (wheel, dragging a rectangle)
// lowers k until single ranks show; double-click fits the whole matrix again; Shift+drag or middle-drag pans.
//
// Axis labels: rank numbers on a 1-2-5 scale when the axis is in ascending rank order (monotonic, evenly spaced), every
// rank when each cell has room for its label, and the group blocks of the order ("tp 0–7"; the hash in the tooltip) on
// a band outside the ticks. Labels never overlap (labelRects()). Clicking a cell selects its link (src and dst; an
// aggregated cell: the link its statistic comes from). GUI thread only; with a worker pool (setWorkerPool) the cell
// images are built there, and a paint meanwhile shows the nearest image already built (or says it is drawing), so a
// million-cell all-to-all matrix never holds the GUI thread.
class CommMatrixView : public ChartWidget {
    Q_OBJECT
public:
    enum class Metric { Bandwidth, Size, Time, Transport };
    // Below this many pixels per rank (on either axis) cells summarise blocks of ranks.
    static constexpr double kMinCellPx = 3.0;

    // One drawn cell: a single rank pair, or in aggregated mode a block of axis positions.
    struct Block {
        int row0 = 0, row1 = 0, col0 = 0, col1 = 0; // [row0, row1) × [col0, col1) in axis positions
        int links = 0; // shown links in the block
        std::optional<double> value; // the metric's statistic (Transport: nullopt)
        QString transport; // shared transport, "mixed", or empty when no link
        int32_t representative = -1; // the cell the statistic comes from (index into matrix().cells), -1 none
    };

    explicit CommMatrixView(QWidget* parent = nullptr);

    void setMatrix(query::CommMatrix matrix);
    const query::CommMatrix& matrix() const { return *m_data; }
    // Where the cell images are built (a workspace's in-memory pool); none: on the GUI thread when first painted.
    void setWorkerPool(QThreadPool* pool) { m_pool = pool; }
    // Cell images asked for and not built yet (benchmarks, tests).
    bool imagesPending() const { return !m_pending.empty(); }
    void setMetric(Metric metric);
    Metric metric() const { return m_metric; }
    // Hides the diagonal and LOCAL cells (and leaves them out of the colour range).
    void setHideLocal(bool hide);
    bool hideLocal() const { return m_hideLocal; }

    // Colour range of the current metric over the shown single-rank cells; nullopt without cells (or, with a worker
    // pool, until the single-rank image is built).
    std::optional<std::pair<double, double>> valueRange() const { return m_range; }
    std::optional<double> cellValue(const query::MatrixCell& cell) const;
    // The link under a widget position: the single cell, or an aggregated cell's representative; nullptr outside or
    // on an empty cell.
    const query::MatrixCell* cellAt(const QPoint& pos) const;
    // The drawn cell under a widget position (a single rank pair or a block), nullopt outside the plot.
    std::optional<Block> blockAt(const QPoint& pos) const;
    QString toolTipFor(const query::MatrixCell& cell) const;
    // What the tooltip says at a widget position (a cell, a block, a group label); empty for nothing.
    QString toolTipAt(const QPoint& pos) const;

    // Zoom factor (1 = the whole matrix fits) over the columns, and the visible axis positions (fractional).
    double zoom() const;
    QRectF visibleCells() const { return m_window; }
    // Zooms both axes to zoom around anchorCell (axis positions; default: the centre of the view).
    void setZoom(double zoom, QPointF anchorCell = { -1, -1 });
    // Shows the axis positions of cells (columns × rows), at least one position each way.
    void zoomToCells(const QRectF& cells);
    void resetView();
    // Axis positions per drawn cell at the current zoom: 1 = single ranks, k > 1 = aggregated k × k blocks.
    int blockSize() const;
    // Widget rectangle of the plot area.
    QRect plotRect() const;
    // Widget rectangle of the axis position (row, col) at the current zoom.
    QRectF cellRect(int row, int col) const;
    // What an aggregated cell shows for the current metric ("minimum bandwidth of the block's links", ...).
    QString statisticText() const;
    static QColor transportColor(const std::string& transport);
    // Where the last paint outlined the slowest cell (inside plotRect()); null when it drew none.
    QRectF slowestRing() const { return m_slowestRing; }
    // Every text rectangle the last paint drew (caption, ticks, group labels, legend), widget coordinates.
    const std::vector<QRect>& labelRects() const { return m_labelRects; }
    // The group labels the last paint drew beside the rows and above the columns: block index and text rectangle, in
    // axis order (one every few blocks, the same stride along an axis, when not every block has room).
    const std::vector<std::pair<size_t, QRect>>& rowBlockLabels() const { return m_rowBlockLabels; }
    const std::vector<std::pair<size_t, QRect>>& columnBlockLabels() const { return m_columnBlockLabels; }
    // The group label of each matrix block ("tp 0–7": name and first ranks; the hash is in the label's tooltip).
    const std::vector<QString>& blockLabels() const { return m_blockLabels; }
    // Ranks the last paint labelled on the column axis, left to right.
    const std::vector<int64_t>& columnTicks() const { return m_columnTicks; }
    // Cell images rendered so far (one per matrix / metric / block size change; benchmarks, tests).
    int imagesBuilt() const { return m_imagesBuilt; }

signals:
    // Cell images started (true) or ended (false) being built on the worker pool: the dock counts them as its work, so
    // "the views are ready" (screenshots, benchmarks) waits for the image.
    void imagesBusyChanged(bool busy);
    // A cell was clicked: its link's src and dst ranks (an aggregated cell: its representative link).
    void linkClicked(qint64 src, qint64 dst);
    // "Costliest collectives" was chosen on a cell's context menu: its src and dst ranks.
    void collectivesRequested(qint64 src, qint64 dst);

protected:
    void addContextActions(QMenu& menu, const QPoint& pos) override;
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    // The cells of one block size: an image with a pixel per block, the representative cell of each block and the
    // colour range of the block values.
    struct Level {
        QImage image;
        int side = 0; // blocks per axis
        std::vector<int32_t> representative; // block row * side + col -> cell index, -1 empty
        std::optional<std::pair<double, double>> range;
    };
    struct Layout {
        QRect caption, plot, legend;
        QRect rowBlocks, colBlocks; // group label bands (empty without blocks)
        QString captionText;
    };

    // What a cell image is built from: a snapshot a worker may read while the view changes.
    struct LevelInputs {
        std::shared_ptr<const query::CommMatrix> matrix;
        std::vector<int> position;
        Metric metric = Metric::Bandwidth;
        bool hideLocal = true;
        QColor empty; // an empty block's colour
    };

    void invalidateLevels();
    // The image of block size k: nullptr while a worker builds it (then the view repaints).
    const Level* level(int k) const;
    // The built image whose block size is nearest to k (finer first), nullptr when none; its size in *built.
    const Level* nearestLevel(int k, int* built) const;
    void levelBuilt(quint64 generation, int k, Level level);
    // m_pending changed: imagesBusyChanged when it became empty or stopped being so.
    void pendingChanged(bool wasBusy);
    static Level buildLevel(const LevelInputs& in, int k);
    Layout layout() const;
    QString captionText() const;
    QString blockLabelOf(const query::AxisBlock& block) const;
    QString blockToolTip(const query::AxisBlock& block) const;
    Block blockOf(int row0, int row1, int col0, int col1) const;
    static QColor colorFor(double value, const std::optional<std::pair<double, double>>& range, Metric metric);
    QPointF cellPixels(const QRect& plot) const; // px per axis position (x: columns, y: rows)
    QPointF toCells(const QPointF& pos) const; // widget position -> fractional axis position (col, row)
    void clampWindow();
    bool shown(const query::MatrixCell& c) const { return shownWhen(c, m_hideLocal); }
    static bool shownWhen(const query::MatrixCell& c, bool hideLocal);
    static std::optional<double> valueOf(const query::MatrixCell& c, Metric metric);
    void paintTicks(QPainter& p, const Layout& l);
    void paintBlocks(QPainter& p, const Layout& l);
    void paintLegend(QPainter& p, const Layout& l, const Level* lv, int k);
    // The image of block size k over the visible window (and the block grid when blocks are large).
    void paintCells(QPainter& p, const QRect& plot, const Level& lv, int k) const;

    std::shared_ptr<const query::CommMatrix> m_data; // never null; shared with the image builds in flight
    std::vector<int> m_position; // rank -> axis position (dense by rank id)
    std::vector<int32_t> m_cellAt; // axis row * n + col -> cell index, -1 empty
    bool m_ascending = true; // the axis lists ranks in ascending order
    std::vector<QString> m_blockLabels; // per matrix block: "tp 0–7"
    mutable std::map<int, Level> m_levels; // block size -> cached cells
    mutable std::set<int> m_pending; // block sizes a worker builds for m_generation
    quint64 m_generation = 0; // bumped whenever the images are invalidated: older builds are dropped
    QPointer<QThreadPool> m_pool;
    mutable int m_imagesBuilt = 0;
    Metric m_metric = Metric::Bandwidth;
    bool m_hideLocal = true;
    std::optional<std::pair<double, double>> m_range;
    QRectF m_window; // visible axis positions: x columns, y rows
    std::optional<QPoint> m_press; // where the left (or pan) button went down
    bool m_panning = false;
    QPointF m_pressWindow; // m_window.topLeft() at the press
    QRect m_rubberBand; // the rectangle being dragged (widget coordinates), null when none
    QRectF m_slowestRing;
    std::vector<QRect> m_labelRects;
    std::vector<int64_t> m_columnTicks;
    std::vector<std::pair<QRect, size_t>> m_blockLabelHits; // label rectangle -> block index
    std::vector<std::pair<size_t, QRect>> m_rowBlockLabels, m_columnBlockLabels;
};

} // namespace npuscope::gui

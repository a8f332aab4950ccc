// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/ChartWidget.h"
#include "npuscope/query/StrategyGraphLayout.h"

#include <memory>
#include <vector>

namespace npuscope::gui {

// The strategy graph (query::StrategyGraphLayout): each pipeline stage a band, its operators left to right by
// execution order, coloured by kind (legend in the dock), special operators marked (a dot: sharded by a strategy;
// a red outline: redistribution; a purple outline: gradient aggregation), edges between operators, Send→Receive
// pairs as curves between the bands, halos on the nodes of the chosen scopes, a minimap of the whole pipeline in
// the corner (click or drag it to move there). The wheel zooms along the execution order around the mouse, Shift+wheel
// or a drag scrolls, F fits. Zoomed out, the nodes are drawn as pixels of one image per frame and the edges are
// left out, so a frame costs the visible nodes, not the graph. Items are node positions in the layout. GUI thread only.
class StrategyGraphCanvas : public ChartWidget {
    Q_OBJECT
public:
    static constexpr int kLaneHeight = 18;
    static constexpr int kBandHeader = 20;

    explicit StrategyGraphCanvas(QWidget* parent = nullptr);

    void setGraph(std::shared_ptr<const query::StrategyGraphLayout> layout);
    const query::StrategyGraphLayout* graph() const { return m_layout.get(); }
    // Nodes drawn with a halo (the scopes chosen in the dock); empty for none.
    void setHalo(const std::vector<uint32_t>& nodes);
    size_t haloCount() const { return m_haloCount; }
    // Scopes drawn collapsed: each run of consecutive operators (execution order) whose scope is one of these paths or
    // lies under it becomes one node (its scope's name and operator count) in one column; the columns after it move
    // left. Empty for none.
    void setCollapsed(const std::vector<std::string>& scopes);
    size_t collapsedRuns() const { return m_runs; }
    // Columns drawn: of a stage (its operators less those folded into a collapsed run), and the widest stage's.
    uint32_t stageColumns(size_t stageSlot) const;
    uint32_t drawnColumns() const { return m_columns; }
    // The node drawn for a node position: itself, or the first node of the collapsed run holding it.
    uint32_t drawnNode(uint32_t node) const { return node < m_rep.size() ? m_rep[node] : node; }
    // The whole graph in view.
    void fit();
    // Zooms by factor around widget x.
    void zoomAt(double factor, double x);
    // Scrolls so node position sits in the middle of the view.
    void centerOn(uint32_t node);
    double pixelsPerColumn() const { return m_scaleX; }
    double firstColumn() const { return m_offsetX; }
    int scrollY() const { return m_offsetY; }
    // Paints a frame into an image of the widget's size (the bench's frame timing).
    QImage renderFrame();

    static QColor kindColor(query::StrategyGraphLayout::Kind kind);

    int itemAt(const QPoint& pos) const override;
    QString itemToolTip(int item) const override;
    QSize sizeHint() const override { return { 900, 420 }; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void paintGraph(QPainter& p, const QRect& area);
    int bandTop(size_t stage) const; // in content px (before the vertical scroll)
    int contentHeight() const;
    double columnX(uint32_t column) const { return (column - m_offsetX) * m_scaleX + plotRect().left(); }
    void placeColumns(); // m_column, m_rep, m_runLength, m_runScope, m_columnNodes, m_columns from m_collapsedScopes
    QString runLabel(uint32_t node) const; // a collapsed run's scope name
    QPointF nodeCenter(uint32_t node) const;
    QRect minimapRect() const;
    void moveToMinimap(const QPoint& pos);
    void clampView();

    std::shared_ptr<const query::StrategyGraphLayout> m_layout;
    std::vector<char> m_halo;
    std::vector<int> m_bandTops; // per stage, then the content's height
    std::vector<std::string> m_collapsedScopes;
    std::vector<uint32_t> m_column; // per node: its drawn column within its stage
    std::vector<uint32_t> m_rep; // per node: the node drawn for it
    std::vector<uint32_t> m_runLength; // per node: the operators it stands for (0: folded into the node before it)
    std::vector<int> m_runScope; // per node: for a collapsed run's first node the index of its scope, else -1
    std::vector<std::vector<uint32_t>> m_columnNodes; // per stage: drawn column -> node
    uint32_t m_columns = 0; // the widest stage's drawn columns
    size_t m_runs = 0;
    size_t m_haloCount = 0;
    double m_scaleX = 1; // px per column
    double m_offsetX = 0; // column at the plot's left edge
    int m_offsetY = 0;
    bool m_fitted = false;
    QPoint m_dragFrom;
    double m_dragOffsetX = 0;
    int m_dragOffsetY = 0;
    bool m_dragging = false;
    bool m_minimapDrag = false;
};

} // namespace npuscope::gui

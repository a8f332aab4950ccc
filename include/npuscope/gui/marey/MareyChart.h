// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/Downsample.h"
#include "npuscope/core/TimeAxis.h"
#include "npuscope/gui/common/ChartWidget.h"
#include "npuscope/query/MareyFindings.h"
#include "npuscope/query/MareyStep.h"

#include <QImage>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npuscope::gui {

// The Marey chart (docs/metrics.md, "Marey view"): one horizontal line per device, devices grouped by pipeline stage
// under a stage label, each operator a bar on its device's line, the same operator on consecutive devices of a stage
// joined by a filled polygon (compute and communication in distinct colours), sends joined to their receives on the
// neighbouring stage by a line. A stage collapses to one line of its operators' unions (click its label). Beside each
// device three blocks: FLOPs ÷ max, FLOPS ÷ max, peak memory ÷ capacity (grey when unknown).
//
// Drawing costs pixels, not operators: every device line and the band below it are rasterised per pixel row into
// the frame's scanlines, where an operator narrower than a pixel sets one pixel, so 1,024 devices × 2,000 operators
// paint in tens of ms. Drag in the plot zooms to the brushed range, double-click zooms out, hovering an operator
// shows its name, device and times, clicking a device line selects it. GUI thread only.
class MareyChart : public ChartWidget {
    Q_OBJECT
public:
    // One device's blocks, each a ratio in [0, 1] or nullopt when unknown.
    struct Blocks {
        std::optional<double> flops, flopsPerSecond, memory;
        // The memory line: the device's memory in use over the step (MB, epoch ns as the operators), from
        // memory_record; empty when the rank's memory files are not loaded or hold nothing in the step.
        std::vector<core::CurvePoint> memoryLine;
        std::string memorySeries; // what the line shows, e.g. "PTA+GE allocated"
    };
    static constexpr int kLabelWidth = 118; // the left column: stage labels, device labels, blocks (px)
    static constexpr int kAxisHeight = 22; // the time axis above the plot (px)
    static constexpr int kStageGap = 16; // the stage label row between stages (px)
    static constexpr int kMaxLinePitch = 64; // device lines never further apart than this (px)
    static constexpr int kTickLabelOverhang = 6; // px a tick label may reach left of the plot, into the label column

    explicit MareyChart(QWidget* parent = nullptr);
    // An operator kind's bar colour (the legend uses it too).
    static QColor kindColour(query::MareyOpKind kind);
    // The FLOPs line's colour (the tutorial's purple).
    static QColor flopsLineColour();
    // The memory line's colour (the tutorial's blue).
    static QColor memoryLineColour();

    // New data: the view shows the whole step, or keeps its zoom when the data is the same step again (more ranks
    // arrived); the highlight is cleared. blocks: per device of step (may be shorter: unknown).
    void setStep(std::shared_ptr<const query::MareyStep> step, std::vector<Blocks> blocks = {});
    const query::MareyStep* step() const { return m_step.get(); }
    void setBlocks(std::vector<Blocks> blocks);
    const std::vector<Blocks>& blocks() const { return m_blocks; }

    void setTimeMode(query::MareyTime mode);
    query::MareyTime timeMode() const { return m_time; }
    // A step of more device lines than this opens with each stage of several devices collapsed to one line of unions
    // (1,024 ranks drew a solid hatch, one pixel per device), until stages are collapsed or expanded by hand.
    static constexpr int kAutoCollapseDevices = 64;
    void setStageCollapsed(int stage, bool collapsed);
    bool isStageCollapsed(int stage) const { return m_collapsed.count(stage) > 0; }
    // The finding drawn highlighted (its operator outlined on its device or on every device of its stage).
    void setHighlight(std::optional<query::MareyFinding> finding);
    void setSelectedRank(std::optional<int64_t> rank);

    // The visible time window (on the current time mode's axis).
    core::TimeAxis& axis() { return m_axis; }
    void zoomTo(int64_t begin, int64_t end);
    void zoomOut();

    // Paints the chart at the widget's size (the bench paints into a QImage through this).
    void paint(QPainter& painter);
    // The naive frame the bench compares against: every operator and polygon drawn as a QPainter shape.
    void paintNaive(QPainter& painter);

    // Pixel row of a device's line (−1 when its stage is collapsed: the stage's line), and of a collapsed stage.
    int deviceY(int device) const;
    int stageLabelY(int stage) const;
    // The device whose line is nearest to y (within half a pitch), −1 for none.
    int deviceAtY(int y) const;

    // A labelled tick of the time axis: its x (widget px), its label (one unit and one precision along the axis,
    // TimeFormat::axisTick) and the label's rectangle, centred on the tick. Ticks whose label would be cut at the
    // plot's ends carry no label (empty text). Left to right.
    struct AxisTick {
        double x = 0;
        QString text;
        QRectF rect;
    };
    std::vector<AxisTick> axisTicks() const;
    // The smaller font of the label column and the axis.
    QFont labelFont() const;

    int itemAt(const QPoint& pos) const override;
    QString itemToolTip(int item) const override;

signals:
    void rankClicked(qint64 rank);
    void stageToggled(int stage, bool collapsed);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    struct Row {
        int stage = 0;
        int device = -1; // −1: the stage's collapsed line
        double y = 0;
    };
    struct Hit {
        int device = -1; // −1 with stage set: a collapsed line
        int stage = -1;
        int op = -1; // index into the device's ops, or into the stage's collapsed ops
    };
    void layoutRows();
    void resetAxis();
    void rasterise(QImage& image);
    void drawOverlay(QPainter& painter);
    void drawLabels(QPainter& painter);
    // The FLOPs line above each expanded device (operators with kernel FLOPs only).
    void drawFlopsLines(QPainter& painter, const QRect& plot);
    // The memory line above each expanded device whose memory records are loaded, from its smallest to its largest.
    void drawMemoryLines(QPainter& painter, const QRect& plot);
    const Blocks& blocksOf(int device) const;
    void drawAxis(QPainter& painter);
    const std::vector<query::MareyCollapsedOp>& collapsedOps(int stage) const;
    std::optional<Hit> hitAt(const QPoint& pos) const;
    int stageLabelAt(const QPoint& pos) const;

    std::shared_ptr<const query::MareyStep> m_step;
    std::vector<Blocks> m_blocks;
    query::MareyTime m_time = query::MareyTime::Absolute;
    std::set<int> m_collapsed;
    bool m_collapseChosen = false; // setStageCollapsed was called: no automatic collapse from then on
    mutable std::vector<std::vector<query::MareyCollapsedOp>> m_collapsedOps; // per stage, built when first drawn
    mutable std::vector<bool> m_collapsedBuilt;
    std::optional<query::MareyFinding> m_highlight;
    std::optional<int64_t> m_selectedRank;
    core::TimeAxis m_axis;
    std::vector<Row> m_rows; // drawn lines top to bottom
    std::vector<int> m_rowOfDevice; // device → index into m_rows (the collapsed line for a collapsed stage)
    std::vector<double> m_stageLabelY; // per stage
    double m_pitch = 0; // px between device lines
    mutable std::vector<Hit> m_hits; // hit items handed to ChartWidget (itemAt returns their index)
    QImage m_frame; // the rasterised frame, kept between paints (its allocation is reused)
    std::optional<int> m_brushFrom; // x where a drag started
    int m_brushTo = 0;
};

} // namespace npuscope::gui

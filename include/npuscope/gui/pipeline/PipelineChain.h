// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/ChartWidget.h"
#include "npuscope/query/PipelineQuery.h"

#include <QRectF>

#include <optional>
#include <vector>

namespace npuscope::gui {

// One rank's dataset operators drawn as a chain of boxes from left to right: the sources (deepest operators) in the
// first column, each operator's parent one column to its right, the root, then the device queue. A box shows the
// operator type, id and workers, and a bar of its output queue usage; the bottleneck operator is outlined in the
// warning colour. Items are operator indexes into pipeline().ops, and ops.size() for the device queue box.
// GUI thread only.
class PipelineChain : public ChartWidget {
    Q_OBJECT
public:
    explicit PipelineChain(QWidget* parent = nullptr);

    void setPipeline(std::optional<query::RankPipeline> pipeline);
    const std::optional<query::RankPipeline>& pipeline() const { return m_pipeline; }
    // The boxes as last laid out (widget px), operators then the device queue box; empty without a pipeline.
    const std::vector<QRectF>& boxes() const { return m_boxes; }

    int itemAt(const QPoint& pos) const override;
    QString itemToolTip(int item) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void layoutBoxes();
    void drawBox(QPainter& p, int item) const;
    void drawDeviceQueue(QPainter& p) const;
    // A box (pen and brush as the caller set them) with its title font (bold) and the text colour role set; the
    // area inside its padding.
    QRectF drawBoxFrame(QPainter& p, const QRectF& box, QPalette::ColorRole text) const;
    // The widget's font, bold: a box's title.
    QFont titleFont() const;

    std::optional<query::RankPipeline> m_pipeline;
    std::vector<QRectF> m_boxes;
};

} // namespace npuscope::gui

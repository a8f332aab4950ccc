// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/StepQuery.h"

#include "npuscope/gui/common/ChartWidget.h"

#include <QColor>

#include <optional>
#include <vector>

class QPainter;

namespace npuscope::gui {

// A donut of one StepSplit (computing, overlapped, communication, free, preparing) with the step
// wall time in the middle and a legend giving each part in ms and percent; hovering a slice gives its value and share.
// The slices are drawn and hit-tested by PieChart's shared geometry. GUI thread only.
class StepSplitPie : public ChartWidget {
    Q_OBJECT
public:
    explicit StepSplitPie(QWidget* parent = nullptr);

    // nullopt shows a placeholder text.
    void setSplit(const std::optional<query::StepSplit>& split, const QString& title);
    const std::optional<query::StepSplit>& split() const { return m_split; }
    QString title() const { return m_title; }

    // Items are SplitParts::Part values.
    int itemAt(const QPoint& pos) const override;
    QString itemToolTip(int part) const override;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<int64_t> partValues() const;
    static std::vector<QColor> partColors();

    // The legend's column widths and size (defined in the .cpp).
    struct Legend;
    // The legend for a body bodyWidth px wide: beside the pie when it fits, else under it with the names elided.
    Legend legendLayout(int bodyWidth) const;
    // Where the pie goes in body (returned) and the legend's top-left corner.
    static QRect pieLayout(const QRect& body, const Legend& legend, QPoint& legendTopLeft);
    // The parts of paintEvent: the title (returns its height), the donut with the total in its hole, the legend's part
    // rows (returns the y under them), its total row, and the ascend_cluster_analyse rows under the total.
    int paintTitle(QPainter& p, const QRect& area) const;
    void paintDonut(QPainter& p, const QRect& pieRect, int64_t total) const;
    int paintLegendParts(QPainter& p, const QPoint& topLeft, const Legend& legend, int64_t total) const;
    void paintLegendTotal(QPainter& p, int x, int y, const Legend& legend, int64_t total) const;
    void paintAnalyseRows(QPainter& p, int x, int y, const Legend& legend) const;

    std::optional<query::StepSplit> m_split;
    // Where the pie was last drawn (hit testing); empty when none is.
    QRect m_pieRect;
    QString m_title;
};

} // namespace npuscope::gui

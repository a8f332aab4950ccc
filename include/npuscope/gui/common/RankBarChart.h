// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/StepQuery.h"

#include "npuscope/gui/common/ChartWidget.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace npuscope::gui {

// One horizontal stacked bar per rank (the StepSplit parts), top to bottom in the given order.
// Rows shrink to fit the available height down to kMinRowHeight px (1,000 ranks stay one
// scrollable picture); rank labels are then drawn every N rows. Hover shows the rank's values,
// a click emits rankClicked. Meant to live in a QScrollArea with widgetResizable. GUI thread only.
class RankBarChart : public ChartWidget {
    Q_OBJECT
public:
    struct Bar {
        int64_t rank = 0;
        query::StepSplit split;
    };
    static constexpr int kMinRowHeight = 2;
    static constexpr int kMaxRowHeight = 34;

    explicit RankBarChart(QWidget* parent = nullptr);

    void setBars(std::vector<Bar> bars);
    const std::vector<Bar>& bars() const { return m_bars; }
    void setSelectedRank(std::optional<int64_t> rank);
    std::optional<int64_t> selectedRank() const { return m_selectedRank; }
    // Height of the scroll area viewport; rows are sized to fill it when possible.
    void setAvailableHeight(int height);

    int rowHeight() const { return m_rowHeight; }
    // Labels are drawn on every labelEvery()-th row, and on the selected rank's row (a scale label it would cover is
    // left out).
    int labelEvery() const;
    // The rectangles of every rank label the chart draws (widget px, top to bottom); they never intersect.
    std::vector<QRect> labelRects() const;
    // Index into bars() at a widget y coordinate, -1 outside the bars.
    int barAt(int y) const;
    QString toolTipFor(int barIndex) const;
    int itemAt(const QPoint& pos) const override { return barAt(pos.y()); }
    QString itemToolTip(int item) const override { return toolTipFor(item); }

    QSize sizeHint() const override;

signals:
    void rankClicked(qint64 rank);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void relayout();
    int labelWidth() const;
    int topMargin() const;
    QRect labelRect(int barIndex) const;
    bool labelShown(int barIndex, int every) const;
    double axisStep(double maxValue, int pixels) const;

    std::vector<Bar> m_bars;
    std::optional<int64_t> m_selectedRank;
    int m_availableHeight = 400;
    int m_rowHeight = kMaxRowHeight;
    int64_t m_maxTotal = 0;
};

} // namespace npuscope::gui

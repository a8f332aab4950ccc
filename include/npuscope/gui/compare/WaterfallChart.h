// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/ChartWidget.h"
#include "npuscope/query/compare/RunComparison.h"

#include <QString>

#include <vector>

namespace npuscope::gui {

// The cluster step breakdown of a comparison as a waterfall: the base step, each component's change (computing,
// communication not overlapped, free, preparing, and "other" when they do not add up to the step change) floating
// from the running total, then the new step. Bubble is drawn as a hatched bar beside the running total: it lies
// inside the other components, so it does not move the total. Values in ms. GUI thread only.
class WaterfallChart : public ChartWidget {
    Q_OBJECT
public:
    struct Bar {
        QString label;
        double from = 0; // ms where the bar starts (the running total before it)
        double to = 0; // ms where it ends
        enum Kind { Total, Delta, Inside } kind = Delta;
    };

    explicit WaterfallChart(QWidget* parent = nullptr);

    // Rebuilds the bars from a comparison's cluster figures; an empty diff (no matched rank) shows nothing.
    void setDiff(const query::RunDiff& diff);
    const std::vector<Bar>& bars() const { return m_bars; }
    // The axis' floor in ms: 0 unless every change is under 8 % of the step (then truncated() and the chart says so).
    double axisFloorMs() const { return m_lo; }
    bool truncated() const { return m_truncated; }

    int itemAt(const QPoint& pos) const override;
    QString itemToolTip(int item) const override;
    QSize sizeHint() const override { return { 520, 220 }; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QRect barRect(int i) const;
    double yOf(double ms) const;

    std::vector<Bar> m_bars;
    double m_lo = 0, m_hi = 1, m_step = 1; // axis range and tick step, ms
    bool m_truncated = false; // the axis starts above zero (said on the chart, break marks on the totals)
};

} // namespace npuscope::gui

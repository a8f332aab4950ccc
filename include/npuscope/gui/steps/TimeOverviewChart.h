// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"

#include "npuscope/gui/common/ChartWidget.h"
#include <QColor>
#include <QPoint>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

class QPainter;

namespace npuscope::gui {

// Per-step chart with two y axes. Left: the step time over ranks as a min–max band with the
// median and the slowest rank's line. Right: the mean communication time and mean wait time per
// rank. Hover shows a step's values; a click emits stepClicked. GUI thread only.
class TimeOverviewChart : public ChartWidget {
    Q_OBJECT
public:
    explicit TimeOverviewChart(QWidget* parent = nullptr);

    void setOverview(query::TimeOverview overview);
    const query::TimeOverview& overview() const { return m_overview; }
    void setSelectedStep(std::optional<int64_t> step);
    // Axes from 0 (default), or each fitted to its series (a whole number of 1-2-5 steps around them): ranks within
    // a few per cent of each other draw the min–max band, the median and the slowest rank as one line from 0.
    void setFitToData(bool fit);
    bool fitToData() const { return m_fit; }
    // The value range of the left / right axis as drawn by the last paint (for tests).
    std::pair<double, double> leftRange() const { return m_leftRange; }
    std::optional<int64_t> selectedStep() const { return m_selected; }
    // Index into overview().steps at a widget x, -1 outside the plot.
    int stepIndexAt(const QPoint& pos) const;
    int itemAt(const QPoint& pos) const override { return stepIndexAt(pos); }
    QString itemToolTip(int item) const override { return toolTipFor(item); }
    QString toolTipFor(int index) const;
    QRect plotRect() const;
    // Whether any step has a mean communication / mean wait figure; without either the right axis is not drawn.
    bool hasCommSeries() const;
    bool hasWaitSeries() const;
    bool hasCommunication() const { return hasCommSeries() || hasWaitSeries(); }
    // The legend as drawn: (label, colour), the communication entries only for series with data.
    std::vector<std::pair<QString, QColor>> legendEntries() const;
    // Where each legend entry starts (its swatch), in legendEntries() order: rows wrapped to the chart's width.
    std::vector<QPoint> legendPositions() const;
    QSize sizeHint() const override { return { 640, 320 }; }

signals:
    void stepClicked(qint64 step);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    // One paint's plot rectangle and axis scales (defined in the .cpp).
    struct Frame;
    // Both axes fitted to the steps (from 0, or around the data with setFitToData): a whole number of 1-2-5 steps.
    Frame scaleFrame(const QRect& plot) const;
    // The parts of paintEvent, in drawing order.
    void paintAxes(QPainter& p, const Frame& f) const;
    void paintStepBands(QPainter& p, const Frame& f) const;
    void paintMinMax(QPainter& p, const Frame& f) const;
    void paintSeries(QPainter& p, const Frame& f) const;
    void paintStepLabels(QPainter& p, const Frame& f) const;
    void paintLegend(QPainter& p) const;

    query::TimeOverview m_overview;
    std::optional<int64_t> m_selected;
    bool m_fit = false;
    std::pair<double, double> m_leftRange { 0, 0 };
};

} // namespace npuscope::gui

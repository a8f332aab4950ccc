// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/steps/TimeOverviewChart.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace npuscope::gui {

namespace {

const QColor kBand(66, 133, 244, 60);
const QColor kMedian(66, 133, 244);
const QColor kSlowest(200, 30, 40);
const QColor kComm(52, 168, 83);
const QColor kWait(245, 150, 30);

// The width of a step's min–max box (slot: px per step); the selection band around it is a few of these wide.
double boxWidth(double slot) { return std::min(28.0, slot * 0.3); }

} // namespace

TimeOverviewChart::TimeOverviewChart(QWidget* parent)
    : ChartWidget(parent, { .objectName = "timeOverviewChart", .hover = true, .minimumSize = { 320, 200 } })
{
    connect(this, &ChartWidget::itemClicked, this,
        [this](int item) { emit stepClicked(m_overview.steps[static_cast<size_t>(item)].step); });
}

void TimeOverviewChart::setOverview(query::TimeOverview overview)
{
    m_overview = std::move(overview);
    resetHover();
    update();
}

void TimeOverviewChart::setFitToData(bool fit)
{
    if (fit == m_fit)
        return;
    m_fit = fit;
    update();
}

void TimeOverviewChart::setSelectedStep(std::optional<int64_t> step)
{
    m_selected = step;
    update();
}

std::vector<QPoint> TimeOverviewChart::legendPositions() const
{
    // From the plot's left edge, one entry after the other; an entry that would pass the right edge starts a new row
    // (a narrow window: the legend used to run off the chart at "mea").
    const QFontMetrics fm = fontMetrics();
    const int left = fm.horizontalAdvance(QStringLiteral("888.88 ms")) + 14;
    std::vector<QPoint> out;
    int x = left;
    int y = 4;
    for (const auto& entry : legendEntries()) {
        const int w = 18 + fm.horizontalAdvance(entry.first);
        if (x > left && x + w > width() - 4) {
            x = left;
            y += fm.height() + 2;
        }
        out.emplace_back(x, y);
        x += w + 14;
    }
    return out;
}

QRect TimeOverviewChart::plotRect() const
{
    const QFontMetrics fm = fontMetrics();
    const int side = fm.horizontalAdvance(QStringLiteral("888.88 ms")) + 14;
    const auto legend = legendPositions();
    const int legendBottom = legend.empty() ? 4 + fm.height() : legend.back().y() + fm.height();
    // Below the legend: the axis titles, then the top tick labels (centred on the plot's top edge).
    const int top = legendBottom + fm.height() + 14;
    return { side, top, std::max(10, width() - 2 * side), std::max(10, height() - top - fm.height() * 2 - 10) };
}

int TimeOverviewChart::stepIndexAt(const QPoint& pos) const
{
    const QRect plot = plotRect();
    const int n = static_cast<int>(m_overview.steps.size());
    if (n == 0 || pos.x() < plot.left() || pos.x() >= plot.right() || pos.y() < plot.top() - 10
        || pos.y() > plot.bottom() + 20)
        return -1;
    return std::clamp(static_cast<int>((pos.x() - plot.left()) * n / plot.width()), 0, n - 1);
}

QString TimeOverviewChart::toolTipFor(int index) const
{
    if (index < 0 || index >= static_cast<int>(m_overview.steps.size()))
        return {};
    const auto& s = m_overview.steps[static_cast<size_t>(index)];
    auto ms = [](double ns) {
        return TimeFormat::withUnit(static_cast<int64_t>(std::llround(ns)), TimeFormat::Unit::Milliseconds);
    };
    QString html = tr("<b>Step %1</b> (%2 ranks)<table>").arg(s.step).arg(s.ranks);
    auto row = [&html](const QString& k, const QString& v) {
        html += QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td></tr>").arg(k, v);
    };
    if (s.ranks > 0) {
        row(tr("Step time max (rank %1)").arg(s.maxRank), ms(static_cast<double>(s.maxNs)));
        row(tr("Step time median"), ms(static_cast<double>(s.medianNs)));
        row(tr("Step time min (rank %1)").arg(s.minRank), ms(static_cast<double>(s.minNs)));
    } else {
        row(tr("Step time"), tr("no step trace row for this step"));
    }
    if (s.slowestRankNs && m_overview.slowestRank)
        row(tr("Slowest rank %1").arg(*m_overview.slowestRank), ms(static_cast<double>(*s.slowestRankNs)));
    row(tr("Mean communication"), s.meanCommNs ? ms(*s.meanCommNs) : TimeFormat::kAbsent);
    row(tr("Mean wait"), s.meanWaitNs ? ms(*s.meanWaitNs) : TimeFormat::kAbsent);
    return html
        + tr("</table>Step time = step wall time: Computing + Communication(Not Overlapped) + Free + Preparing "
             "(not Stage)<br><i>click: select this step</i>");
}

// One paint's plot and axis scales: where a step's centre is and where a value lies on the left (step time) or the
// right (communication) axis.
struct TimeOverviewChart::Frame {
    QRect plot;
    double slot = 0; // px per step
    int ticks = 1; // gridline intervals, the same on both axes
    double leftLow = 0, leftMax = 0, leftStep = 0;
    double rightLow = 0, rightMax = 0, rightStep = 0;

    double x(int i) const { return plot.left() + (i + 0.5) * slot; }
    double yLeft(double v) const { return plot.bottom() - (v - leftLow) / (leftMax - leftLow) * plot.height(); }
    double yRight(double v) const { return plot.bottom() - (v - rightLow) / (rightMax - rightLow) * plot.height(); }
};

TimeOverviewChart::Frame TimeOverviewChart::scaleFrame(const QRect& plot) const
{
    const auto& steps = m_overview.steps;
    double leftMax = 0, rightMax = 0;
    double leftMin = std::numeric_limits<double>::infinity(), rightMin = leftMin;
    for (const auto& s : steps) {
        leftMax = std::max(leftMax, static_cast<double>(s.maxNs));
        leftMin = std::min(leftMin, static_cast<double>(s.minNs));
        rightMax = std::max({ rightMax, s.meanCommNs.value_or(0), s.meanWaitNs.value_or(0) });
        for (const auto& v : { s.meanCommNs, s.meanWaitNs }) {
            if (v)
                rightMin = std::min(rightMin, *v);
        }
    }
    if (!m_fit || !std::isfinite(leftMin))
        leftMin = 0;
    if (!m_fit || !std::isfinite(rightMin))
        rightMin = 0;
    // Gridlines on 1-2-5 multiples of the left axis's step; the right axis gets as many, on its own 1-2-5 step. Fitted
    // to the data, each axis starts at the multiple of its step at or below its smallest value.
    Frame f;
    f.plot = plot;
    f.slot = static_cast<double>(plot.width()) / static_cast<int>(steps.size());
    f.leftStep = niceStep(std::max(leftMax - leftMin, leftMax * 1e-3), 4);
    f.leftLow = std::floor(leftMin / f.leftStep) * f.leftStep;
    f.ticks = std::max(1, static_cast<int>(std::ceil((leftMax - f.leftLow) / f.leftStep - 1e-9)));
    f.rightStep = niceStep(std::max(rightMax - rightMin, rightMax * 1e-3), f.ticks);
    f.rightLow = std::floor(rightMin / f.rightStep) * f.rightStep;
    while (f.rightLow + f.rightStep * f.ticks < rightMax - 1e-9) { // flooring the start can leave the top short
        f.rightStep = niceStep(f.rightStep * 1.01 * f.ticks, f.ticks);
        f.rightLow = std::floor(rightMin / f.rightStep) * f.rightStep;
    }
    f.leftMax = f.leftLow + f.leftStep * f.ticks;
    f.rightMax = f.rightLow + f.rightStep * f.ticks;
    return f;
}

void TimeOverviewChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (m_overview.steps.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No steps"));
        return;
    }
    const Frame f = scaleFrame(plotRect());
    m_leftRange = { f.leftLow, f.leftMax };
    paintAxes(p, f);
    paintStepBands(p, f);
    p.setRenderHint(QPainter::Antialiasing, true);
    paintMinMax(p, f);
    paintSeries(p, f);
    p.setRenderHint(QPainter::Antialiasing, false);
    paintStepLabels(p, f);
    paintLegend(p);
}

void TimeOverviewChart::paintAxes(QPainter& p, const Frame& f) const
{
    const QFontMetrics fm = fontMetrics();
    const QRect& plot = f.plot;
    // Grid and both axes.
    for (int k = 0; k <= f.ticks; ++k) {
        const double y = plot.bottom() - k * plot.height() / static_cast<double>(f.ticks);
        p.setPen(QPen(gridColor(), 1));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(kMedian.darker(130));
        const QString l = TimeFormat::axisTick(f.leftLow + f.leftStep * k, f.leftStep);
        p.drawText(
            QRectF(0, y - fm.height() / 2.0, plot.left() - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter, l);
        if (!hasCommunication())
            continue;
        p.setPen(kComm.darker(130));
        p.drawText(QRectF(plot.right() + 6, y - fm.height() / 2.0, width() - plot.right() - 6, fm.height()),
            Qt::AlignLeft | Qt::AlignVCenter, TimeFormat::axisTick(f.rightLow + f.rightStep * k, f.rightStep));
    }
    p.setPen(kMedian.darker(130));
    // Axis titles above the top tick labels (which are centred on the plot's top edge).
    const int titleBaseline = plot.top() - fm.height() / 2 - 4;
    // Which step time: the step wall time (Stage, the other step_trace figure, is shorter by Preparing and Bubble).
    p.drawText(QPoint(4, titleBaseline), tr("step wall time"));
    // No communication data: no right axis (a 0–1 ns scale would read as measured zeros).
    if (hasCommunication()) {
        p.setPen(kComm.darker(130));
        const QString rightTitle = hasCommSeries() && hasWaitSeries() ? tr("comm / wait")
            : hasCommSeries()                                         ? tr("comm")
                                                                      : tr("wait");
        p.drawText(QPoint(width() - fm.horizontalAdvance(rightTitle) - 4, titleBaseline), rightTitle);
    }
}

void TimeOverviewChart::paintStepBands(QPainter& p, const Frame& f) const
{
    // Selected and hovered steps: a band around the step's box, at most a few box widths wide (one step alone must
    // not wash the whole plot), in the palette's highlight colour.
    const auto& steps = m_overview.steps;
    const double bandW = std::min(f.slot, std::max(3.0 * boxWidth(f.slot), 48.0));
    const QColor selectedFill = selectionColor();
    QColor hoveredFill = palette().color(QPalette::Text);
    hoveredFill.setAlpha(18);
    for (int i = 0; i < static_cast<int>(steps.size()); ++i) {
        const bool selected = m_selected && *m_selected == steps[static_cast<size_t>(i)].step;
        if (selected || i == hoveredItem())
            p.fillRect(QRectF(f.x(i) - bandW / 2, f.plot.top(), bandW, f.plot.height()),
                selected ? selectedFill : hoveredFill);
    }
}

void TimeOverviewChart::paintMinMax(QPainter& p, const Frame& f) const
{
    // Min–max band (a polygon across steps, plus a box per step so a single step shows too).
    const auto& steps = m_overview.steps;
    // Steps with communication ops but no step trace row (ranks == 0) have no step time: no band, box or median.
    std::vector<int> timed;
    for (int i = 0; i < static_cast<int>(steps.size()); ++i) {
        if (steps[static_cast<size_t>(i)].ranks > 0)
            timed.push_back(i);
    }
    if (timed.size() > 1) {
        QPainterPath band;
        band.moveTo(f.x(timed.front()), f.yLeft(static_cast<double>(steps[static_cast<size_t>(timed.front())].maxNs)));
        for (size_t k = 1; k < timed.size(); ++k)
            band.lineTo(f.x(timed[k]), f.yLeft(static_cast<double>(steps[static_cast<size_t>(timed[k])].maxNs)));
        for (auto it = timed.rbegin(); it != timed.rend(); ++it)
            band.lineTo(f.x(*it), f.yLeft(static_cast<double>(steps[static_cast<size_t>(*it)].minNs)));
        band.closeSubpath();
        p.fillPath(band, kBand);
    }
    const double boxW = boxWidth(f.slot);
    for (int i : timed) {
        const auto& s = steps[static_cast<size_t>(i)];
        const QRectF box(QPointF(f.x(i) - boxW / 2, f.yLeft(static_cast<double>(s.maxNs))),
            QPointF(f.x(i) + boxW / 2, f.yLeft(static_cast<double>(s.minNs))));
        p.fillRect(box, kBand);
        p.setPen(QPen(kMedian, 1));
        p.drawRect(box);
        p.setPen(QPen(kMedian, 2));
        p.drawLine(QPointF(box.left(), f.yLeft(static_cast<double>(s.medianNs))),
            QPointF(box.right(), f.yLeft(static_cast<double>(s.medianNs))));
    }
}

void TimeOverviewChart::paintSeries(QPainter& p, const Frame& f) const
{
    const auto& steps = m_overview.steps;
    // One series: a dot per step that has a value (value gives its y, nullopt for none), joined by a line.
    auto polyline = [&](const QColor& color, Qt::PenStyle style, auto value) {
        QPainterPath path;
        bool started = false;
        for (int i = 0; i < static_cast<int>(steps.size()); ++i) {
            const std::optional<double> v = value(steps[static_cast<size_t>(i)]);
            if (!v)
                continue;
            const QPointF pt(f.x(i), *v);
            if (started)
                path.lineTo(pt);
            else
                path.moveTo(pt);
            started = true;
            p.setPen(Qt::NoPen);
            p.setBrush(color);
            p.drawEllipse(pt, 3.5, 3.5);
        }
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(color, 2, style));
        p.drawPath(path);
    };
    polyline(kMedian, Qt::SolidLine, [&](const query::StepOverview& s) {
        return s.ranks > 0 ? std::optional<double>(f.yLeft(static_cast<double>(s.medianNs))) : std::nullopt;
    });
    polyline(kSlowest, Qt::DashLine, [&](const query::StepOverview& s) {
        return s.slowestRankNs ? std::optional<double>(f.yLeft(static_cast<double>(*s.slowestRankNs))) : std::nullopt;
    });
    polyline(kComm, Qt::SolidLine, [&](const query::StepOverview& s) {
        return s.meanCommNs ? std::optional<double>(f.yRight(*s.meanCommNs)) : std::nullopt;
    });
    polyline(kWait, Qt::SolidLine, [&](const query::StepOverview& s) {
        return s.meanWaitNs ? std::optional<double>(f.yRight(*s.meanWaitNs)) : std::nullopt;
    });
}

void TimeOverviewChart::paintStepLabels(QPainter& p, const Frame& f) const
{
    // Step numbers under the plot: every step, or every 2nd, 4th, … when they would not fit.
    const QFontMetrics fm = fontMetrics();
    const auto& steps = m_overview.steps;
    p.setPen(palette().color(QPalette::WindowText));
    int every = 1;
    while (every * f.slot < fm.horizontalAdvance(QStringLiteral("8888")) + 8)
        every *= 2;
    for (int i = 0; i < static_cast<int>(steps.size()); i += every)
        p.drawText(QRectF(f.x(i) - f.slot * every / 2, f.plot.bottom() + 4, f.slot * every, fm.height()),
            Qt::AlignHCenter, QString::number(steps[static_cast<size_t>(i)].step));
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawRect(f.plot.adjusted(0, 0, -1, -1));
}

void TimeOverviewChart::paintLegend(QPainter& p) const
{
    const QFontMetrics fm = fontMetrics();
    const auto entries = legendEntries();
    const auto at = legendPositions();
    for (size_t k = 0; k < entries.size(); ++k) {
        const auto& [label, color] = entries[k];
        const QPoint pos = at[k];
        p.fillRect(
            QRect(pos.x(), pos.y() + 2, 14, fm.height() - 4), color.alpha() < 255 ? QColor(66, 133, 244, 110) : color);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QPoint(pos.x() + 18, pos.y() + fm.ascent()), label);
    }
}

bool TimeOverviewChart::hasCommSeries() const
{
    return std::any_of(m_overview.steps.begin(), m_overview.steps.end(), [](const auto& s) { return s.meanCommNs; });
}

bool TimeOverviewChart::hasWaitSeries() const
{
    return std::any_of(m_overview.steps.begin(), m_overview.steps.end(), [](const auto& s) { return s.meanWaitNs; });
}

std::vector<std::pair<QString, QColor>> TimeOverviewChart::legendEntries() const
{
    const QString slowest
        = m_overview.slowestRank ? tr("slowest rank %1").arg(*m_overview.slowestRank) : tr("slowest rank");
    std::vector<std::pair<QString, QColor>> out { { tr("min\u2013max over ranks"), kBand }, { tr("median"), kMedian },
        { slowest, kSlowest } };
    // Only the series that have data (a load without communication has neither).
    if (hasCommSeries())
        out.emplace_back(tr("mean communication (right)"), kComm);
    if (hasWaitSeries())
        out.emplace_back(tr("mean wait (right)"), kWait);
    return out;
}

} // namespace npuscope::gui

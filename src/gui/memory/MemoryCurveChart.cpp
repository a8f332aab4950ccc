// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/memory/MemoryCurveChart.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace npuscope::gui {

namespace {

constexpr int kLeftMargin = 70;
constexpr int kRightMargin = 14;
constexpr int kAxisHeight = 22;
constexpr int kStepLabelHeight = 16;
constexpr int kLegendSwatch = 18;
constexpr int kDragThresholdPx = 3;

QColor componentColor(const std::string& component, size_t index)
{
    if (component == "APP")
        return QColor(0x8c, 0x8c, 0x8c); // a mid grey: readable on the light and the dark base
    if (component == "PTA+GE")
        return QColor(0x7b, 0x3f, 0xb0);
    if (component == "PTA")
        return QColor(0x1f, 0x6f, 0xc0);
    if (component == "GE")
        return QColor(0x2e, 0x9e, 0x4f);
    return QColor::fromHsv(static_cast<int>((index * 67 + 20) % 360), 200, 190);
}

// One-pixel solid pens only: a wide or dashed pen makes the raster engine stroke every segment as a path, several
// times slower on a frame of tens of thousands of vertices (npuscope-bench memory). Colour = component, and the metric
// moves it: reserved the component's colour, allocated a neighbour hue on one side, active a paler one on the other
// (lighter tints of one hue were one colour, on the dark base above all). On the dark base every colour is at full
// brightness.
QPen penOf(const MemoryCurveChart::Series& s, bool darkBase)
{
    const QColor c = s.color.toHsv();
    if (c.hsvSaturation() < 40) // APP's grey (APP has reserved only): a lighter grey on the dark base
        return QPen(darkBase ? s.color.lighter(125) : s.color, 0);
    const int h = c.hsvHue();
    const int sat = c.hsvSaturation();
    const int val = c.value();
    const auto shifted = [h](int by) { return (h + by + 360) % 360; };
    switch (s.curve.metric) {
    case query::MemoryMetric::Reserved:
        return QPen(darkBase ? QColor::fromHsv(h, sat, 255) : s.color, 0);
    case query::MemoryMetric::Allocated:
        return QPen(darkBase ? QColor::fromHsv(shifted(-22), sat * 75 / 100, 255)
                             : QColor::fromHsv(shifted(-22), sat, std::min(255, val * 115 / 100)),
            0);
    case query::MemoryMetric::Active:
        return QPen(darkBase ? QColor::fromHsv(shifted(22), sat * 32 / 100, 255)
                             : QColor::fromHsv(shifted(22), sat * 45 / 100, std::min(255, val * 125 / 100)),
            0);
    }
    return QPen(s.color, 0);
}

QString seriesName(const MemoryCurveChart::Series& s)
{
    return QString::fromStdString(s.curve.component) + QLatin1Char(' ')
        + QCoreApplication::translate("MemoryMetric", query::memoryMetricName(s.curve.metric));
}

QString mb(double v) { return QStringLiteral("%1 MB").arg(v, 0, 'f', v >= 100 ? 1 : 3); }

// The points of [from, to) whose times fall in [t0, t1], plus one on each side so the step line reaches the edges.
std::span<const core::CurvePoint> visiblePart(const std::vector<core::CurvePoint>& pts, int64_t t0, int64_t t1)
{
    auto less = [](const core::CurvePoint& p, int64_t t) { return p.t < t; };
    auto first = std::lower_bound(pts.begin(), pts.end(), t0, less);
    auto last = std::lower_bound(first, pts.end(), t1, less);
    if (first != pts.begin())
        --first;
    if (last != pts.end())
        ++last;
    return { pts.data() + (first - pts.begin()), static_cast<size_t>(last - first) };
}

} // namespace

std::vector<MemoryCurveChart::Series> MemoryCurveChart::prepare(
    std::vector<query::MemoryCurve> curves, size_t reduceAbove)
{
    size_t total = 0;
    for (const auto& c : curves)
        total += c.points.size();
    std::vector<Series> out;
    std::vector<std::string> components;
    for (auto& c : curves) {
        Series s;
        auto at = std::find(components.begin(), components.end(), c.component);
        if (at == components.end())
            at = components.insert(components.end(), c.component);
        s.color = componentColor(c.component, static_cast<size_t>(at - components.begin()));
        // Above reduceAbove points in all, each series keeps an overview of its share of reduceAbove.
        if (total > reduceAbove) {
            const size_t share = std::max<size_t>(4, reduceAbove * c.points.size() / std::max<size_t>(1, total));
            if (c.points.size() > share)
                s.overview = core::downsampleLttb(c.points, share);
        }
        const auto& finest = s.overview.empty() ? c.points : s.overview;
        if (finest.size() > kCoarsePoints)
            s.coarse = core::downsampleLttb(finest, kCoarsePoints);
        for (const auto& p : c.points)
            s.maxValue = std::max(s.maxValue, p.v);
        s.curve = std::move(c);
        out.push_back(std::move(s));
    }
    return out;
}

MemoryCurveChart::MemoryCurveChart(QWidget* parent)
    : ChartWidget(parent, { .objectName = "memoryCurveChart", .hover = true })
{
}

void MemoryCurveChart::setSeries(std::vector<Series> series)
{
    m_series = std::move(series);
    resetHover();
    fitAll();
}

void MemoryCurveChart::setSeriesVisible(int index, bool visible)
{
    if (index < 0 || index >= static_cast<int>(m_series.size())
        || m_series[static_cast<size_t>(index)].visible == visible)
        return;
    m_series[static_cast<size_t>(index)].visible = visible;
    m_frame.valid = false;
    update();
    emit seriesToggled(index, visible);
}

void MemoryCurveChart::setSteps(std::vector<query::MemoryStep> steps)
{
    m_steps = std::move(steps);
    update();
}

void MemoryCurveChart::setWindow(std::optional<std::pair<int64_t, int64_t>> window)
{
    m_window = window;
    update();
}

void MemoryCurveChart::setEmptyText(const QString& text)
{
    m_emptyText = text;
    update();
}

void MemoryCurveChart::fitAll()
{
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (const auto& s : m_series) {
        if (!s.curve.points.empty()) {
            lo = std::min(lo, s.curve.points.front().t);
            hi = std::max(hi, s.curve.points.back().t);
        }
    }
    if (lo > hi) {
        lo = 0;
        hi = 1;
    }
    if (hi == lo)
        hi = lo + 1;
    m_origin = lo;
    m_axis = core::TimeAxis(lo, hi, std::max(1, plotArea().width()));
    m_axis.setBounds(lo, hi);
    m_frame.valid = false;
    update();
}

QRect MemoryCurveChart::plotArea() const
{
    return QRect(kLeftMargin, m_legendHeight + kStepLabelHeight, std::max(1, width() - kLeftMargin - kRightMargin),
        std::max(1, height() - m_legendHeight - kStepLabelHeight - kAxisHeight));
}

void MemoryCurveChart::layoutLegend(const QFontMetrics& fm)
{
    m_legendRects.assign(m_series.size(), QRect());
    int x = kLeftMargin, y = 4;
    const int rowHeight = fm.height() + 4;
    for (size_t i = 0; i < m_series.size(); ++i) {
        const int w = kLegendSwatch + 4 + fm.horizontalAdvance(seriesName(m_series[i])) + 14;
        if (x + w > width() - kRightMargin && x > kLeftMargin) {
            x = kLeftMargin;
            y += rowHeight;
        }
        m_legendRects[i] = QRect(x, y, w, rowHeight);
        x += w;
    }
    m_legendHeight = m_series.empty() ? 4 : y + rowHeight + 2;
}

double MemoryCurveChart::yMaxOfVisible() const
{
    double top = 0;
    for (const auto& s : m_series) {
        if (!s.visible)
            continue;
        top = std::max(top, s.maxValue);
    }
    return top > 0 ? top * 1.05 : 1.0;
}

double MemoryCurveChart::toY(double v) const
{
    const QRect r = plotArea();
    return r.bottom() - v / m_frame.yMax * r.height();
}

void MemoryCurveChart::buildFrame()
{
    const QRect r = plotArea();
    m_axis.setWidth(r.width());
    if (m_frame.valid && m_frame.start == m_axis.start() && m_frame.windowNs == m_axis.windowNs()
        && m_frame.size == size())
        return;
    m_frame.start = m_axis.start();
    m_frame.windowNs = m_axis.windowNs();
    m_frame.size = size();
    m_frame.yMax = yMaxOfVisible();
    m_frame.lines.assign(m_series.size(), QPolygonF());
    m_frame.points = 0;
    const int64_t t0 = m_axis.start(), t1 = m_axis.end();
    const size_t target = static_cast<size_t>(std::ceil(kPointsPerPx * r.width()));
    std::vector<core::CurvePoint> reduced;
    for (size_t i = 0; i < m_series.size(); ++i) {
        const Series& s = m_series[i];
        if (!s.visible || s.curve.points.empty())
            continue;
        // The coarsest level with enough points in view for the reduction to choose from, else the finest.
        std::span<const core::CurvePoint> part;
        for (const auto* level : { &s.coarse, &s.overview, &s.curve.points }) {
            if (level->empty())
                continue;
            part = visiblePart(*level, t0, t1);
            if (part.size() >= 2 * target)
                break;
        }
        if (part.size() > target) {
            reduced = core::downsampleLttb(part, target);
            part = reduced;
        }
        QPolygonF& line = m_frame.lines[i];
        // A step line (a sample holds until the next one) needs a corner per sample; when samples are less than
        // 2 px apart the corners are invisible and only double the vertices to draw.
        const bool steps = part.size() < static_cast<size_t>(r.width()) / 2;
        line.reserve(static_cast<qsizetype>(part.size() * (steps ? 2 : 1)));
        double prevY = 0;
        for (size_t k = 0; k < part.size(); ++k) {
            const double x = r.left() + m_axis.toPx(part[k].t);
            const double y = toY(part[k].v);
            if (k > 0 && steps)
                line.append(QPointF(x, prevY));
            line.append(QPointF(x, y));
            prevY = y;
        }
        m_frame.points += part.size();
    }
    m_frame.valid = true;
    m_drawnPoints = m_frame.points;
}

void MemoryCurveChart::paint(QPainter& p)
{
    const QFontMetrics fm(font());
    layoutLegend(fm);
    p.fillRect(rect(), palette().base());
    const bool darkBase = palette().color(QPalette::Base).lightness() < 128;
    if (m_series.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
        return;
    }
    buildFrame();
    const QRect r = plotArea();

    // Legend: a swatch in the series' pen; hidden series greyed.
    for (size_t i = 0; i < m_series.size(); ++i) {
        const QRect lr = m_legendRects[i];
        QPen pen = penOf(m_series[i], darkBase);
        if (!m_series[i].visible)
            pen.setColor(palette().color(QPalette::PlaceholderText));
        // The swatch three pixels high: a one-pixel line does not show which of three shades it is.
        const int y = lr.center().y();
        p.fillRect(QRect(lr.left(), y - 1, kLegendSwatch, 3), pen.color());
        p.setPen(m_series[i].visible ? palette().color(QPalette::Text) : palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(lr.left() + kLegendSwatch + 4, lr.top(), lr.width(), lr.height()), Qt::AlignVCenter,
            seriesName(m_series[i]));
    }

    // The published window, then the selection being dragged.
    auto band = [&](int64_t b, int64_t e, const QColor& c) {
        const double x0 = std::clamp(r.left() + m_axis.toPx(b), double(r.left()), double(r.right()));
        const double x1 = std::clamp(r.left() + m_axis.toPx(e), double(r.left()), double(r.right()));
        if (x1 > x0)
            p.fillRect(QRectF(x0, r.top(), std::max(1.0, x1 - x0), r.height()), c);
    };
    if (m_window)
        band(m_window->first, m_window->second, QColor(255, 190, 60, 70));
    if (m_dragFrom) {
        const int a = std::min(*m_dragFrom, m_dragTo), b = std::max(*m_dragFrom, m_dragTo);
        p.fillRect(QRect(a, r.top(), std::max(1, b - a), r.height()), QColor(60, 130, 220, 60));
    }

    // Y grid and labels.
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(r.adjusted(0, 0, -1, -1));
    const double yMax = m_frame.yMax;
    // About five labels, fewer when the plot is too short for them to keep a line and a half apart.
    const double step = niceStep(yMax, std::clamp(r.height() / (fm.height() * 3 / 2), 1, 5));
    for (double v = 0; v <= yMax; v += step) {
        const int y = static_cast<int>(std::round(toY(v)));
        p.setPen(gridColor());
        p.drawLine(r.left(), y, r.right(), y);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(0, y - fm.height() / 2, kLeftMargin - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
            QStringLiteral("%1 MB").arg(v, 0, 'f', step < 1 ? 2 : 0));
    }
    // Time labels relative to the first sample, on multiples of a 1-2-5 step (about one per 140 px).
    const double tickNs = niceStep(static_cast<double>(m_axis.end() - m_axis.start()), std::max(2, r.width() / 140));
    p.setPen(palette().color(QPalette::Text));
    for (double rel = std::ceil(static_cast<double>(m_axis.start() - m_origin) / tickNs) * tickNs;
         rel <= static_cast<double>(m_axis.end() - m_origin); rel += tickNs) {
        const double x = r.left() + m_axis.toPx(m_origin + static_cast<int64_t>(std::llround(rel)));
        const QString label = TimeFormat::axisTick(rel, tickNs);
        const int w = fm.horizontalAdvance(label);
        const int lx = std::clamp(static_cast<int>(x) - w / 2, r.left(), width() - w - 2);
        p.drawText(QRect(lx, r.bottom() + 3, w + 2, kAxisHeight - 3), Qt::AlignLeft | Qt::AlignTop, label);
    }

    // Step boundaries with their step ids.
    p.setClipRect(QRect(r.left(), r.top() - kStepLabelHeight, r.width(), r.height() + kStepLabelHeight));
    const QColor stepColor(200, 60, 40);
    for (const auto& s : m_steps) {
        for (int64_t t : { s.begin, s.end }) {
            const double x = r.left() + m_axis.toPx(t);
            if (x < r.left() - 1 || x > r.right() + 1)
                continue;
            p.setPen(QPen(stepColor, 1, Qt::DashLine));
            p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
        }
        const double xb = r.left() + m_axis.toPx(s.begin);
        if (xb >= r.left() - 1 && xb <= r.right()) {
            p.setPen(stepColor);
            p.drawText(QPointF(xb + 3, r.top() - 4), tr("step %1").arg(s.step));
        }
    }

    // Curves.
    p.setClipRect(r);
    p.setRenderHint(QPainter::Antialiasing, false);
    for (size_t i = 0; i < m_series.size(); ++i) {
        if (m_frame.lines[i].isEmpty())
            continue;
        p.setPen(penOf(m_series[i], darkBase));
        p.drawPolyline(m_frame.lines[i]);
    }
    if (m_hoverX >= r.left() && m_hoverX <= r.right()) {
        p.setPen(QPen(palette().color(QPalette::Text), 1, Qt::DotLine));
        p.drawLine(m_hoverX, r.top(), m_hoverX, r.bottom());
    }
    p.setClipping(false);
}

void MemoryCurveChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paint(p);
}

void MemoryCurveChart::resizeEvent(QResizeEvent* event)
{
    ChartWidget::resizeEvent(event);
    m_frame.valid = false;
}

std::optional<double> MemoryCurveChart::valueAt(const Series& s, int64_t t)
{
    const auto& pts = s.curve.points;
    auto it = std::upper_bound(pts.begin(), pts.end(), t, [](int64_t x, const core::CurvePoint& p) { return x < p.t; });
    if (it == pts.begin())
        return std::nullopt;
    return std::prev(it)->v;
}

int MemoryCurveChart::itemAt(const QPoint& pos) const
{
    for (size_t i = 0; i < m_legendRects.size(); ++i) {
        if (m_legendRects[i].contains(pos))
            return kLegendItemBase + static_cast<int>(i);
    }
    const QRect r = plotArea();
    if (!m_series.empty() && r.contains(pos))
        return kPlotItemBase + pos.x();
    return -1;
}

QString MemoryCurveChart::itemToolTip(int item) const
{
    if (item >= kLegendItemBase && item < static_cast<int>(m_series.size())) {
        const auto& s = m_series[static_cast<size_t>(item)];
        return tr("%1: %2 samples (click to %3)")
            .arg(seriesName(s))
            .arg(s.curve.points.size())
            .arg(s.visible ? tr("hide") : tr("show"));
    }
    if (item < kPlotItemBase)
        return {};
    const int x = item - kPlotItemBase;
    const int64_t t = m_axis.toNs(x - plotArea().left());
    QString text = tr("<b>%1</b> after the first sample").arg(TimeFormat::adaptive(static_cast<double>(t - m_origin)));
    text += tr("<br>%1 µs (epoch)").arg(TimeFormat::format(t, TimeFormat::Unit::Microseconds));
    for (const auto& s : m_steps) {
        if (t >= s.begin && t < s.end)
            text += tr("<br>step %1").arg(s.step);
    }
    for (const auto& s : m_series) {
        if (!s.visible)
            continue;
        if (const auto v = valueAt(s, t))
            text += QStringLiteral("<br><span style='color:%1'>\u25a0</span> %2: %3")
                        .arg(s.color.name(), seriesName(s), mb(*v));
    }
    return text;
}

void MemoryCurveChart::mousePressEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (event->button() == Qt::LeftButton) {
        const int item = itemAt(pos);
        if (item >= kLegendItemBase && item < static_cast<int>(m_series.size())) {
            setSeriesVisible(item, !m_series[static_cast<size_t>(item)].visible);
            return ChartWidget::mousePressEvent(event);
        }
        if (plotArea().contains(pos)) {
            m_dragFrom = pos.x();
            m_dragTo = pos.x();
        }
    }
    ChartWidget::mousePressEvent(event);
}

void MemoryCurveChart::mouseMoveEvent(QMouseEvent* event)
{
    const QRect r = plotArea();
    const int x = static_cast<int>(event->position().x());
    if (m_dragFrom) {
        m_dragTo = std::clamp(x, r.left(), r.right());
        update();
    }
    const int hover = r.contains(event->position().toPoint()) ? x : -1;
    if (hover != m_hoverX) {
        m_hoverX = hover;
        update();
    }
    ChartWidget::mouseMoveEvent(event);
}

void MemoryCurveChart::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_dragFrom && event->button() == Qt::LeftButton) {
        const int a = std::min(*m_dragFrom, m_dragTo), b = std::max(*m_dragFrom, m_dragTo);
        m_dragFrom.reset();
        update();
        if (b - a >= kDragThresholdPx) {
            const int left = plotArea().left();
            emit rangeSelected(m_axis.toNsFloor(a - left), m_axis.toNsCeil(b - left));
        }
    }
    ChartWidget::mouseReleaseEvent(event);
}

void MemoryCurveChart::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (plotArea().contains(event->position().toPoint()))
        fitAll();
    ChartWidget::mouseDoubleClickEvent(event);
}

void MemoryCurveChart::wheelEvent(QWheelEvent* event)
{
    const QRect r = plotArea();
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || m_series.empty())
        return ChartWidget::wheelEvent(event);
    m_axis.zoomAt(event->position().x() - r.left(), std::pow(1.25, steps));
    update();
    event->accept();
}

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/marey/MareyChart.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

namespace npuscope::gui {

namespace {

using query::MareyOpKind;

// Bar (strong) and polygon (light) colours per operator kind.
QRgb strongColour(MareyOpKind kind) { return MareyChart::kindColour(kind).rgb(); }

QRgb lightColour(MareyOpKind kind)
{
    // The strong colour at about a third of its saturation: the polygons between devices.
    const QColor c = MareyChart::kindColour(kind);
    return qRgb(255 - (255 - c.red()) * 35 / 100, 255 - (255 - c.green()) * 35 / 100, 255 - (255 - c.blue()) * 35 / 100);
}

// A ratio in [0, 1] as a block colour: light to dark; grey when unknown.
QColor blockColour(const std::optional<double>& ratio, QColor dark)
{
    if (!ratio)
        return QColor(0xc8, 0xc8, 0xc8);
    const double r = std::clamp(*ratio, 0.0, 1.0);
    const QColor light(0xd0, 0xdb, 0xea); // a tint, not white: a ratio near 0 still shows beside the white canvas
    return QColor::fromRgbF(static_cast<float>(light.redF() + (dark.redF() - light.redF()) * r),
        static_cast<float>(light.greenF() + (dark.greenF() - light.greenF()) * r),
        static_cast<float>(light.blueF() + (dark.blueF() - light.blueF()) * r));
}

// Fills [x0, x1) of a scanline, at least one pixel: an operator narrower than a pixel still shows.
inline void fillSpan(QRgb* line, double x0, double x1, int left, int right, QRgb colour)
{
    if (x1 < left || x0 >= right)
        return;
    int a = std::max(left, static_cast<int>(std::floor(x0)));
    int b = std::min(right, std::max(a + 1, static_cast<int>(std::ceil(x1))));
    std::fill(line + a, line + b, colour);
}

} // namespace

QColor MareyChart::flopsLineColour() { return QColor(0x8e, 0x44, 0xad); }

QColor MareyChart::memoryLineColour() { return QColor(0x1f, 0x6f, 0xd1); }

const MareyChart::Blocks& MareyChart::blocksOf(int device) const
{
    static const Blocks none;
    return device >= 0 && device < static_cast<int>(m_blocks.size()) ? m_blocks[static_cast<size_t>(device)] : none;
}

QColor MareyChart::kindColour(MareyOpKind kind)
{
    // The MindInsight tutorial's colours: computation green, communication orange (its FLOPs line is purple, so
    // sends are blue and receives teal).
    switch (kind) {
    case MareyOpKind::Compute:
        return QColor(0x3c, 0x9a, 0x4e);
    case MareyOpKind::Communication:
        return QColor(0xe0, 0x7b, 0x1f);
    case MareyOpKind::Send:
        return QColor(0x3a, 0x6f, 0xb0);
    case MareyOpKind::Receive:
        return QColor(0x1a, 0x9b, 0xa8);
    }
    return QColor(Qt::black);
}

MareyChart::MareyChart(QWidget* parent)
    : ChartWidget(
        parent, { .hover = true, .plotMargins = { kLabelWidth, kAxisHeight, 8, 4 }, .minimumSize = { 300, 160 } })
{
}

void MareyChart::setStep(std::shared_ptr<const query::MareyStep> step, std::vector<Blocks> blocks)
{
    // More ranks of the same step arriving keep the user's zoom; another step starts from the whole step.
    const bool sameStep = m_step && step && m_step->step == step->step;
    const std::pair<int64_t, int64_t> window { m_axis.start(), m_axis.end() };
    const bool zoomed
        = sameStep && m_axis.hasBounds() && (window.first > m_axis.boundsBegin() || window.second < m_axis.boundsEnd());
    m_step = std::move(step);
    m_highlight.reset();
    m_blocks = std::move(blocks);
    m_collapsedOps.assign(m_step ? m_step->stages.size() : 0, {});
    m_collapsedBuilt.assign(m_collapsedOps.size(), false);
    m_hits.clear();
    resetHover();
    std::set<int> kept;
    for (const int s : m_collapsed) {
        if (m_step && s < static_cast<int>(m_step->stages.size()))
            kept.insert(s);
    }
    m_collapsed = kept;
    if (m_step && !sameStep && !m_collapseChosen) {
        int devices = 0;
        for (const auto& stage : m_step->stages)
            devices += stage.deviceCount;
        m_collapsed.clear();
        if (devices > kAutoCollapseDevices) {
            for (size_t s = 0; s < m_step->stages.size(); ++s) {
                if (m_step->stages[s].deviceCount > 1)
                    m_collapsed.insert(static_cast<int>(s));
            }
        }
    }
    layoutRows();
    resetAxis();
    if (zoomed)
        m_axis.fit(window.first, window.second);
    update();
}

void MareyChart::setBlocks(std::vector<Blocks> blocks)
{
    m_blocks = std::move(blocks);
    update();
}

void MareyChart::setTimeMode(query::MareyTime mode)
{
    if (mode == m_time)
        return;
    m_time = mode;
    m_collapsedBuilt.assign(m_collapsedBuilt.size(), false);
    resetAxis();
    update();
}

void MareyChart::setStageCollapsed(int stage, bool collapsed)
{
    m_collapseChosen = true;
    if (isStageCollapsed(stage) == collapsed)
        return;
    if (collapsed)
        m_collapsed.insert(stage);
    else
        m_collapsed.erase(stage);
    m_hits.clear();
    resetHover();
    layoutRows();
    update();
    emit stageToggled(stage, collapsed);
}

void MareyChart::setHighlight(std::optional<query::MareyFinding> finding)
{
    m_highlight = finding;
    update();
}

void MareyChart::setSelectedRank(std::optional<int64_t> rank)
{
    m_selectedRank = rank;
    update();
}

void MareyChart::resetAxis()
{
    const auto [lo, hi] = m_step ? m_step->range(m_time) : std::pair<int64_t, int64_t> { 0, 1 };
    m_axis = core::TimeAxis(lo, std::max(hi, lo + 1), std::max(1, plotRect().width()));
    m_axis.setBounds(lo, std::max(hi, lo + 1));
}

void MareyChart::zoomTo(int64_t begin, int64_t end)
{
    m_axis.fit(std::min(begin, end), std::max(begin, end));
    update();
}

void MareyChart::zoomOut()
{
    m_axis.fitBounds();
    update();
}

void MareyChart::layoutRows()
{
    m_rows.clear();
    m_rowOfDevice.assign(m_step ? m_step->devices.size() : 0, -1);
    m_stageLabelY.clear();
    if (!m_step)
        return;
    const QRect plot = plotRect();
    int lines = 0;
    for (int s = 0; s < static_cast<int>(m_step->stages.size()); ++s)
        lines += isStageCollapsed(s) ? 1 : m_step->stages[s].deviceCount;
    const double free = plot.height() - kStageGap * static_cast<double>(m_step->stages.size());
    m_pitch = std::clamp(free / std::max(1, lines), 0.05, static_cast<double>(kMaxLinePitch));
    double y = plot.top();
    for (int s = 0; s < static_cast<int>(m_step->stages.size()); ++s) {
        const auto& stage = m_step->stages[s];
        m_stageLabelY.push_back(y);
        y += kStageGap;
        if (isStageCollapsed(s)) {
            m_rows.push_back({ s, -1, y + m_pitch / 2 });
            for (int d = stage.firstDevice; d < stage.firstDevice + stage.deviceCount; ++d)
                m_rowOfDevice[d] = static_cast<int>(m_rows.size()) - 1;
            y += m_pitch;
            continue;
        }
        for (int d = stage.firstDevice; d < stage.firstDevice + stage.deviceCount; ++d) {
            m_rowOfDevice[d] = static_cast<int>(m_rows.size());
            m_rows.push_back({ s, d, y + m_pitch / 2 });
            y += m_pitch;
        }
    }
}

int MareyChart::deviceY(int device) const
{
    if (device < 0 || device >= static_cast<int>(m_rowOfDevice.size()) || m_rowOfDevice[device] < 0)
        return -1;
    return static_cast<int>(m_rows[m_rowOfDevice[device]].y);
}

int MareyChart::stageLabelY(int stage) const
{
    return stage >= 0 && stage < static_cast<int>(m_stageLabelY.size()) ? static_cast<int>(m_stageLabelY[stage]) : -1;
}

int MareyChart::deviceAtY(int y) const
{
    if (m_rows.empty())
        return -1;
    auto it = std::lower_bound(
        m_rows.begin(), m_rows.end(), static_cast<double>(y), [](const Row& r, double v) { return r.y < v; });
    int best = -1;
    double bestDist = std::max(1.0, m_pitch * 0.5) + 0.5;
    for (auto c : { it - 1, it }) {
        if (c < m_rows.begin() || c >= m_rows.end())
            continue;
        const double dist = std::abs(c->y - y);
        if (dist <= bestDist) {
            bestDist = dist;
            best = static_cast<int>(c - m_rows.begin());
        }
    }
    if (best < 0)
        return -1;
    const auto& row = m_rows[best];
    return row.device >= 0 ? row.device : m_step->stages[row.stage].firstDevice;
}

const std::vector<query::MareyCollapsedOp>& MareyChart::collapsedOps(int stage) const
{
    if (!m_collapsedBuilt[stage]) {
        m_collapsedOps[stage] = m_step->collapse(stage, m_time);
        m_collapsedBuilt[stage] = true;
    }
    return m_collapsedOps[stage];
}

void MareyChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paint(p);
}

void MareyChart::resizeEvent(QResizeEvent* event)
{
    ChartWidget::resizeEvent(event);
    m_axis.setWidth(std::max(1, plotRect().width()));
    layoutRows();
    m_hits.clear();
    resetHover();
}

void MareyChart::paint(QPainter& painter)
{
    if (m_frame.size() != size())
        m_frame = QImage(size(), QImage::Format_RGB32);
    m_frame.fill(palette().color(QPalette::Base)); // follows the theme (dark: a dark canvas)
    if (m_step)
        rasterise(m_frame);
    painter.drawImage(0, 0, m_frame);
    if (!m_step) {
        painter.drawText(rect(), Qt::AlignCenter, tr("No operators for this step"));
        return;
    }
    drawOverlay(painter);
    drawLabels(painter);
    drawAxis(painter);
}

void MareyChart::rasterise(QImage& image)
{
    const QRect plot = plotRect();
    const int left = plot.left(), right = plot.right() + 1;
    const int bottom = std::min(image.height(), plot.bottom() + 1);
    const double thickness = std::clamp(m_pitch * 0.3, 1.0, 5.0);
    const int64_t winBegin = m_axis.start(), winEnd = m_axis.end();
    // ns → px inline (a multiply, not TimeAxis::toPx's divide): millions of endpoints per frame.
    const int64_t axisStart = m_axis.start();
    const double inv = 1.0 / m_axis.nsPerPx();
    const double base = left - m_axis.startFraction() * inv;
    auto px = [&](int64_t ns) { return base + static_cast<double>(ns - axisStart) * inv; };
    std::vector<double> cur, next; // x of each op's start and end on the device line being drawn / the next one
    auto xsOf = [&](const query::MareyDevice& dev, std::vector<double>& out) {
        out.resize(dev.ops.size() * 2);
        const int64_t off = dev.offset(m_time);
        for (size_t i = 0; i < dev.ops.size(); ++i) {
            out[2 * i] = px(dev.ops[i].start - off);
            out[2 * i + 1] = px(dev.ops[i].end - off);
        }
    };
    auto scan = [&](int y) { return reinterpret_cast<QRgb*>(image.scanLine(y)); };
    for (size_t r = 0; r < m_rows.size(); ++r) {
        const auto& row = m_rows[r];
        const int y = static_cast<int>(row.y);
        if (y >= bottom)
            break;
        if (row.device < 0) {
            // A collapsed stage: its operators' unions on one thicker line.
            const int th = static_cast<int>(std::clamp(m_pitch * 0.6, 3.0, 10.0));
            const int top = std::max(plotRect().top(), y - th / 2);
            for (const auto& op : collapsedOps(row.stage)) {
                const QRgb c = strongColour(op.kind);
                for (const auto& [a, b] : op.intervals) {
                    if (b < winBegin || a > winEnd)
                        continue;
                    for (int yy = top; yy < std::min(bottom, top + th); ++yy)
                        fillSpan(scan(yy), px(a), px(b), left, right, c);
                }
            }
            continue;
        }
        const auto& dev = m_step->devices[row.device];
        if (r == 0 || m_rows[r - 1].device != row.device - 1 || m_rows[r - 1].stage != row.stage)
            xsOf(dev, cur);
        const int th = std::max(1, static_cast<int>(thickness));
        // The device's bars, merged into runs of one colour: ops narrower than a pixel cost a compare, not a fill.
        // Several devices sharing a pixel row overwrite each other there (merged per pixel).
        QRgb* line = scan(y);
        int runA = 0, runB = 0;
        QRgb runColour = 0;
        for (size_t i = 0; i < dev.ops.size(); ++i) {
            const double x0 = cur[2 * i], x1 = cur[2 * i + 1];
            if (x1 < left || x0 >= right)
                continue;
            const int a = std::max(left, static_cast<int>(x0));
            const int b = std::min(right, std::max(a + 1, static_cast<int>(std::ceil(x1))));
            const QRgb c = strongColour(dev.ops[i].kind);
            if (c == runColour && a <= runB) {
                runB = std::max(runB, b);
                continue;
            }
            std::fill(line + runA, line + runB, runColour);
            runA = a;
            runB = b;
            runColour = c;
        }
        std::fill(line + runA, line + runB, runColour);
        for (int yy = y + 1; yy < std::min(bottom, y + th); ++yy)
            std::copy(line + left, line + right, scan(yy) + left);
        // The band to the next device of the stage: each matched operator's polygon, one scanline at a time.
        const bool hasNext
            = r + 1 < m_rows.size() && m_rows[r + 1].device == row.device + 1 && m_rows[r + 1].stage == row.stage;
        if (!hasNext)
            continue;
        xsOf(m_step->devices[row.device + 1], next);
        const int bandTop = y + th, bandEnd = std::min(bottom, static_cast<int>(m_rows[r + 1].y));
        const double bandHeight = std::max(1, bandEnd - bandTop);
        for (int yy = bandTop; yy < bandEnd; ++yy) {
            const double t = (yy - bandTop + 0.5) / bandHeight;
            QRgb* band = scan(yy);
            for (size_t i = 0; i < dev.ops.size(); ++i) {
                const int n = dev.ops[i].next;
                if (n < 0)
                    continue;
                const double a0 = cur[2 * i], a1 = cur[2 * i + 1];
                const double b0 = next[2 * n], b1 = next[2 * n + 1];
                fillSpan(band, a0 + (b0 - a0) * t, a1 + (b1 - a1) * t, left, right, lightColour(dev.ops[i].kind));
            }
        }
        cur.swap(next);
    }
}

void MareyChart::drawOverlay(QPainter& painter)
{
    const QRect plot = plotRect();
    painter.save();
    painter.setClipRect(plot);
    const double x0 = plot.left();
    auto px = [&](int64_t ns) { return x0 + m_axis.toPx(ns); };
    // Send → receive: from the send's start on the sender's line to the receive's end on the receiver's line.
    std::vector<QLineF> lines;
    for (const auto& p : m_step->p2p) {
        const auto& sd = m_step->devices[p.sendDevice];
        const auto& rd = m_step->devices[p.recvDevice];
        const double xa = px(sd.ops[p.sendOp].start - sd.offset(m_time));
        const double xb = px(rd.ops[p.recvOp].end - rd.offset(m_time));
        if (std::max(xa, xb) < plot.left() || std::min(xa, xb) > plot.right())
            continue;
        lines.emplace_back(xa, deviceY(p.sendDevice) + 0.5, xb, deviceY(p.recvDevice) + 0.5);
    }
    // Many lines over densely packed devices would hide the operators: the more lines, the fainter.
    const int alpha = lines.size() > 400 ? 45 : (lines.size() > 100 ? 90 : 170);
    painter.setPen(QPen(QColor(0x1b, 0x6e, 0x3c, alpha), 1));
    painter.drawLines(lines.data(), static_cast<int>(lines.size()));

    drawMemoryLines(painter, plot);
    drawFlopsLines(painter, plot);
    if (m_selectedRank) {
        const int d = m_step->deviceOf(*m_selectedRank);
        if (d >= 0) {
            const int y = deviceY(d);
            painter.fillRect(QRectF(plot.left(), y - std::max(2.0, m_pitch / 2), plot.width(), std::max(4.0, m_pitch)),
                selectionColor());
        }
    }
    if (m_highlight) {
        const auto& f = *m_highlight;
        painter.setPen(QPen(QColor(0xd0, 0x10, 0x10), 2));
        painter.setBrush(Qt::NoBrush);
        const auto& stage = m_step->stages[f.stage];
        for (int d = stage.firstDevice; d < stage.firstDevice + stage.deviceCount; ++d) {
            if (f.device >= 0 && d != f.device)
                continue;
            const auto& dev = m_step->devices[d];
            for (const auto& op : dev.ops) {
                if (op.name != f.name || op.occurrence != f.occurrence)
                    continue;
                const double a = px(op.start - dev.offset(m_time)), b = px(op.end - dev.offset(m_time));
                const int y = deviceY(d);
                painter.drawRect(QRectF(a - 2, y - 3, std::max(4.0, b - a + 4), std::max(6.0, m_pitch * 0.3 + 6)));
            }
        }
    }
    if (m_brushFrom) {
        const int a = std::min(*m_brushFrom, m_brushTo), b = std::max(*m_brushFrom, m_brushTo);
        painter.fillRect(QRect(a, plot.top(), b - a, plot.height()), QColor(40, 90, 200, 50));
    }
    painter.restore();
}

void MareyChart::drawFlopsLines(QPainter& painter, const QRect& plot)
{
    // The tutorial's FLOPs line: above each expanded device's line, the FLOP rate (FLOPs ÷ duration) of the operator
    // running at each pixel column (the highest when several share it), scaled to the step's fastest operator. Only
    // where lines are far enough apart to read it.
    if (m_pitch < 10)
        return;
    double maxRate = 0;
    for (const auto& dev : m_step->devices) {
        for (const auto& op : dev.ops) {
            if (op.flops > 0 && op.end > op.start)
                maxRate = std::max(maxRate, op.flops / static_cast<double>(op.end - op.start));
        }
    }
    if (!(maxRate > 0))
        return;
    const int width = plot.width();
    std::vector<double> column(static_cast<size_t>(std::max(0, width)));
    QPen pen(flopsLineColour(), 1.2);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    for (const auto& row : m_rows) {
        if (row.device < 0)
            continue;
        const auto& dev = m_step->devices[row.device];
        std::fill(column.begin(), column.end(), 0.0);
        bool any = false;
        const int64_t off = dev.offset(m_time);
        for (const auto& op : dev.ops) {
            if (!(op.flops > 0) || op.end <= op.start)
                continue;
            const int a = std::max(0, static_cast<int>(std::floor(m_axis.toPx(op.start - off))));
            const int b = std::min(width - 1, static_cast<int>(std::ceil(m_axis.toPx(op.end - off))));
            const double rate = op.flops / static_cast<double>(op.end - op.start) / maxRate;
            for (int x = a; x <= b; ++x)
                column[static_cast<size_t>(x)] = std::max(column[static_cast<size_t>(x)], rate);
            any = any || a <= b;
        }
        if (!any)
            continue;
        const double base = row.y - 2, height = m_pitch * 0.45;
        QPolygonF line;
        line.reserve(width);
        for (int x = 0; x < width; ++x)
            line << QPointF(plot.left() + x + 0.5, base - column[static_cast<size_t>(x)] * height);
        painter.drawPolyline(line);
    }
}

void MareyChart::drawMemoryLines(QPainter& painter, const QRect& plot)
{
    // The tutorial's memory line: above each expanded device's line, its memory in use over the step, a step curve
    // (a value holds until the next sample), from the device's smallest value in the step to its largest, so the
    // step's allocations and frees show (on one scale, from zero or across devices, a few hundred MB of activations
    // over a 20 GB base were a flat line; the M block compares devices, a hover gives the value). Only where lines
    // are far enough apart to read it.
    if (m_pitch < 10)
        return;
    painter.save();
    painter.setClipRect(plot);
    painter.setPen(QPen(memoryLineColour(), 1.2));
    painter.setBrush(Qt::NoBrush);
    for (const auto& row : m_rows) {
        const Blocks& b = blocksOf(row.device);
        if (row.device < 0 || b.memoryLine.empty())
            continue;
        const auto [lo, hi] = std::minmax_element(b.memoryLine.begin(), b.memoryLine.end(),
            [](const core::CurvePoint& x, const core::CurvePoint& y) { return x.v < y.v; });
        const double minMb = lo->v, span = hi->v > lo->v ? hi->v - lo->v : 1.0;
        const int64_t off = m_step->devices[row.device].offset(m_time);
        const double base = row.y - 2, height = m_pitch * 0.45;
        QPolygonF line;
        line.reserve(static_cast<int>(b.memoryLine.size() * 2));
        for (size_t i = 0; i < b.memoryLine.size(); ++i) {
            const double x = std::clamp(plot.left() + m_axis.toPx(b.memoryLine[i].t - off), -1.0e6, 1.0e6);
            const double y = base - (b.memoryLine[i].v - minMb) / span * height;
            if (i > 0)
                line << QPointF(x, line.back().y());
            line << QPointF(x, y);
        }
        line << QPointF(plot.right(), line.back().y());
        painter.drawPolyline(line);
    }
    painter.restore();
}

void MareyChart::drawLabels(QPainter& painter)
{
    const QRect plot = plotRect();
    painter.fillRect(QRect(0, 0, kLabelWidth - 2, height()), palette().color(QPalette::Window));
    // The label column's edge first, so that the stage headers drawn across the whole width cover it.
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(plot.left() - 1, plot.top(), plot.left() - 1, plot.bottom());
    painter.setFont(labelFont());
    const int blockW = 10, blockGap = 5;
    const int blocksX = kLabelWidth - 3 * (blockW + blockGap) - 2;
    const QColor darks[3] = { QColor(0x08, 0x45, 0x94), QColor(0x00, 0x6d, 0x5b), QColor(0xa5, 0x0f, 0x15) };
    painter.setPen(palette().color(QPalette::PlaceholderText));
    const char* heads[3] = { "F", "FS", "M" };
    for (int i = 0; i < 3; ++i)
        painter.drawText(QRect(blocksX + i * (blockW + blockGap) - 4, 2, blockW + 8, kAxisHeight - 4), Qt::AlignCenter,
            QString::fromLatin1(heads[i]));
    for (int s = 0; s < static_cast<int>(m_step->stages.size()); ++s) {
        const auto& stage = m_step->stages[s];
        const int y = static_cast<int>(m_stageLabelY[s]);
        painter.fillRect(QRect(0, y, width(), kStageGap - 2), palette().color(QPalette::AlternateBase));
        painter.setPen(palette().color(QPalette::Text));
        const QString text = (isStageCollapsed(s) ? QStringLiteral("\u25b8 ") : QStringLiteral("\u25be "))
            + tr("Stage %1 \u00b7 %2 device(s)").arg(stage.index).arg(stage.deviceCount)
            + (isStageCollapsed(s) ? tr(" \u00b7 collapsed: union per operator") : QString())
            + (stage.unmatchedOps ? tr(" \u00b7 %1 unmatched op(s)").arg(stage.unmatchedOps) : QString());
        painter.drawText(QRect(4, y, width() - 8, kStageGap - 2), Qt::AlignVCenter | Qt::AlignLeft, text);
    }
    const bool labels = m_pitch >= 11;
    const double blockH = std::clamp(m_pitch - 1, 1.0, 10.0);
    int lastPixelRow = std::numeric_limits<int>::min();
    for (const auto& row : m_rows) {
        if (row.device < 0)
            continue;
        const double y = row.y;
        // Rows out of the widget, and rows sharing a pixel row with the one drawn before (1,024 devices in a few
        // hundred pixels), are not drawn: their labels and blocks took 100 ms a frame.
        if (y < -kAxisHeight || y > height() + kAxisHeight)
            continue;
        const auto& dev = m_step->devices[row.device];
        const bool rowSelected = m_selectedRank && *m_selectedRank == dev.rank;
        if (!labels && !rowSelected && static_cast<int>(y) == lastPixelRow)
            continue;
        lastPixelRow = static_cast<int>(y);
        const bool selected = m_selectedRank && *m_selectedRank == dev.rank;
        if (labels) {
            painter.setPen(selected ? palette().color(QPalette::Highlight) : palette().color(QPalette::Text));
            painter.drawText(QRectF(4, y - 7, blocksX - 8, 14), Qt::AlignVCenter | Qt::AlignLeft,
                tr("rank %1").arg(dev.rank) + (dev.hasOps() ? QString() : tr(" (no ops)")));
        } else if (selected) {
            painter.fillRect(QRectF(0, y - 1, blocksX - 4, 3), palette().color(QPalette::Highlight));
        }
        const Blocks& b = blocksOf(row.device);
        const std::optional<double> values[3] = { b.flops, b.flopsPerSecond, b.memory };
        for (int i = 0; i < 3; ++i)
            painter.fillRect(
                QRectF(blocksX + i * (blockW + blockGap), y - (blockH > 2 ? blockH / 2 : 0), blockW, blockH),
                blockColour(values[i], darks[i]));
    }
}

QFont MareyChart::labelFont() const
{
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1.5));
    return small;
}

std::vector<MareyChart::AxisTick> MareyChart::axisTicks() const
{
    std::vector<AxisTick> ticks;
    if (!m_step)
        return ticks;
    const QRect plot = plotRect();
    const QFontMetricsF fm(labelFont());
    // A label may reach a few px into the label column (the "0" of a tick at the plot's left edge stays centred on
    // it, clear of the F / FS / M heads) and into the right margin; one that would still be cut is left out.
    const double minX = plot.left() - kTickLabelOverhang;
    const double maxX = plot.right() + 1 + plotMargins().right();
    const auto origin = m_time == query::MareyTime::Aligned ? int64_t(0) : m_step->range(m_time).first;
    // A 1-2-5 step of at least 1 ns (the axis is in whole ns), for a tick about every 140 px.
    const double step
        = std::max(1.0, niceStep(static_cast<double>(m_axis.windowNs()), std::max(2, plot.width() / 140)));
    // A tick less than half a pixel before the window's start (the axis keeps whole units; the origin need not be one)
    // still counts: the step's "0".
    const double first = std::ceil((static_cast<double>(m_axis.start() - origin) - m_axis.nsPerPx() / 2) / step) * step;
    for (double t = first; t <= static_cast<double>(m_axis.end() - origin); t += step) {
        AxisTick tick;
        tick.x = plot.left() + m_axis.toPx(origin + static_cast<int64_t>(std::llround(t)));
        const QString text = TimeFormat::axisTick(std::abs(t) < step / 2 ? 0.0 : t, step);
        const double w = fm.horizontalAdvance(text);
        const QRectF rect(tick.x - w / 2, 2, w, kAxisHeight - 8);
        if (rect.left() >= minX && rect.right() <= maxX) {
            tick.text = text;
            tick.rect = rect;
        }
        ticks.push_back(tick);
    }
    return ticks;
}

void MareyChart::drawAxis(QPainter& painter)
{
    const QRect plot = plotRect();
    painter.fillRect(QRect(plot.left(), 0, plot.width(), kAxisHeight - 2), palette().color(QPalette::Base));
    painter.save();
    painter.setFont(labelFont());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    for (const auto& tick : axisTicks()) {
        painter.drawLine(QPointF(tick.x, kAxisHeight - 6), QPointF(tick.x, kAxisHeight - 2));
        if (!tick.text.isEmpty())
            painter.drawText(tick.rect, Qt::AlignCenter | Qt::TextDontClip, tick.text);
    }
    painter.drawLine(plot.left(), kAxisHeight - 2, plot.right(), kAxisHeight - 2);
    painter.restore();
}

void MareyChart::paintNaive(QPainter& painter)
{
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (!m_step)
        return;
    const double x0 = plotRect().left();
    auto px = [&](int64_t ns) { return x0 + m_axis.toPx(ns); };
    for (size_t r = 0; r < m_rows.size(); ++r) {
        const auto& row = m_rows[r];
        if (row.device < 0)
            continue;
        const auto& dev = m_step->devices[row.device];
        const bool hasNext = r + 1 < m_rows.size() && m_rows[r + 1].device == row.device + 1;
        for (const auto& op : dev.ops) {
            const double a = px(op.start - dev.offset(m_time)), b = px(op.end - dev.offset(m_time));
            painter.fillRect(QRectF(a, row.y, std::max(1.0, b - a), 2), QColor(strongColour(op.kind)));
            if (!hasNext || op.next < 0)
                continue;
            const auto& nd = m_step->devices[row.device + 1];
            const auto& n = nd.ops[op.next];
            const QPointF poly[4]
                = { { a, row.y + 2 }, { b, row.y + 2 }, { px(n.end - nd.offset(m_time)), m_rows[r + 1].y },
                      { px(n.start - nd.offset(m_time)), m_rows[r + 1].y } };
            painter.setPen(Qt::NoPen);
            painter.setBrush(QColor(lightColour(op.kind)));
            painter.drawPolygon(poly, 4);
        }
    }
}

std::optional<MareyChart::Hit> MareyChart::hitAt(const QPoint& pos) const
{
    if (!m_step || pos.y() < kAxisHeight)
        return std::nullopt;
    const int device = deviceAtY(pos.y());
    if (device < 0)
        return std::nullopt;
    const auto& row = m_rows[m_rowOfDevice[device]];
    Hit hit;
    hit.stage = row.stage;
    hit.device = row.device;
    if (pos.x() < plotRect().left())
        return hit;
    const double x = pos.x() - plotRect().left();
    const int64_t slack = static_cast<int64_t>(m_axis.nsPerPx() * 2);
    const int64_t t = m_axis.toNs(x);
    if (row.device < 0) {
        const auto& ops = collapsedOps(row.stage);
        for (size_t i = 0; i < ops.size(); ++i) {
            for (const auto& [a, b] : ops[i].intervals) {
                if (a - slack <= t && t <= b + slack) {
                    hit.op = static_cast<int>(i);
                    return hit;
                }
            }
        }
        return hit;
    }
    const auto& dev = m_step->devices[row.device];
    const int64_t at = t + dev.offset(m_time);
    // Ops are sorted by start: the candidates start before at + slack; the latest-starting one that covers wins.
    auto it = std::upper_bound(
        dev.ops.begin(), dev.ops.end(), at + slack, [](int64_t v, const query::MareyOp& op) { return v < op.start; });
    for (int k = 0; it != dev.ops.begin() && k < 64; ++k) {
        --it;
        if (it->end + slack >= at) {
            hit.op = static_cast<int>(it - dev.ops.begin());
            return hit;
        }
    }
    return hit;
}

int MareyChart::itemAt(const QPoint& pos) const
{
    const auto hit = hitAt(pos);
    if (!hit)
        return -1;
    for (size_t i = 0; i < m_hits.size(); ++i) {
        if (m_hits[i].device == hit->device && m_hits[i].stage == hit->stage && m_hits[i].op == hit->op)
            return static_cast<int>(i);
    }
    if (m_hits.size() > 4096)
        m_hits.clear();
    m_hits.push_back(*hit);
    return static_cast<int>(m_hits.size()) - 1;
}

QString MareyChart::itemToolTip(int item) const
{
    if (!m_step || item < 0 || item >= static_cast<int>(m_hits.size()))
        return {};
    const auto& h = m_hits[item];
    const auto& stage = m_step->stages[h.stage];
    auto us = [](int64_t ns) { return TimeFormat::withUnit(ns, TimeFormat::Unit::Microseconds); };
    const QString axisNote = m_time == query::MareyTime::Aligned ? tr("since the device's step start")
                                                                 : tr("since the step's first operator");
    const int64_t origin = m_time == query::MareyTime::Aligned ? 0 : m_step->range(m_time).first;
    if (h.device < 0) {
        QString text = tr("<b>Stage %1</b> (collapsed, %2 devices)").arg(stage.index).arg(stage.deviceCount);
        if (h.op >= 0) {
            const auto& op = collapsedOps(h.stage)[h.op];
            const int64_t a = op.intervals.front().first, b = op.intervals.back().second;
            text += tr("<br><b>%1</b> #%2 (%3)<br>union from %4 to %5 (%6)")
                        .arg(QString::fromStdString(m_step->names[op.name]).toHtmlEscaped())
                        .arg(op.occurrence)
                        .arg(QCoreApplication::translate("MareyOpKind", query::mareyOpKindName(op.kind)))
                        .arg(us(a - origin), us(b - origin), axisNote);
        }
        return text;
    }
    const auto& dev = m_step->devices[h.device];
    QString text = tr("<b>rank %1</b> \u00b7 stage %2").arg(dev.rank).arg(stage.index);
    if (h.op < 0) {
        text += tr("<br>%1 operator(s) in the step").arg(dev.ops.size());
        const Blocks& b = blocksOf(h.device);
        auto pct = [](const std::optional<double>& v) {
            return v ? QStringLiteral("%1 %").arg(*v * 100, 0, 'f', 1) : tr("unknown");
        };
        text += tr("<br>FLOPs \u00f7 max: %1<br>FLOPS \u00f7 max: %2<br>peak memory \u00f7 capacity: %3")
                    .arg(pct(b.flops), pct(b.flopsPerSecond), pct(b.memory));
        return text;
    }
    const auto& op = dev.ops[h.op];
    const int64_t off = dev.offset(m_time);
    text += tr("<br><b>%1</b> #%2 (%3)<br>start %4, end %5 (%6)<br>duration %7")
                .arg(QString::fromStdString(m_step->names[op.name]).toHtmlEscaped())
                .arg(op.occurrence)
                .arg(QCoreApplication::translate("MareyOpKind", query::mareyOpKindName(op.kind)))
                .arg(us(op.start - off - origin), us(op.end - off - origin), axisNote, us(op.end - op.start));
    if (const Blocks& b = blocksOf(h.device); !b.memoryLine.empty()) {
        // The memory line's value when the operator starts: the last sample at or before it.
        const auto after = std::upper_bound(b.memoryLine.begin(), b.memoryLine.end(), op.start,
            [](int64_t t, const core::CurvePoint& p) { return t < p.t; });
        if (after != b.memoryLine.begin())
            text += tr("<br>memory at its start: %1 MB (%2, the memory line)")
                        .arg(std::prev(after)->v, 0, 'f', 1)
                        .arg(QString::fromStdString(b.memorySeries));
    }
    if (op.flops > 0 && op.end > op.start)
        text += tr("<br>%1 GFLOPs, %2 TFLOP/s (the FLOPs line)")
                    .arg(op.flops / 1e9, 0, 'f', 3)
                    .arg(op.flops / static_cast<double>(op.end - op.start) / 1e3, 0, 'f', 2);
    if (!op.matched && stage.deviceCount > 1)
        text += tr("<br>unmatched: no neighbouring device of the stage has this operator");
    return text;
}

int MareyChart::stageLabelAt(const QPoint& pos) const
{
    for (int s = 0; s < static_cast<int>(m_stageLabelY.size()); ++s) {
        if (pos.y() >= m_stageLabelY[s] && pos.y() < m_stageLabelY[s] + kStageGap - 2)
            return s;
    }
    return -1;
}

void MareyChart::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_step)
        return QWidget::mousePressEvent(event);
    const QPoint pos = event->position().toPoint();
    if (const int s = stageLabelAt(pos); s >= 0) {
        setStageCollapsed(s, !isStageCollapsed(s));
        return;
    }
    if (pos.x() >= plotRect().left()) {
        m_brushFrom = pos.x();
        m_brushTo = pos.x();
        return;
    }
    if (const auto hit = hitAt(pos); hit && hit->device >= 0)
        emit rankClicked(m_step->devices[hit->device].rank);
}

void MareyChart::mouseMoveEvent(QMouseEvent* event)
{
    if (m_brushFrom) {
        m_brushTo = std::clamp(static_cast<int>(event->position().x()), plotRect().left(), plotRect().right());
        update();
        return;
    }
    ChartWidget::mouseMoveEvent(event);
}

void MareyChart::mouseReleaseEvent(QMouseEvent* event)
{
    if (!m_brushFrom)
        return QWidget::mouseReleaseEvent(event);
    const int from = *m_brushFrom;
    m_brushFrom.reset();
    const QPoint pos = event->position().toPoint();
    if (std::abs(pos.x() - from) > 3) {
        const double a = std::min(from, m_brushTo) - plotRect().left();
        const double b = std::max(from, m_brushTo) - plotRect().left();
        zoomTo(m_axis.toNs(a), m_axis.toNs(b));
        return;
    }
    update();
    if (const auto hit = hitAt(pos); hit && hit->device >= 0)
        emit rankClicked(m_step->devices[hit->device].rank);
}

void MareyChart::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && event->position().x() >= plotRect().left()) {
        m_brushFrom.reset();
        zoomOut();
        return;
    }
    QWidget::mouseDoubleClickEvent(event);
}

} // namespace npuscope::gui

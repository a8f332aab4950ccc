// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/compare/WaterfallChart.h"

#include "npuscope/gui/compare/DeltaColors.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

namespace {

QString signedMs(double ms) { return DeltaColors::signedText(ms, 2); }

} // namespace

WaterfallChart::WaterfallChart(QWidget* parent)
    : ChartWidget(
        parent, { .objectName = "compareWaterfall", .plotMargins = { 56, 22, 12, 34 }, .minimumSize = { 0, 160 } })
{
}

void WaterfallChart::setDiff(const query::RunDiff& diff)
{
    using query::DiffComponent;
    m_bars.clear();
    resetHover();
    const auto base = diff.clusterBase.value(DiffComponent::Step);
    const auto neu = diff.clusterNew.value(DiffComponent::Step);
    if (diff.ranks.empty() || !base || !neu) {
        update();
        return;
    }
    m_bars.push_back({ tr("base step"), 0, *base, Bar::Total });
    double total = *base;
    auto delta = [&](DiffComponent c) { return query::diffDelta(diff.clusterBase, diff.clusterNew, c); };
    for (DiffComponent c : { DiffComponent::Computing, DiffComponent::CommunicationNotOverlapped, DiffComponent::Free,
             DiffComponent::Preparing }) {
        const auto d = delta(c);
        if (!d)
            continue;
        // The long title does not fit a bar's slot at 1366 px; the tooltip keeps the full words.
        const QString label = c == DiffComponent::CommunicationNotOverlapped
            ? tr("comm. not overlapped")
            : QString::fromUtf8(query::diffComponentTitle(c));
        m_bars.push_back({ label, total, total + *d, Bar::Delta });
        total += *d;
        if (c == DiffComponent::CommunicationNotOverlapped) {
            if (const auto b = delta(DiffComponent::Bubble); b && *b != 0)
                m_bars.push_back({ tr("of which bubble"), total - *b, total, Bar::Inside });
        }
    }
    // Rounded means (and a component one side lacks) can leave a remainder; show it instead of a gap.
    if (std::abs(*neu - total) > 1e-6) {
        m_bars.push_back({ tr("other"), total, *neu, Bar::Delta });
    }
    m_bars.push_back({ tr("new step"), 0, *neu, Bar::Total });
    // From zero, so a bar's height is its time; only when every change is too small to see against the step (the
    // largest under 8 % of it) does the axis zoom onto the range the bars cover, and then it says so and the total
    // bars carry a break mark (a bar cut at a floor of 80 ms read as a step of a few ms).
    double lo = *neu, hi = *neu;
    for (const Bar& b : m_bars) {
        if (b.kind == Bar::Total)
            continue;
        lo = std::min({ lo, b.from, b.to });
        hi = std::max({ hi, b.from, b.to });
    }
    lo = std::min(lo, *base);
    hi = std::max(hi, *base);
    const double span = std::max(hi - lo, 1e-3);
    m_truncated = span < 0.08 * std::max(*base, *neu);
    // Four ticks or so on round values: the axis ends on multiples of a 1-2-5 step.
    const double low = m_truncated ? std::max(0.0, lo - span * 1.5) : 0.0;
    const double high = m_truncated ? hi + span * 0.25 : hi * 1.06;
    m_step = niceStep(high - low, 4);
    m_lo = std::floor(low / m_step) * m_step;
    m_truncated = m_truncated && m_lo > 0;
    m_hi = std::max(std::ceil(high / m_step) * m_step, m_lo + m_step);
    update();
}

double WaterfallChart::yOf(double ms) const
{
    const QRect p = plotRect();
    const double f = (ms - m_lo) / std::max(m_hi - m_lo, 1e-9);
    return p.bottom() - std::clamp(f, 0.0, 1.0) * p.height();
}

QRect WaterfallChart::barRect(int i) const
{
    const QRect p = plotRect();
    const int n = static_cast<int>(m_bars.size());
    const double slot = static_cast<double>(p.width()) / std::max(n, 1);
    const Bar& b = m_bars[static_cast<size_t>(i)];
    const double y0 = yOf(std::max(b.from, b.to)), y1 = yOf(std::min(b.from, b.to));
    const int x = p.left() + static_cast<int>(slot * i + slot * 0.15);
    const int h = std::max(2, static_cast<int>(std::lround(y1 - y0)));
    return { x, static_cast<int>(std::lround(y0)), std::max(3, static_cast<int>(slot * 0.7)), h };
}

int WaterfallChart::itemAt(const QPoint& pos) const
{
    const QRect p = plotRect();
    if (m_bars.empty() || pos.x() < p.left() || pos.x() > p.right())
        return -1;
    const double slot = static_cast<double>(p.width()) / static_cast<double>(m_bars.size());
    const int i = static_cast<int>((pos.x() - p.left()) / slot);
    return i >= 0 && i < static_cast<int>(m_bars.size()) ? i : -1;
}

QString WaterfallChart::itemToolTip(int item) const
{
    if (item < 0 || item >= static_cast<int>(m_bars.size()))
        return {};
    const Bar& b = m_bars[static_cast<size_t>(item)];
    if (b.kind == Bar::Total)
        return tr("%1: %2 ms (cluster mean over the matched ranks)").arg(b.label).arg(b.to, 0, 'f', 3);
    if (b.kind == Bar::Inside)
        return tr("bubble \u0394 %1 ms, inside communication not overlapped (does not add to the step)")
            .arg(signedMs(b.to - b.from));
    return tr("%1 \u0394 %2 ms (running total %3 \u2192 %4 ms)")
        .arg(b.label, signedMs(b.to - b.from))
        .arg(b.from, 0, 'f', 3)
        .arg(b.to, 0, 'f', 3);
}

void WaterfallChart::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const QRect p = plotRect();
    if (m_bars.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No matched ranks with step figures"));
        return;
    }
    const QFontMetrics fm(font());
    // Axis: ticks on multiples of the step, in ms, with the decimals the step needs (one precision on the axis).
    painter.setPen(palette().color(QPalette::Mid));
    const int decimals = m_step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(m_step) - 1e-9));
    const int ticks = static_cast<int>(std::lround((m_hi - m_lo) / m_step));
    for (int t = 0; t <= ticks; ++t) {
        const double v = m_lo + m_step * t;
        const int y = static_cast<int>(std::lround(yOf(v)));
        painter.drawLine(p.left(), y, p.right(), y);
        painter.drawText(QRect(0, y - fm.height() / 2, p.left() - 4, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
            QString::number(v, 'f', decimals));
    }
    painter.drawText(QRect(0, 2, p.width(), fm.height()), Qt::AlignLeft,
        m_truncated ? tr("ms per step · axis from %1 ms (the changes are small against the step)")
                          .arg(QString::number(m_lo, 'f', decimals))
                    : tr("ms per step"));
    const double slot = static_cast<double>(p.width()) / static_cast<double>(m_bars.size());
    for (int i = 0; i < static_cast<int>(m_bars.size()); ++i) {
        const Bar& b = m_bars[static_cast<size_t>(i)];
        const QRect r = barRect(i);
        const double d = b.to - b.from;
        QColor fill = b.kind == Bar::Total ? QColor(0x70, 0x80, 0x90) : DeltaColors::forDelta(d, 1.0);
        painter.setPen(Qt::NoPen);
        if (b.kind == Bar::Inside)
            painter.setBrush(QBrush(fill, Qt::BDiagPattern));
        else
            painter.setBrush(fill);
        painter.drawRect(r);
        if (m_truncated && b.kind == Bar::Total) {
            // The break mark: the bar goes on below the axis' floor.
            const int y = r.bottom() - 6;
            painter.setPen(QPen(palette().color(QPalette::Base), 3));
            painter.drawLine(r.left() - 2, y + 3, r.right() + 2, y - 3);
            painter.drawLine(r.left() - 2, y + 9, r.right() + 2, y + 3);
        }
        if (i == hoveredItem() || i == selectedItem()) {
            painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(r.adjusted(-1, -1, 1, 1));
        }
        // Connector to the next bar at the running total.
        if (b.kind != Bar::Inside && i + 1 < static_cast<int>(m_bars.size())) {
            painter.setPen(QPen(palette().color(QPalette::Dark), 1, Qt::DotLine));
            const int y = static_cast<int>(std::lround(yOf(b.to)));
            painter.drawLine(r.right(), y, static_cast<int>(p.left() + slot * (i + 1) + slot * 0.15), y);
        }
        painter.setPen(palette().color(QPalette::Text));
        const QString value = b.kind == Bar::Total ? QString::number(b.to, 'f', 2) : signedMs(d);
        painter.drawText(QRect(r.left() - 20, r.top() - fm.height() - 1, r.width() + 40, fm.height()),
            Qt::AlignHCenter | Qt::AlignBottom, value);
        const QRect labelRect(
            static_cast<int>(p.left() + slot * i), p.bottom() + 3, static_cast<int>(slot), fm.height() * 2);
        painter.drawText(labelRect, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
            fm.elidedText(b.label, Qt::ElideRight, static_cast<int>(slot) * 2 - 4));
    }
}

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/PieChart.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace npuscope::gui {

namespace {

constexpr int kMargin = 8;
constexpr int kSwatch = 11;
constexpr int kGap = 8;
constexpr int kMaxDiameter = 300;
// Radius fractions: the hole, and where the inner ring ends when there are two.
constexpr double kHole = 0.5;
constexpr double kInnerOuter = 0.75;

int64_t positive(int64_t v) { return std::max<int64_t>(0, v); }

QString ms(int64_t ns) { return TimeFormat::withUnit(ns, TimeFormat::Unit::Milliseconds); }

// The middle of the donut is narrow: seconds from 1 s on ("18.8 s" rather than "18760.901 ms").
QString middleText(int64_t ns)
{
    return ns >= 1'000'000'000 ? TimeFormat::adaptive(static_cast<double>(ns)) : ms(ns);
}

} // namespace

int64_t PieChart::Ring::total() const
{
    int64_t sum = 0;
    for (int64_t v : values)
        sum += positive(v);
    return sum;
}

PieChart::PieChart(QWidget* parent)
    : ChartWidget(parent, { .horizontal = QSizePolicy::Expanding, .vertical = QSizePolicy::Expanding })
    , m_placeholder(tr("No data"))
{
}

void PieChart::setData(const QString& title, std::vector<Part> parts, std::vector<Ring> rings)
{
    m_title = title;
    m_parts = std::move(parts);
    m_rings = std::move(rings);
    resetHover();
    update();
}

void PieChart::setPlaceholder(const QString& text)
{
    m_placeholder = text;
    update();
}

QSize PieChart::sizeHint() const { return { 480, 260 }; }

QSize PieChart::minimumSizeHint() const { return { 260, 160 }; }

double PieChart::share(int ring, int part) const
{
    if (ring < 0 || ring >= static_cast<int>(m_rings.size()))
        return 0;
    const auto& r = m_rings[static_cast<size_t>(ring)];
    const int64_t total = r.total();
    if (total <= 0 || part < 0 || part >= static_cast<int>(r.values.size()))
        return 0;
    return static_cast<double>(positive(r.values[static_cast<size_t>(part)])) / static_cast<double>(total);
}

void PieChart::paintSlices(QPainter& p, const QRect& rect, const std::vector<int64_t>& values,
    const std::vector<QColor>& colors, const QColor& border)
{
    int64_t total = 0;
    for (int64_t v : values)
        total += positive(v);
    if (total <= 0)
        return;
    // Slices start at 12 o'clock and run clockwise (negative span in Qt's convention).
    constexpr int start = 90 * 16;
    int64_t accumulated = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        const int64_t v = positive(values[i]);
        if (v == 0)
            continue;
        const auto angle = [&](int64_t sum) {
            return static_cast<int>(std::lround(5760.0 * static_cast<double>(sum) / static_cast<double>(total)));
        };
        const int begin = angle(accumulated);
        accumulated += v;
        const int end = angle(accumulated);
        p.setBrush(i < colors.size() ? colors[i] : QColor(Qt::gray));
        p.setPen(QPen(border, 1.5));
        p.drawPie(rect, start - begin, -(end - begin));
    }
}

int PieChart::sliceAt(const std::vector<int64_t>& values, double degrees)
{
    int64_t total = 0;
    for (int64_t v : values)
        total += positive(v);
    if (total <= 0)
        return -1;
    const double at = std::clamp(degrees, 0.0, 360.0) / 360.0 * static_cast<double>(total);
    int64_t accumulated = 0;
    int last = -1;
    for (size_t i = 0; i < values.size(); ++i) {
        const int64_t v = positive(values[i]);
        if (v == 0)
            continue;
        accumulated += v;
        last = static_cast<int>(i);
        if (at < static_cast<double>(accumulated))
            return last;
    }
    return last;
}

double PieChart::clockAngle(const QPointF& centre, const QPointF& point)
{
    // atan2 of (right, up) measured from "up" clockwise.
    const double deg = std::atan2(point.x() - centre.x(), centre.y() - point.y()) * 180.0 / std::numbers::pi;
    return deg < 0 ? deg + 360.0 : deg;
}

QRect PieChart::pieRect() const
{
    const QRect area = rect().adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const int titleHeight = fontMetrics().height() + 6;
    const QRect body = area.adjusted(0, titleHeight, 0, 0);
    // The pie takes at most ~45 % of the width; the legend the rest.
    const int diameter = std::max(40, std::min({ body.height(), body.width() * 45 / 100, kMaxDiameter }));
    return { body.left(), body.top() + (body.height() - diameter) / 2, diameter, diameter };
}

int PieChart::itemAt(const QPoint& pos) const
{
    if (m_rings.empty() || m_parts.empty())
        return -1;
    const QRect pie = pieRect();
    const QPointF centre = QRectF(pie).center();
    const double radius = pie.width() / 2.0;
    const double r = std::hypot(pos.x() - centre.x(), pos.y() - centre.y()) / radius;
    if (r > 1.0 || r < kHole)
        return -1;
    const int ring = m_rings.size() > 1 && r < kInnerOuter ? 1 : 0;
    const int part = sliceAt(m_rings[static_cast<size_t>(ring)].values, clockAngle(centre, pos));
    return part < 0 ? -1 : ring * static_cast<int>(m_parts.size()) + part;
}

QString PieChart::itemToolTip(int item) const
{
    if (item < 0 || m_parts.empty())
        return {};
    const int ring = item / static_cast<int>(m_parts.size());
    const int part = item % static_cast<int>(m_parts.size());
    if (ring >= static_cast<int>(m_rings.size()))
        return {};
    const auto& r = m_rings[static_cast<size_t>(ring)];
    QString text = QStringLiteral("<b>%1</b>").arg(m_parts[static_cast<size_t>(part)].name.toHtmlEscaped());
    if (!r.name.isEmpty())
        text += QStringLiteral(" (%1)").arg(r.name.toHtmlEscaped());
    text += QStringLiteral("<br>%1 \u00b7 %2 % of %3")
                .arg(ms(r.values[static_cast<size_t>(part)]))
                .arg(100.0 * share(ring, part), 0, 'f', 1)
                .arg(ms(r.total()));
    return text;
}

QString PieChart::holeText(const QString& full, int64_t ns, const QFontMetrics& fm, int holeWidth)
{
    const int room = holeWidth - 8; // a few pixels clear of the ring
    if (fm.horizontalAdvance(full) <= room)
        return full;
    return fm.elidedText(TimeFormat::adaptive(static_cast<double>(ns)), Qt::ElideRight, holeWidth);
}

void PieChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRect area = rect().adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::WindowText));
    const int titleHeight = fm.height() + 6;
    p.drawText(QRect(area.left(), area.top(), area.width(), titleHeight), Qt::AlignLeft | Qt::AlignTop,
        QFontMetrics(bold).elidedText(m_title, Qt::ElideRight, area.width()));
    p.setFont(font());

    const bool empty = m_rings.empty() || m_parts.empty()
        || std::all_of(m_rings.begin(), m_rings.end(), [](const Ring& r) { return r.total() <= 0; });
    if (empty) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(area.adjusted(0, titleHeight, 0, 0), Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
        return;
    }

    const QRect pie = pieRect();
    std::vector<QColor> colors;
    for (const auto& part : m_parts)
        colors.push_back(part.color);
    const QColor base = palette().color(QPalette::Base);
    paintSlices(p, pie, m_rings[0].values, colors, base);
    if (m_rings.size() > 1) {
        const int inner = static_cast<int>(pie.width() * kInnerOuter);
        const QRect innerRect(pie.center().x() - inner / 2 + 1, pie.center().y() - inner / 2 + 1, inner, inner);
        p.setPen(Qt::NoPen);
        p.setBrush(base);
        p.drawEllipse(innerRect.adjusted(-2, -2, 2, 2));
        paintSlices(p, innerRect, m_rings[1].values, colors, base);
    }
    const int hole = static_cast<int>(pie.width() * kHole);
    const QRect holeRect(pie.center().x() - hole / 2 + 1, pie.center().y() - hole / 2 + 1, hole, hole);
    p.setPen(Qt::NoPen);
    p.setBrush(base);
    p.drawEllipse(holeRect);
    // The middle: each ring's total.
    p.setPen(palette().color(QPalette::WindowText));
    const int lines = static_cast<int>(std::min<size_t>(m_rings.size(), 2));
    int ty = holeRect.center().y() - lines * fm.height() / 2;
    for (int i = 0; i < lines; ++i) {
        const auto& r = m_rings[static_cast<size_t>(i)];
        p.setFont(i == 0 ? bold : font());
        p.drawText(QRect(holeRect.left(), ty, holeRect.width(), fm.height()), Qt::AlignCenter,
            holeText(middleText(r.total()), r.total(), QFontMetrics(p.font()), holeRect.width()));
        ty += fm.height();
    }
    p.setFont(font());

    // Legend: swatch, name (elided), value per ring, share of the first ring.
    const int x = pie.right() + 2 * kGap;
    const int legendWidth = area.right() - x;
    if (legendWidth < 60)
        return;
    const int lineHeight = fm.height() + 3;
    // Columns as wide as their widest text, so the names keep the room.
    int valueWidth = fm.horizontalAdvance(QStringLiteral("0.000 ms"));
    for (const auto& r : m_rings) {
        valueWidth = std::max(valueWidth, fm.horizontalAdvance(r.name));
        for (int64_t v : r.values)
            valueWidth = std::max(valueWidth, fm.horizontalAdvance(ms(v)));
    }
    const int pctWidth = fm.horizontalAdvance(QStringLiteral("100.0 %"));
    // Without room for a readable name beside every figure (a narrow dock, 200 % scaling), the value columns go (the
    // tooltip has them) and the names keep the share.
    const int minName = fm.horizontalAdvance(QStringLiteral("MMMMMMMM"));
    const int columns = legendWidth - kSwatch - 6 - static_cast<int>(m_rings.size()) * (valueWidth + kGap) - pctWidth
                - kGap
            >= minName
        ? static_cast<int>(m_rings.size())
        : 0;
    int widestName = 0;
    for (const auto& part : m_parts)
        widestName = std::max(widestName, fm.horizontalAdvance(part.name));
    // Names as wide as the widest, elided when the legend is narrower; the figures follow them.
    const int nameWidth = std::max(
        40, std::min(widestName + 6, legendWidth - kSwatch - 6 - columns * (valueWidth + kGap) - pctWidth - kGap));
    const bool header = m_rings.size() > 1 && columns > 0;
    const int available = (area.bottom() - (area.top() + titleHeight)) / lineHeight - (header ? 1 : 0);
    const int partCount = static_cast<int>(m_parts.size());
    const int shown = partCount <= available ? partCount : std::max(0, available - 1);
    int y = std::max(area.top() + titleHeight, pie.center().y() - (shown + (header ? 1 : 0)) * lineHeight / 2);
    const int valueX = x + kSwatch + 6 + nameWidth + kGap;
    if (header) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        for (int c = 0; c < columns; ++c)
            p.drawText(QRect(valueX + c * (valueWidth + kGap), y, valueWidth, lineHeight),
                Qt::AlignRight | Qt::AlignVCenter, m_rings[static_cast<size_t>(c)].name);
        p.drawText(QRect(valueX + columns * (valueWidth + kGap), y, pctWidth, lineHeight),
            Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("%"));
        y += lineHeight;
    }
    for (int i = 0; i < shown; ++i) {
        const auto& part = m_parts[static_cast<size_t>(i)];
        p.setPen(Qt::NoPen);
        p.setBrush(part.color);
        p.drawRoundedRect(QRect(x, y + (lineHeight - kSwatch) / 2, kSwatch, kSwatch), 2, 2);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(x + kSwatch + 6, y, nameWidth, lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(part.name, Qt::ElideMiddle, nameWidth));
        for (int c = 0; c < columns; ++c) {
            const auto& values = m_rings[static_cast<size_t>(c)].values;
            p.drawText(QRect(valueX + c * (valueWidth + kGap), y, valueWidth, lineHeight),
                Qt::AlignRight | Qt::AlignVCenter,
                ms(i < static_cast<int>(values.size()) ? values[static_cast<size_t>(i)] : 0));
        }
        p.drawText(QRect(valueX + columns * (valueWidth + kGap), y, pctWidth, lineHeight),
            Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("%1 %").arg(100.0 * share(0, i), 0, 'f', 1));
        y += lineHeight;
    }
    if (shown < partCount) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        const int moreWidth = legendWidth - kSwatch - 6;
        p.drawText(QRect(x + kSwatch + 6, y, moreWidth, lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(tr("\u2026 %1 more (hover the pie)").arg(partCount - shown), Qt::ElideRight, moreWidth));
    }
}

} // namespace npuscope::gui

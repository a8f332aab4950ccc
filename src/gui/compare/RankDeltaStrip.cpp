// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/compare/RankDeltaStrip.h"

#include "npuscope/gui/compare/DeltaColors.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

namespace {

constexpr int kStripHeight = 16;

QString signedMs(double ms) { return DeltaColors::signedText(ms, 3); }

} // namespace

RankDeltaStrip::RankDeltaStrip(QWidget* parent)
    : ChartWidget(
        parent, { .objectName = "compareRankStrip", .plotMargins = { 56, 20, 12, 18 }, .minimumSize = { 0, 100 } })
{
}

void RankDeltaStrip::setDiff(const query::RunDiff& diff)
{
    m_diff = diff;
    rebuild();
}

void RankDeltaStrip::setComponent(query::DiffComponent component)
{
    m_component = component;
    rebuild();
}

void RankDeltaStrip::rebuild()
{
    resetHover();
    m_entries.clear();
    m_scale = 0;
    m_largest = -1;
    double largest = 0;
    for (const auto& r : m_diff.ranks) {
        Entry e { r.rank, r.base.value(m_component), r.neu.value(m_component) };
        if (const auto d = e.delta()) {
            m_scale = std::max(m_scale, std::abs(*d));
            if (*d > largest) {
                largest = *d;
                m_largest = static_cast<int>(m_entries.size());
            }
        }
        m_entries.push_back(e);
    }
    const int marked = m_marked >= 0 && m_marked < static_cast<int>(m_entries.size()) ? m_marked : -1;
    m_marked = marked;
    update();
}

std::optional<int64_t> RankDeltaStrip::rankOf(int item) const
{
    if (item < 0 || item >= static_cast<int>(m_entries.size()))
        return std::nullopt;
    return m_entries[static_cast<size_t>(item)].rank;
}

std::optional<int64_t> RankDeltaStrip::largestIncreaseRank() const { return rankOf(m_largest); }

void RankDeltaStrip::setMarkedRank(std::optional<int64_t> rank)
{
    m_marked = -1;
    for (int i = 0; rank && i < static_cast<int>(m_entries.size()); ++i) {
        if (m_entries[static_cast<size_t>(i)].rank == *rank)
            m_marked = i;
    }
    update();
}

int RankDeltaStrip::columnOf(int item) const
{
    const int n = static_cast<int>(m_entries.size());
    const int w = std::max(1, plotRect().width());
    return n <= w ? item : static_cast<int>(static_cast<int64_t>(item) * w / n);
}

int RankDeltaStrip::representative(int column) const
{
    const int n = static_cast<int>(m_entries.size());
    const int w = std::max(1, plotRect().width());
    if (n <= w)
        return column < n ? column : -1;
    // The ranks whose column is this one: [ceil(c·n/w), ceil((c+1)·n/w)).
    const int first = static_cast<int>((static_cast<int64_t>(column) * n + w - 1) / w);
    const int last = std::min(n, static_cast<int>((static_cast<int64_t>(column + 1) * n + w - 1) / w));
    int best = first < last ? first : -1;
    double bestAbs = -1;
    for (int i = first; i < last; ++i) {
        const auto d = m_entries[static_cast<size_t>(i)].delta();
        if (d && std::abs(*d) > bestAbs) {
            bestAbs = std::abs(*d);
            best = i;
        }
    }
    return best;
}

int RankDeltaStrip::itemAt(const QPoint& pos) const
{
    const QRect p = plotRect();
    const int n = static_cast<int>(m_entries.size());
    if (n == 0 || !p.adjusted(0, -4, 0, 4).contains(pos))
        return -1;
    const int w = std::max(1, p.width());
    const int x = pos.x() - p.left();
    if (n <= w)
        return std::clamp(static_cast<int>(static_cast<int64_t>(x) * n / w), 0, n - 1);
    return representative(std::clamp(x, 0, w - 1));
}

QString RankDeltaStrip::itemToolTip(int item) const
{
    if (item < 0 || item >= static_cast<int>(m_entries.size()))
        return {};
    const Entry& e = m_entries[static_cast<size_t>(item)];
    auto v = [](const std::optional<double>& x) { return x ? QString::number(*x, 'f', 3) : QStringLiteral("\u2014"); };
    QString text = tr("rank %1 \u00b7 %2: base %3 ms, new %4 ms")
                       .arg(e.rank)
                       .arg(QString::fromUtf8(query::diffComponentTitle(m_component)), v(e.base), v(e.neu));
    if (const auto d = e.delta())
        text += tr(", \u0394 %1 ms").arg(signedMs(*d));
    if (static_cast<int>(m_entries.size()) > plotRect().width())
        text += tr("\n(the largest |\u0394| of the ranks in this pixel column)");
    return text + tr("\nclick: select the rank");
}

void RankDeltaStrip::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const QRect p = plotRect();
    const QFontMetrics fm(font());
    const int n = static_cast<int>(m_entries.size());
    if (n == 0) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No matched ranks"));
        return;
    }
    const int w = std::max(1, p.width());
    const int columns = std::min(n, w);
    // Ranks wider than a pixel get equal integer-free spans of the plot.
    auto spanOf = [&](int column) {
        const int x0 = p.left() + static_cast<int>(static_cast<int64_t>(column) * w / columns);
        const int x1 = p.left() + static_cast<int>(static_cast<int64_t>(column + 1) * w / columns);
        return std::pair { x0, std::max(x0 + 1, x1 - (w / columns >= 4 ? 1 : 0)) };
    };
    const QRect strip(p.left(), p.top(), p.width(), kStripHeight);
    const QRect bars(p.left(), strip.bottom() + 4, p.width(), std::max(10, p.bottom() - strip.bottom() - 4));
    const double zero = bars.center().y();
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(bars.left(), static_cast<int>(zero), bars.right(), static_cast<int>(zero));
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(
        QRect(0, strip.top(), p.left() - 4, strip.height()), Qt::AlignRight | Qt::AlignVCenter, tr("\u0394"));
    painter.drawText(QRect(0, bars.top(), p.left() - 4, fm.height()), Qt::AlignRight | Qt::AlignTop,
        QStringLiteral("+%1").arg(m_scale, 0, 'f', m_scale >= 10 ? 1 : 3));
    painter.drawText(QRect(0, bars.bottom() - fm.height(), p.left() - 4, fm.height()), Qt::AlignRight | Qt::AlignBottom,
        QStringLiteral("\u2212%1").arg(m_scale, 0, 'f', m_scale >= 10 ? 1 : 3));
    for (int c = 0; c < columns; ++c) {
        const int item = n <= w ? c : representative(c);
        if (item < 0)
            continue;
        const auto d = m_entries[static_cast<size_t>(item)].delta();
        const auto [x0, x1] = spanOf(c);
        if (!d) {
            painter.fillRect(QRect(x0, strip.top(), x1 - x0, strip.height()), QBrush(Qt::gray, Qt::Dense6Pattern));
            continue;
        }
        const QColor color = DeltaColors::forDelta(*d, m_scale);
        painter.fillRect(QRect(x0, strip.top(), x1 - x0, strip.height()), color);
        const double h = m_scale > 0 ? *d / m_scale * (bars.height() / 2.0) : 0;
        const int y0 = static_cast<int>(std::lround(std::min(zero, zero - h)));
        const int y1 = static_cast<int>(std::lround(std::max(zero, zero - h)));
        painter.fillRect(QRect(x0, y0, x1 - x0, std::max(1, y1 - y0)), color);
    }
    auto markItem = [&](int item, const QColor& color, bool label) {
        if (item < 0)
            return;
        const auto [x0, x1] = spanOf(columnOf(item));
        const int cx = (x0 + x1) / 2;
        painter.setPen(QPen(color, 2));
        painter.setBrush(color);
        const QPolygon triangle({ QPoint(cx - 5, p.top() - 8), QPoint(cx + 5, p.top() - 8), QPoint(cx, p.top() - 1) });
        painter.drawPolygon(triangle);
        if (!label)
            return;
        const Entry& e = m_entries[static_cast<size_t>(item)];
        const QString text = tr("rank %1 %2 ms").arg(e.rank).arg(signedMs(e.delta().value_or(0)));
        const int tw = fm.horizontalAdvance(text);
        const int tx = std::clamp(cx + 8, p.left(), std::max(p.left(), p.right() - tw));
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QRect(tx, 0, tw + 2, p.top() - 2), Qt::AlignLeft | Qt::AlignVCenter, text);
    };
    markItem(m_largest, QColor(0xb7, 0x1c, 0x1c), true);
    markItem(m_marked, palette().color(QPalette::Highlight), false);
    if (hoveredItem() >= 0) {
        const auto [x0, x1] = spanOf(columnOf(hoveredItem()));
        painter.setPen(QPen(palette().color(QPalette::Highlight), 1));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRect(x0 - 1, p.top() - 1, x1 - x0 + 1, p.height() + 1));
    }
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(QRect(p.left(), p.bottom() + 2, p.width(), fm.height()), Qt::AlignLeft,
        tr("rank %1").arg(m_entries.front().rank));
    painter.drawText(QRect(p.left(), p.bottom() + 2, p.width(), fm.height()), Qt::AlignRight,
        tr("rank %1 \u00b7 %2 ranks%3")
            .arg(m_entries.back().rank)
            .arg(n)
            .arg(n > w ? tr(", %1 per pixel column").arg((n + w - 1) / w) : QString()));
}

} // namespace npuscope::gui

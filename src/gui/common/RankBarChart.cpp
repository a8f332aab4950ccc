// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/RankBarChart.h"

#include "npuscope/gui/common/SplitParts.h"
#include "npuscope/gui/common/TimeFormat.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

namespace {

constexpr int kRightMargin = 18;
constexpr int kBottomMargin = 6;

} // namespace

RankBarChart::RankBarChart(QWidget* parent)
    : ChartWidget(parent, { .objectName = "rankBarChart", .hover = true, .horizontal = QSizePolicy::Expanding })
{
    connect(this, &ChartWidget::itemClicked, this,
        [this](int item) { emit rankClicked(m_bars[static_cast<size_t>(item)].rank); });
    relayout();
}

void RankBarChart::setBars(std::vector<Bar> bars)
{
    m_bars = std::move(bars);
    m_maxTotal = 0;
    for (const auto& b : m_bars)
        m_maxTotal = std::max(m_maxTotal, b.split.total());
    resetHover();
    relayout();
    update();
}

void RankBarChart::setSelectedRank(std::optional<int64_t> rank)
{
    if (rank == m_selectedRank)
        return;
    m_selectedRank = rank;
    update();
}

void RankBarChart::setAvailableHeight(int height)
{
    if (height == m_availableHeight)
        return;
    m_availableHeight = height;
    relayout();
}

int RankBarChart::topMargin() const { return fontMetrics().height() + 12; }

int RankBarChart::labelWidth() const
{
    int64_t widest = 0;
    for (const auto& b : m_bars)
        widest = std::max(widest, std::abs(b.rank));
    // Measured in bold: the selected rank's label is drawn bold.
    QFont bold = font();
    bold.setBold(true);
    return QFontMetrics(bold).horizontalAdvance(tr("rank %1").arg(widest)) + 12;
}

void RankBarChart::relayout()
{
    const int n = std::max<int>(1, static_cast<int>(m_bars.size()));
    const int usable = m_availableHeight - topMargin() - kBottomMargin;
    m_rowHeight = std::clamp(usable / n, kMinRowHeight, kMaxRowHeight);
    const int height = topMargin() + n * m_rowHeight + kBottomMargin;
    setMinimumHeight(height);
    updateGeometry();
    update();
}

int RankBarChart::labelEvery() const
{
    // Labels need a text line of room; pick 1, 2, 5, 10, 20, 50 ... rows so they read as a scale.
    const int needed = (fontMetrics().height() + 2 + m_rowHeight - 1) / m_rowHeight;
    int every = 1;
    for (int magnitude = 1;; magnitude *= 10) {
        for (int f : { 1, 2, 5 }) {
            every = f * magnitude;
            if (every >= needed)
                return every;
        }
    }
}

QRect RankBarChart::labelRect(int barIndex) const
{
    const int height = fontMetrics().height();
    const int y = topMargin() + barIndex * m_rowHeight + m_rowHeight / 2 - height / 2;
    return QRect(0, y, labelWidth() - 6, height);
}

bool RankBarChart::labelShown(int barIndex, int every) const
{
    if (barIndex < 0 || barIndex >= static_cast<int>(m_bars.size()))
        return false;
    int selected = -1;
    if (m_selectedRank) {
        for (size_t i = 0; i < m_bars.size(); ++i) {
            if (m_bars[i].rank == *m_selectedRank)
                selected = static_cast<int>(i);
        }
    }
    if (barIndex == selected)
        return true;
    if (barIndex % every != 0)
        return false;
    // A scale label that the selected rank's label would cover gives way to it.
    return selected < 0 || !labelRect(barIndex).intersects(labelRect(selected));
}

std::vector<QRect> RankBarChart::labelRects() const
{
    std::vector<QRect> out;
    const int every = labelEvery();
    for (int i = 0; i < static_cast<int>(m_bars.size()); ++i) {
        if (labelShown(i, every))
            out.push_back(labelRect(i));
    }
    return out;
}

int RankBarChart::barAt(int y) const
{
    if (m_bars.empty() || y < topMargin())
        return -1;
    const int index = (y - topMargin()) / m_rowHeight;
    return index < static_cast<int>(m_bars.size()) ? index : -1;
}

QString RankBarChart::toolTipFor(int barIndex) const
{
    if (barIndex < 0 || barIndex >= static_cast<int>(m_bars.size()))
        return {};
    const auto& bar = m_bars[static_cast<size_t>(barIndex)];
    const int64_t total = bar.split.total();
    QString html = QStringLiteral("<b>Rank %1</b><table>").arg(bar.rank);
    for (int part = 0; part < SplitParts::PartCount; ++part) {
        // Only the parts the rank's files have: an absent part is not a 0.
        if (!SplitParts::present(bar.split, part))
            continue;
        const int64_t v = SplitParts::value(bar.split, part);
        const double pct = total > 0 ? 100.0 * static_cast<double>(v) / static_cast<double>(total) : 0.0;
        html += QStringLiteral("<tr><td><span style='color:%1'>&#9632;</span> %2</td>"
                               "<td align=right>&nbsp;%3</td><td align=right>&nbsp;%4 %</td></tr>")
                    .arg(SplitParts::color(part).name(), SplitParts::name(part),
                        TimeFormat::withUnit(v, TimeFormat::Unit::Milliseconds), QString::number(pct, 'f', 1));
    }
    html += QStringLiteral("<tr><td><b>Step time</b></td><td align=right>&nbsp;<b>%1</b></td><td></td></tr></table>")
                .arg(TimeFormat::withUnit(total, TimeFormat::Unit::Milliseconds));
    return html;
}

QSize RankBarChart::sizeHint() const { return { 520, minimumHeight() }; }

double RankBarChart::axisStep(double maxValue, int pixels) const
{
    // About one tick per 90 px.
    return niceStep(maxValue, pixels / 90.0);
}

void RankBarChart::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    const QFontMetrics fm(font());
    p.fillRect(event->rect(), palette().color(QPalette::Base));
    if (m_bars.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No per-rank step data"));
        return;
    }

    const int left = labelWidth();
    const int top = topMargin();
    const int plotWidth = std::max(10, width() - left - kRightMargin);
    const double maxValue = std::max<double>(1.0, static_cast<double>(m_maxTotal));
    const double step = axisStep(maxValue, plotWidth);
    const double scale = plotWidth / (std::ceil(maxValue / step) * step);
    const int n = static_cast<int>(m_bars.size());
    const int plotBottom = top + n * m_rowHeight;

    // Axis along the top, with vertical grid lines through the bars.
    p.setPen(palette().color(QPalette::WindowText));
    for (double v = 0; v * scale <= plotWidth + 0.5; v += step) {
        const int x = left + static_cast<int>(std::lround(v * scale));
        p.setPen(QPen(gridColor(), 1));
        p.drawLine(x, top - 3, x, plotBottom);
        p.setPen(palette().color(QPalette::WindowText));
        const QString label = TimeFormat::axisTick(v, step);
        const int w = fm.horizontalAdvance(label);
        const int tx = std::clamp(x - w / 2, left - w / 2, width() - w - 2);
        p.drawText(tx, top - 6 - fm.descent(), label);
    }

    // Only the rows the paint event covers: at 1,000 ranks most are scrolled away.
    const int first = std::max(0, (event->rect().top() - top) / m_rowHeight - 1);
    const int last = std::min(n - 1, (event->rect().bottom() - top) / m_rowHeight + 1);
    const int gap = m_rowHeight >= 8 ? std::max(2, m_rowHeight / 5) : 0;
    const int every = labelEvery();

    for (int i = first; i <= last; ++i) {
        const auto& bar = m_bars[static_cast<size_t>(i)];
        const int y = top + i * m_rowHeight;
        const bool selected = m_selectedRank && bar.rank == *m_selectedRank;
        if (selected || i == hoveredItem()) {
            QColor band = selected ? selectionColor() : palette().color(QPalette::Text);
            if (!selected)
                band.setAlpha(18);
            // A row thinner than its label (hundreds of ranks): the band stays in the plot, so that it does not
            // strike through the label drawn over several rows.
            const int bandLeft = m_rowHeight < fm.height() ? left : 0;
            p.fillRect(QRect(bandLeft, y, width() - bandLeft, std::max(m_rowHeight, 2)), band);
        }
        double x = left;
        for (int part = 0; part < SplitParts::PartCount; ++part) {
            const double w = static_cast<double>(std::max<int64_t>(0, SplitParts::value(bar.split, part))) * scale;
            const int x0 = static_cast<int>(std::lround(x));
            const int x1 = static_cast<int>(std::lround(x + w));
            if (x1 > x0)
                p.fillRect(QRect(x0, y + gap / 2, x1 - x0, m_rowHeight - gap), SplitParts::color(part));
            x += w;
        }
        if (labelShown(i, every)) {
            QFont f = font();
            f.setBold(selected);
            p.setFont(f);
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(labelRect(i), Qt::AlignRight | Qt::AlignVCenter, tr("rank %1").arg(bar.rank));
            if (m_rowHeight < fm.height()) {
                p.setPen(QPen(palette().color(QPalette::Mid), 1));
                p.drawLine(left - 4, y + m_rowHeight / 2, left - 1, y + m_rowHeight / 2);
            }
            p.setFont(font());
        }
    }
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawLine(left, top - 3, left, plotBottom);
}

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/CommRankChart.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

namespace {

const QColor kTransit(66, 133, 244);
const QColor kWait(234, 67, 53);
const QColor kIdle(200, 200, 200);
const QColor kElapsed(52, 168, 83);
constexpr double kMaxRow = 28.0;

} // namespace

CommRankChart::CommRankChart(QWidget* parent)
    : ChartWidget(parent, { .objectName = "commRankChart", .hover = true, .minimumSize = { 200, 120 } })
{
    connect(this, &ChartWidget::itemClicked, this,
        [this](int item) { emit rankClicked(m_rows[static_cast<size_t>(item)].rank); });
}

void CommRankChart::setRows(std::vector<query::RankDuration> rows)
{
    m_rows = std::move(rows);
    m_max = 0;
    const bool separate = separateFigures();
    for (const auto& r : m_rows)
        m_max = std::max(m_max, separate ? std::max(r.elapseNs, r.waitNs) : r.transitNs + r.waitNs + r.idleNs);
    update();
}

double CommRankChart::maxRow() const
{
    // Two labelled bars per rank need two text lines.
    return separateFigures() ? std::max(kMaxRow, 2.0 * fontMetrics().height() + 12) : kMaxRow;
}

void CommRankChart::setEmptyText(const QString& text)
{
    m_emptyText = text;
    update();
}

bool CommRankChart::separateFigures(const std::vector<query::RankDuration>& rows)
{
    return !rows.empty()
        && std::none_of(rows.begin(), rows.end(), [](const auto& r) { return r.hasTransit || r.hasIdle; });
}

QString CommRankChart::title() const
{
    return separateFigures()
        ? tr("Per rank: communication cost (Elapsed) and wait cost (MindSpore hccl_raw: separate figures, wait is not "
             "part of elapsed)")
        : tr("Per rank: Transit + Wait + Idle = Elapsed");
}

void CommRankChart::setSelectedRank(std::optional<int64_t> rank)
{
    m_selected = rank;
    update();
}

QRect CommRankChart::plotRect() const
{
    const QFontMetrics fm = fontMetrics();
    const int left = fm.horizontalAdvance(QStringLiteral("rank 8888")) + 8;
    const int top = fm.height() * 2 + 10;
    return { left, top, std::max(10, width() - left - 12), std::max(10, height() - top - 6) };
}

int CommRankChart::rowAt(int y) const
{
    const QRect plot = plotRect();
    if (m_rows.empty() || y < plot.top() || y >= plot.bottom())
        return -1;
    const double h = std::min(maxRow(), static_cast<double>(plot.height()) / static_cast<double>(m_rows.size()));
    const int row = static_cast<int>((y - plot.top()) / h);
    return row < static_cast<int>(m_rows.size()) ? row : -1;
}

QString CommRankChart::toolTipFor(int row) const
{
    if (row < 0 || row >= static_cast<int>(m_rows.size()))
        return {};
    const auto& r = m_rows[static_cast<size_t>(row)];
    auto ms = [](int64_t ns) { return TimeFormat::withUnit(ns, TimeFormat::Unit::Milliseconds); };
    auto msIf = [&ms](bool has, int64_t ns) { return has ? ms(ns) : TimeFormat::kAbsent; };
    return tr("<b>Rank %1</b> (%2 ops)<br>Elapsed %3<br>Transit %4<br>Wait %5 (ratio %6)<br>Sync %7<br>Idle %8")
        .arg(r.rank)
        .arg(r.opCount)
        .arg(ms(r.elapseNs), msIf(r.hasTransit, r.transitNs), msIf(r.hasWait, r.waitNs),
            r.waitRatio ? QString::number(*r.waitRatio, 'f', 4) : TimeFormat::kAbsent, msIf(r.hasSync, r.syncNs),
            msIf(r.hasIdle, r.idleNs));
}

QRectF CommRankChart::labelRect(size_t row) const
{
    const QRect plot = plotRect();
    const double h = std::min(
        maxRow(), static_cast<double>(plot.height()) / static_cast<double>(std::max<size_t>(1, m_rows.size())));
    const double y = plot.top() + static_cast<double>(row) * h;
    const double lineHeight = fontMetrics().height();
    return QRectF(0, y + h / 2 - lineHeight / 2.0, plot.left() - 6, lineHeight);
}

void CommRankChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    if (m_rows.empty() || m_max <= 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
            m_emptyText.isEmpty() ? tr("No communication ops") : m_emptyText);
        return;
    }
    const bool separate = separateFigures();
    // Legend on the first line, scale on the second.
    int x = 4;
    const std::vector<std::pair<QString, QColor>> legend = separate
        ? std::vector<std::pair<QString, QColor>> { { tr("Elapsed (communication cost)"), kElapsed },
              { tr("Wait (wait cost)"), kWait } }
        : std::vector<std::pair<QString, QColor>> { { tr("Transit"), kTransit }, { tr("Wait"), kWait },
              { tr("Idle"), kIdle } };
    for (const auto& [name, color] : legend) {
        p.fillRect(QRect(x, 4, 12, 12), color);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QPoint(x + 16, 4 + fm.ascent() - 1), name);
        x += 24 + fm.horizontalAdvance(name);
    }
    const QRect plot = plotRect();
    const double scale = plot.width() / static_cast<double>(m_max);
    p.drawText(QPoint(plot.left(), plot.top() - 6), QStringLiteral("0"));
    const QString maxText = TimeFormat::adaptive(static_cast<double>(m_max));
    p.drawText(QPoint(plot.right() - fm.horizontalAdvance(maxText), plot.top() - 6), maxText);

    const size_t n = m_rows.size();
    const double h = std::min(maxRow(), static_cast<double>(plot.height()) / static_cast<double>(n));
    const double gap = h >= 8 ? std::max(1.0, h / 5) : 0.0;
    int every = 1;
    while (every * h < fm.height() + 2)
        every = every == 1 ? 2 : (every % 10 == 2 ? every / 2 * 5 : every * 2);
    for (size_t i = 0; i < n; ++i) {
        const auto& r = m_rows[i];
        const double y = plot.top() + static_cast<double>(i) * h;
        const double bh = std::max(1.0, h - gap);
        const bool selected = m_selected && *m_selected == r.rank;
        // The selected row's band over the bars only: across the label column it ran through the row's label.
        if (selected)
            p.fillRect(QRectF(plot.left(), y, plot.width(), std::max(2.0, h)), selectionColor());
        if (separate) {
            // Two bars on one scale; each carries its value so a tiny Elapsed next to a long Wait still reads.
            const double half = bh / 2;
            int row = 0;
            for (const auto& [v, color] : { std::pair { r.elapseNs, kElapsed }, std::pair { r.waitNs, kWait } }) {
                const double w = std::max(2.0, static_cast<double>(std::max<int64_t>(0, v)) * scale);
                const QRectF bar(plot.left(), y + gap / 2 + row * half, w, std::max(1.0, half - 1));
                p.fillRect(bar, color);
                if (half >= fm.height() * 0.7) {
                    const QString value = TimeFormat::adaptive(static_cast<double>(v));
                    const bool inside = w > fm.horizontalAdvance(value) + 8;
                    p.setPen(inside ? QColor(Qt::white) : palette().color(QPalette::WindowText));
                    p.drawText(QRectF(inside ? plot.left() + 4 : plot.left() + w + 4, bar.top(),
                                   inside ? w - 8 : plot.right() - plot.left() - w - 4, bar.height()),
                        Qt::AlignVCenter | (inside ? Qt::AlignRight : Qt::AlignLeft), value);
                }
                ++row;
            }
        }
        double bx = plot.left();
        for (const auto& [v, color] :
            { std::pair { r.transitNs, kTransit }, std::pair { r.waitNs, kWait }, std::pair { r.idleNs, kIdle } }) {
            if (separate)
                break;
            const double w = static_cast<double>(std::max<int64_t>(0, v)) * scale;
            p.fillRect(QRectF(bx, y + gap / 2, w, bh), color);
            bx += w;
        }
        if (static_cast<int>(i) % every == 0 && !selected) {
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(labelRect(i), Qt::AlignRight | Qt::AlignVCenter, tr("rank %1").arg(r.rank));
        }
    }
    // The selected rank's label last, on a tag of the selection's colour that covers the labels it overlaps.
    for (size_t i = 0; i < n; ++i) {
        if (!m_selected || *m_selected != m_rows[i].rank)
            continue;
        const QString text = tr("rank %1").arg(m_rows[i].rank);
        const QRectF r = labelRect(i);
        const double w = fm.horizontalAdvance(text) + 8;
        const QRectF tag(r.right() - w + 4, r.top(), w, r.height());
        p.fillRect(tag, palette().color(QPalette::Base));
        p.fillRect(tag, selectionColor());
        p.setPen(palette().color(QPalette::Text));
        p.drawText(r, Qt::AlignRight | Qt::AlignVCenter, text);
    }
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawLine(plot.left(), plot.top(), plot.left(), plot.bottom());
}

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/CommRankChart.h"

#include "npuscope/gui/TimeFormat.h"

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
constexpr double kMaxRow = 28.0;

} // namespace

CommRankChart::CommRankChart(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("commRankChart"));
    setMouseTracking(true);
    setMinimumSize(200, 120);
}

void CommRankChart::setRows(std::vector<query::RankDuration> rows)
{
    m_rows = std::move(rows);
    m_max = 0;
    for (const auto& r : m_rows)
        m_max = std::max(m_max, r.transitNs + r.waitNs + r.idleNs);
    update();
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
    const double h = std::min(kMaxRow, static_cast<double>(plot.height()) / static_cast<double>(m_rows.size()));
    const int row = static_cast<int>((y - plot.top()) / h);
    return row < static_cast<int>(m_rows.size()) ? row : -1;
}

QString CommRankChart::toolTipFor(int row) const
{
    if (row < 0 || row >= static_cast<int>(m_rows.size()))
        return {};
    const auto& r = m_rows[static_cast<size_t>(row)];
    auto ms = [](int64_t ns) { return TimeFormat::withUnit(ns, TimeFormat::Unit::Milliseconds); };
    return tr("<b>Rank %1</b> (%2 ops)<br>Elapsed %3<br>Transit %4<br>Wait %5 (ratio %6)<br>Sync %7<br>Idle %8")
        .arg(r.rank)
        .arg(r.opCount)
        .arg(ms(r.elapseNs), ms(r.transitNs), ms(r.waitNs),
            r.waitRatio ? QString::number(*r.waitRatio, 'f', 4) : TimeFormat::kAbsent, ms(r.syncNs), ms(r.idleNs));
}

void CommRankChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    if (m_rows.empty() || m_max <= 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No communication ops"));
        return;
    }
    // Legend on the first line, scale on the second.
    int x = 4;
    for (const auto& [name, color] :
        { std::pair { tr("Transit"), kTransit }, std::pair { tr("Wait"), kWait }, std::pair { tr("Idle"), kIdle } }) {
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
    const double h = std::min(kMaxRow, static_cast<double>(plot.height()) / static_cast<double>(n));
    const double gap = h >= 8 ? std::max(1.0, h / 5) : 0.0;
    int every = 1;
    while (every * h < fm.height() + 2)
        every = every == 1 ? 2 : (every % 10 == 2 ? every / 2 * 5 : every * 2);
    for (size_t i = 0; i < n; ++i) {
        const auto& r = m_rows[i];
        const double y = plot.top() + static_cast<double>(i) * h;
        const double bh = std::max(1.0, h - gap);
        const bool selected = m_selected && *m_selected == r.rank;
        if (selected)
            p.fillRect(QRectF(0, y, width(), std::max(2.0, h)), QColor(255, 214, 80, 150));
        double bx = plot.left();
        for (const auto& [v, color] :
            { std::pair { r.transitNs, kTransit }, std::pair { r.waitNs, kWait }, std::pair { r.idleNs, kIdle } }) {
            const double w = static_cast<double>(std::max<int64_t>(0, v)) * scale;
            p.fillRect(QRectF(bx, y + gap / 2, w, bh), color);
            bx += w;
        }
        if (static_cast<int>(i) % every == 0 || selected) {
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(QRectF(0, y + h / 2 - fm.height() / 2.0, plot.left() - 6, fm.height()),
                Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("rank %1").arg(r.rank));
        }
    }
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawLine(plot.left(), plot.top(), plot.left(), plot.bottom());
}

bool CommRankChart::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipFor(rowAt(help->pos().y()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void CommRankChart::mousePressEvent(QMouseEvent* event)
{
    const int row = rowAt(static_cast<int>(event->position().y()));
    if (event->button() == Qt::LeftButton && row >= 0)
        emit rankClicked(m_rows[static_cast<size_t>(row)].rank);
}

} // namespace npuscope::gui

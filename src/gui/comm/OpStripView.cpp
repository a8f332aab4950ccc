// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/OpStripView.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

namespace {

constexpr double kMaxRow = 24.0;

} // namespace

OpStripView::OpStripView(QWidget* parent)
    : ChartWidget(parent, { .objectName = "opStripView", .hover = true, .minimumSize = { 220, 120 } })
{
    connect(this, &ChartWidget::itemClicked, this, [this](int item) {
        const auto& o = m_strip.ops[static_cast<size_t>(item)];
        emit opActivated(o.rank, o.startNs, o.startNs + o.elapseNs);
    });
}

void OpStripView::setStrip(query::OpStrip strip)
{
    m_strip = std::move(strip);
    m_rowStart.clear();
    for (size_t i = 0; i < m_strip.ops.size(); ++i) {
        if (i == 0 || m_strip.ops[i].rank != m_strip.ops[i - 1].rank)
            m_rowStart.push_back(i);
    }
    m_rowStart.push_back(m_strip.ops.size());
    m_types.clear();
    m_typeOfName.clear();
    for (const auto& name : m_strip.names) {
        const QString type = opTypeOf(name);
        int index = static_cast<int>(m_types.indexOf(type));
        if (index < 0) {
            index = static_cast<int>(m_types.size());
            m_types << type;
        }
        m_typeOfName.push_back(index);
    }
    m_byType = m_strip.names.size() > kMaxNameColours;
    m_hoverName = -1;
    resetHover();
    update();
}

QColor OpStripView::colorOf(int nameIndex)
{
    // Golden-angle hues: neighbouring ops get distinct colours.
    const int hue = static_cast<int>(std::fmod(nameIndex * 137.508, 360.0));
    return QColor::fromHsv(hue, 150 + (nameIndex % 3) * 35, 215 - (nameIndex % 2) * 35);
}

QString OpStripView::opTypeOf(const std::string& name)
{
    QString n = QString::fromStdString(name.substr(0, name.find('@')));
    if (n.startsWith(QLatin1String("hcom_")))
        n = n.mid(5);
    const auto end
        = std::find_if(n.begin(), n.end(), [](QChar c) { return c == QLatin1Char('_') || c == QLatin1Char('-'); });
    n.truncate(static_cast<qsizetype>(end - n.begin()));
    return n.isEmpty() ? QString::fromStdString(name) : n;
}

QRect OpStripView::plotRect() const
{
    const QFontMetrics fm = fontMetrics();
    const int left = fm.horizontalAdvance(QStringLiteral("rank 8888")) + 8;
    const int top = fm.height() + 8;
    return { left, top, std::max(10, width() - left - 10), std::max(10, height() - top - fm.height() - 8) };
}

int OpStripView::rowAt(int y) const
{
    const QRect plot = plotRect();
    const size_t rows = m_strip.ranks.size();
    if (rows == 0 || y < plot.top() || y >= plot.bottom())
        return -1;
    const double h = std::min(kMaxRow, static_cast<double>(plot.height()) / static_cast<double>(rows));
    const int row = static_cast<int>((y - plot.top()) / h);
    return row < static_cast<int>(rows) ? row : -1;
}

int OpStripView::opAt(const QPoint& pos) const
{
    const int row = rowAt(pos.y());
    if (row < 0 || m_strip.endNs <= m_strip.beginNs)
        return -1;
    const QRect plot = plotRect();
    const double span = static_cast<double>(m_strip.endNs - m_strip.beginNs);
    const double t = static_cast<double>(m_strip.beginNs) + (pos.x() - plot.left()) * span / plot.width();
    const double slack = 2.0 * span / plot.width(); // two pixels
    int best = -1;
    for (size_t i = m_rowStart[static_cast<size_t>(row)]; i < m_rowStart[static_cast<size_t>(row) + 1]; ++i) {
        const auto& o = m_strip.ops[i];
        if (t >= static_cast<double>(o.startNs) - slack && t <= static_cast<double>(o.startNs + o.elapseNs) + slack)
            best = static_cast<int>(i);
    }
    return best;
}

QString OpStripView::toolTipFor(int op) const
{
    if (op < 0 || op >= static_cast<int>(m_strip.ops.size()))
        return {};
    const auto& o = m_strip.ops[static_cast<size_t>(op)];
    auto ms = [](int64_t ns) { return TimeFormat::withUnit(ns, TimeFormat::Unit::Milliseconds); };
    return tr(
        "<b>%1</b><br>rank %2, starts +%3<br>Elapsed %4 \u00b7 Transit %5 \u00b7 Wait %6<br><i>click: show in the "
        "timeline</i>")
        .arg(QString::fromStdString(m_strip.names[static_cast<size_t>(o.nameIndex)]))
        .arg(o.rank)
        .arg(ms(o.startNs - m_strip.beginNs), ms(o.elapseNs), ms(o.transitNs), ms(o.waitNs));
}

void OpStripView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    if (m_strip.ops.empty() || m_strip.endNs <= m_strip.beginNs) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No communication ops with start times"));
        return;
    }
    const QRect plot = plotRect();
    const double span = static_cast<double>(m_strip.endNs - m_strip.beginNs);
    const double xs = plot.width() / span;
    const size_t rows = m_strip.ranks.size();
    const double h = std::min(kMaxRow, static_cast<double>(plot.height()) / static_cast<double>(rows));
    const double gap = h >= 6 ? std::max(1.0, h / 6) : 0.0;
    p.setPen(palette().color(QPalette::WindowText));
    if (m_byType) {
        // Colour = op type, with a legend after the caption as far as the width goes.
        const int box = fm.ascent() - 2;
        int legend = 0;
        for (const QString& type : m_types)
            legend += box + 4 + fm.horizontalAdvance(type) + 10;
        // The counts give way to the legend when both do not fit (683 px showed "receive" alone).
        QString caption = tr("%1 ops on %2 ranks \u00b7 colour = op type:").arg(m_strip.ops.size()).arg(rows);
        if (plot.left() + fm.horizontalAdvance(caption) + 8 + legend > width() - 4)
            caption = tr("colour = op type:");
        p.drawText(QPoint(plot.left(), fm.ascent() + 2), caption);
        int x = plot.left() + fm.horizontalAdvance(caption) + 8;
        for (int t = 0; t < static_cast<int>(m_types.size()); ++t) {
            const int w = box + 4 + fm.horizontalAdvance(m_types[t]) + 10;
            if (x + w > width() - 4)
                break;
            p.fillRect(QRect(x, 3 + (fm.ascent() - box) / 2, box, box), colorOf(t));
            p.drawText(QPoint(x + box + 4, fm.ascent() + 2), m_types[t]);
            x += w;
        }
    } else {
        p.drawText(QPoint(plot.left(), fm.ascent() + 2),
            tr("%1 ops on %2 ranks \u00b7 same colour = same op").arg(m_strip.ops.size()).arg(rows));
    }
    int every = 1;
    while (every * h < fm.height() + 2)
        every = every == 1 ? 2 : (every % 10 == 2 ? every / 2 * 5 : every * 2);
    for (size_t row = 0; row < rows; ++row) {
        const double y = plot.top() + static_cast<double>(row) * h;
        for (size_t i = m_rowStart[row]; i < m_rowStart[row + 1]; ++i) {
            const auto& o = m_strip.ops[i];
            const double x0 = plot.left() + static_cast<double>(o.startNs - m_strip.beginNs) * xs;
            const double w = std::max(1.0, static_cast<double>(o.elapseNs) * xs);
            QColor c = colorOf(colourIndex(o));
            if (m_hoverName >= 0 && o.nameIndex != m_hoverName)
                c.setAlpha(70);
            p.fillRect(QRectF(x0, y + gap / 2, w, std::max(1.0, h - gap)), c);
            if (o.nameIndex == m_hoverName && h >= 3) {
                p.setPen(QPen(Qt::black, 1));
                p.drawRect(QRectF(x0, y + gap / 2, w, std::max(1.0, h - gap)));
            }
        }
        if (static_cast<int>(row) % every == 0) {
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(QRectF(0, y + h / 2 - fm.height() / 2.0, plot.left() - 6, fm.height()),
                Qt::AlignRight | Qt::AlignVCenter, tr("rank %1").arg(m_strip.ranks[row]));
        }
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QPoint(plot.left(), plot.bottom() + fm.ascent() + 4), QStringLiteral("0"));
    const QString end = QStringLiteral("+") + TimeFormat::adaptive(span);
    p.drawText(QPoint(plot.right() - fm.horizontalAdvance(end), plot.bottom() + fm.ascent() + 4), end);
}

void OpStripView::hoverChanged(int item)
{
    const int name = item < 0 ? -1 : m_strip.ops[static_cast<size_t>(item)].nameIndex;
    if (name != m_hoverName) {
        m_hoverName = name;
        update();
    }
}

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/steps/StepSplitPie.h"

#include "npuscope/gui/common/PieChart.h"
#include "npuscope/gui/common/SplitParts.h"
#include "npuscope/gui/common/TimeFormat.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

namespace {

constexpr int kMargin = 10;
constexpr int kSwatch = 12;

} // namespace

StepSplitPie::StepSplitPie(QWidget* parent)
    : ChartWidget(parent,
        { .objectName = "stepSplitPie", .horizontal = QSizePolicy::Expanding, .vertical = QSizePolicy::Expanding })
{
}

void StepSplitPie::setSplit(const std::optional<query::StepSplit>& split, const QString& title)
{
    m_split = split;
    m_title = title;
    m_pieRect = {};
    resetHover();
    update();
}

std::vector<int64_t> StepSplitPie::partValues() const
{
    std::vector<int64_t> values(SplitParts::PartCount, 0);
    if (m_split) {
        for (int part = 0; part < SplitParts::PartCount; ++part)
            values[static_cast<size_t>(part)] = SplitParts::value(*m_split, part);
    }
    return values;
}

std::vector<QColor> StepSplitPie::partColors()
{
    std::vector<QColor> colors;
    for (int part = 0; part < SplitParts::PartCount; ++part)
        colors.push_back(SplitParts::color(part));
    return colors;
}

int StepSplitPie::itemAt(const QPoint& pos) const
{
    if (!m_split || m_pieRect.isEmpty())
        return -1;
    const QPointF centre = QRectF(m_pieRect).center();
    const double r = std::hypot(pos.x() - centre.x(), pos.y() - centre.y());
    // The ring between the donut hole and the edge.
    if (r > m_pieRect.width() / 2.0 || r < m_pieRect.width() * 0.28)
        return -1;
    return PieChart::sliceAt(partValues(), PieChart::clockAngle(centre, pos));
}

QString StepSplitPie::itemToolTip(int part) const
{
    if (!m_split || part < 0 || part >= SplitParts::PartCount || m_split->total() <= 0)
        return {};
    const int64_t v = SplitParts::value(*m_split, part);
    return QStringLiteral("<b>%1</b><br>%2 \u00b7 %3 %")
        .arg(SplitParts::name(part).toHtmlEscaped(), TimeFormat::withUnit(v, TimeFormat::Unit::Milliseconds))
        .arg(100.0 * static_cast<double>(v) / static_cast<double>(m_split->total()), 0, 'f', 1);
}

QSize StepSplitPie::sizeHint() const { return { 560, 320 }; }

QSize StepSplitPie::minimumSizeHint() const { return { 300, 220 }; }

// The legend's columns (swatch, name, value, percent) and its size, for one paint.
struct StepSplitPie::Legend {
    int nameWidth = 0;
    int valueWidth = 0;
    int pctWidth = 0;
    int gap = 10;
    int lineHeight = 0;
    int width = 0;
    int height = 0;
    bool hasAnalyse = false; // the two ascend_cluster_analyse rows under the total
    bool sideBySide = false; // beside the pie, else under it
    QString notInGeneration;
};

void StepSplitPie::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRect area = rect().adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const QRect body = area.adjusted(0, paintTitle(p, area), 0, 0);
    const int64_t total = m_split ? m_split->total() : 0;
    if (!m_split || total <= 0) {
        m_pieRect = {};
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(body, Qt::AlignCenter, m_split ? tr("No step time recorded") : tr("No profile loaded"));
        return;
    }
    const Legend legend = legendLayout(body.width());
    QPoint legendTopLeft;
    m_pieRect = pieLayout(body, legend, legendTopLeft);
    paintDonut(p, m_pieRect, total);
    const int y = paintLegendParts(p, legendTopLeft, legend, total);
    paintLegendTotal(p, legendTopLeft.x(), y, legend, total);
    if (legend.hasAnalyse)
        paintAnalyseRows(p, legendTopLeft.x(), y, legend);
}

int StepSplitPie::paintTitle(QPainter& p, const QRect& area) const
{
    QFont titleFont = font();
    titleFont.setBold(true);
    p.setFont(titleFont);
    p.setPen(palette().color(QPalette::WindowText));
    const int titleHeight = QFontMetrics(titleFont).height() + 6;
    p.drawText(QRect(area.left(), area.top(), area.width(), titleHeight), Qt::AlignLeft | Qt::AlignTop,
        QFontMetrics(titleFont).elidedText(m_title, Qt::ElideRight, area.width()));
    p.setFont(font());
    return titleHeight;
}

StepSplitPie::Legend StepSplitPie::legendLayout(int bodyWidth) const
{
    // Columns sized from the widest entries.
    const QFontMetrics fm(font());
    Legend l;
    int listedCount = 0;
    for (int part = 0; part < SplitParts::PartCount; ++part) {
        if (!SplitParts::listed(*m_split, part))
            continue;
        l.nameWidth = std::max(l.nameWidth, fm.horizontalAdvance(SplitParts::name(part)));
        ++listedCount;
    }
    l.notInGeneration = tr("not in this generation");
    l.valueWidth = std::max(fm.horizontalAdvance(QStringLiteral("0000.000 ms")),
        m_split->iterationTrace ? fm.horizontalAdvance(l.notInGeneration) : 0);
    l.pctWidth = fm.horizontalAdvance(QStringLiteral("100.0 %"));
    l.width = kSwatch + 6 + l.nameWidth + l.gap + l.valueWidth + l.gap + l.pctWidth;
    l.lineHeight = fm.height() + 6;
    l.hasAnalyse = m_split->analyseComputation || m_split->analyseCommunicationAlone;
    l.height = l.lineHeight * (listedCount + 1 + (l.hasAnalyse ? 2 : 0));

    // Side by side when the widget is wide enough, legend under the pie otherwise.
    l.sideBySide = bodyWidth >= l.width + 160;
    // Under the pie and still wider than the widget: the names give up width (elided), the figures never.
    if (!l.sideBySide && l.width > bodyWidth) {
        const int cut = std::min(l.width - bodyWidth, l.nameWidth - fm.horizontalAdvance(QStringLiteral("Com\u2026")));
        if (cut > 0) {
            l.nameWidth -= cut;
            l.width -= cut;
        }
    }
    return l;
}

QRect StepSplitPie::pieLayout(const QRect& body, const Legend& l, QPoint& legendTopLeft)
{
    int diameter;
    QRect pieRect;
    if (l.sideBySide) {
        diameter = std::min(body.height(), body.width() - l.width - 2 * l.gap);
        diameter = std::max(diameter, 60);
        // Keep the picture near the title instead of floating in a tall dock.
        diameter = std::min(diameter, std::max(l.height + 80, 260));
        pieRect = QRect(body.left(), body.top() + l.gap, diameter, diameter);
        legendTopLeft = QPoint(pieRect.right() + 2 * l.gap, pieRect.center().y() - l.height / 2);
    } else {
        diameter = std::max(60, std::min({ body.width(), body.height() - l.height - l.gap, 320 }));
        pieRect = QRect(body.left() + (body.width() - diameter) / 2, body.top(), diameter, diameter);
        legendTopLeft = QPoint(body.left(), pieRect.bottom() + l.gap);
    }
    return pieRect;
}

void StepSplitPie::paintDonut(QPainter& p, const QRect& pieRect, int64_t total) const
{
    PieChart::paintSlices(p, pieRect, partValues(), partColors(), palette().color(QPalette::Base));
    // Donut hole with the wall time.
    const int hole = pieRect.width() * 56 / 100;
    const QRect holeRect(pieRect.center().x() - hole / 2 + 1, pieRect.center().y() - hole / 2 + 1, hole, hole);
    p.setPen(Qt::NoPen);
    p.setBrush(palette().color(QPalette::Base));
    p.drawEllipse(holeRect);
    p.setPen(palette().color(QPalette::WindowText));
    QFont big = font();
    big.setBold(true);
    big.setPointSizeF(font().pointSizeF() * 1.15);
    p.setFont(big);
    const int bigHeight = QFontMetrics(big).height();
    p.drawText(QRect(holeRect.left(), holeRect.center().y() - bigHeight, holeRect.width(), bigHeight),
        Qt::AlignHCenter | Qt::AlignBottom,
        PieChart::holeText(
            TimeFormat::withUnit(total, TimeFormat::Unit::Milliseconds), total, QFontMetrics(big), holeRect.width()));
    p.setFont(font());
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRect(holeRect.left(), holeRect.center().y(), holeRect.width(), QFontMetrics(font()).height()),
        Qt::AlignHCenter | Qt::AlignTop, m_split->iterationTrace ? tr("iteration") : tr("step time"));
}

int StepSplitPie::paintLegendParts(QPainter& p, const QPoint& topLeft, const Legend& l, int64_t total) const
{
    const QFontMetrics fm(font());
    int y = topLeft.y();
    const int x = topLeft.x();
    for (int part = 0; part < SplitParts::PartCount; ++part) {
        if (!SplitParts::listed(*m_split, part))
            continue;
        const int64_t v = SplitParts::value(*m_split, part);
        const double pct = 100.0 * static_cast<double>(v) / static_cast<double>(total);
        p.setPen(Qt::NoPen);
        p.setBrush(SplitParts::color(part));
        p.drawRoundedRect(QRect(x, y + (l.lineHeight - kSwatch) / 2, kSwatch, kSwatch), 2, 2);
        p.setPen(palette().color(QPalette::WindowText));
        int cx = x + kSwatch + 6;
        p.drawText(QRect(cx, y, l.nameWidth, l.lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(SplitParts::name(part), Qt::ElideRight, l.nameWidth));
        cx += l.nameWidth + l.gap;
        // A part the files do not have is shown as absent, not as 0; a part of the other generation says so.
        const bool absent = !SplitParts::present(*m_split, part);
        const bool otherGeneration = m_split->iterationTrace && !SplitParts::isIterationTracePart(part);
        if (otherGeneration)
            p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(cx, y, l.valueWidth, l.lineHeight), Qt::AlignRight | Qt::AlignVCenter,
            otherGeneration ? l.notInGeneration
                            : (absent ? QStringLiteral("—") : TimeFormat::withUnit(v, TimeFormat::Unit::Milliseconds)));
        cx += l.valueWidth + l.gap;
        p.drawText(QRect(cx, y, l.pctWidth, l.lineHeight), Qt::AlignRight | Qt::AlignVCenter,
            absent ? QStringLiteral("—") : QStringLiteral("%1 %").arg(pct, 0, 'f', 1));
        p.setPen(palette().color(QPalette::WindowText));
        y += l.lineHeight;
    }
    return y;
}

void StepSplitPie::paintLegendTotal(QPainter& p, int x, int y, const Legend& l, int64_t total) const
{
    // A rule under the parts, then the total in bold.
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawLine(x, y + 2, x + l.width, y + 2);
    p.setPen(palette().color(QPalette::WindowText));
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    const int cx = x + kSwatch + 6;
    p.drawText(QRect(cx, y + 4, l.nameWidth, l.lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetrics(bold).elidedText(
            m_split->iterationTrace ? tr("Iteration total") : tr("Step wall time"), Qt::ElideRight, l.nameWidth));
    p.drawText(QRect(cx + l.nameWidth + l.gap, y + 4, l.valueWidth, l.lineHeight), Qt::AlignRight | Qt::AlignVCenter,
        TimeFormat::withUnit(total, TimeFormat::Unit::Milliseconds));
    p.drawText(QRect(cx + l.nameWidth + l.gap + l.valueWidth + l.gap, y + 4, l.pctWidth, l.lineHeight),
        Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("100 %"));
}

void StepSplitPie::paintAnalyseRows(QPainter& p, int x, int y, const Legend& l) const
{
    // Old generation: the ascend_cluster_analyse figures, when the job has them, under the split (not part of it).
    const QFontMetrics fm(font());
    p.setFont(font());
    p.setPen(palette().color(QPalette::PlaceholderText));
    const std::pair<QString, std::optional<int64_t>> rows[] = {
        { tr("computation (cluster_analyse)"), m_split->analyseComputation },
        { tr("comm. alone (cluster_analyse)"), m_split->analyseCommunicationAlone },
    };
    const int cx = x + kSwatch + 6;
    int ry = y + 4 + l.lineHeight;
    for (const auto& [name, value] : rows) {
        p.drawText(QRect(cx, ry, l.nameWidth, l.lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(name, Qt::ElideRight, l.nameWidth));
        p.drawText(QRect(cx + l.nameWidth + l.gap, ry, l.valueWidth, l.lineHeight), Qt::AlignRight | Qt::AlignVCenter,
            value ? TimeFormat::withUnit(*value, TimeFormat::Unit::Milliseconds) : QStringLiteral("\u2014"));
        ry += l.lineHeight;
    }
}

} // namespace npuscope::gui

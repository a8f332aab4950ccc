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
    : ChartWidget(parent)
{
    setObjectName(QStringLiteral("stepSplitPie"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
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

void StepSplitPie::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRect area = rect().adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const QFontMetrics fm(font());

    QFont titleFont = font();
    titleFont.setBold(true);
    p.setFont(titleFont);
    p.setPen(palette().color(QPalette::WindowText));
    const int titleHeight = QFontMetrics(titleFont).height() + 6;
    p.drawText(QRect(area.left(), area.top(), area.width(), titleHeight), Qt::AlignLeft | Qt::AlignTop,
        QFontMetrics(titleFont).elidedText(m_title, Qt::ElideRight, area.width()));
    p.setFont(font());

    const QRect body = area.adjusted(0, titleHeight, 0, 0);
    const int64_t total = m_split ? m_split->total() : 0;
    if (!m_split || total <= 0) {
        m_pieRect = {};
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(body, Qt::AlignCenter, m_split ? tr("No step time recorded") : tr("No profile loaded"));
        return;
    }

    // Legend: swatch, name, value, percent; columns sized from the widest entries.
    int nameWidth = 0;
    int listedCount = 0;
    for (int part = 0; part < SplitParts::PartCount; ++part) {
        if (!SplitParts::listed(*m_split, part))
            continue;
        nameWidth = std::max(nameWidth, fm.horizontalAdvance(SplitParts::name(part)));
        ++listedCount;
    }
    const QString notInGeneration = tr("not in this generation");
    const int valueWidth = std::max(fm.horizontalAdvance(QStringLiteral("0000.000 ms")),
        m_split->iterationTrace ? fm.horizontalAdvance(notInGeneration) : 0);
    const int pctWidth = fm.horizontalAdvance(QStringLiteral("100.0 %"));
    const int gap = 10;
    int legendWidth = kSwatch + 6 + nameWidth + gap + valueWidth + gap + pctWidth;
    const int lineHeight = fm.height() + 6;
    const bool hasAnalyse = m_split->analyseComputation || m_split->analyseCommunicationAlone;
    const int legendHeight = lineHeight * (listedCount + 1 + (hasAnalyse ? 2 : 0));

    // Side by side when the widget is wide enough, legend under the pie otherwise.
    const bool sideBySide = body.width() >= legendWidth + 160;
    // Under the pie and still wider than the widget: the names give up width (elided), the figures never.
    if (!sideBySide && legendWidth > body.width()) {
        const int cut
            = std::min(legendWidth - body.width(), nameWidth - fm.horizontalAdvance(QStringLiteral("Com\u2026")));
        if (cut > 0) {
            nameWidth -= cut;
            legendWidth -= cut;
        }
    }
    int diameter;
    QRect pieRect;
    QPoint legendTopLeft;
    if (sideBySide) {
        diameter = std::min(body.height(), body.width() - legendWidth - 2 * gap);
        diameter = std::max(diameter, 60);
        // Keep the picture near the title instead of floating in a tall dock.
        diameter = std::min(diameter, std::max(legendHeight + 80, 260));
        pieRect = QRect(body.left(), body.top() + gap, diameter, diameter);
        legendTopLeft = QPoint(pieRect.right() + 2 * gap, pieRect.center().y() - legendHeight / 2);
    } else {
        diameter = std::max(60, std::min({ body.width(), body.height() - legendHeight - gap, 320 }));
        pieRect = QRect(body.left() + (body.width() - diameter) / 2, body.top(), diameter, diameter);
        legendTopLeft = QPoint(body.left(), pieRect.bottom() + gap);
    }

    m_pieRect = pieRect;
    PieChart::paintSlices(p, pieRect, partValues(), partColors(), palette().color(QPalette::Base));
    // Donut hole with the wall time.
    const int hole = diameter * 56 / 100;
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
    p.drawText(QRect(holeRect.left(), holeRect.center().y(), holeRect.width(), fm.height()),
        Qt::AlignHCenter | Qt::AlignTop, m_split->iterationTrace ? tr("iteration") : tr("step time"));

    // Legend.
    int y = legendTopLeft.y();
    const int x = legendTopLeft.x();
    for (int part = 0; part < SplitParts::PartCount; ++part) {
        if (!SplitParts::listed(*m_split, part))
            continue;
        const int64_t v = SplitParts::value(*m_split, part);
        const double pct = 100.0 * static_cast<double>(v) / static_cast<double>(total);
        p.setPen(Qt::NoPen);
        p.setBrush(SplitParts::color(part));
        p.drawRoundedRect(QRect(x, y + (lineHeight - kSwatch) / 2, kSwatch, kSwatch), 2, 2);
        p.setPen(palette().color(QPalette::WindowText));
        int cx = x + kSwatch + 6;
        p.drawText(QRect(cx, y, nameWidth, lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(SplitParts::name(part), Qt::ElideRight, nameWidth));
        cx += nameWidth + gap;
        // A part the files do not have is shown as absent, not as 0; a part of the other generation says so.
        const bool absent = !SplitParts::present(*m_split, part);
        const bool otherGeneration = m_split->iterationTrace && !SplitParts::isIterationTracePart(part);
        if (otherGeneration)
            p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(cx, y, valueWidth, lineHeight), Qt::AlignRight | Qt::AlignVCenter,
            otherGeneration ? notInGeneration
                            : (absent ? QStringLiteral("—") : TimeFormat::withUnit(v, TimeFormat::Unit::Milliseconds)));
        cx += valueWidth + gap;
        p.drawText(QRect(cx, y, pctWidth, lineHeight), Qt::AlignRight | Qt::AlignVCenter,
            absent ? QStringLiteral("—") : QStringLiteral("%1 %").arg(pct, 0, 'f', 1));
        p.setPen(palette().color(QPalette::WindowText));
        y += lineHeight;
    }
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawLine(x, y + 2, x + legendWidth, y + 2);
    p.setPen(palette().color(QPalette::WindowText));
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    const int cx = x + kSwatch + 6;
    p.drawText(QRect(cx, y + 4, nameWidth, lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetrics(bold).elidedText(
            m_split->iterationTrace ? tr("Iteration total") : tr("Step wall time"), Qt::ElideRight, nameWidth));
    p.drawText(QRect(cx + nameWidth + gap, y + 4, valueWidth, lineHeight), Qt::AlignRight | Qt::AlignVCenter,
        TimeFormat::withUnit(total, TimeFormat::Unit::Milliseconds));
    p.drawText(QRect(cx + nameWidth + gap + valueWidth + gap, y + 4, pctWidth, lineHeight),
        Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("100 %"));

    // Old generation: the ascend_cluster_analyse figures, when the job has them, under the split (not part of it).
    if (hasAnalyse) {
        p.setFont(font());
        p.setPen(palette().color(QPalette::PlaceholderText));
        const std::pair<QString, std::optional<int64_t>> rows[] = {
            { tr("computation (cluster_analyse)"), m_split->analyseComputation },
            { tr("comm. alone (cluster_analyse)"), m_split->analyseCommunicationAlone },
        };
        int ry = y + 4 + lineHeight;
        for (const auto& [name, value] : rows) {
            p.drawText(QRect(cx, ry, nameWidth, lineHeight), Qt::AlignLeft | Qt::AlignVCenter,
                fm.elidedText(name, Qt::ElideRight, nameWidth));
            p.drawText(QRect(cx + nameWidth + gap, ry, valueWidth, lineHeight), Qt::AlignRight | Qt::AlignVCenter,
                value ? TimeFormat::withUnit(*value, TimeFormat::Unit::Milliseconds) : QStringLiteral("\u2014"));
            ry += lineHeight;
        }
    }
}

} // namespace npuscope::gui

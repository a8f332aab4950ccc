// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/PacketChart.h"

#include "npuscope/gui/comm/CommMatrixView.h"
#include "npuscope/gui/common/TimeFormat.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

PacketChart::PacketChart(QWidget* parent)
    : ChartWidget(parent, { .objectName = "packetChart", .hover = true, .minimumSize = { 220, 140 } })
{
}

void PacketChart::setDistributions(std::vector<query::PacketDistribution> distributions)
{
    m_dists = std::move(distributions);
    update();
}

QString PacketChart::sizeLabel(double mb)
{
    double v = mb * 1.0e6;
    int unit = 0;
    static const char* const kUnits[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    while (v >= 1024 - 1e-6 && unit < 4) {
        v /= 1024;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(QString::number(v, 'g', 4), QString::fromLatin1(kUnits[unit]));
}

std::vector<size_t> PacketChart::tickBuckets(const std::vector<Bucket>& bs, double barWidth, int labelWidth)
{
    std::vector<size_t> out;
    if (bs.empty() || barWidth <= 0)
        return out;
    size_t tallest = 0;
    for (size_t k = 0; k < bs.size(); ++k) {
        if (bs[k].count > bs[tallest].count)
            tallest = k;
    }
    // Labels are centred under their bar, and a label at the panel edge is moved inwards by up to half its width:
    // two labels stride bars apart need stride * barWidth > 1.5 * width + gap.
    size_t stride = 1;
    while (static_cast<double>(stride) * barWidth < 1.5 * labelWidth + 6)
        ++stride;
    for (size_t k = tallest % stride; k < bs.size(); k += stride)
        out.push_back(k);
    return out;
}

void PacketChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    m_hits.clear();
    const QFontMetrics fm = fontMetrics();
    if (m_dists.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No packet size distribution"));
        return;
    }
    const int panels = static_cast<int>(m_dists.size());
    const double pw = static_cast<double>(width()) / panels;
    for (int i = 0; i < panels; ++i) {
        const auto& d = m_dists[static_cast<size_t>(i)];
        const QRectF panel(i * pw + 6, 4, pw - 12, height() - 8);
        p.setPen(palette().color(QPalette::WindowText));
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.drawText(QRectF(panel.left(), panel.top(), panel.width(), fm.height()), Qt::AlignLeft,
            QString::fromStdString(d.transport));
        p.setFont(font());
        const QString info
            = tr("%1 packets \u00b7 large-packet ratio %2 (as the profiler writes it)")
                  .arg(d.packets)
                  .arg(d.largePacketRatio ? QString::number(*d.largePacketRatio, 'f', 3) : TimeFormat::kAbsent);
        p.drawText(QRectF(panel.left(), panel.top() + fm.height(), panel.width(), fm.height()), Qt::AlignLeft,
            fm.elidedText(info, Qt::ElideRight, static_cast<int>(panel.width())));
        const auto bs = buckets(d);
        int64_t maxCount = 1;
        for (const auto& b : bs)
            maxCount = std::max(maxCount, b.count);
        const QRectF plot(
            panel.left(), panel.top() + fm.height() * 2 + 6, panel.width(), panel.height() - fm.height() * 3 - 10);
        const double bw = plot.width() / std::max<size_t>(1, bs.size());
        const QColor color = CommMatrixView::transportColor(d.transport);
        for (size_t k = 0; k < bs.size(); ++k) {
            const auto& b = bs[k];
            const double h = plot.height() * static_cast<double>(b.count) / static_cast<double>(maxCount);
            const QRectF bar(plot.left() + k * bw + 1, plot.bottom() - h, std::max(1.0, bw - 2), h);
            p.fillRect(bar, color);
            m_hits.push_back({ QRectF(plot.left() + k * bw, plot.top(), bw, plot.height()),
                tr("<b>%1</b> packets of %2 \u2013 %3 (%4 \u2013 %5 MB): <b>%6</b><br>total %7")
                    .arg(QString::fromStdString(d.transport), sizeLabel(b.lowMb), sizeLabel(b.highMb))
                    .arg(b.lowMb, 0, 'g', 4)
                    .arg(b.highMb, 0, 'g', 4)
                    .arg(b.count)
                    .arg(TimeFormat::withUnit(b.totalNs, TimeFormat::Unit::Milliseconds)) });
        }
        // One unit system on every tick; every stride-th bucket, aligned on the tallest bar, so labels never overlap.
        int labelWidth = 0;
        for (const auto& b : bs)
            labelWidth = std::max(labelWidth, fm.horizontalAdvance(sizeLabel(b.lowMb)));
        p.setPen(palette().color(QPalette::WindowText));
        for (size_t k : tickBuckets(bs, bw, labelWidth)) {
            const QString label = sizeLabel(bs[k].lowMb);
            const double centre = plot.left() + (static_cast<double>(k) + 0.5) * bw;
            const double w = fm.horizontalAdvance(label);
            const double x = std::clamp(centre - w / 2, panel.left(), panel.right() - w);
            p.drawLine(QPointF(centre, plot.bottom()), QPointF(centre, plot.bottom() + 3));
            p.drawText(QRectF(x, plot.bottom() + 3, w + 1, fm.height()), Qt::AlignLeft | Qt::AlignTop, label);
        }
        p.setPen(QPen(palette().color(QPalette::Mid), 1));
        p.drawLine(plot.bottomLeft(), plot.bottomRight());
    }
}

int PacketChart::itemAt(const QPoint& pos) const
{
    for (size_t i = 0; i < m_hits.size(); ++i) {
        if (m_hits[i].rect.contains(pos))
            return static_cast<int>(i);
    }
    return -1;
}

QString PacketChart::itemToolTip(int item) const
{
    return item >= 0 && item < static_cast<int>(m_hits.size()) ? m_hits[static_cast<size_t>(item)].text : QString();
}

} // namespace npuscope::gui

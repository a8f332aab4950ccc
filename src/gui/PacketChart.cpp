// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/PacketChart.h"

#include "npuscope/gui/CommMatrixView.h"
#include "npuscope/gui/TimeFormat.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>

namespace npuscope::gui {

PacketChart::PacketChart(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("packetChart"));
    setMouseTracking(true);
    setMinimumSize(220, 140);
}

void PacketChart::setDistributions(std::vector<query::PacketDistribution> distributions)
{
    m_dists = std::move(distributions);
    update();
}

std::vector<PacketChart::Bucket> PacketChart::buckets(const query::PacketDistribution& d)
{
    std::map<int, Bucket> byExp;
    for (const auto& bin : d.bins) {
        const int e = bin.packageMb > 0 ? static_cast<int>(std::floor(std::log2(bin.packageMb))) : -30;
        Bucket& b = byExp[e];
        b.lowMb = std::ldexp(1.0, e);
        b.highMb = std::ldexp(1.0, e + 1);
        b.count += bin.count;
        b.totalNs += bin.totalNs;
    }
    std::vector<Bucket> out;
    if (byExp.empty())
        return out;
    for (int e = byExp.begin()->first; e <= byExp.rbegin()->first; ++e) {
        auto it = byExp.find(e);
        out.push_back(it != byExp.end() ? it->second : Bucket { std::ldexp(1.0, e), std::ldexp(1.0, e + 1), 0, 0 });
    }
    return out;
}

namespace {

QString sizeText(double mb)
{
    if (mb >= 1)
        return QString::number(mb, 'g', 4);
    if (mb >= 1.0 / 1024)
        return QStringLiteral("%1K").arg(mb * 1024, 0, 'g', 3);
    return QStringLiteral("%1B").arg(mb * 1024 * 1024, 0, 'g', 3);
}

} // namespace

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
            = tr("%1 packets \u00b7 large %2")
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
                tr("<b>%1</b> packets of %2 \u2013 %3 MB: <b>%4</b><br>total %5")
                    .arg(QString::fromStdString(d.transport), sizeText(b.lowMb), sizeText(b.highMb))
                    .arg(b.count)
                    .arg(TimeFormat::withUnit(b.totalNs, TimeFormat::Unit::Milliseconds)) });
            const QString label = sizeText(b.lowMb);
            if (fm.horizontalAdvance(label) < bw || k % std::max<size_t>(1, bs.size() / 4) == 0) {
                p.setPen(palette().color(QPalette::WindowText));
                p.drawText(QRectF(plot.left() + k * bw - 20, plot.bottom() + 2, bw + 40, fm.height()),
                    Qt::AlignHCenter | Qt::AlignTop, label);
            }
        }
        p.setPen(QPen(palette().color(QPalette::Mid), 1));
        p.drawLine(plot.bottomLeft(), plot.bottomRight());
    }
}

bool PacketChart::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        for (const auto& h : m_hits) {
            if (h.rect.contains(help->pos())) {
                QToolTip::showText(help->globalPos(), h.text, this);
                return true;
            }
        }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace npuscope::gui

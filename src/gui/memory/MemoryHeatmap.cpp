// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/memory/MemoryHeatmap.h"

#include <QDateTime>

#include <algorithm>
#include <array>

namespace npuscope::gui {

namespace {

// A sequential blue ramp up to kHighRatio (light = little, dark = much): the eye orders it without a legend, and it
// leaves red free for "nearly full".
// From a visible light blue, not white: the emptiest devices must still show on a light background.
const std::array<DeviceHeatmap::ColorStop, 4> kRamp { { { 0.0, QColor(0xc6, 0xdb, 0xef) },
    { 0.3, QColor(0x9e, 0xca, 0xe1) }, { 0.6, QColor(0x42, 0x92, 0xc6) },
    { MemoryHeatmap::kHighRatio, QColor(0x08, 0x30, 0x6b) } } };
const QColor kHigh(0xd6, 0x27, 0x28);
const QColor kOver(0x8b, 0x00, 0x00);
const QColor kNoData(0xbd, 0xbd, 0xbd);

QString megabytes(double mb) { return QStringLiteral("%1 MB (%2 GB)").arg(mb, 0, 'f', 1).arg(mb / 1024.0, 0, 'f', 2); }

} // namespace

MemoryHeatmap::MemoryHeatmap(QWidget* parent)
    : DeviceHeatmap(parent)
{
    setObjectName(QStringLiteral("memoryHeatmap"));
}

QColor MemoryHeatmap::colorOf(std::optional<double> ratio)
{
    if (!ratio)
        return kNoData;
    if (*ratio > 1.0)
        return kOver;
    if (*ratio > kHighRatio)
        return kHigh;
    return rampColor(kRamp, *ratio);
}

void MemoryHeatmap::setScale(Scale scale)
{
    if (scale == m_scale)
        return;
    m_scale = scale;
    update();
}

void MemoryHeatmap::updateSpread()
{
    bool any = false;
    for (const auto& cell : m_cells) {
        const auto& r = cell.peak.ratio;
        if (!r || *r > kHighRatio)
            continue;
        m_least = any ? std::min(m_least, *r) : *r;
        m_most = any ? std::max(m_most, *r) : *r;
        any = true;
    }
    if (!any)
        m_least = m_most = 0;
    // A spread below kMinSpread is noise (the generated ranks differ by a few MB of 64 GB): the ramp spans at least
    // that much around its middle, so a few MB are not painted as light against dark.
    if (m_most - m_least < kMinSpread) {
        const double middle = (m_least + m_most) / 2;
        m_least = std::max(0.0, middle - kMinSpread / 2);
        m_most = m_least + kMinSpread;
    }
}

QColor MemoryHeatmap::colorOnScale(std::optional<double> ratio) const
{
    if (m_scale == Scale::Device || !ratio || *ratio > kHighRatio)
        return colorOf(ratio);
    // The whole blue ramp from the least to the most used device.
    const double at = std::clamp((*ratio - m_least) / (m_most - m_least), 0.0, 1.0);
    return rampColor(kRamp, at * kHighRatio);
}

void MemoryHeatmap::setPeaks(std::vector<query::RankMemoryPeak> peaks)
{
    std::vector<Place> places;
    places.reserve(peaks.size());
    for (const auto& p : peaks)
        places.push_back({ p.rank, p.host, p.device });
    m_cells.clear();
    for (auto& p : peaks)
        m_cells.push_back({ std::move(p), {}, 0, 0 });
    setPlaces(places);
    for (size_t i = 0; i < m_cells.size(); ++i) {
        const Slot& slot = grid()[i];
        m_cells[i].host = slot.host;
        m_cells[i].row = slot.row;
        m_cells[i].column = slot.column;
    }
    updateSpread();
}

QColor MemoryHeatmap::cellColor(int index) const
{
    return colorOnScale(m_cells[static_cast<size_t>(index)].peak.ratio);
}

QString MemoryHeatmap::cellText(int index) const
{
    const auto& ratio = m_cells[static_cast<size_t>(index)].peak.ratio;
    return ratio ? percent(*ratio) : QStringLiteral("\u2014");
}

DeviceHeatmap::Legend MemoryHeatmap::legend() const
{
    if (m_scale == Scale::Spread) {
        // The ramp spans the devices shown: its ends are the least and most used, red stays "over 90 %".
        const int decimals = m_most - m_least < 0.02 ? 2 : 1; // ticks a quarter of the span apart stay distinct
        const auto pct = [decimals](double r) { return QStringLiteral("%1 %").arg(100.0 * r, 0, 'f', decimals); };
        return { tr("Peak reserved \u00f7 device memory"), [](double r) { return rampColor(kRamp, r * kHighRatio); },
            { { 0.0, pct(m_least), Qt::AlignLeft }, { 0.5, pct((m_least + m_most) / 2) },
                { 1.0, pct(m_most), Qt::AlignRight } },
            { { kHigh, tr("over 90 %") }, { kOver, tr("over 100 %") }, { kNoData, tr("no memory records") } } };
    }
    // 0 … 90 % the ramp, 90 … 100 % red; a separate swatch for over 100 % and one for no data. 90 % and 100 % are
    // close: 90 % right-aligned to its tick, 100 % left-aligned.
    return { tr("Peak reserved \u00f7 device memory"), [](double r) { return colorOf(r); },
        { { 0.0, QStringLiteral("0 %") }, { 0.5, QStringLiteral("50 %") },
            { kHighRatio, QStringLiteral("90 %"), Qt::AlignRight }, { 1.0, QStringLiteral("100 %"), Qt::AlignLeft } },
        { { kOver, tr("over 100 %") }, { kNoData, tr("no memory records") } } };
}

QString MemoryHeatmap::itemToolTip(int item) const
{
    if (item < 0 || item >= static_cast<int>(m_cells.size()))
        return {};
    const auto& cell = m_cells[static_cast<size_t>(item)];
    const auto& p = cell.peak;
    const QString dash = QStringLiteral("\u2014");
    QString html = QStringLiteral("<b>Rank %1</b><table>").arg(p.rank);
    addToolTipRow(html, tr("Host"), cell.host);
    addToolTipRow(html, tr("Device"), p.device ? QString::number(*p.device) : dash);
    if (!p.peakReservedMb) {
        html += QStringLiteral("</table><i>%1</i>").arg(tr("no memory records"));
        return html;
    }
    addToolTipRow(html, tr("Peak reserved"), megabytes(*p.peakReservedMb));
    addToolTipRow(html, tr("Component"), p.component ? QString::fromStdString(*p.component) : dash);
    if (p.peakTimeNs) {
        const auto time = QDateTime::fromMSecsSinceEpoch(*p.peakTimeNs / 1000000, Qt::UTC);
        addToolTipRow(html, tr("Peak time"),
            time.toString(QStringLiteral("yyyy-MM-dd hh:mm:ss.zzz 'UTC'"))
                + QStringLiteral(" (%1 ns)").arg(*p.peakTimeNs));
    } else {
        addToolTipRow(html, tr("Peak time"), dash);
    }
    addToolTipRow(html, tr("Peak allocated"), p.peakAllocatedMb ? megabytes(*p.peakAllocatedMb) : dash);
    addToolTipRow(html, tr("Capacity"), p.capacityMb ? megabytes(*p.capacityMb) : dash);
    addToolTipRow(html, tr("Reserved \u00f7 capacity"), p.ratio ? percent(*p.ratio) : dash);
    html += QStringLiteral("</table>");
    return html;
}

} // namespace npuscope::gui

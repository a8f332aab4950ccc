// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/memory/MemoryHeatmap.h"

#include "npuscope/gui/common/DivergingScale.h"
#include "npuscope/query/advice/OutlierTest.h"

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
const QColor kNeutral(0xf4, 0xf4, 0xf4);

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

QColor MemoryHeatmap::neutralColor() { return kNeutral; }

void MemoryHeatmap::updateMedian()
{
    std::vector<double> ratios;
    for (const auto& cell : m_cells) {
        if (cell.peak.ratio)
            ratios.push_back(*cell.peak.ratio);
    }
    m_median = query::advice::OutlierTest::median(std::move(ratios)); // 0 without cells
}

QColor MemoryHeatmap::colorOnScale(std::optional<double> ratio) const
{
    if (m_scale == Scale::Device || !ratio || *ratio > kHighRatio || !(m_median > 0))
        return colorOf(ratio);
    return deviationColor(*ratio / m_median - 1);
}

QColor MemoryHeatmap::deviationColor(double deviation) const
{
    const QColor c = DivergingScale::colour(deviation, DivergingScale::neutralBand(), palette());
    if (!c.isValid())
        return kNeutral;
    // The scale's colours are translucent over a table's base; a cell is opaque: the same colour over the neutral.
    const double a = c.alphaF();
    return QColor::fromRgbF(static_cast<float>(c.redF() * a + kNeutral.redF() * (1 - a)),
        static_cast<float>(c.greenF() * a + kNeutral.greenF() * (1 - a)),
        static_cast<float>(c.blueF() * a + kNeutral.blueF() * (1 - a)));
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
    updateMedian();
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
    if (m_scale == Scale::Median) {
        // The ramp runs from −20 % to +20 % of the median device's peak; the middle band is neutral.
        const double band = DivergingScale::neutralBand();
        const double full = DivergingScale::kSaturation;
        const auto deviationAt = [full](double v) { return (v - 0.5) * 2 * full; };
        return { tr("Peak reserved: deviation from the median device (%1, %2 neutral)")
                     .arg(percent(m_median), DivergingScale::percent(band)),
            [this, deviationAt](double v) { return deviationColor(deviationAt(v)); },
            { { 0.0, QStringLiteral("\u2212%1 %").arg(full * 100, 0, 'f', 0), Qt::AlignLeft }, { 0.5, tr("median") },
                { 1.0, QStringLiteral("+%1 %").arg(full * 100, 0, 'f', 0), Qt::AlignRight } },
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
    QString capacity = p.capacityMb ? megabytes(*p.capacityMb) : dash;
    using CapacitySource = query::RankMemoryPeak::CapacitySource;
    if (p.capacitySource == CapacitySource::MemorySummary)
        capacity += QStringLiteral(" ") + tr("(from memory_usage_summary)");
    else if (p.capacitySource == CapacitySource::User)
        capacity += QStringLiteral(" ") + tr("(entered: Device memory)");
    addToolTipRow(html, tr("Capacity"), capacity);
    addToolTipRow(html, tr("Reserved \u00f7 capacity"), p.ratio ? percent(*p.ratio) : dash);
    html += QStringLiteral("</table>");
    return html;
}

} // namespace npuscope::gui

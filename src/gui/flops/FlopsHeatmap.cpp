// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/flops/FlopsHeatmap.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <array>
#include <cmath>
#include <map>

namespace npuscope::gui {

namespace {

// Low is the alarm: dark red at 0 through red and orange to a pale yellow at 70 %, then light to dark blue at the best
// device. A cluster doing even work is a dark blue, calm grid; a device at half the work is a bright orange cell in it.
// Blue against orange/red stays apart for the common colour-vision deficiencies.
const std::array<DeviceHeatmap::ColorStop, 7> kRamp { { { 0.0, QColor(0x67, 0x00, 0x1f) },
    { 0.3, QColor(0xd7, 0x30, 0x27) }, { 0.55, QColor(0xf4, 0x6d, 0x43) }, { 0.7, QColor(0xfe, 0xe0, 0x90) },
    { 0.8, QColor(0xab, 0xd9, 0xe9) }, { 0.9, QColor(0x45, 0x75, 0xb4) }, { 1.0, QColor(0x31, 0x36, 0x95) } } };
const QColor kNoData(0xbd, 0xbd, 0xbd);

} // namespace

FlopsHeatmap::FlopsHeatmap(QWidget* parent)
    : DeviceHeatmap(parent)
{
    setObjectName(QStringLiteral("flopsHeatmap"));
}

QColor FlopsHeatmap::colorOf(std::optional<double> relative)
{
    return relative ? rampColor(kRamp, *relative) : kNoData;
}

QString FlopsHeatmap::withPrefix(double value, const QString& unit)
{
    static constexpr std::array<std::pair<double, const char*>, 5> kPrefixes { { { 1e15, "P" }, { 1e12, "T" },
        { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } } };
    for (const auto& [scale, prefix] : kPrefixes) {
        if (std::abs(value) >= scale)
            return QStringLiteral("%1 %2%3").arg(value / scale, 0, 'f', 2).arg(QLatin1String(prefix), unit);
    }
    return QStringLiteral("%1 %2").arg(value, 0, 'f', 0).arg(unit);
}

void FlopsHeatmap::setFlops(
    const std::vector<Place>& places, const query::FlopsSummary& summary, const std::set<int64_t>& pending)
{
    std::map<int64_t, const query::RankFlops*> byRank;
    for (const auto& r : summary.ranks)
        byRank.emplace(r.rank, &r);
    m_cells.clear();
    m_cells.reserve(places.size());
    for (const auto& p : places) {
        Cell c { p, std::nullopt, pending.count(p.rank) > 0 };
        if (auto it = byRank.find(p.rank); it != byRank.end())
            c.flops = *it->second;
        m_cells.push_back(std::move(c));
    }
    setPlaces(places);
}

void FlopsHeatmap::setMeasure(Measure measure)
{
    m_measure = measure;
    update();
}

std::optional<double> FlopsHeatmap::valueOf(int index) const
{
    if (index < 0 || index >= static_cast<int>(m_cells.size()))
        return std::nullopt;
    const auto& f = m_cells[static_cast<size_t>(index)].flops;
    // A rank whose kernels carry no FLOPs has nothing to compare, unlike one that did no floating-point work.
    if (!f || (f->source == query::FlopsSource::Kernels && f->kernels == 0))
        return std::nullopt;
    return m_measure == Measure::Flops ? f->relative : f->relativePerSecond;
}

QColor FlopsHeatmap::cellColor(int index) const { return colorOf(valueOf(index)); }

QString FlopsHeatmap::cellText(int index) const
{
    const auto v = valueOf(index);
    return v ? percent(*v) : QStringLiteral("\u2014");
}

DeviceHeatmap::Legend FlopsHeatmap::legend() const
{
    const QString title = m_measure == Measure::Flops ? tr("FLOPs \u00f7 busiest device (low = alarm)")
                                                      : tr("FLOPS \u00f7 fastest device (low = alarm)");
    return { title, [](double v) { return colorOf(v); },
        { { 0.0, QStringLiteral("0 %") }, { 0.5, QStringLiteral("50 %") }, { 0.7, QStringLiteral("70 %") },
            { 0.9, QStringLiteral("90 %"), Qt::AlignRight }, { 1.0, QStringLiteral("100 %"), Qt::AlignLeft } },
        { { kNoData, tr("no FLOPs (kernels not loaded or not recorded)") } } };
}

QString FlopsHeatmap::itemToolTip(int item) const
{
    if (item < 0 || item >= static_cast<int>(m_cells.size()))
        return {};
    const auto& cell = m_cells[static_cast<size_t>(item)];
    const QString dash = QStringLiteral("\u2014");
    QString html = QStringLiteral("<b>Rank %1</b><table>").arg(cell.place.rank);
    addToolTipRow(html, tr("Host"), grid()[static_cast<size_t>(item)].host);
    addToolTipRow(html, tr("Device"), cell.place.device ? QString::number(*cell.place.device) : dash);
    const auto& f = cell.flops;
    if (!valueOf(item)) {
        const QString why = cell.pending ? tr("kernels not loaded yet")
            : f                          ? tr("no kernel carries FLOPs")
                                         : tr("no kernel rows");
        html += QStringLiteral("</table><i>%1</i>").arg(why);
        return html;
    }
    addToolTipRow(html, tr("FLOPs"), withPrefix(f->flops, QStringLiteral("FLOPs")));
    if (f->source == query::FlopsSource::Kernels) {
        addToolTipRow(html, tr("Compute time"), TimeFormat::adaptive(static_cast<double>(f->computeNs)));
        addToolTipRow(html, tr("FLOPS"), withPrefix(f->flopsPerSecond(), QStringLiteral("FLOP/s")));
    } else {
        // The newer summary's FLOPS parts are Σ per-op rates ÷ Σ durations, not a mean per op (docs/metrics.md).
        const bool parts = f->cubeFlopsPerSecond || f->vecFlopsPerSecond;
        addToolTipRow(html, parts ? tr("FLOPS (as reported)") : tr("FLOPS (mean per op)"),
            withPrefix(f->flopsPerSecond(), QStringLiteral("FLOP/s")));
        const auto part = [&](const QString& label, const std::optional<double>& v, const QString& unit) {
            if (v)
                addToolTipRow(html, label, withPrefix(*v, unit));
        };
        part(tr("Cube FLOPs"), f->cubeFlops, QStringLiteral("FLOPs"));
        part(tr("Vector FLOPs"), f->vecFlops, QStringLiteral("FLOPs"));
        part(tr("Cube FLOPS"), f->cubeFlopsPerSecond, QStringLiteral("FLOP/s"));
        part(tr("Vector FLOPS"), f->vecFlopsPerSecond, QStringLiteral("FLOP/s"));
        if (f->utilizationPercent)
            addToolTipRow(
                html, tr("Utilisation (mean per op)"), QStringLiteral("%1 %").arg(*f->utilizationPercent, 0, 'f', 3));
    }
    addToolTipRow(html, tr("FLOPs \u00f7 busiest"), percent(f->relative));
    addToolTipRow(html, tr("FLOPS \u00f7 fastest"), percent(f->relativePerSecond));
    if (f->source == query::FlopsSource::Kernels)
        addToolTipRow(html, tr("Kernels counted"), QString::number(f->kernels));
    else
        addToolTipRow(html, tr("Source"), tr("flops_summary_N.json (whole run)"));
    html += QStringLiteral("</table>");
    return html;
}

} // namespace npuscope::gui

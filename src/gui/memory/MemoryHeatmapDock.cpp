// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/memory/MemoryHeatmapDock.h"

#include "npuscope/gui/common/SettingsWriter.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/memory/MemoryHeatmap.h"
#include "npuscope/query/MemoryQuery.h"
#include "npuscope/query/RankQuery.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

namespace npuscope::gui {

MemoryHeatmapDock::MemoryHeatmapDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Memory heatmap"), kObjectName, ws, parent)
    , m_heatmap(new MemoryHeatmap)
{
    const auto [body, layout, bar] = makeBody({ .spacing = 0, .barGap = 4 });
    auto* capacityLabel = new QLabel(tr("Device memory (GB):"), body);
    bar->addWidget(capacityLabel);
    m_capacity = new QDoubleSpinBox(body);
    m_capacity->setObjectName(QStringLiteral("deviceMemorySpin"));
    m_capacity->setRange(1, 4096);
    m_capacity->setDecimals(0);
    m_capacity->setKeyboardTracking(false);
    m_capacity->setValue(ws->deviceCapacityGb());
    const QString capacityTip
        = tr("No profile records the device's memory size: the ratio is peak reserved \u00f7 this "
             "(GB = 2^30 bytes). 64 GB: Atlas 800T A2 / 910B class.");
    m_capacity->setToolTip(capacityTip);
    capacityLabel->setToolTip(capacityTip);
    bar->addWidget(m_capacity);
    bar->addSpacing(12);
    auto* scaleLabel = new QLabel(tr("Colours:"), body);
    bar->addWidget(scaleLabel);
    m_scale = new QComboBox(body);
    m_scale->setObjectName(QStringLiteral("memoryScaleCombo"));
    m_scale->addItem(tr("share of device memory"), static_cast<int>(MemoryHeatmap::Scale::Device));
    m_scale->addItem(tr("deviation from the median device"), static_cast<int>(MemoryHeatmap::Scale::Median));
    const QString scaleTip = tr("Share of device memory: light blue 0 %, dark blue 90 %. Least to most used: the "
                                "blues span the devices shown, so a spread of a few per cent shows. Red is over "
                                "90 % on both.");
    m_scale->setToolTip(scaleTip);
    scaleLabel->setToolTip(scaleTip);
    bar->addWidget(m_scale);
    bar->addStretch(1);
    m_summary = new QLabel(body);
    m_summary->setObjectName(QStringLiteral("memorySummary"));
    bar->addWidget(m_summary);

    m_scroll = m_heatmap->makeScrollArea(body);
    layout->addWidget(m_scroll, 1);
    setBody(body);

    // The capacity is the workspace's (several views use it): set there, shown here, reloaded when it changes.
    connect(m_capacity, &QDoubleSpinBox::valueChanged, this,
        [this](double gb) { this->workspace()->setDeviceCapacityGb(gb); });
    connect(ws, &Workspace::deviceCapacityChanged, this, [this] {
        const QSignalBlocker block(m_capacity);
        m_capacity->setValue(this->workspace()->deviceCapacityGb());
        requestReload();
    });
    connect(m_scale, &QComboBox::currentIndexChanged, this, [this] {
        m_heatmap->setScale(static_cast<MemoryHeatmap::Scale>(m_scale->currentData().toInt()));
        SettingsWriter::setValue(QLatin1String(kScaleSetting), m_scale->currentData().toInt());
    });
    // The colours chosen last time (like the device memory).
    if (const int i = m_scale->findData(SettingsWriter::value(QLatin1String(kScaleSetting), 0).toInt()); i > 0)
        m_scale->setCurrentIndex(i);
    connect(m_heatmap, &MemoryHeatmap::rankClicked, this,
        [this](qint64 rank) { workspace()->setSelectedRank(static_cast<int64_t>(rank)); });
    connect(workspace(), &Workspace::selectedRankChanged, this, &MemoryHeatmapDock::syncSelection);
    reloadOn({ &Workspace::hostDisplayChanged });
    requestReload();
}

double MemoryHeatmapDock::capacityMb() const { return m_capacity->value() * 1024.0; }

void MemoryHeatmapDock::reload()
{
    const double capacity = capacityMb();
    const auto hostDisplay = workspace()->showHostIps() ? query::HostDisplay::RealIp : query::HostDisplay::MappingId;
    const bool started = runner()->run(
        [capacity, hostDisplay](model::Database& db) {
            auto peaks = query::MemoryQuery::peaks(db, capacity);
            // Hosts named as the other views name them (View > Show host IPs).
            if (hostDisplay != query::HostDisplay::MappingId) {
                const auto hosts = query::RankQuery::hosts(db, hostDisplay);
                for (auto& p : peaks) {
                    if (auto h = hosts.find(p.rank); h != hosts.end())
                        p.host = h->second;
                }
            }
            return peaks;
        },
        [this](std::vector<query::RankMemoryPeak> peaks) {
            const auto withRecords
                = std::count_if(peaks.begin(), peaks.end(), [](const auto& p) { return p.peakReservedMb.has_value(); });
            const auto highest = std::max_element(peaks.begin(), peaks.end(),
                [](const auto& a, const auto& b) { return a.ratio.value_or(-1.0) < b.ratio.value_or(-1.0); });
            QString text = peaks.size() == 1 ? tr("1 rank") : tr("%1 ranks").arg(peaks.size());
            if (withRecords == 0)
                text += tr(", none with memory records");
            else if (highest != peaks.end() && highest->ratio)
                text += tr(", highest %1 % (rank %2)").arg(100.0 * *highest->ratio, 0, 'f', 1).arg(highest->rank);
            // Where the capacities come from: MindSpore's summary files (per rank) before the figure typed here.
            using CapacitySource = query::RankMemoryPeak::CapacitySource;
            const auto fromFiles = std::count_if(peaks.begin(), peaks.end(),
                [](const auto& p) { return p.capacitySource == CapacitySource::MemorySummary; });
            if (fromFiles == static_cast<std::ptrdiff_t>(peaks.size()) && fromFiles > 0)
                text += tr("; capacity from each rank's memory_usage_summary");
            else if (fromFiles > 0)
                text += tr("; capacity of %1 ranks from memory_usage_summary, of the others as entered").arg(fromFiles);
            m_summary->setText(text);
            m_heatmap->setPeaks(std::move(peaks));
            syncSelection();
        });
    if (!started) {
        m_heatmap->setPeaks({});
        m_summary->setText(tr("No profile loaded"));
    }
}

void MemoryHeatmapDock::syncSelection() { m_heatmap->setSelectedRank(workspace()->selectedRank()); }

} // namespace npuscope::gui

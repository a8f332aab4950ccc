// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/flops/FlopsHeatmapDock.h"

#include "npuscope/gui/common/DeferredLoadService.h"

#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/flops/FlopsHeatmap.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/FlopsQuery.h"
#include "npuscope/query/RankQuery.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace npuscope::gui {

FlopsHeatmapDock::FlopsHeatmapDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("FLOPs heatmap"), kObjectName, ws, parent)
    , m_flopsRunner(addRunner())
    , m_heatmap(new FlopsHeatmap)
{
    // Only the rank's kernel totals (one scan of its kernel file), not its timeline or kernel table, through the
    // Workspace's load service; parsing runs without the model lock (Loader::loadKernelTotals merges under it).
    // (Made here, not in the initialiser list: lupdate loses the class's context after a lambda there.)
    m_imports = new RankImportQueue(
        this, 1, [this](const std::vector<int64_t>& ranks, const RankImportQueue::Finished& finished) {
            return workspace()->loads()->request(ranks.front(), DeferredLoadService::Part::KernelTotals, this,
                [finished](const DeferredLoadService::Result& r) { finished(r.error); });
        });
    const auto [body, layout, bar] = makeBody({ .spacing = 0, .barGap = 4 });
    bar->addWidget(new QLabel(tr("Colour by:"), body));
    m_measure = new QComboBox(body);
    m_measure->setObjectName(QStringLiteral("flopsMeasure"));
    m_measure->addItem(tr("FLOPs \u00f7 busiest device"), static_cast<int>(FlopsHeatmap::Measure::Flops));
    m_measure->addItem(tr("FLOPS \u00f7 fastest device"), static_cast<int>(FlopsHeatmap::Measure::FlopsPerSecond));
    m_measure->setToolTip(tr("FLOPs: the floating-point operations a device's kernels executed. FLOPS: those FLOPs "
                             "\u00f7 the time of the kernels that carry them."));
    bar->addWidget(m_measure);
    bar->addSpacing(12);
    m_allSteps = new QCheckBox(tr("All steps (total)"), body);
    m_allSteps->setObjectName(QStringLiteral("flopsAllSteps"));
    m_allSteps->setToolTip(tr("Sum over every step instead of the selected one (with no step selected every step is "
                              "summed anyway)"));
    bar->addWidget(m_allSteps);
    m_status = new ElidedLabel(QString(), body);
    m_status->setObjectName(QStringLiteral("flopsStatus"));
    m_status->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    bar->addWidget(m_status, 1); // the rest of the width, right-aligned; cut with "…" when the dock is narrow

    m_message = newWrappedLabel("flopsMessage", body);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setMargin(24);
    m_message->hide();
    layout->addWidget(m_message, 1);

    m_scroll = m_heatmap->makeScrollArea(body);
    layout->addWidget(m_scroll, 1);
    setBody(body);

    connect(m_imports, &RankImportQueue::redraw, this, &FlopsHeatmapDock::refresh);
    connect(m_imports, &RankImportQueue::progressed, this, &FlopsHeatmapDock::updateStatus);
    connect(m_imports, &RankImportQueue::failed, this, [this](const std::vector<int64_t>& ranks, const QString& error) {
        showError(tr("rank %1: kernels not loaded: %2").arg(ranks.front()).arg(error));
    });
    connect(m_measure, &QComboBox::currentIndexChanged, this,
        [this] { m_heatmap->setMeasure(static_cast<FlopsHeatmap::Measure>(m_measure->currentData().toInt())); });
    connect(m_allSteps, &QCheckBox::toggled, this, &FlopsHeatmapDock::refresh);
    connect(m_heatmap, &DeviceHeatmap::rankClicked, this,
        [this](qint64 rank) { workspace()->setSelectedRank(static_cast<int64_t>(rank)); });
    connect(workspace(), &Workspace::selectedRankChanged, this, &FlopsHeatmapDock::syncSelection);
    reloadOn({ &Workspace::hostDisplayChanged });
    reloadPartOn({ &Workspace::stepChanged }, [this] { refresh(); });
    // Another view imported deferred files (the timeline, the operator dock): their kernels count here too.
    reloadPartOn({ &Workspace::issuesAdded }, [this] {
        if (!isImporting())
            refresh();
    });
    requestReload();
}

void FlopsHeatmapDock::syncAllStepsBox()
{
    // With no step selected every step is summed whatever the box says: the box is shown ticked and off (the status
    // says why); the user's own choice comes back with a step.
    const bool stepSelected = workspace()->step().has_value();
    if (stepSelected == m_allSteps->isEnabled())
        return;
    const QSignalBlocker quiet(m_allSteps);
    if (stepSelected) {
        m_allSteps->setChecked(m_allStepsChoice);
    } else {
        m_allStepsChoice = m_allSteps->isChecked();
        m_allSteps->setChecked(true);
    }
    m_allSteps->setEnabled(stepSelected);
}

std::optional<int64_t> FlopsHeatmapDock::shownStep() const
{
    return m_allSteps->isChecked() ? std::nullopt : workspace()->step();
}

void FlopsHeatmapDock::showEvent(QShowEvent* event)
{
    QueryDock::showEvent(event);
    m_imports->resume();
}

void FlopsHeatmapDock::reload()
{
    m_imports->clear(); // answers to the imports asked for before this reload are not counted
    m_places.clear();
    const auto hostDisplay = workspace()->showHostIps() ? query::HostDisplay::RealIp : query::HostDisplay::MappingId;
    const bool started = runner()->run(
        [hostDisplay](model::Database& db) {
            std::vector<DeviceHeatmap::Place> places;
            for (const auto& info : query::RankQuery::ranks(db, hostDisplay))
                places.push_back({ info.rank, info.host, info.device });
            return places;
        },
        [this](std::vector<DeviceHeatmap::Place> places) {
            m_places = std::move(places);
            std::vector<int64_t> ranks;
            for (const auto& p : m_places)
                ranks.push_back(p.rank);
            m_imports->start(ranks);
            refresh();
        });
    if (!started) {
        m_heatmap->setFlops({}, {});
        m_message->hide();
        m_scroll->show();
        m_status->setFullText(tr("No profile loaded"));
    }
}

void FlopsHeatmapDock::updateStatus()
{
    const int total = static_cast<int>(m_places.size());
    QString text = tr("kernels loaded for %1 of %2 ranks").arg(m_imports->loaded()).arg(total);
    if (isImporting() && !isVisible())
        text += tr(" (the rest load when this view is shown)");
    syncAllStepsBox();
    const auto step = shownStep();
    const bool stepSelected = workspace()->step().has_value();
    text += step       ? tr(" \u00b7 step %1").arg(*step)
        : stepSelected ? tr(" \u00b7 all steps (total)")
                       : tr(" \u00b7 all steps (total), as no step is selected");
    if (m_wholeRunOnly)
        text += tr(" (flops_summary_N.json figures are for the whole run)");
    m_status->setFullText(text);
}

void FlopsHeatmapDock::refresh()
{
    syncAllStepsBox();
    // Until the ranks are listed there is no grid to fill; the listing refreshes.
    if (m_places.empty()) {
        updateStatus();
        return;
    }
    const auto step = shownStep();
    m_flopsRunner->run([step](model::Database& db) { return query::FlopsQuery::perRank(db, step); },
        [this](query::FlopsSummary summary) {
            const bool importing = isImporting();
            m_wholeRunOnly = summary.wholeRunOnly;
            if (!summary.recorded && !importing && !m_places.empty()) {
                m_message->setText(
                    tr("<b>No loaded kernel carries FLOPs.</b><br>%1.<br>Ranks checked: %2.")
                        .arg(QCoreApplication::translate("FlopsQuery", query::FlopsQuery::kHowToRecord).toHtmlEscaped())
                        .arg(m_places.size()));
                m_scroll->hide();
                m_message->show();
            } else {
                m_message->hide();
                m_scroll->show();
            }
            m_heatmap->setFlops(m_places, summary, m_imports->pending());
            syncSelection();
            updateStatus();
        });
}

void FlopsHeatmapDock::syncSelection() { m_heatmap->setSelectedRank(workspace()->selectedRank()); }

} // namespace npuscope::gui

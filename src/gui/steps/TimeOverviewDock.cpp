// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/steps/TimeOverviewDock.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/steps/TimeOverviewChart.h"
#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/MetricDefinitions.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace npuscope::gui {

TimeOverviewDock::TimeOverviewDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Time overview"), kObjectName, ws, parent)
{
    const auto [body, layout, bar] = makeBody();
    m_summary = new QLabel(body);
    m_summary->setObjectName(QStringLiteral("timeOverviewSummary"));
    bar->addWidget(m_summary, 1);
    // Fitted axes by default: ranks within a few per cent of each other are the usual case on a large cluster, and
    // from 0 their band, median and slowest rank are one line.
    m_fromZero = new QCheckBox(tr("Axes from 0"), body);
    m_fromZero->setObjectName(QStringLiteral("timeOverviewFromZero"));
    m_fromZero->setToolTip(
        tr("Start both axes at 0; unchecked, each axis spans its own figures (the labels say where)"));
    bar->addWidget(m_fromZero);
    m_chart = new TimeOverviewChart(body);
    m_chart->setFitToData(true);
    connect(m_fromZero, &QCheckBox::toggled, m_chart, [this](bool on) { m_chart->setFitToData(!on); });
    layout->addWidget(m_chart, 1);
    setBody(body);

    connect(m_chart, &TimeOverviewChart::stepClicked, this, [this](qint64 step) {
        workspace()->setStep(workspace()->step() == step ? std::nullopt : std::optional<int64_t>(step));
    });
    connect(workspace(), &Workspace::stepChanged, this, [this] { m_chart->setSelectedStep(workspace()->step()); });
    requestReload();
}

void TimeOverviewDock::reload()
{
    const bool started = runner()->run([](model::Database& db) { return query::CommAnalysisQuery::timeOverview(db); },
        [this](query::TimeOverview overview) {
            m_summary->setText((overview.steps.size() == 1 ? tr("1 step") : tr("%1 steps").arg(overview.steps.size()))
                + tr(" \u00b7 step wall time per rank \u00b7 click a step to select it (again: all steps) \u00b7 hover "
                     "for values"));
            m_summary->setToolTip(tr("Step wall time: %1, from ProfilerStep#N's start on the host to the end of the "
                                     "step's last device task (Stage is shorter by Preparing and Bubble)")
                                      .arg(QString::fromUtf8(query::MetricDefinitions::of("Step wall time").data())));
            m_chart->setOverview(std::move(overview));
            m_chart->setSelectedStep(workspace()->step());
        });
    if (!started) {
        m_chart->setOverview({});
        m_summary->setText(tr("No profile loaded"));
    }
}

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/steps/TimeOverviewDock.h"

#include "npuscope/gui/steps/TimeOverviewChart.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/query/CommAnalysisQuery.h"

#include <QLabel>
#include <QVBoxLayout>

namespace npuscope::gui {

TimeOverviewDock::TimeOverviewDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Time overview"), kObjectName, ws, parent)
{
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary = new QLabel(body);
    m_summary->setObjectName(QStringLiteral("timeOverviewSummary"));
    layout->addWidget(m_summary);
    m_chart = new TimeOverviewChart(body);
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
                + tr(" \u00b7 click a step to select it (again: all steps) \u00b7 hover for values"));
            m_chart->setOverview(std::move(overview));
            m_chart->setSelectedStep(workspace()->step());
        });
    if (!started) {
        m_chart->setOverview({});
        m_summary->setText(tr("No profile loaded"));
    }
}

} // namespace npuscope::gui

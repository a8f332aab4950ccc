// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/steps/TimeOverviewDock.h"

#include "npuscope/gui/common/QueryRunner.h"
#include "npuscope/gui/steps/TimeOverviewChart.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/query/CommAnalysisQuery.h"

#include <QLabel>
#include <QVBoxLayout>

namespace npuscope::gui {

TimeOverviewDock::TimeOverviewDock(Workspace* workspace, QWidget* parent)
    : QDockWidget(tr("Time overview"), parent)
    , m_workspace(workspace)
    , m_runner(new QueryRunner(workspace, this))
{
    setObjectName(QString::fromLatin1(kObjectName));
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary = new QLabel(body);
    m_summary->setObjectName(QStringLiteral("timeOverviewSummary"));
    layout->addWidget(m_summary);
    m_chart = new TimeOverviewChart(body);
    layout->addWidget(m_chart, 1);
    setWidget(body);

    connect(m_chart, &TimeOverviewChart::stepClicked, this, [this](qint64 step) {
        m_workspace->setStep(m_workspace->step() == step ? std::nullopt : std::optional<int64_t>(step));
    });
    connect(m_workspace, &Workspace::databaseChanged, this, &TimeOverviewDock::reload);
    connect(m_workspace, &Workspace::stepChanged, this, [this] { m_chart->setSelectedStep(m_workspace->step()); });
    reload();
}

void TimeOverviewDock::reload()
{
    const bool started = m_runner->run([](model::Database& db) { return query::CommAnalysisQuery::timeOverview(db); },
        [this](query::TimeOverview overview) {
            m_summary->setText((overview.steps.size() == 1 ? tr("1 step") : tr("%1 steps").arg(overview.steps.size()))
                + tr(" \u00b7 click a step to select it (again: all steps) \u00b7 hover for values"));
            m_chart->setOverview(std::move(overview));
            m_chart->setSelectedStep(m_workspace->step());
        });
    if (!started) {
        m_chart->setOverview({});
        m_summary->setText(tr("No profile loaded"));
    }
}

} // namespace npuscope::gui

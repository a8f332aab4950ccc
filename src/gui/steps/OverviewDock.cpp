// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/steps/OverviewDock.h"

#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/compare/BaselineComparison.h"
#include "npuscope/gui/steps/StepSplitPie.h"
#include "npuscope/query/ClusterMean.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/compare/RunComparison.h"

#include <QEvent>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

#include <cstdlib>
#include <set>

namespace npuscope::gui {

namespace {

struct OverviewResult {
    std::vector<RankBarChart::Bar> bars;
    std::optional<query::StepSplit> meanSplit;
    std::optional<query::StepTimeGap> meanGap;
    std::map<int64_t, query::StepTimeGap> rankGaps;
    int meanRanks = 0; // ranks in the mean
    int otherGenerationRanks = 0; // ranks whose split is of the other file generation (not in the mean)
    // The communication group the view is restricted to (the workspace's group): its name and how many ranks the
    // whole job has; nullopt for every rank.
    std::optional<QString> group;
    int allRanks = 0;
};

// The rows of a group's member ranks, and the group's name (its hash when unnamed); rows unchanged for no group or a
// group the model does not know.
std::optional<QString> restrictToGroup(
    model::Database& db, const std::optional<std::string>& hash, std::vector<query::StepBreakdown>& rows)
{
    if (!hash)
        return std::nullopt;
    for (const auto& g : query::CommQuery::groups(db)) {
        if (g.hash != *hash)
            continue;
        const std::set<int64_t> members(g.ranks.begin(), g.ranks.end());
        std::erase_if(rows, [&members](const auto& row) { return members.count(row.rank) == 0; });
        return QString::fromStdString(g.name.value_or(g.hash));
    }
    return std::nullopt;
}

QString ranksText(int count)
{
    return count == 1 ? OverviewDock::tr("1 rank") : OverviewDock::tr("%1 ranks").arg(count);
}

// The donut's unit and precision (0.1 ms), so the line under it repeats the figure the donut shows.
QString ms(int64_t ns) { return TimeFormat::tableCell(ns, TimeFormat::Unit::Milliseconds) + QStringLiteral(" ms"); }

} // namespace

OverviewDock::OverviewDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Overview"), kObjectName, ws, parent)
{

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    m_basePie = new StepSplitPie(splitter);
    m_basePie->setObjectName(QStringLiteral("overviewBasePie"));
    m_basePie->setAutoFillBackground(true);
    m_basePie->setBackgroundRole(QPalette::Base);
    m_basePie->hide();
    // The donut with the line under it that says which step time it is.
    auto* pieBox = new QWidget(splitter);
    pieBox->setAutoFillBackground(true);
    pieBox->setBackgroundRole(QPalette::Base);
    auto* pieLayout = new QVBoxLayout(pieBox);
    pieLayout->setContentsMargins(0, 0, 0, 0);
    pieLayout->setSpacing(0);
    m_pie = new StepSplitPie(pieBox);
    m_pie->setAutoFillBackground(true);
    m_pie->setBackgroundRole(QPalette::Base);
    pieLayout->addWidget(m_pie);
    m_stepTimeNote = newWrappedLabel("overviewStepTimeNote", pieBox);
    m_stepTimeNote->setContentsMargins(8, 2, 8, 6);
    m_stepTimeNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stepTimeNote->hide();
    pieLayout->addWidget(m_stepTimeNote);
    // The line stays under the donut's figure; the room a tall dock has is left below it.
    pieLayout->addStretch(1);

    const auto [right, rightLayout] = newColumn(splitter);
    rightLayout->setSpacing(0);
    m_chartTitle = new QLabel(right);
    m_chartTitle->setObjectName(QStringLiteral("chartTitle"));
    m_chartTitle->setContentsMargins(8, 8, 8, 4);
    QFont bold = m_chartTitle->font();
    bold.setBold(true);
    m_chartTitle->setFont(bold);
    m_chartTitle->setAutoFillBackground(true);
    m_chartTitle->setBackgroundRole(QPalette::Base);
    rightLayout->addWidget(m_chartTitle);

    m_scroll = new QScrollArea(right);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_chart = new RankBarChart;
    m_scroll->setWidget(m_chart);
    m_scroll->viewport()->installEventFilter(this);
    rightLayout->addWidget(m_scroll, 1);

    splitter->addWidget(m_basePie);
    splitter->addWidget(pieBox);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 3);
    // The question the view answers leads: the advice finding that explains the most of the step.
    const auto [body, bodyLayout] = newColumn(this);
    bodyLayout->setSpacing(0);
    m_leadFinding = new QLabel(body);
    m_leadFinding->setObjectName(QStringLiteral("overviewLeadFinding"));
    m_leadFinding->setTextFormat(Qt::RichText);
    m_leadFinding->setWordWrap(true);
    m_leadFinding->setContentsMargins(8, 6, 8, 6);
    m_leadFinding->setAutoFillBackground(true);
    m_leadFinding->setBackgroundRole(QPalette::AlternateBase);
    m_leadFinding->hide();
    connect(m_leadFinding, &QLabel::linkActivated, this,
        [this] { workspace()->requestShowView(QStringLiteral("advice")); });
    bodyLayout->addWidget(m_leadFinding);
    bodyLayout->addWidget(splitter, 1);
    setBody(body);
    connect(ws, &Workspace::topFindingChanged, this, &OverviewDock::showLeadFinding);
    showLeadFinding();

    connect(m_chart, &RankBarChart::rankClicked, this, [this](qint64 rank) { workspace()->setSelectedRank(rank); });
    reloadOn({ &Workspace::stepChanged, &Workspace::groupChanged });
    connect(workspace(), &Workspace::selectedRankChanged, this, &OverviewDock::showSelection);
    connect(BaselineComparison::of(ws), &BaselineComparison::comparisonChanged, this, &OverviewDock::showSelection);
    requestReload();
}

bool OverviewDock::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize)
        m_chart->setAvailableHeight(m_scroll->viewport()->height());
    return QDockWidget::eventFilter(watched, event);
}

std::optional<query::StepSplit> OverviewDock::shownSplit() const { return m_pie->split(); }

void OverviewDock::reload()
{
    const auto step = workspace()->step();
    const bool skipFirst = workspace()->skipFirstStep();
    const auto group = workspace()->groupHash();
    const bool started = runner()->run(
        [step, skipFirst, group](model::Database& db) {
            OverviewResult r;
            auto rows = step ? query::StepQuery::breakdown(db, step) : query::StepQuery::averaged(db, skipFirst);
            r.allRanks = static_cast<int>(rows.size());
            r.group = restrictToGroup(db, group, rows);
            r.bars.reserve(rows.size());
            for (const auto& row : rows) {
                r.bars.push_back({ row.rank, query::splitOf(row) });
                if (const auto gap = query::StepTimeGap::of(row))
                    r.rankGaps.emplace(row.rank, *gap);
            }
            const auto mean = query::ClusterMean::of(rows);
            if (mean.mean)
                r.meanGap = query::StepTimeGap::of(*mean.mean);
            r.meanRanks = mean.ranks;
            r.otherGenerationRanks = mean.otherGenerationRanks;
            r.meanSplit = mean.split;
            return r;
        },
        [this, step](OverviewResult r) {
            m_loaded = true;
            m_rankCount = static_cast<int>(r.bars.size());
            m_meanRanks = r.meanRanks;
            m_otherGenerationRanks = r.otherGenerationRanks;
            m_meanSplit = r.meanSplit;
            m_meanGap = r.meanGap;
            m_rankGaps = std::move(r.rankGaps);
            m_chart->setBars(std::move(r.bars));
            QString stepText = step
                ? tr("step %1").arg(*step)
                : (workspace()->skipFirstStep() ? tr("mean over steps but the first") : tr("mean over steps"));
            // Restricted to the communication group chosen in Groups or the communication views.
            m_group = r.group;
            if (r.group)
                stepText = tr("group %1 (%2 of %3 ranks)").arg(*r.group).arg(r.bars.size()).arg(r.allRanks)
                    + QStringLiteral(" \u00b7 ") + stepText;
            // Old MindSpore / MindInsight data has the iteration trace split (interval, fp+bp, tail) instead.
            const bool iterationTrace = m_meanSplit && m_meanSplit->iterationTrace;
            if (m_otherGenerationRanks > 0)
                m_chartTitle->setText(tr("Per-rank split \u00b7 %1 \u00b7 %2 (step trace and old iteration trace "
                                         "ranks mixed: each bar in its own generation's parts)")
                                          .arg(stepText, ranksText(m_rankCount)));
            else
                m_chartTitle->setText(
                    (iterationTrace ? tr("Per-rank iteration split (interval \u00b7 FP+BP \u00b7 tail) "
                                         "\u00b7 %1 \u00b7 %2")
                                    : tr("Per-rank step split \u00b7 %1 \u00b7 %2"))
                        .arg(stepText, ranksText(m_rankCount)));
            showSelection();
        });
    if (!started) {
        m_loaded = false;
        m_meanSplit.reset();
        m_meanGap.reset();
        m_rankGaps.clear();
        m_rankCount = 0;
        m_chart->setBars({});
        m_chartTitle->setText(tr("Per-rank step split"));
        showSelection();
    }
}

void OverviewDock::showBaseline()
{
    const auto diff = BaselineComparison::of(workspace())->comparison();
    m_basePie->setVisible(diff != nullptr);
    if (!diff)
        return;
    const auto selected = workspace()->selectedRank();
    const QString steps = diff->base.step ? tr("step %1").arg(*diff->base.step) : tr("mean over steps");
    if (selected) {
        for (const auto& r : diff->ranks) {
            if (r.newRank == *selected) {
                m_basePie->setSplit(
                    query::splitOfDiff(r.base), tr("Baseline rank %1 \u00b7 %2").arg(r.rank).arg(steps));
                return;
            }
        }
        m_basePie->setSplit(std::nullopt, tr("Baseline: rank %1 not in the baseline").arg(*selected));
        return;
    }
    m_basePie->setSplit(query::splitOfDiff(diff->clusterBase),
        tr("Baseline cluster mean of %1 \u00b7 %2").arg(ranksText(static_cast<int>(diff->ranks.size())), steps));
}

void OverviewDock::showLeadFinding()
{
    const QString rule = workspace()->topFindingRule();
    m_leadFinding->setVisible(!rule.isEmpty());
    if (rule.isEmpty())
        return;
    m_leadFinding->setText(tr("<b>Main finding:</b> %1 · %2 · <a href=\"advice\">show in Advice</a>")
                               .arg(rule.toHtmlEscaped(), workspace()->topFindingText().toHtmlEscaped()));
    m_leadFinding->setToolTip(tr("The advice finding that explains the most of the step time (ranked by the time it "
                                 "explains); Advice lists every finding with its rule, figures and evidence"));
}

QString OverviewDock::newRunTitle() const
{
    const auto diff = BaselineComparison::of(workspace())->comparison();
    if (!diff)
        return {};
    // The step's change leads the new run's title (a long title is elided at its end).
    const query::DiffBreakdown* base = &diff->clusterBase;
    const query::DiffBreakdown* neu = &diff->clusterNew;
    if (const auto selected = workspace()->selectedRank()) {
        base = neu = nullptr;
        for (const auto& r : diff->ranks) {
            if (r.newRank == *selected) {
                base = &r.base;
                neu = &r.neu;
            }
        }
    }
    const auto d = base ? query::diffDelta(*base, *neu, query::DiffComponent::Step) : std::nullopt;
    if (!d)
        return tr("New run \u00b7 ");
    const auto p = query::diffDeltaPct(*base, *neu, query::DiffComponent::Step);
    const QString ms = QStringLiteral("%1%2 ms").arg(*d > 0 ? QStringLiteral("+") : QString()).arg(*d, 0, 'f', 3);
    const QString pct
        = p ? QStringLiteral(" (%1%2 %)").arg(*p > 0 ? QStringLiteral("+") : QString()).arg(*p, 0, 'f', 1) : QString();
    return tr("New run, step %1%2 against the baseline \u00b7 ").arg(ms, pct);
}

void OverviewDock::showSelection()
{
    showBaseline();
    // In compare mode the two donuts say which run each is.
    const QString run = newRunTitle();
    const auto selected = workspace()->selectedRank();
    m_chart->setSelectedRank(selected);
    const auto step = workspace()->step();
    const QString stepText = step
        ? tr("step %1").arg(*step)
        : (workspace()->skipFirstStep() ? tr("mean over steps but the first") : tr("mean over steps"));

    if (selected) {
        for (const auto& bar : m_chart->bars()) {
            if (bar.rank == *selected) {
                m_shownRank = selected;
                m_pie->setSplit(bar.split, run + tr("Rank %1 \u00b7 %2").arg(*selected).arg(stepText));
                const auto gap = m_rankGaps.find(*selected);
                showStepTimeNote(gap == m_rankGaps.end() ? std::nullopt : std::optional(gap->second));
                return;
            }
        }
    }
    m_shownRank.reset();
    if (!m_loaded) {
        m_pie->setSplit(std::nullopt, tr("Step split"));
        showStepTimeNote(std::nullopt);
        return;
    }
    showStepTimeNote(m_meanGap);
    // With both file generations loaded the mean covers the ranks of one: "15 of 16 ranks".
    const QString ranks = m_otherGenerationRanks > 0
        ? tr("%1 of %2 ranks").arg(m_meanRanks).arg(m_meanRanks + m_otherGenerationRanks)
        : ranksText(m_meanRanks);
    m_pie->setSplit(m_meanSplit,
        run
            + (m_group ? tr("Group %1 mean of %2 \u00b7 %3").arg(*m_group, ranks, stepText)
                       : tr("Cluster mean of %1 \u00b7 %2").arg(ranks, stepText)));
    m_pie->setToolTip(m_otherGenerationRanks > 0
            ? tr("%1 with the other file generation's split (old iteration trace vs step_trace_time) are not in "
                 "this mean; their bars are on the right.")
                  .arg(ranksText(m_otherGenerationRanks))
            : QString());
}

QString OverviewDock::stepTimeNoteText(const query::StepTimeGap& gap)
{
    // Both figures with their definitions, and what the difference is made of (docs/metrics.md "Two step times").
    QString text = tr("%1 per step = step wall time: ProfilerStep#N's start on the host \u2192 the end of its last "
                      "device task. Stage %2 = first \u2192 last device task \u2212 Bubble. The %3 between them = "
                      "Preparing %4 + Bubble %5")
                       .arg(ms(gap.wall), ms(gap.stage), ms(gap.difference()), ms(gap.preparing), ms(gap.bubble));
    // torch_npu rounds Stage to 0.5–1 µs; a rest that shows at 0.1 ms is said, not hidden in the sum.
    if (std::llabs(gap.rest) >= 50000)
        text += tr(" + %1 not in those columns").arg(ms(gap.rest));
    return text + QLatin1Char('.');
}

void OverviewDock::showStepTimeNote(const std::optional<query::StepTimeGap>& gap)
{
    m_stepTimeNote->setVisible(gap.has_value());
    m_stepTimeNote->setText(gap ? stepTimeNoteText(*gap) : QString());
    m_stepTimeNote->setToolTip(gap
            ? tr("Step wall time = Computing + Communication(Not Overlapped) + Free + Preparing "
                 "(the donut's parts). Stage, as step_trace_time.csv writes it = Computing + "
                 "Communication(Not Overlapped) + Free \u2212 Bubble. Preparing = ProfilerStep#N's "
                 "start \u2192 the step's first device task.")
            : QString());
}

} // namespace npuscope::gui

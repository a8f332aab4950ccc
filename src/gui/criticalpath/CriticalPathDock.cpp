// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/criticalpath/CriticalPathDock.h"

#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/EmptyHint.h"
#include "npuscope/gui/common/SplitterShares.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/criticalpath/PathSegmentTableModel.h"
#include "npuscope/load/StepGraph.h"
#include "npuscope/query/WhatIf.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QShowEvent>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace npuscope::gui {

namespace {

QString ms(int64_t ns) { return QString::number(static_cast<double>(ns) / 1e6, 'f', 3); }

QString pct(int64_t part, int64_t whole)
{
    return QStringLiteral("%1 %").arg(whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0,
        0, 'f', 1);
}

QString opText(const query::DependencyGraph& g, int32_t id)
{
    return id >= 0 ? QString::fromStdString(g.strings.text(id)) : QString();
}

// One step's graph and path, computed off the GUI thread.
struct Computed {
    std::shared_ptr<const query::DependencyGraph> graph;
    std::optional<query::CriticalPathStep> path;
    bool imported = false; // kernel rows arrived (parse issues may have too)
};

} // namespace

CriticalPathDock::CriticalPathDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Critical path"), kObjectName, ws, parent)
    , m_model(new PathSegmentTableModel(this))
{
    const auto [body, layout, bar] = makeBody();
    m_step = addStepBox(bar, "criticalPathStep", body);
    m_showInTimeline = named(new QCheckBox(tr("Show in timeline"), body), "criticalPathInTimeline",
        tr("Draw the path's stays on each rank in the Timeline, linked in order"));
    m_showInTimeline->setChecked(true);
    bar->addWidget(m_showInTimeline);
    m_summary = newWrappedLabel("criticalPathSummary", body);
    bar->addWidget(m_summary, 1);

    auto* splitter = new QSplitter(Qt::Vertical, body);
    m_table = new QTableView(splitter);
    m_table->setObjectName(QStringLiteral("criticalPathTable"));
    m_table->setModel(m_model);
    TableSetup::install(m_table, { .singleSelection = true, .stretchLastSection = false, .sortable = true });
    auto* lower = new QWidget(splitter);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    m_detail = new QTextBrowser(lower);
    m_detail->setObjectName(QStringLiteral("criticalPathDetail"));
    lowerLayout->addWidget(m_detail, 1);
    auto* whatIfRow = new QHBoxLayout;
    whatIfRow->addWidget(new QLabel(tr("What if:"), lower));
    m_whatIf = new QLineEdit(lower);
    m_whatIf->setObjectName(QStringLiteral("criticalPathWhatIf"));
    m_whatIf->setPlaceholderText(tr("e.g. rank=37:compute=0.8 op=MatMulV2:0.9 link=40-41:bandwidth=2 rank=5:host=ideal"));
    m_whatIf->setToolTip(tr("Changes separated by spaces: rank=R:compute=F, op=NAME:F, rank=R:op=NAME:F, "
                            "link=A-B:bandwidth=F, rank=R:host=ideal (docs/metrics.md, “What-if”)"));
    whatIfRow->addWidget(m_whatIf, 1);
    m_replay = named(new QPushButton(tr("Replay"), lower), "criticalPathReplay",
        tr("Replay the step on its dependency graph with these changes"));
    whatIfRow->addWidget(m_replay);
    lowerLayout->addLayout(whatIfRow);
    m_whatIfResult = newWrappedLabel("criticalPathWhatIfResult", lower);
    m_whatIfResult->setTextFormat(Qt::RichText);
    lowerLayout->addWidget(m_whatIfResult);
    SplitterShares::installTableDetail(splitter, lower);
    layout->addWidget(splitter, 1);
    setBody(body);

    m_pathRunner = addRunner();
    m_whatIfRunner = addRunner();
    connect(m_step, &QComboBox::currentIndexChanged, this, &CriticalPathDock::computeStep);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CriticalPathDock::showSegment);
    connect(m_showInTimeline, &QCheckBox::toggled, this, &CriticalPathDock::applyTimelineFocus);
    connect(m_replay, &QPushButton::clicked, this, &CriticalPathDock::replay);
    connect(m_whatIf, &QLineEdit::returnPressed, this, &CriticalPathDock::replay);
    reloadPartOn({ &Workspace::stepChanged }, [this] {
        const auto step = workspace()->step();
        if (!step)
            return;
        const int i = m_step->findData(QVariant::fromValue(static_cast<qlonglong>(*step)));
        if (i >= 0 && i != m_step->currentIndex())
            m_step->setCurrentIndex(i); // computes it
    });
    requestReload();
}

void CriticalPathDock::reload()
{
    m_pathRunner->cancelPending();
    const bool started = runner()->run([](model::Database& db) { return query::DependencyGraphBuilder::steps(db); },
        [this](std::vector<int64_t> steps) {
            const QSignalBlocker block(m_step);
            m_step->clear();
            for (const int64_t s : steps)
                m_step->addItem(QString::number(s), QVariant::fromValue(static_cast<qlonglong>(s)));
            if (auto s = workspace()->step()) {
                const int i = m_step->findData(QVariant::fromValue(static_cast<qlonglong>(*s)));
                if (i >= 0)
                    m_step->setCurrentIndex(i);
            }
            computeStep();
        });
    if (!started) {
        m_graph.reset();
        m_path.reset();
        m_model->setSegments({});
        m_summary->setText(tr("No profile loaded"));
        m_detail->clear();
        m_whatIfResult->clear();
    }
}

void CriticalPathDock::showEvent(QShowEvent* event)
{
    QueryDock::showEvent(event);
    if (m_computePending)
        computeStep();
}

void CriticalPathDock::computeStep()
{
    const QVariant chosen = m_step->currentData();
    if (!chosen.isValid()) {
        m_graph.reset();
        m_path.reset();
        m_model->setSegments({});
        m_summary->setText(tr("No step with device tasks or communication ops"));
        m_detail->clear();
        return;
    }
    if (!isVisible()) {
        m_computePending = true;
        return;
    }
    m_computePending = false;
    const int64_t step = chosen.toLongLong();
    m_summary->setText(tr("Loading the step's kernels of every rank and building its dependency graph\u2026"));
    m_whatIfResult->clear();
    auto cache = workspace()->parseCache();
    m_pathRunner->runUnlocked(
        [step, cache](const std::shared_ptr<model::Database>& db) {
            Computed out;
            auto graph = std::make_shared<query::DependencyGraph>(
                load::loadDependencyGraph(*db, step, cache.get(), &out.imported));
            if (const auto* s = graph->stepOf(step))
                out.path = query::CriticalPath::analyse(*graph, *s, query::StepTiming::measured(*s));
            out.graph = std::move(graph);
            return out;
        },
        [this](Computed c) {
            if (c.imported)
                workspace()->notifyIssuesAdded();
            m_graph = std::move(c.graph);
            m_path = std::move(c.path);
            showPath();
        });
}

void CriticalPathDock::showPath()
{
    if (!m_graph || !m_path || m_path->segments.empty()) {
        m_model->setSegments({});
        m_summary->setText(tr("No critical path: this step has no kernels with a step id and no timed communication "
                              "ops (docs/metrics.md, “Critical path”)"));
        m_detail->clear();
        setEmptyHint(m_table, tr("No critical path for this step"));
        workspace()->setCriticalPath(std::nullopt);
        return;
    }
    const auto& p = *m_path;
    const int64_t origin = p.segments.front().start;
    std::vector<PathRow> rows;
    rows.reserve(p.segments.size());
    for (const auto& s : p.segments) {
        PathRow r;
        r.rank = s.rank;
        r.kind = s.kind;
        r.op = opText(*m_graph, s.op);
        r.offsetNs = s.start - origin;
        r.writtenStart = s.writtenStart;
        r.durNs = s.durNs();
        r.share = p.lengthNs > 0 ? static_cast<double>(r.durNs) / static_cast<double>(p.lengthNs) : 0.0;
        rows.push_back(std::move(r));
    }
    m_model->setSegments(std::move(rows));
    TableSetup::fitColumns(m_table, { PathSegmentTableModel::Operator });
    const auto visits = query::CriticalPath::visits(p.segments);
    m_summary->setText(tr("Step %1: critical path %2 ms = the step time of its slowest rank %3; %4 segments on %5 "
                          "stays across ranks. Compute %6, communication %7, host %8, idle %9")
                           .arg(p.step)
                           .arg(ms(p.lengthNs))
                           .arg(p.slowestRank)
                           .arg(p.segments.size())
                           .arg(visits.size())
                           .arg(pct(p.share.computeNs, p.lengthNs), pct(p.share.communicationNs, p.lengthNs),
                               pct(p.share.hostNs, p.lengthNs), pct(p.share.idleNs, p.lengthNs)));
    // The ranks holding most of the path first: a slow rank or host stands out here.
    auto byTime = p.ranks;
    std::sort(byTime.begin(), byTime.end(),
        [](const auto& a, const auto& b) { return a.second.totalNs() > b.second.totalNs(); });
    QStringList most;
    for (size_t i = 0; i < byTime.size() && i < 5; ++i)
        most << tr("rank %1 %2 ms (%3)")
                    .arg(byTime[i].first)
                    .arg(ms(byTime[i].second.totalNs()), pct(byTime[i].second.totalNs(), p.lengthNs));
    QString html = QStringLiteral("<p><b>") + tr("Most of the path") + QStringLiteral("</b>: ")
        + most.join(QStringLiteral(", ")) + QStringLiteral("</p>");
    html += QStringLiteral("<p><b>") + tr("The path by rank, in time order")
        + QStringLiteral("</b></p><table cellspacing=0 cellpadding=3>");
    html += QStringLiteral("<tr><th align=left>%1</th><th align=right>%2</th><th align=right>%3</th><th "
                           "align=right>%4</th><th align=right>%5</th><th align=right>%6</th><th align=left>%7</th></tr>")
                .arg(tr("Rank"), tr("ms"), PathSegmentTableModel::kindText(query::PathKind::Compute),
                    PathSegmentTableModel::kindText(query::PathKind::Communication),
                    PathSegmentTableModel::kindText(query::PathKind::Host),
                    PathSegmentTableModel::kindText(query::PathKind::Idle), tr("Longest op"));
    for (const auto& v : visits) {
        const int64_t t = v.share.totalNs();
        html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4</td>"
                               "<td align=right>%5</td><td align=right>%6</td><td>%7</td></tr>")
                    .arg(v.rank)
                    .arg(ms(t), pct(v.share.computeNs, t), pct(v.share.communicationNs, t), pct(v.share.hostNs, t),
                        pct(v.share.idleNs, t), opText(*m_graph, v.longestOp).toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    if (!p.links.empty()) {
        html += QStringLiteral("<p><b>") + tr("Send/receive links on the path") + QStringLiteral("</b>: ");
        QStringList parts;
        for (const auto& [link, ns] : p.links)
            parts << tr("%1\u2192%2 %3 ms").arg(link.first).arg(link.second).arg(ms(ns));
        html += parts.join(QStringLiteral(", ")) + QStringLiteral("</p>");
    }
    if (!p.topCommunication.empty()) {
        html += QStringLiteral("<p><b>") + tr("Communication ops with the most serial time")
            + QStringLiteral("</b> (") + tr("not overlapped by any other task of the rank; summed over the ranks")
            + QStringLiteral(")</p><ul>");
        for (const auto& o : p.topCommunication)
            html += QStringLiteral("<li>%1: ").arg(opText(*m_graph, o.name).toHtmlEscaped())
                + tr("serial %1 ms, parallel %2 ms over %3").arg(ms(o.serialNs), ms(o.parallelNs)).arg(o.count)
                + QStringLiteral("</li>");
        html += QStringLiteral("</ul>");
    }
    m_detail->setHtml(html);
    setEmptyHint(m_table, QString());

    Workspace::CriticalPathMark mark;
    mark.step = p.step;
    mark.commOps = query::CriticalPath::commOps(*m_graph, p.segments);
    workspace()->setCriticalPath(std::move(mark));
    applyTimelineFocus();
}

void CriticalPathDock::applyTimelineFocus()
{
    const auto current = workspace()->collectiveFocus();
    const QString label = m_path ? tr("Critical path (step %1)").arg(m_path->step) : QString();
    const bool ours = current && current->chain && current->label.startsWith(tr("Critical path"));
    if (!m_showInTimeline->isChecked() || !m_path || m_path->segments.empty()) {
        if (ours)
            workspace()->setCollectiveFocus(std::nullopt);
        return;
    }
    Workspace::CollectiveFocus focus;
    focus.label = label;
    focus.chain = true;
    focus.step = m_path->step;
    for (const auto& v : query::CriticalPath::visits(m_path->segments)) {
        // A stay doing the rank's own work is drawn as the cause (the rank's row is opened); a stay that only
        // carries a transfer is marked on the rank's header.
        const bool work = v.share.computeNs + v.share.hostNs > v.share.communicationNs;
        focus.spans.push_back({ v.rank, v.writtenStart, v.writtenEnd, work });
    }
    workspace()->setCollectiveFocus(std::move(focus));
}

void CriticalPathDock::showSegment()
{
    const QModelIndex index = m_table->currentIndex();
    if (!index.isValid() || m_quiet)
        return;
    const PathRow& r = m_model->rowAt(index.row());
    workspace()->setSelectedRank(r.rank);
    // The segment with a little of what came before and after, on the rank's own clock (the timeline's).
    const int64_t pad = std::max<int64_t>(r.durNs / 4, 2000);
    workspace()->setTimeWindow(Workspace::TimeWindow { r.writtenStart - pad, r.writtenStart + r.durNs + pad });
}

void CriticalPathDock::replay()
{
    if (!m_graph || !m_path) {
        m_whatIfResult->setText(tr("No critical path to replay yet"));
        return;
    }
    std::vector<query::WhatIfChange> changes;
    const QStringList specs = m_whatIf->text().split(QRegularExpression(QStringLiteral("[\\s;]+")), Qt::SkipEmptyParts);
    for (const QString& spec : specs) {
        std::string error;
        auto change = query::WhatIfChange::parse(spec.toStdString(), error);
        if (!change) {
            m_whatIfResult->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>")
                                        .arg(QString::fromStdString(error).toHtmlEscaped()));
            return;
        }
        changes.push_back(std::move(*change));
    }
    m_whatIfResult->setText(tr("Replaying\u2026"));
    const int64_t step = m_path->step;
    m_whatIfRunner->runInMemory(
        [graph = m_graph, changes, step](const std::shared_ptr<model::Database>&) {
            return query::WhatIf::run(*graph, changes, step);
        },
        [this](query::WhatIfResult result) {
            if (result.steps.empty()) {
                m_whatIfResult->setText(tr("Nothing to replay"));
                return;
            }
            const auto& s = result.steps.front();
            QStringList unmatched;
            for (size_t i = 0; i < result.changes.size(); ++i) {
                if (result.matched[i] == 0)
                    unmatched << QString::fromStdString(result.changes[i].spec).toHtmlEscaped();
            }
            QString text = tr("Measured %1 ms (rank %2), predicted <b>%3 ms</b> (rank %4): gain %5 ms (%6). New "
                              "path: compute %7, communication %8, host %9, idle %10.")
                               .arg(ms(s.measuredNs))
                               .arg(s.measuredRank)
                               .arg(ms(s.predictedNs))
                               .arg(s.predictedRank)
                               .arg(ms(s.gainNs()), pct(s.gainNs(), s.measuredNs),
                                   pct(s.path.share.computeNs, s.path.lengthNs),
                                   pct(s.path.share.communicationNs, s.path.lengthNs),
                                   pct(s.path.share.hostNs, s.path.lengthNs), pct(s.path.share.idleNs, s.path.lengthNs));
            if (result.changes.empty())
                text += QStringLiteral(" ") + tr("(No change: the measured step replayed, a self-check.)");
            if (!unmatched.isEmpty())
                text += QStringLiteral(" <span style='color:#c0392b'>")
                    + tr("Matched nothing: %1").arg(unmatched.join(QStringLiteral(", "))) + QStringLiteral("</span>");
            m_whatIfResult->setText(text);
        });
}

} // namespace npuscope::gui

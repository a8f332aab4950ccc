// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/advice/AdviceDock.h"

#include "npuscope/gui/advice/AdviceTableModel.h"
#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/SplitterShares.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/query/advice/AdviceQuery.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace npuscope::gui {

using query::advice::Finding;
using query::advice::Severity;

namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

constexpr size_t kRanksListed = 16; // a long, unordered rank list shows these first, then the whole set as ranges

template <class T, class F> QString listText(const std::vector<T>& items, F text)
{
    QStringList parts;
    for (const auto& item : items)
        parts << text(item);
    return parts.join(AdviceTableModel::listSeparator()).toHtmlEscaped();
}

// A communication op key as the advice names it may carry its group ("name@hash"); the Workspace keeps them apart.
QString opWithoutGroup(const std::string& op)
{
    const QString s = QString::fromStdString(op);
    const qsizetype at = s.indexOf(QLatin1Char('@'));
    return at < 0 ? s : s.left(at);
}

} // namespace

QString AdviceDock::viewTitle(const std::string& view)
{
    // The titles of the docks the evidence names (Finding.h, Evidence::view).
    static const std::map<std::string, const char*> titles {
        { "steps", QT_TR_NOOP("Cluster steps") },
        { "timeoverview", QT_TR_NOOP("Time overview") },
        { "commduration", QT_TR_NOOP("Communication duration") },
        { "links", QT_TR_NOOP("Links") },
        { "operators", QT_TR_NOOP("Operators") },
        { "memory", QT_TR_NOOP("Memory heatmap") },
        { "flops", QT_TR_NOOP("FLOPs heatmap") },
        { "timeline", QT_TR_NOOP("Timeline") },
        { "parallel", QT_TR_NOOP("Parallel strategy") },
    };
    const auto it = titles.find(view);
    return it == titles.end() ? QString::fromStdString(view) : tr(it->second);
}

AdviceDock::AdviceDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Advice"), kObjectName, ws, parent)
    , m_model(new AdviceTableModel(this))
{
    runner()->setPriority(-1); // the longest query of an open: the quick views first
    const auto [body, layout] = newColumn(this, 4);
    m_summary = newWrappedLabel("adviceSummary", body);
    layout->addWidget(m_summary);

    auto* splitter = new QSplitter(Qt::Vertical, body);
    m_table = new QTableView(splitter);
    m_table->setObjectName(QStringLiteral("adviceTable"));
    m_table->setModel(m_model);
    // Led by the finding that explains most of the step (the query's order: severity, then impact).
    TableSetup::install(m_table,
        { .singleSelection = true,
            .stretchLastSection = true,
            .sortable = true,
            .sortColumn = AdviceTableModel::Impact,
            .sortOrder = Qt::DescendingOrder });
    m_table->setToolTip(tr("Double-click a finding to show its evidence"));

    const auto [detailPane, detailLayout] = newColumn(splitter);
    m_detail = new QTextBrowser(detailPane);
    m_detail->setObjectName(QStringLiteral("adviceDetail"));
    m_detail->setOpenLinks(false);
    detailLayout->addWidget(m_detail, 1);
    auto* buttons = new QHBoxLayout;
    m_evidence = new QPushButton(tr("Show evidence"), detailPane);
    m_evidence->setObjectName(QStringLiteral("showEvidenceButton"));
    m_evidence->setEnabled(false);
    buttons->addWidget(m_evidence);
    // The timeline rules read the ranks whose timeline is loaded, which the Timeline view changes: run again.
    auto* rerun = new QPushButton(tr("Run again"), detailPane);
    rerun->setObjectName(QStringLiteral("adviceRerunButton"));
    rerun->setToolTip(tr("Run the rules again, e.g. after loading more timelines (the timeline rules examine the ranks "
                         "whose timeline is loaded)"));
    connect(rerun, &QPushButton::clicked, this, &AdviceDock::runAgain);
    buttons->addWidget(rerun);
    buttons->addStretch(1);
    detailLayout->addLayout(buttons);
    SplitterShares::installTableDetail(splitter, m_detail);
    layout->addWidget(splitter, 1);
    setBody(body);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &AdviceDock::showDetail);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid())
            showEvidence(m_model->rowAt(index.row()));
    });
    connect(m_evidence, &QPushButton::clicked, this, [this] {
        if (const Finding* f = currentFinding())
            showEvidence(*f);
    });
    // memory_peak is measured against the device memory: a new one gives new findings.
    connect(workspace(), &Workspace::deviceCapacityChanged, this, [this] { requestReload(); });
    // The status bar and the Overview lead with the top finding: the findings are computed once per model even while
    // this view waits behind a tab (the only dock that does).
    setReloadWhenHidden(true);
    requestReload();
}

query::advice::AdviceOptions AdviceDock::adviceOptions(const Workspace& workspace)
{
    query::advice::AdviceOptions options;
    options.capacityMb = workspace.deviceCapacityGb() * 1024.0;
    return options;
}

const Finding* AdviceDock::currentFinding() const
{
    const QModelIndex index = m_table->currentIndex();
    return index.isValid() ? &m_model->rowAt(index.row()) : nullptr;
}

void AdviceDock::reload()
{
    const query::advice::AdviceOptions options = adviceOptions(*workspace());
    const double capacityGb = options.capacityMb.value_or(0) / 1024.0;
    // AdviceQuery::run takes the model's lock itself and releases it for the rules that read only in-memory indexes,
    // so the views waiting for the model after an open (the timeline's first rank) get it meanwhile.
    const bool started = runner()->runUnlocked(
        [options](const std::shared_ptr<model::Database>& db) { return query::advice::AdviceQuery::run(*db, options); },
        [this, capacityGb](std::vector<Finding> findings) {
            int counts[3] = { 0, 0, 0 };
            for (const auto& f : findings)
                ++counts[static_cast<int>(f.severity)];
            m_summary->setText((findings.empty() ? tr("No findings: no rule's threshold was crossed")
                                                 : (findings.size() == 1 ? tr("1 finding: ")
                                                                         : tr("%1 findings: ").arg(findings.size()))
                                           + tr("critical %1 \u00b7 warning %2 \u00b7 info %3")
                                                 .arg(counts[2])
                                                 .arg(counts[1])
                                                 .arg(counts[0]))
                + tr(" \u00b7 device memory %1 GB (Memory heatmap setting) \u00b7 double-click a finding to show its "
                     "evidence")
                      .arg(capacityGb, 0, 'f', 0));
            const Finding* top = query::advice::AdviceQuery::topFinding(findings);
            const QString lead = top && top->impactNs > 0
                ? tr(" \u00b7 first: %1, %2")
                      .arg(QString::fromStdString(top->id), AdviceTableModel::impactSentence(*top))
                : QString();
            m_summary->setText(m_summary->text() + lead);
            // The status bar (and whoever else leads with it) shows the finding that explains the most.
            if (top)
                workspace()->setTopFinding(QString::fromStdString(top->id), AdviceTableModel::impactSentence(*top));
            else
                workspace()->setTopFinding({}, {});
            m_model->setFindings(std::move(findings));
            // A reset keeps the header's sort indicator, not the order: sort again (the query's order for Impact).
            const QHeaderView* header = m_table->horizontalHeader();
            if (header->sortIndicatorSection() >= 0)
                m_model->sort(header->sortIndicatorSection(), header->sortIndicatorOrder());
            // The message and the ranks give up width (elided, whole in the tooltip); the figures never do.
            // The rule id and category give way too: at 683 px a long rule id (communication_dispersion) pushed the
            // message out of sight.
            TableSetup::fitColumns(m_table,
                { AdviceTableModel::Message, AdviceTableModel::Where, AdviceTableModel::Rule,
                    AdviceTableModel::Category });
            if (m_model->rowCount() > 0)
                m_table->setCurrentIndex(m_model->index(0, 0));
            else
                showDetail();
        });
    if (!started) {
        m_model->setFindings({});
        m_summary->setText(tr("No profile loaded"));
        showDetail();
    }
}

void AdviceDock::showDetail()
{
    const Finding* f = currentFinding();
    m_evidence->setEnabled(f != nullptr);
    if (!f) {
        m_detail->clear();
        return;
    }
    // Secondary text in the palette's placeholder colour: readable on a dark base as on a light one.
    const QString muted = palette().color(QPalette::PlaceholderText).name();
    QString html = QStringLiteral("<h3>%1 <span style=\"color:%4;font-weight:normal\">(%2, %3)</span></h3>")
                       .arg(esc(f->id), AdviceTableModel::categoryText(f->category).toHtmlEscaped(),
                           AdviceTableModel::severityText(f->severity), muted);
    html += QStringLiteral("<p>%1</p>").arg(AdviceTableModel::translated(f->messageForm, f->message).toHtmlEscaped());
    html += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\">");
    auto row = [&html, &muted](const QString& key, const QString& valueHtml) {
        if (!valueHtml.isEmpty())
            html += QStringLiteral("<tr><td style=\"color:%3;padding-right:12px\">%1</td><td>%2</td></tr>")
                        .arg(key, valueHtml, muted);
    };
    row(tr("Impact"), AdviceTableModel::impactSentence(*f).toHtmlEscaped());
    row(tr("Measured"), AdviceTableModel::valueText(f->value, f->unit).toHtmlEscaped());
    row(tr("Threshold"),
        AdviceTableModel::valueText(f->threshold, f->unit).toHtmlEscaped() + QStringLiteral(" \u2014 ")
            + AdviceTableModel::translated(f->thresholdForm, f->thresholdText).toHtmlEscaped());
    // In the finding's order (the most affected first); ascending ones as ranges, and a long list in any order as
    // its first ranks and then the whole set as ranges (a 1,024-rank list was 20 lines of numbers).
    QString ranks;
    if (f->ranks.size() > 2 && std::is_sorted(f->ranks.begin(), f->ranks.end())) {
        ranks = GroupTableModel::rankList(f->ranks).toHtmlEscaped();
    } else if (f->ranks.size() > kRanksListed) {
        const std::vector<int64_t> first(f->ranks.begin(), f->ranks.begin() + kRanksListed);
        ranks = tr("%1, … (most affected first); all %2: %3")
                    .arg(listText(first, [](int64_t r) { return QString::number(r); }))
                    .arg(f->ranks.size())
                    .arg(GroupTableModel::rankList(f->ranks).toHtmlEscaped());
    } else {
        ranks = listText(f->ranks, [](int64_t r) { return QString::number(r); });
    }
    row(tr("Ranks"), ranks);
    row(tr("Links"), listText(f->links, [](const query::advice::FindingLink& l) {
        return QStringLiteral("%1 \u2192 %2 %3").arg(l.src).arg(l.dst).arg(QString::fromStdString(l.transport));
    }));
    row(tr("Ops"), listText(f->ops, [](const std::string& s) { return QString::fromStdString(s); }));
    row(tr("Steps"), listText(f->steps, [](int64_t s) { return QString::number(s); }));
    row(tr("Evidence"), viewTitle(f->evidence.view).toHtmlEscaped());
    html += QStringLiteral("</table><p><b>%1</b> %2</p>")
                .arg(tr("Suggestion:"), AdviceTableModel::translated(f->suggestionForm, f->suggestion).toHtmlEscaped());
    m_detail->setHtml(html);
}

void AdviceDock::showEvidence(const Finding& f)
{
    Workspace* ws = workspace();
    const auto& e = f.evidence;
    // The Workspace has no link selection: a link selects its two ranks, the source first.
    if (e.link && e.link->src != e.link->dst)
        ws->setSelectedRanks({ e.link->src, e.link->dst });
    else if (e.rank)
        ws->setSelectedRank(*e.rank);
    else if (e.stage && !f.ranks.empty())
        ws->setSelectedRanks(f.ranks); // a pipeline stage: its ranks
    else if (!f.ranks.empty())
        ws->setSelectedRank(f.ranks.front());
    if (e.step)
        ws->setStep(*e.step);
    if (e.view == "operators" && e.op)
        ws->setSelectedOperator(
            Workspace::OperatorKey { query::OperatorGroupBy::Name, *e.op, e.rank ? e.rank : std::nullopt });
    else if (e.op)
        ws->setCommOp(opWithoutGroup(*e.op).toStdString());
    ws->requestShowView(QString::fromStdString(e.view));
}

} // namespace npuscope::gui

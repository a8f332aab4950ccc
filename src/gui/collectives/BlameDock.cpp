// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/collectives/BlameDock.h"

#include "npuscope/gui/collectives/BlameTableModel.h"
#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/EmptyHint.h"
#include "npuscope/gui/common/SplitterShares.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/Workspace.h"

#include <QComboBox>

#include <algorithm>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "CollectivesParts.h"

namespace npuscope::gui {

namespace {

QString ms(int64_t ns) { return QString::number(static_cast<double>(ns) / 1e6, 'f', 3); }

} // namespace

BlameDock::BlameDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Blame"), kObjectName, ws, parent)
    , m_model(new BlameTableModel(this))
{
    const auto [body, layout, bar] = makeBody();
    m_step = addStepBox(bar, "blameStep", body);
    m_summary = newWrappedLabel("blameSummary", body);
    bar->addWidget(m_summary, 1);
    auto* splitter = new QSplitter(Qt::Vertical, body);
    m_table = new QTableView(splitter);
    m_table->setObjectName(QStringLiteral("blameTable"));
    m_table->setModel(m_model);
    TableSetup::install(m_table, { .singleSelection = true, .stretchLastSection = true, .sortable = true });
    m_chain = new QTextBrowser(splitter);
    m_chain->setObjectName(QStringLiteral("blameChain"));
    SplitterShares::installTableDetail(splitter, m_chain);
    layout->addWidget(splitter, 1);
    setBody(body);

    connect(m_step, &QComboBox::currentIndexChanged, this, &BlameDock::showStep);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &BlameDock::showRoot);
    connect(ws, &Workspace::criticalPathChanged, this, [this] {
        // Re-marks the shown chain's hops without touching the selection.
        m_quiet = true;
        showRoot();
        m_quiet = false;
    });
    collectives_detail::clearRowWhenNothingSelected(ws, m_table);
    requestReload();
}

void BlameDock::reload()
{
    const bool started = runner()->run([](model::Database& db) { return query::BlameAnalysis::forDatabase(db); },
        [this](std::shared_ptr<const query::BlameResult> result) {
            m_result = std::move(result);
            const QSignalBlocker block(m_step);
            m_step->clear();
            for (const auto& s : m_result->steps)
                m_step->addItem(QString::number(s.step), QVariant::fromValue(static_cast<qlonglong>(s.step)));
            if (auto s = workspace()->step()) {
                const int i = m_step->findData(QVariant::fromValue(static_cast<qlonglong>(*s)));
                if (i >= 0)
                    m_step->setCurrentIndex(i);
            }
            showStep();
        });
    if (!started) {
        m_result.reset();
        m_model->setRoots({});
        m_summary->setText(tr("No profile loaded"));
        m_chain->clear();
    }
}

void BlameDock::showStep()
{
    const int i = m_step->currentIndex();
    if (!m_result || i < 0 || i >= static_cast<int>(m_result->steps.size())) {
        m_model->setRoots({});
        m_summary->setText(m_result ? tr("No delayed communication") : QString());
        m_chain->clear();
        return;
    }
    const auto& s = m_result->steps[static_cast<size_t>(i)];
    if (s.roots.empty())
        m_summary->setText(tr("%1 ms of waiting, summed over the ranks of %2 delayed ops, all of it the normal spread "
                              "between ranks: no rank or link explains %3 % of it or more")
                               .arg(ms(s.delayNs))
                               .arg(s.delayedInstances)
                               .arg(100.0 * query::BlameAnalysis::kMinRootShare, 0, 'f', 0));
    else
        m_summary->setText((s.roots.size() == 1
                ? tr("%1 ms of waiting, summed over the ranks of %2 delayed ops: %3 ms traced to %4 root; %5 ms not "
                     "explained by any rank or link (the normal spread between ranks)")
                : tr("%1 ms of waiting, summed over the ranks of %2 delayed ops: %3 ms traced to %4 roots; %5 ms not "
                     "explained by any rank or link (the normal spread between ranks)"))
                               .arg(ms(s.delayNs))
                               .arg(s.delayedInstances)
                               .arg(ms(s.inducedWaitNs))
                               .arg(s.roots.size())
                               .arg(ms(s.unattributedNs)));
    m_model->setRoots(s.roots);
    TableSetup::fitColumns(m_table, { BlameTableModel::Evidence });
    if (m_model->rowCount() > 0) {
        // Shows the first root's chain without selecting its rank: only the user's choice changes the selection.
        m_quiet = true;
        m_table->setCurrentIndex(m_model->index(0, 0));
        m_quiet = false;
    } else
        m_chain->setHtml(tr("<p>No rank or link stands out in this step.</p>"));
    setEmptyHint(m_table, tr("No root: every delay of this step is within the normal spread between ranks"));
}

void BlameDock::showRoot()
{
    const QModelIndex index = m_table->currentIndex();
    if (!index.isValid() || !m_result)
        return;
    const query::BlameRoot& root = m_model->rowAt(index.row());
    QString html = QStringLiteral("<p><b>%1</b> \u2014 %2: %3</p><ol>")
                       .arg(BlameTableModel::rootText(root).toHtmlEscaped(), BlameTableModel::causeText(root.cause),
                           BlameTableModel::evidenceText(root).toHtmlEscaped());
    const auto path = workspace()->criticalPath();
    for (const auto& hop : root.chain) {
        const auto& in = m_result->set.instances[hop.instance];
        QString item
            = (hop.relation == "late" ? tr("rank %1 arrived late in %2 (%3, last arriver %4)")
                                      : tr("rank %1 waited in %2 (%3, last arriver %4)"))
                  .arg(QString::number(hop.rank), QString::fromStdString(in.opKey).toHtmlEscaped(),
                      QString::fromStdString(in.opType), QString::number(in.members[in.lastArriver].rank));
        // Whether the step's critical path (the Critical path view's) passes this hop's op.
        if (path && path->step == in.step) {
            const bool on = std::any_of(in.members.begin(), in.members.end(),
                [&](const query::InstanceMember& m) { return m.rank == hop.rank && path->contains(m.commOpId); });
            if (on)
                item += QStringLiteral(" — <b>") + tr("on the critical path") + QStringLiteral("</b>");
        }
        html += QStringLiteral("<li>") + item + QStringLiteral("</li>");
    }
    html += QStringLiteral("</ol>");
    m_chain->setHtml(html);
    if (m_quiet)
        return;
    const QVariant step = m_step->currentData();
    // The chain's ops, drawn in the timeline: each hop's op on the rank followed there.
    Workspace::CollectiveFocus focus;
    focus.label = BlameTableModel::rootText(root);
    focus.chain = true;
    for (const auto& hop : root.chain) {
        const auto& in = m_result->set.instances[hop.instance];
        for (const auto& member : in.members) {
            if (member.rank == hop.rank) {
                focus.spans.push_back({ member.rank, member.startNs, member.endNs(), hop.relation == "late" });
                break;
            }
        }
    }
    if (!root.chain.empty())
        focus.step = m_result->set.instances[root.chain.front().instance].step;
    if (step.isValid())
        workspace()->setStep(step.toLongLong());
    if (root.link)
        workspace()->setSelectedRanks({ root.link->first, root.link->second });
    else if (root.rank)
        workspace()->setSelectedRank(*root.rank);
    workspace()->setCollectiveFocus(focus.spans.empty() ? std::nullopt : std::optional(std::move(focus)));
}

} // namespace npuscope::gui

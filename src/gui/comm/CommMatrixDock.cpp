// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/CommMatrixDock.h"

#include "npuscope/gui/comm/CommMatrixView.h"
#include "npuscope/gui/comm/CommSelectionBar.h"
#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommOpIndex.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <set>

namespace npuscope::gui {

namespace {

struct MatrixResult {
    query::CommMatrix matrix;
    std::vector<std::pair<std::string, std::string>> groupLabels;
    double ms = 0;
};

std::vector<std::pair<std::string, std::string>> groupLabels(const query::CommLinkIndex& index)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& g : index.groups())
        out.emplace_back(g.hash, g.name ? *g.name + " (" + g.hash + ")" : g.hash);
    return out;
}

} // namespace

CommMatrixDock::CommMatrixDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Communication matrix"), kObjectName, ws, parent)
    , m_slotRunner(addRunner())
{
    const auto [body, layout, bar] = makeBody();
    m_bar = new CommSelectionBar(ws, body);
    bar->addWidget(m_bar);
    bar->addStretch(1);
    // The matrix's own choices on a second row: on one row with the selection they were squeezed (the Metric combo
    // clipped to "Bandwi…") at 1366 px, and more in Chinese or at scale 2.
    auto* choices = new QHBoxLayout;
    m_slot = new QComboBox(body);
    m_slot->setObjectName(QStringLiteral("matrixSlotCombo"));
    fitToItems(m_slot); // its items are short: whole
    m_slot->setToolTip(tr("With “All ops”: the total over every op type, or one op type's slot"));
    choices->addWidget(m_slot);
    choices->addSpacing(8);
    choices->addWidget(new QLabel(tr("Metric:"), body));
    m_metric = new QComboBox(body);
    m_metric->setObjectName(QStringLiteral("matrixMetricCombo"));
    m_metric->addItem(tr("Bandwidth (GB/s)"), static_cast<int>(CommMatrixView::Metric::Bandwidth));
    m_metric->addItem(tr("Transit size (MB)"), static_cast<int>(CommMatrixView::Metric::Size));
    m_metric->addItem(tr("Transit time (ms)"), static_cast<int>(CommMatrixView::Metric::Time));
    m_metric->addItem(tr("Transport type"), static_cast<int>(CommMatrixView::Metric::Transport));
    choices->addWidget(m_metric);
    choices->addSpacing(8);
    choices->addWidget(new QLabel(tr("Order:"), body));
    m_order = new QComboBox(body);
    m_order->setObjectName(QStringLiteral("matrixOrderCombo"));
    m_order->addItem(tr("Group blocks (auto)"), QStringLiteral("auto"));
    m_order->addItem(tr("Rank"), QString());
    for (const char* n : { "tp", "dp", "pp", "cp", "ep" })
        m_order->addItem(tr("%1 blocks").arg(QString::fromLatin1(n)), QString::fromLatin1(n));
    choices->addWidget(m_order);
    // Short: at 683 px (1366×768 at scale 2) the longer "Hide diagonal (LOCAL)" squeezed the op-type combo to
    // "Total (all op ty".
    m_hideLocal = named(new QCheckBox(tr("Hide LOCAL"), body), "matrixHideLocal",
        tr("Hide the diagonal: the LOCAL links of a rank to itself (copies within the device)"));
    m_hideLocal->setChecked(true);
    choices->addWidget(m_hideLocal);
    choices->addStretch(1);
    for (QComboBox* combo : { m_metric, m_order })
        combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    layout->addLayout(choices);

    m_status = new QLabel(body);
    m_status->setObjectName(QStringLiteral("matrixStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Wrapped: a long status line must not make the dock wider than the window (it would overlap its neighbours).
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_view = new CommMatrixView(body);
    // Its cell images (a million cells for a 1,024-rank all-to-all) are built off the GUI thread.
    m_view->setWorkerPool(ws->inMemoryPool());
    connect(m_view, &CommMatrixView::imagesBusyChanged, this, [this](bool busy) {
        if (busy && !m_imagesBusy) {
            m_imagesBusy = workspace();
            workspace()->beginQuery();
        } else if (!busy && m_imagesBusy) {
            m_imagesBusy->endQuery();
            m_imagesBusy.clear();
        }
    });
    layout->addWidget(m_view, 1);
    setBody(body);

    connect(m_metric, &QComboBox::currentIndexChanged, this,
        [this](int) { m_view->setMetric(static_cast<CommMatrixView::Metric>(m_metric->currentData().toInt())); });
    connect(m_hideLocal, &QCheckBox::toggled, this, [this](bool hide) {
        m_view->setHideLocal(hide);
        updateStatus();
    });
    connect(m_order, &QComboBox::currentIndexChanged, this, &CommMatrixDock::reloadMatrix);
    connect(m_slot, &QComboBox::currentIndexChanged, this, [this](int) {
        if (!m_updating)
            reloadMatrix();
    });
    // A cell selects its link's two ranks (src first: the primary selected rank).
    connect(m_view, &CommMatrixView::linkClicked, this, [this](qint64 src, qint64 dst) {
        workspace()->setSelectedRanks({ src, dst });
    });
    connect(m_view, &CommMatrixView::collectivesRequested, this, [this](qint64 src, qint64 dst) {
        workspace()->requestCollectivesOf({ src, dst });
    });
    connect(workspace(), &Workspace::commOpChanged, this, [this] { m_slot->setEnabled(!workspace()->commOp()); });
    reloadOn({ &Workspace::stepChanged, &Workspace::groupChanged, &Workspace::commOpChanged });
    requestReload();
}

CommMatrixDock::~CommMatrixDock()
{
    if (m_imagesBusy)
        m_imagesBusy->endQuery();
}

void CommMatrixDock::reload()
{
    reloadSlots();
    reloadMatrix();
}

void CommMatrixDock::reloadSlots()
{
    const query::CommSelection sel = CommSelectionBar::stepAndGroup(*workspace());
    m_slotRunner->runInMemory(
        [sel](const std::shared_ptr<model::Database>& db) {
            return query::CommAnalysisQuery::matrixOps(
                *query::CommLinkIndex::forDatabase(db), *query::CommOpIndex::forDatabase(db), sel);
        },
        [this](query::MatrixOpChoices choices) {
            const QString previous = m_slot->currentData().toString();
            m_updating = true;
            m_slot->clear();
            m_slot->addItem(tr("Total (all op types)"), QString());
            for (size_t i = 0; i < choices.opTypes.size(); ++i) {
                for (const auto& slot : choices.typeSlots[i]) {
                    const QString type = QString::fromStdString(choices.opTypes[i]);
                    const QString s = QString::fromStdString(slot);
                    m_slot->addItem(QStringLiteral("%1 \u00b7 %2").arg(type, s), type + QLatin1Char('\n') + s);
                }
            }
            const int index = m_slot->findData(previous);
            m_slot->setCurrentIndex(index < 0 ? 0 : index);
            m_updating = false;
            if (index < 0 && !previous.isEmpty())
                reloadMatrix();
        });
}

void CommMatrixDock::reloadMatrix()
{
    const query::CommSelection sel = CommSelectionBar::selection(*workspace());
    query::MatrixOp op;
    const QStringList typeSlot = m_slot->currentData().toString().split(QLatin1Char('\n'));
    if (typeSlot.size() == 2) {
        op.opType = typeSlot[0].toStdString();
        op.slot = typeSlot[1].toStdString();
    }
    const std::string order = m_order->currentData().toString().toStdString();
    const bool started = runner()->runInMemory(
        [sel, op, order](const std::shared_ptr<model::Database>& db) {
            // The link index is built once per database (first use), then every selection is in memory.
            const auto index = query::CommLinkIndex::forDatabase(db);
            QElapsedTimer t;
            t.start();
            MatrixResult r;
            r.matrix = query::CommAnalysisQuery::matrix(*index, sel, op, order);
            r.ms = static_cast<double>(t.nsecsElapsed()) / 1.0e6;
            r.groupLabels = groupLabels(*index);
            return r;
        },
        [this](MatrixResult r) {
            m_lastQueryMs = r.ms;
            ++m_resultsApplied;
            m_groupLabels = std::move(r.groupLabels);
            m_view->setMatrix(std::move(r.matrix));
            updateStatus();
        });
    if (!started) {
        m_view->setMatrix({});
        m_status->setText(tr("No profile loaded"));
    }
}

void CommMatrixDock::updateStatus()
{
    const auto& m = m_view->matrix();
    auto label = [this](const std::string& hash) {
        if (hash.empty())
            return tr("(links without a group)");
        for (const auto& [h, l] : m_groupLabels) {
            if (h == hash)
                return QString::fromStdString(l);
        }
        return QString::fromStdString(hash);
    };
    // Cells are src → dst pairs; the diagonal / LOCAL ones are counted apart because "Hide diagonal" hides them
    // (the Links dock lists one row per group and op type, "all but LOCAL" by default).
    const size_t offDiagonal = m.offDiagonalCells();
    const size_t diagonal = m.cells.size() - offDiagonal;
    QString text = tr("%1 ranks \u00b7 %2 src→dst links").arg(m.ranks.size()).arg(offDiagonal);
    if (diagonal > 0)
        text += m_view->hideLocal() ? tr(" (+%1 diagonal/LOCAL, hidden)").arg(diagonal)
                                    : tr(" + %1 diagonal/LOCAL").arg(diagonal);
    if (m.slowestCell) {
        const auto& c = m.cells[*m.slowestCell];
        text += tr(" \u00b7 slowest link %1 \u2192 %2: %3 GB/s (%4)")
                    .arg(c.src)
                    .arg(c.dst)
                    .arg(c.bandwidthGbps().value_or(0), 0, 'f', 3)
                    .arg(QString::fromStdString(c.transport));
    }
    std::set<int64_t> sources;
    for (const auto& c : m.cells)
        sources.insert(c.src);
    if (!m.localGroup && sources.size() < m.ranks.size())
        text += tr(" \u00b7 %1 ranks wrote links (rows of the others are empty)").arg(sources.size());
    if (m.totalOpInfo)
        text += tr(" \u00b7 from the file's \u201cTotal Op Info\u201d rows (no per-type totals)");
    QStringList notes;
    if (m.localGroup)
        notes << tr("<b>group-local ranks</b>: global ranks unknown for group %1").arg(label(*m.localGroup));
    if (!m.hiddenLocalGroups.empty()) {
        QStringList names;
        for (const auto& g : m.hiddenLocalGroups)
            names << label(g);
        notes << tr("not shown: links of %1 (global ranks unknown; select the group to see them in its group-local "
                    "ranks)")
                     .arg(names.join(QStringLiteral(", ")));
    }
    text += tr(" \u00b7 wheel or drag a rectangle: zoom, Shift+drag: pan, double-click: fit");
    if (!notes.isEmpty())
        text = notes.join(QStringLiteral(" \u00b7 ")) + QStringLiteral("<br>") + text.toHtmlEscaped();
    m_status->setTextFormat(notes.isEmpty() ? Qt::PlainText : Qt::RichText);
    m_status->setText(text);
}

} // namespace npuscope::gui

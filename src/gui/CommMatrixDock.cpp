// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/CommMatrixDock.h"

#include "npuscope/gui/CommMatrixView.h"
#include "npuscope/gui/CommSelectionBar.h"
#include "npuscope/gui/QueryRunner.h"
#include "npuscope/gui/Workspace.h"
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
    double ms = 0;
};

} // namespace

CommMatrixDock::CommMatrixDock(Workspace* workspace, QWidget* parent)
    : QDockWidget(tr("Communication matrix"), parent)
    , m_workspace(workspace)
    , m_runner(new QueryRunner(workspace, this))
    , m_slotRunner(new QueryRunner(workspace, this))
{
    setObjectName(QString::fromLatin1(kObjectName));
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* bar = new QHBoxLayout;
    m_bar = new CommSelectionBar(workspace, body);
    bar->addWidget(m_bar);
    bar->addSpacing(8);
    m_slot = new QComboBox(body);
    m_slot->setObjectName(QStringLiteral("matrixSlotCombo"));
    m_slot->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_slot->setToolTip(tr("With \u201cAll ops\u201d: the total over every op type, or one op type's slot"));
    bar->addWidget(m_slot);
    bar->addSpacing(8);
    bar->addWidget(new QLabel(tr("Metric:"), body));
    m_metric = new QComboBox(body);
    m_metric->setObjectName(QStringLiteral("matrixMetricCombo"));
    m_metric->addItem(tr("Bandwidth (GB/s)"), static_cast<int>(CommMatrixView::Metric::Bandwidth));
    m_metric->addItem(tr("Transit size (MB)"), static_cast<int>(CommMatrixView::Metric::Size));
    m_metric->addItem(tr("Transit time (ms)"), static_cast<int>(CommMatrixView::Metric::Time));
    m_metric->addItem(tr("Transport type"), static_cast<int>(CommMatrixView::Metric::Transport));
    bar->addWidget(m_metric);
    bar->addSpacing(8);
    bar->addWidget(new QLabel(tr("Order:"), body));
    m_order = new QComboBox(body);
    m_order->setObjectName(QStringLiteral("matrixOrderCombo"));
    m_order->addItem(tr("Group blocks (auto)"), QStringLiteral("auto"));
    m_order->addItem(tr("Rank"), QString());
    for (const char* n : { "tp", "dp", "pp", "cp", "ep" })
        m_order->addItem(tr("%1 blocks").arg(QString::fromLatin1(n)), QString::fromLatin1(n));
    bar->addWidget(m_order);
    m_hideLocal = new QCheckBox(tr("Hide diagonal (LOCAL)"), body);
    m_hideLocal->setObjectName(QStringLiteral("matrixHideLocal"));
    m_hideLocal->setChecked(true);
    bar->addWidget(m_hideLocal);
    bar->addStretch(1);
    layout->addLayout(bar);

    m_status = new QLabel(body);
    m_status->setObjectName(QStringLiteral("matrixStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    m_view = new CommMatrixView(body);
    layout->addWidget(m_view, 1);
    setWidget(body);

    connect(m_metric, &QComboBox::currentIndexChanged, this,
        [this](int) { m_view->setMetric(static_cast<CommMatrixView::Metric>(m_metric->currentData().toInt())); });
    connect(m_hideLocal, &QCheckBox::toggled, m_view, &CommMatrixView::setHideLocal);
    connect(m_order, &QComboBox::currentIndexChanged, this, &CommMatrixDock::reload);
    connect(m_slot, &QComboBox::currentIndexChanged, this, [this](int) {
        if (!m_updating)
            reload();
    });
    connect(m_view, &CommMatrixView::rankClicked, this, [this](qint64 rank) { m_workspace->setSelectedRank(rank); });
    connect(m_workspace, &Workspace::databaseChanged, this, [this] {
        reloadSlots();
        reload();
    });
    for (auto signal : { &Workspace::stepChanged, &Workspace::groupChanged }) {
        connect(m_workspace, signal, this, [this] {
            reloadSlots();
            reload();
        });
    }
    connect(m_workspace, &Workspace::commOpChanged, this, [this] {
        m_slot->setEnabled(!m_workspace->commOp());
        reload();
    });
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_dirty) {
            m_dirty = false;
            reloadSlots();
            reload();
        }
    });
    reloadSlots();
    reload();
}

bool CommMatrixDock::deferred()
{
    // Before the first show (and in tests without a window) queries run; afterwards a hidden dock waits.
    if (isVisible() || !window()->isVisible())
        return false;
    m_dirty = true;
    return true;
}

void CommMatrixDock::reloadSlots()
{
    if (deferred())
        return;
    query::CommSelection sel;
    sel.step = m_workspace->step();
    sel.groupHash = m_workspace->groupHash();
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
                reload();
        });
}

void CommMatrixDock::reload()
{
    if (deferred())
        return;
    query::CommSelection sel;
    sel.step = m_workspace->step();
    sel.groupHash = m_workspace->groupHash();
    sel.opName = m_workspace->commOp();
    query::MatrixOp op;
    const QStringList typeSlot = m_slot->currentData().toString().split(QLatin1Char('\n'));
    if (typeSlot.size() == 2) {
        op.opType = typeSlot[0].toStdString();
        op.slot = typeSlot[1].toStdString();
    }
    const std::string order = m_order->currentData().toString().toStdString();
    const bool started = m_runner->runInMemory(
        [sel, op, order](const std::shared_ptr<model::Database>& db) {
            // The link index is built once per database (first use), then every selection is in memory.
            const auto index = query::CommLinkIndex::forDatabase(db);
            QElapsedTimer t;
            t.start();
            MatrixResult r;
            r.matrix = query::CommAnalysisQuery::matrix(*index, sel, op, order);
            r.ms = static_cast<double>(t.nsecsElapsed()) / 1.0e6;
            return r;
        },
        [this](MatrixResult r) {
            m_lastQueryMs = r.ms;
            ++m_resultsApplied;
            const auto& m = r.matrix;
            QString text = tr("%1 ranks \u00b7 %2 links").arg(m.ranks.size()).arg(m.cells.size());
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
            if (sources.size() < m.ranks.size())
                text += tr(" \u00b7 %1 ranks wrote links (rows of the others are empty)").arg(sources.size());
            text += tr(" \u00b7 wheel: zoom, drag: pan, double-click: fit");
            m_status->setText(text);
            m_view->setMatrix(std::move(r.matrix));
        });
    if (!started) {
        m_view->setMatrix({});
        m_status->setText(tr("No profile loaded"));
    }
}

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/CommSelectionBar.h"

#include "npuscope/gui/common/DeferredReload.h"
#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/QueryRunner.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/CommQuery.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>


namespace npuscope::gui {

namespace {

struct Lists {
    std::vector<int64_t> steps;
    std::vector<query::Group> groups;
};

void selectData(QComboBox* combo, const QVariant& value)
{
    int index = 0;
    for (int i = 1; value.isValid() && i < combo->count(); ++i) {
        if (combo->itemData(i) == value)
            index = i;
    }
    combo->setCurrentIndex(index);
}

} // namespace

CommSelectionBar::CommSelectionBar(Workspace* workspace, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_listRunner(new QueryRunner(workspace, tr("Communication selection"), this))
    , m_opRunner(new QueryRunner(workspace, tr("Communication selection"), this))
    , m_step(new QComboBox(this))
    , m_group(new QComboBox(this))
    , m_op(new QComboBox(this))
    , m_opsReload(new DeferredReload(this, [this] { reloadOps(); }))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_step->setObjectName(QStringLiteral("commStepCombo"));
    // Cluster steps averages its "All steps"; here every figure is a total over the steps (bandwidth = total size ÷
    // total time), so the entry says which.
    m_step->setToolTip(tr("All steps (total): times and sizes summed over every step; bandwidth is the total size "
                          "divided by the total transit time"));
    m_group->setObjectName(QStringLiteral("commGroupCombo"));
    m_op->setObjectName(QStringLiteral("commOpCombo"));
    // Sized to their contents, but they may shrink (elided) when the dock is narrow (a 960 px window at scale 2).
    for (QComboBox* c : { m_step, m_group, m_op })
        c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (QComboBox* c : { m_group, m_op })
        c->setMinimumWidth(60);
    m_op->setMaximumWidth(320);
    // The step's items are short ("Step 50"): it keeps its width, the group and op combos give way (cut to "Step 5"
    // at 1366 px and a scale of 2 otherwise).
    m_step->setSizePolicy(QSizePolicy::Fixed, m_step->sizePolicy().verticalPolicy());
    layout->addWidget(new QLabel(tr("Step:"), this));
    layout->addWidget(m_step);
    layout->addSpacing(8);
    layout->addWidget(new QLabel(tr("Group:"), this));
    layout->addWidget(m_group);
    layout->addSpacing(8);
    layout->addWidget(new QLabel(tr("Op:"), this));
    layout->addWidget(m_op);

    connect(m_step, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (m_updating || i < 0)
            return;
        const QVariant v = m_step->itemData(i);
        m_workspace->setStep(v.isValid() ? std::optional<int64_t>(v.toLongLong()) : std::nullopt);
    });
    connect(m_group, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (m_updating || i < 0)
            return;
        const QVariant v = m_group->itemData(i);
        m_workspace->setGroupHash(v.isValid() ? std::optional<std::string>(v.toString().toStdString()) : std::nullopt);
    });
    connect(m_op, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (m_updating || i < 0)
            return;
        const QVariant v = m_op->itemData(i);
        m_workspace->setCommOp(v.isValid() ? std::optional<std::string>(v.toString().toStdString()) : std::nullopt);
    });
    connect(m_workspace, &Workspace::databaseChanged, this, &CommSelectionBar::reloadLists);
    connect(m_workspace, &Workspace::stepChanged, this, [this] {
        syncFromWorkspace();
        m_opsReload->request();
    });
    connect(m_workspace, &Workspace::groupChanged, this, [this] {
        syncFromWorkspace();
        m_opsReload->request();
    });
    connect(m_workspace, &Workspace::commOpChanged, this, &CommSelectionBar::syncFromWorkspace);
    reloadLists();
}

void CommSelectionBar::reloadLists()
{
    m_updating = true;
    resetChoices(m_step, tr("All steps (total)"));
    resetChoices(m_group, tr("All groups"));
    m_updating = false;
    m_listRunner->run(
        [](model::Database& db) {
            Lists l;
            // Steps that only communication.json knows about count too.
            l.steps = query::CommQuery::steps(db);
            l.groups = query::CommQuery::groups(db);
            return l;
        },
        [this](Lists l) {
            m_updating = true;
            for (int64_t s : l.steps)
                m_step->addItem(tr("Step %1").arg(s), QVariant::fromValue<qlonglong>(s));
            for (const auto& g : l.groups) {
                const QString hash = QString::fromStdString(g.hash);
                const QString name = g.name ? QString::fromStdString(*g.name) : hash;
                m_group->addItem(g.name ? tr("%1 · %2 ranks · …%3").arg(name).arg(g.ranks.size()).arg(hash.right(6))
                                        : tr("%1 · %2 ranks").arg(name).arg(g.ranks.size()),
                    hash);
            }
            m_updating = false;
            syncFromWorkspace();
            m_opsReload->request();
        });
    m_opsReload->request();
}

query::CommSelection CommSelectionBar::selection(const Workspace& workspace)
{
    query::CommSelection sel = stepAndGroup(workspace);
    sel.opName = workspace.commOp();
    return sel;
}

query::CommSelection CommSelectionBar::stepAndGroup(const Workspace& workspace)
{
    query::CommSelection sel;
    sel.step = workspace.step();
    sel.groupHash = workspace.groupHash();
    return sel;
}

void CommSelectionBar::reloadOps()
{
    const query::CommSelection sel = stepAndGroup(*m_workspace);
    const bool started = m_opRunner->runInMemory(
        [sel](const std::shared_ptr<model::Database>& db) {
            return query::CommAnalysisQuery::opNames(*query::CommOpIndex::forDatabase(db), sel);
        },
        [this](std::vector<std::string> opNames) {
            m_updating = true;
            resetChoices(m_op, tr("All ops"));
            const auto current = m_workspace->commOp();
            int added = 0;
            for (const auto& name : opNames) {
                if (added++ >= kMaxOps && (!current || *current != name))
                    continue;
                m_op->addItem(QString::fromStdString(name), QString::fromStdString(name));
            }
            if (current && m_op->findData(QString::fromStdString(*current)) < 0)
                m_op->addItem(QString::fromStdString(*current), QString::fromStdString(*current));
            m_updating = false;
            syncFromWorkspace();
        });
    if (!started) {
        m_updating = true;
        resetChoices(m_op, tr("All ops"));
        m_updating = false;
    }
}

void CommSelectionBar::syncFromWorkspace()
{
    m_updating = true;
    const auto step = m_workspace->step();
    selectData(m_step, step ? QVariant::fromValue<qlonglong>(*step) : QVariant());
    const auto group = m_workspace->groupHash();
    selectData(m_group, group ? QVariant(QString::fromStdString(*group)) : QVariant());
    const auto op = m_workspace->commOp();
    selectData(m_op, op ? QVariant(QString::fromStdString(*op)) : QVariant());
    m_updating = false;
}

} // namespace npuscope::gui

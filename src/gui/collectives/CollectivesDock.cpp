// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/collectives/CollectivesDock.h"

#include "npuscope/gui/comm/GroupText.h"

#include "npuscope/gui/collectives/BlameTableModel.h"
#include "npuscope/gui/collectives/CollectivesTableModel.h"
#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/query/CommQuery.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "CollectivesParts.h"

namespace npuscope::gui {

namespace {

struct Loaded {
    std::shared_ptr<const query::BlameResult> result;
    std::map<std::string, QString> groupTexts; // hash -> the name and ranks the Groups view shows (GroupText)
};

QString rootText(const query::BlameResult& r, size_t i)
{
    const auto [s, k] = r.rootOf[i];
    if (s < 0)
        return {};
    const auto& root = r.steps[static_cast<size_t>(s)].roots[static_cast<size_t>(k)];
    return QStringLiteral("%1 (%2)").arg(BlameTableModel::rootText(root), BlameTableModel::causeText(root.cause));
}

} // namespace

CollectivesDock::CollectivesDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Collectives"), kObjectName, ws, parent)
    , m_filterRunner(addRunner())
    , m_model(new CollectivesTableModel(this))
{
    const auto [body, layout, bar] = makeBody();
    m_step = new QComboBox(body);
    m_step->setObjectName(QStringLiteral("collectivesStep"));
    fitToItems(m_step);
    m_group = new QComboBox(body);
    m_group->setObjectName(QStringLiteral("collectivesGroup"));
    m_type = new QComboBox(body);
    m_type->setObjectName(QStringLiteral("collectivesType"));
    bar->addWidget(new QLabel(tr("Step:"), body));
    bar->addWidget(m_step);
    bar->addWidget(new QLabel(tr("Group:"), body));
    bar->addWidget(m_group);
    bar->addWidget(new QLabel(tr("Type:"), body));
    bar->addWidget(m_type);
    m_memberChip = new QToolButton(body);
    m_memberChip->setObjectName(QStringLiteral("collectivesMemberChip"));
    m_memberChip->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_memberChip->setToolTip(tr("Only the instances these ranks take part in; click to show every instance"));
    m_memberChip->hide();
    bar->addWidget(m_memberChip);
    bar->addStretch(1);
    m_align = named(new QPushButton(tr("Align ranks on this collective"), body), "collectivesAlign",
        tr("Shift each member rank's timeline so that the selected instance ends at the same time"));
    m_align->setEnabled(false);
    m_resetAlign = named(new QPushButton(tr("Reset alignment"), body), "collectivesResetAlign",
        tr("Put every rank's timeline offset back to 0"));
    bar->addWidget(m_align);
    bar->addWidget(m_resetAlign);
    m_summary = newWrappedLabel("collectivesSummary", body);
    layout->addWidget(m_summary);
    m_table = new QTableView(body);
    m_table->setObjectName(QStringLiteral("collectivesTable"));
    m_table->setModel(m_model);
    TableSetup::install(m_table, { .singleSelection = true, .stretchLastSection = true, .sortable = true });
    m_table->setToolTip(tr("Select an instance to select its member ranks and its step and mark their arrivals in the "
                           "timeline"));
    layout->addWidget(m_table, 1);
    setBody(body);

    for (QComboBox* box : { m_step, m_group, m_type }) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        connect(box, &QComboBox::currentIndexChanged, this, &CollectivesDock::applyFilters);
    }
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CollectivesDock::selectCurrent);
    connect(m_memberChip, &QToolButton::clicked, this, [this] { setMemberFilter({}); });
    connect(ws, &Workspace::collectivesOfRequested, this,
        [this](const QList<qint64>& ranks) { setMemberFilter(std::vector<int64_t>(ranks.begin(), ranks.end())); });
    connect(ws, &Workspace::criticalPathChanged, this, [this] { m_model->setCriticalPath(workspace()->criticalPath()); });
    connect(m_align, &QPushButton::clicked, this, [this] { workspace()->requestAlignCollective(true); });
    connect(m_resetAlign, &QPushButton::clicked, this, [this] { workspace()->requestAlignCollective(false); });
    collectives_detail::clearRowWhenNothingSelected(ws, m_table);
    requestReload();
}

void CollectivesDock::reload()
{
    const bool started = runner()->run(
        [](model::Database& db) {
            Loaded l;
            l.result = query::BlameAnalysis::forDatabase(db);
            for (const auto& g : query::CommQuery::groups(db))
                l.groupTexts[g.hash] = groupShortText(g.name, g.hash, g.ranks);
            return l;
        },
        [this](Loaded l) {
            m_result = std::move(l.result);
            fillFilters();
            // Group entries named as the Groups view names them ("tp 0–7"; a 20-digit hash tells the user nothing),
            // the hash as data and in the tooltip.
            const QSignalBlocker block(m_group);
            for (int i = 1; i < m_group->count(); ++i) {
                const QString hash = m_group->itemData(i).toString();
                const auto it = l.groupTexts.find(hash.toStdString());
                if (it != l.groupTexts.end())
                    m_group->setItemText(i, it->second);
                m_group->setItemData(i, tr("group hash %1").arg(hash), Qt::ToolTipRole);
            }
            applyFilters();
        });
    if (!started) {
        m_result.reset();
        m_model->setInstances({});
        m_align->setEnabled(false);
        m_summary->setText(tr("No profile loaded"));
    }
}

void CollectivesDock::fillFilters()
{
    std::set<int64_t> steps;
    std::set<std::string> groups, types;
    for (const auto& in : m_result->set.instances) {
        steps.insert(in.step);
        groups.insert(in.groupHash);
        types.insert(in.opType);
    }
    const QSignalBlocker b1(m_step), b2(m_group), b3(m_type);
    resetChoices(m_step, tr("All steps"));
    for (int64_t s : steps)
        m_step->addItem(QString::number(s), QVariant::fromValue(static_cast<qlonglong>(s)));
    resetChoices(m_group, tr("All groups"));
    for (const auto& g : groups)
        m_group->addItem(QString::fromStdString(g), QString::fromStdString(g));
    resetChoices(m_type, tr("All types"));
    for (const auto& t : types)
        m_type->addItem(QString::fromStdString(t), QString::fromStdString(t));
    // The Workspace's step, when it has one, is where the user is looking.
    if (auto s = workspace()->step()) {
        const int i = m_step->findData(QVariant::fromValue(static_cast<qlonglong>(*s)));
        if (i > 0)
            m_step->setCurrentIndex(i);
    }
}

void CollectivesDock::applyFilters()
{
    if (!m_result)
        return;
    const QVariant step = m_step->currentData();
    const QVariant group = m_group->currentData();
    const QVariant type = m_type->currentData();
    // What the combo boxes and the member chip ask for, read here; the rows are built on a worker: a 1,024-rank
    // cluster has tens of thousands of instances, which held the GUI thread for most of a second.
    std::optional<int64_t> stepWanted;
    if (step.isValid())
        stepWanted = step.toLongLong();
    const std::optional<std::string> groupWanted
        = group.isValid() ? std::optional(group.toString().toStdString()) : std::nullopt;
    const std::optional<std::string> typeWanted
        = type.isValid() ? std::optional(type.toString().toStdString()) : std::nullopt;
    std::unordered_map<std::string, QString> groupNames;
    for (int g = 1; g < m_group->count(); ++g)
        groupNames.emplace(m_group->itemData(g).toString().toStdString(), m_group->itemText(g));
    struct Shown {
        std::vector<CollectiveRow> rows;
        int64_t offsetMax = 0;
    };
    const bool started = m_filterRunner->runInMemory(
        [result = m_result, stepWanted, groupWanted, typeWanted, groupNames = std::move(groupNames),
            members = m_members](const std::shared_ptr<model::Database>&) {
            std::unordered_map<std::string, QString> texts; // op keys and types as QString, converted once
            const auto qtext = [&texts](const std::string& text) -> const QString& {
                auto it = texts.find(text);
                if (it == texts.end())
                    it = texts.emplace(text, QString::fromStdString(text)).first;
                return it->second;
            };
            const QString p2pKind = QStringLiteral("p2p");
            const QString collectiveKind = QStringLiteral("collective");
            Shown shown;
            const auto& insts = result->set.instances;
            for (size_t i = 0; i < insts.size(); ++i) {
                const auto& in = insts[i];
                if ((stepWanted && in.step != *stepWanted) || (groupWanted && in.groupHash != *groupWanted)
                    || (typeWanted && in.opType != *typeWanted))
                    continue;
                const bool hasMembers = std::all_of(members.begin(), members.end(), [&in](int64_t rank) {
                    return std::any_of(
                        in.members.begin(), in.members.end(), [rank](const auto& m) { return m.rank == rank; });
                });
                if (!hasMembers)
                    continue;
                CollectiveRow r;
                r.instance = i;
                r.step = in.step;
                r.opKey = qtext(in.opKey);
                r.opType = qtext(in.opType);
                r.kind = in.p2p ? p2pKind : collectiveKind;
                const auto name = groupNames.find(in.groupHash);
                r.group = name != groupNames.end() ? name->second : qtext(in.groupHash);
                r.ranks.reserve(in.members.size());
                r.commOps.reserve(in.members.size());
                for (const auto& m : in.members) {
                    r.ranks.push_back(m.rank);
                    r.commOps.push_back(m.commOpId);
                }
                r.lastArriver = in.members[in.lastArriver].rank;
                r.spreadMs = static_cast<double>(in.spreadNs) / 1e6;
                r.waitCostMs = static_cast<double>(in.waitCostNs) / 1e6;
                r.delayMs = static_cast<double>(result->delayNs[i]) / 1e6;
                r.root = rootText(*result, i);
                shown.rows.push_back(std::move(r));
            }
            std::stable_sort(shown.rows.begin(), shown.rows.end(),
                [](const CollectiveRow& a, const CollectiveRow& b) { return a.waitCostMs > b.waitCostMs; });
            for (const auto& o : result->set.offsets)
                shown.offsetMax = std::max<int64_t>(shown.offsetMax, std::llabs(o.offsetNs));
            return shown;
        },
        [this, result = m_result](Shown shown) {
            if (result != m_result)
                return;
            m_summary->setText(tr("%1 of %2 instances, by wait cost \u00b7 %3 unmatched send / receive \u00b7 clock "
                                  "offsets up to %4 \u00b5s (estimated from collective ends, applied to the spread)")
                                   .arg(shown.rows.size())
                                   .arg(m_result->set.instances.size())
                                   .arg(m_result->set.unmatched.size())
                                   .arg(static_cast<double>(shown.offsetMax) / 1e3, 0, 'f', 1));
            m_model->setInstances(std::move(shown.rows));
            // Columns as wide as their text when they all fit; else the names, member lists and roots give up width
            // (elided, whole in the tooltip) and the figures (wait cost, delay) stay in view.
            TableSetup::fitColumns(m_table,
                { CollectivesTableModel::Op, CollectivesTableModel::Group, CollectivesTableModel::Members,
                    CollectivesTableModel::Root });
        });
    if (!started)
        m_model->setInstances({});
}

void CollectivesDock::setMemberFilter(std::vector<int64_t> ranks)
{
    m_members = std::move(ranks);
    QStringList names;
    for (int64_t r : m_members)
        names << QString::number(r);
    m_memberChip->setText(m_members.size() == 2 ? tr("link %1 ✕").arg(names.join(QStringLiteral("–")))
                                                : tr("rank %1 ✕").arg(names.join(QStringLiteral(", "))));
    m_memberChip->setVisible(!m_members.empty());
    applyFilters();
}

void CollectivesDock::selectCurrent()
{
    const QModelIndex index = m_table->currentIndex();
    if (!index.isValid())
        return;
    const CollectiveRow& r = m_model->rowAt(index.row());
    const query::CollectiveInstance& in = m_result->set.instances[r.instance];
    Workspace::CollectiveFocus focus;
    focus.step = in.step;
    focus.label = tr("%1 %2 (step %3)").arg(r.opType, r.opKey).arg(r.step);
    for (size_t m = 0; m < in.members.size(); ++m) {
        const auto& member = in.members[m];
        focus.spans.push_back({ member.rank, member.startNs, member.endNs(), m == in.lastArriver });
    }
    workspace()->setStep(r.step);
    // The instance's group and op become the communication views' selection (Groups, Matrix, Links follow), as a
    // choice in their own selection bar would.
    if (!in.groupHash.empty())
        workspace()->setGroupHash(in.groupHash);
    if (!in.opName.empty())
        workspace()->setCommOp(in.opName);
    workspace()->setSelectedRanks(r.ranks);
    // After the ranks: the timeline then scrolls to the members brought together rather than to the first rank.
    workspace()->setCollectiveFocus(std::move(focus));
    m_align->setEnabled(true);
}

} // namespace npuscope::gui

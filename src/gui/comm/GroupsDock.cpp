// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/GroupsDock.h"
#include "npuscope/gui/common/TableSetup.h"

#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/compare/BaselineComparison.h"
#include "npuscope/query/CommAnalysisQuery.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

namespace npuscope::gui {

GroupsDock::GroupsDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Communication groups"), kObjectName, ws, parent)
    , m_model(new GroupTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    const auto [body, layout, bar] = makeBody();
    m_summary = new QLabel(body);
    m_summary->setObjectName(QStringLiteral("groupsSummary"));
    bar->addWidget(m_summary);
    bar->addStretch(1);
    m_all = new QPushButton(tr("All groups"), body);
    m_all->setObjectName(QStringLiteral("allGroupsButton"));
    bar->addWidget(m_all);

    m_table = TableSetup::sortedTable(m_model, m_proxy, GroupTableModel::RawValueRole,
        { .singleSelection = true, .stretchLastSection = true, .sortable = true, .sortColumn = GroupTableModel::Name },
        body);
    m_table->setObjectName(QStringLiteral("groupsTable"));
    layout->addWidget(m_table, 1);
    setBody(body);

    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) {
        // A group listed without a hash names no op or link: it cannot filter the other docks.
        const QString hash = index.isValid() ? index.data(GroupTableModel::GroupHashRole).toString() : QString();
        if (!hash.isEmpty())
            workspace()->setGroupHash(hash.toStdString());
    });
    connect(m_all, &QPushButton::clicked, this, [this] { workspace()->setGroupHash(std::nullopt); });
    connect(workspace(), &Workspace::groupChanged, this, &GroupsDock::syncSelection);
    connect(BaselineComparison::of(ws), &BaselineComparison::comparisonChanged, this, &GroupsDock::applyComparison);
    applyComparison();
    requestReload();
}

void GroupsDock::reload()
{
    const bool started = runner()->run(
        [](model::Database& db) {
            auto groups = query::CommQuery::groups(db);
            auto listed = query::CommQuery::listedGroups(db);
            groups.insert(groups.end(), std::make_move_iterator(listed.begin()), std::make_move_iterator(listed.end()));
            return std::make_pair(std::move(groups), query::CommAnalysisQuery::noCommReason(db));
        },
        [this](std::pair<std::vector<query::Group>, std::string> result) {
            auto& [groups, noComm] = result;
            m_summary->setText((groups.size() == 1 ? tr("1 group") : tr("%1 groups").arg(groups.size()))
                + (noComm.empty() ? tr(" \u00b7 click one to filter the communication views")
                                  : tr(" \u00b7 ") + QString::fromStdString(noComm)));
            m_model->setGroups(std::move(groups), noComm.empty());
            fitColumns();
            syncSelection();
        });
    if (!started) {
        m_model->setGroups({});
        m_summary->setText(tr("No profile loaded"));
    }
}

void GroupsDock::applyComparison()
{
    const auto diff = BaselineComparison::of(workspace())->comparison();
    if (diff == m_model->comparison())
        return;
    const bool was = m_model->compareDeltaColumn() >= 0;
    m_model->setComparison(diff);
    // Compare mode sorts by the elapse |Δ|, largest first; leaving it goes back to the name order.
    if (m_model->compareDeltaColumn() >= 0)
        m_table->sortByColumn(m_model->compareDeltaColumn(), Qt::DescendingOrder);
    else if (was)
        m_table->sortByColumn(GroupTableModel::Name, Qt::AscendingOrder);
    fitColumns();
    syncSelection();
}

void GroupsDock::fitColumns()
{
    // The rank list of a large group is long: it gives up width first, so the sizes, counts and (in compare mode)
    // the Δ columns after it stay in view.
    TableSetup::fitColumns(m_table, { GroupTableModel::Name, GroupTableModel::Hash, GroupTableModel::Ranks });
}

void GroupsDock::syncSelection()
{
    const auto hash = workspace()->groupHash();
    TableSetup::selectSourceRow(m_table, m_proxy, hash ? m_model->rowOfHash(*hash) : -1);
}

} // namespace npuscope::gui

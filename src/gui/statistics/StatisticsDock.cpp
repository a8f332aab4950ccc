// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/statistics/StatisticsDock.h"

#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/EmptyHint.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/gui/common/Workspace.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace npuscope::gui {

namespace {

// "ranks 0, 1, 5" (at most 8 listed) for the scope line.
QString rankText(const std::vector<int64_t>& ranks)
{
    QStringList parts;
    for (size_t i = 0; i < ranks.size() && i < 8; ++i)
        parts << QString::number(ranks[i]);
    if (ranks.size() > 8)
        parts << QStringLiteral("\u2026");
    return parts.join(QStringLiteral(", "));
}

} // namespace

StatisticsDock::StatisticsDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Statistics"), kObjectName, ws, parent)
    , m_opModel(new OpStatisticTableModel(this))
    , m_apiModel(new ApiStatisticTableModel(this))
    , m_opFilter(new QSortFilterProxyModel(this))
    , m_apiFilter(new QSortFilterProxyModel(this))
{
    const auto [body, layout, bar] = makeBody({ .spacing = 4 });
    m_filterEdit = newFilterEdit("statisticsFilter", tr("Filter by op type, API, level\u2026"), body);
    bar->addWidget(m_filterEdit, 1);
    m_scope = new QLabel(body);
    m_scope->setObjectName(QStringLiteral("statisticsScope"));
    bar->addWidget(m_scope);

    m_tabs = new QTabWidget(body);
    m_tabs->setObjectName(QStringLiteral("statisticsTabs"));
    const TableSetup::Options options { .stretchLastSection = false,
        .sortable = true,
        .sortColumn = OpStatisticTableModel::Total,
        .sortOrder = Qt::DescendingOrder };
    for (QSortFilterProxyModel* f : { m_opFilter, m_apiFilter }) {
        f->setFilterCaseSensitivity(Qt::CaseInsensitive);
        f->setFilterKeyColumn(-1);
    }
    m_opTable = TableSetup::sortedTable(m_opModel, m_opFilter, RowTableModelBase::ValueRole, options, m_tabs);
    m_opTable->setObjectName(QStringLiteral("opStatisticTable"));
    m_apiTable = TableSetup::sortedTable(m_apiModel, m_apiFilter, RowTableModelBase::ValueRole, options, m_tabs);
    m_apiTable->setObjectName(QStringLiteral("apiStatisticTable"));
    m_tabs->addTab(m_opTable, tr("Op types (device)"));
    m_tabs->addTab(m_apiTable, tr("APIs (host)"));
    layout->addWidget(m_tabs, 1);
    setBody(body);
    setEmptyHint(m_opTable, tr("No op_statistic.csv was loaded."));
    setEmptyHint(m_apiTable, tr("No api_statistic.csv was loaded."));

    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_opFilter->setFilterFixedString(text);
        m_apiFilter->setFilterFixedString(text);
    });
    reloadOn({ &Workspace::selectedRankChanged });
}

void StatisticsDock::reload()
{
    const std::vector<int64_t> chosen = workspace()->selectedRanks();
    const bool started = runner()->run(
        [chosen](model::Database& db) {
            Result r;
            r.ops = query::StatisticsQuery::ops(db, chosen);
            r.apis = query::StatisticsQuery::apis(db, chosen);
            r.opRanks = query::StatisticsQuery::opRanks(db);
            r.apiRanks = query::StatisticsQuery::apiRanks(db);
            return r;
        },
        [this, chosen](Result r) { showResult(std::move(r), chosen); });
    if (!started)
        showResult({}, {});
}

void StatisticsDock::showResult(Result r, const std::vector<int64_t>& chosen)
{
    const bool any = !r.opRanks.empty() || !r.apiRanks.empty();
    m_opModel->setRows(std::move(r.ops));
    m_apiModel->setRows(std::move(r.apis));
    for (QTableView* t : { m_opTable, m_apiTable })
        TableSetup::fitColumns(t, {});
    if (!any)
        m_scope->setText(tr("No statistics files loaded"));
    else if (chosen.empty())
        m_scope->setText(tr("Summed over every rank (%1 with op_statistic, %2 with api_statistic); select ranks to "
                            "narrow")
                             .arg(r.opRanks.size())
                             .arg(r.apiRanks.size()));
    else
        m_scope->setText(tr("Summed over the selected ranks: %1").arg(rankText(chosen)));
}

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/flops/FlopsScopeDock.h"

#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/flops/FlopsHeatmap.h"
#include "npuscope/gui/flops/FlopsScopeChart.h"
#include "npuscope/query/FlopsScopeQuery.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace npuscope::gui {

FlopsScopeDock::FlopsScopeDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("FLOPs by scope"), kObjectName, ws, parent)
    , m_treeRunner(addRunner())
    , m_chart(new FlopsScopeChart)
{
    const auto [body, layout, bar] = makeBody();
    bar->addWidget(new QLabel(tr("Rank:"), body));
    m_rank = new QComboBox(body);
    m_rank->setObjectName(QStringLiteral("flopsScopeRank"));
    m_rank->setToolTip(tr("The rank whose flops_scope_N.json is shown (ranks without one are not listed)"));
    fitToItems(m_rank);
    bar->addWidget(m_rank);
    m_status = new ElidedLabel(QString(), body);
    m_status->setObjectName(QStringLiteral("flopsScopeStatus"));
    m_status->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    bar->addWidget(m_status, 1);
    m_chart->setParent(body);
    layout->addWidget(m_chart, 1);
    setBody(body);

    connect(m_rank, &QComboBox::currentIndexChanged, this, [this] {
        if (m_rank->currentIndex() >= 0)
            workspace()->setSelectedRank(m_rank->currentData().toLongLong());
        showRank();
    });
    connect(m_chart, &ChartWidget::itemClicked, m_chart, &ChartWidget::setSelectedItem);
    connect(m_chart, &ChartWidget::selectedItemChanged, this, &FlopsScopeDock::updateStatus);
    // Another view selected a rank: show its scopes when it has any.
    connect(workspace(), &Workspace::selectedRankChanged, this, [this] {
        const auto rank = workspace()->selectedRank();
        const int index = rank ? m_rank->findData(QVariant::fromValue<qlonglong>(*rank)) : -1;
        if (index >= 0 && index != m_rank->currentIndex())
            m_rank->setCurrentIndex(index);
    });
    requestReload();
}

void FlopsScopeDock::reload()
{
    const bool started = runner()->run([](model::Database& db) { return query::FlopsScopeQuery::ranks(db); },
        [this](std::vector<int64_t> ranks) {
            const QSignalBlocker quiet(m_rank);
            m_rank->clear();
            for (const int64_t r : ranks)
                m_rank->addItem(QString::number(r), QVariant::fromValue<qlonglong>(r));
            const auto selected = workspace()->selectedRank();
            const int index = selected ? m_rank->findData(QVariant::fromValue<qlonglong>(*selected)) : -1;
            m_rank->setCurrentIndex(index >= 0 ? index : (ranks.empty() ? -1 : 0));
            showRank();
        });
    if (!started) {
        m_rank->clear();
        m_chart->setTree({});
        m_status->setFullText(tr("No profile loaded"));
    }
}

void FlopsScopeDock::showRank()
{
    if (m_rank->currentIndex() < 0) {
        m_chart->setTree({});
        updateStatus();
        return;
    }
    const int64_t rank = m_rank->currentData().toLongLong();
    m_treeRunner->run([rank](model::Database& db) { return query::FlopsScopeQuery::tree(db, rank); },
        [this](query::FlopsScopeTree tree) {
            m_chart->setTree(std::move(tree));
            updateStatus();
        });
}

void FlopsScopeDock::updateStatus()
{
    const auto& tree = m_chart->tree();
    if (m_rank->count() == 0) {
        m_status->setFullText(tr("No flops_scope_N.json loaded (MindSpore's FLOPs per scope)"));
        return;
    }
    if (tree.nodes.empty()) {
        m_status->setFullText(QString());
        return;
    }
    QString text = tr("Total %1 \u00b7 %2 scopes \u00b7 %3 levels")
                       .arg(FlopsHeatmap::withPrefix(tree.nodes.front().flops, QStringLiteral("FLOPs")))
                       .arg(tree.nodes.size() - 1)
                       .arg(tree.maxDepth);
    const int selected = m_chart->selectedItem();
    if (selected > 0 && selected < static_cast<int>(tree.nodes.size())) {
        const auto& n = tree.nodes[static_cast<size_t>(selected)];
        text = tr("%1: %2 (%3 % of the total)")
                   .arg(QString::fromStdString(n.path), FlopsHeatmap::withPrefix(n.flops, QStringLiteral("FLOPs")))
                   .arg(n.share * 100.0, 0, 'f', 1);
    }
    if (tree.truncated)
        text += tr(" \u00b7 tree cut at 20,000 scopes or 64 levels");
    m_status->setFullText(text);
}

} // namespace npuscope::gui

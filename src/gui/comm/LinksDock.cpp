// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/LinksDock.h"
#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/TableSetup.h"

#include "npuscope/gui/comm/GroupText.h"
#include "npuscope/gui/comm/LinkTableModel.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommQuery.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace npuscope::gui {

namespace {

struct LinkResult {
    std::vector<query::LinkRow> rows;
    std::vector<std::pair<std::string, std::string>> names;
};

std::vector<std::pair<std::string, std::string>> groupNames(const query::CommLinkIndex& index)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& g : index.groups())
        out.emplace_back(g.hash, groupShortText(g.name, g.hash, g.ranks).toStdString());
    return out;
}

// A rank filter field ("any" when empty), wide enough for its placeholder and a five-digit rank.
QLineEdit* newRankFilter(const char* objectName, QWidget* parent)
{
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(QString::fromLatin1(objectName));
    edit->setPlaceholderText(LinksDock::tr("any"));
    edit->setValidator(new QIntValidator(0, 10000000, edit));
    edit->setMaximumWidth(80);
    const QFontMetrics fm = edit->fontMetrics();
    edit->setMinimumWidth(
        std::max(fm.horizontalAdvance(edit->placeholderText()), fm.horizontalAdvance(QStringLiteral("00000")))
        + 4 * fm.averageCharWidth());
    return edit;
}

// Both tables, sorted by bandwidth at first.
constexpr TableSetup::Options kTableOptions {
    .stretchLastSection = true, .sortable = true, .sortColumn = LinkTableModel::Bandwidth
};
// The names give up width when the columns do not fit; the figures never do.
const std::vector<int> kElasticColumns { LinkTableModel::Op, LinkTableModel::Group, LinkTableModel::SlowestOp };

} // namespace

LinksDock::LinksDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Links"), kObjectName, ws, parent)
    , m_clusterRunner(addRunner())
    , m_rankModel(new LinkTableModel(this))
    , m_clusterModel(new LinkTableModel(this))
    , m_rankProxy(new QSortFilterProxyModel(this))
    , m_clusterProxy(new QSortFilterProxyModel(this))
{
    const auto [body, layout] = newColumn(this, 4);
    auto* split = new QSplitter(Qt::Vertical, body);

    const auto [rankBox, rankLayout] = newColumn(split);
    m_rankTitle = newWrappedLabel("rankLinksTitle", rankBox);
    rankLayout->addWidget(m_rankTitle);
    m_rankTable
        = TableSetup::sortedTable(m_rankModel, m_rankProxy, LinkTableModel::RawValueRole, kTableOptions, rankBox);
    m_rankTable->setObjectName(QStringLiteral("rankLinksTable"));
    rankLayout->addWidget(m_rankTable, 1);

    const auto [clusterBox, clusterLayout] = newColumn(split);
    // The title (long on a large cluster: shown of total, group-local groups) wraps on its own row, so the filters
    // beside it do not make the dock wider than a laptop screen.
    m_clusterTitle = newWrappedLabel("clusterLinksTitle", clusterBox);
    clusterLayout->addWidget(m_clusterTitle);
    auto* filters = new QHBoxLayout;
    // The step and group other views chose filter these links too; each shows as a chip whose ✕ drops it.
    const auto newChip = [&](const char* name, const QString& toolTip, auto drop) {
        auto* chip = new QToolButton(clusterBox);
        chip->setObjectName(QString::fromLatin1(name));
        chip->setToolButtonStyle(Qt::ToolButtonTextOnly);
        chip->setToolTip(toolTip);
        connect(chip, &QToolButton::clicked, this, drop);
        filters->addWidget(chip);
        return chip;
    };
    m_stepChip = newChip("linkStepChip", tr("Filtered by the step chosen in Cluster steps; click to show every step"),
        [this] { workspace()->setStep(std::nullopt); });
    m_groupChip
        = newChip("linkGroupChip", tr("Filtered by the group chosen in another view; click to show every group"),
            [this] { workspace()->setGroupHash(std::nullopt); });
    filters->addWidget(new QLabel(tr("Src:"), clusterBox));
    m_src = newRankFilter("linkSrcFilter", clusterBox);
    filters->addWidget(m_src);
    filters->addWidget(new QLabel(tr("Dst:"), clusterBox));
    m_dst = newRankFilter("linkDstFilter", clusterBox);
    filters->addWidget(m_dst);
    filters->addWidget(new QLabel(tr("Transport:"), clusterBox));
    m_transport = new QComboBox(clusterBox);
    m_transport->setObjectName(QStringLiteral("linkTransportFilter"));
    m_transport->addItem(tr("all but LOCAL"), QStringLiteral("!LOCAL"));
    m_transport->addItem(tr("all"), QString());
    for (const char* t : { "HCCS", "SDMA", "RDMA", "PCIE", "SIO", "LOCAL" })
        m_transport->addItem(QString::fromLatin1(t), QString::fromLatin1(t));
    filters->addWidget(m_transport);
    filters->addStretch(1);
    clusterLayout->addLayout(filters);
    m_clusterTable = TableSetup::sortedTable(
        m_clusterModel, m_clusterProxy, LinkTableModel::RawValueRole, kTableOptions, clusterBox);
    m_clusterTable->setObjectName(QStringLiteral("clusterLinksTable"));
    clusterLayout->addWidget(m_clusterTable, 1);

    split->addWidget(rankBox);
    split->addWidget(clusterBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    setBody(body);

    for (QTableView* table : { m_rankTable, m_clusterTable }) {
        auto* costliest = new QAction(tr("Costliest collectives of this link"), table);
        costliest->setObjectName(QStringLiteral("linksCostliestCollectives"));
        connect(costliest, &QAction::triggered, this, [this, table] {
            const QModelIndex index = table->currentIndex();
            if (!index.isValid())
                return;
            const auto end = [&index](int column) {
                return index.sibling(index.row(), column).data(LinkTableModel::RawValueRole).toLongLong();
            };
            workspace()->requestCollectivesOf({ end(LinkTableModel::Src), end(LinkTableModel::Dst) });
        });
        table->addAction(costliest);
        // A single click selects the link's source rank everywhere, as a click on a rank does in every dock.
        connect(table, &QTableView::clicked, this, [this](const QModelIndex& index) {
            if (index.isValid())
                workspace()->setSelectedRank(
                    index.sibling(index.row(), LinkTableModel::Src).data(LinkTableModel::RawValueRole).toLongLong());
        });
    }
    // Live: every keystroke re-filters (the in-memory index answers in milliseconds; only the newest result shows).
    connect(m_src, &QLineEdit::textChanged, this, &LinksDock::reloadCluster);
    connect(m_dst, &QLineEdit::textChanged, this, &LinksDock::reloadCluster);
    connect(m_transport, &QComboBox::currentIndexChanged, this, &LinksDock::reloadCluster);
    reloadOn({ &Workspace::stepChanged, &Workspace::groupChanged });
    reloadPartOn({ &Workspace::selectedRankChanged }, [this] { reloadRank(); });
    requestReload();
}

void LinksDock::reload()
{
    reloadRank();
    reloadCluster();
}

void LinksDock::reloadRank()
{
    const auto rank = workspace()->selectedRank();
    if (!rank) {
        m_rankModel->setRows({});
        m_rankTitle->setText(tr("<b>Links of the selected rank</b> \u2014 select a rank in any view"));
        TableSetup::fitColumns(m_rankTable, kElasticColumns);
        return;
    }
    query::LinkFilter f;
    f.step = workspace()->step();
    f.groupHash = workspace()->groupHash();
    f.rank = *rank;
    runner()->runInMemory(
        [f](const std::shared_ptr<model::Database>& db) {
            const auto index = query::CommLinkIndex::forDatabase(db);
            return LinkResult { query::CommAnalysisQuery::linkTable(*index, f), groupNames(*index) };
        },
        [this, r = *rank](LinkResult result) {
            m_rankTitle->setText(tr("<b>Links of rank %1</b> (as src or dst): %2").arg(r).arg(result.rows.size()));
            m_rankModel->setGroupNames(std::move(result.names));
            m_rankModel->setRows(std::move(result.rows));
            TableSetup::fitColumns(m_rankTable, kElasticColumns);
        });
}

void LinksDock::reloadCluster()
{
    query::LinkFilter f;
    f.step = workspace()->step();
    f.groupHash = workspace()->groupHash();
    m_stepChip->setVisible(f.step.has_value());
    if (f.step)
        m_stepChip->setText(tr("step %1 \u2715").arg(*f.step));
    m_groupChip->setVisible(f.groupHash.has_value());
    if (f.groupHash)
        m_groupChip->setText(tr("group %1 \u2715").arg(QString::fromStdString(*f.groupHash)));
    if (!m_src->text().isEmpty())
        f.src = m_src->text().toLongLong();
    if (!m_dst->text().isEmpty())
        f.dst = m_dst->text().toLongLong();
    const QString transport = m_transport->currentData().toString();
    const bool noLocal = transport == QStringLiteral("!LOCAL");
    if (!transport.isEmpty() && !noLocal)
        f.transport = transport.toStdString();
    const bool started = m_clusterRunner->runInMemory(
        [f, noLocal](const std::shared_ptr<model::Database>& db) {
            const auto index = query::CommLinkIndex::forDatabase(db);
            LinkResult r { query::CommAnalysisQuery::linkTable(*index, f), groupNames(*index) };
            if (noLocal)
                std::erase_if(r.rows, [](const query::LinkRow& l) { return l.transport == "LOCAL" || l.src == l.dst; });
            const size_t total = r.rows.size();
            return std::make_pair(std::move(r), total);
        },
        [this](std::pair<LinkResult, size_t> out) {
            LinkResult& result = out.first;
            // Sorted slowest first already: keep the head so a 1,024-rank cluster stays responsive.
            if (result.rows.size() > kMaxClusterRows)
                result.rows.resize(kMaxClusterRows);
            QString title = result.rows.size() < out.second
                ? tr("<b>Cluster links</b> (slowest first): %1 of %2 shown \u2014 filter to narrow")
                      .arg(result.rows.size())
                      .arg(out.second)
                : tr("<b>Cluster links</b> (slowest first): %1").arg(out.second);
            // Groups whose global ranks are unknown keep their group-local ranks ("L3"), labelled as such.
            std::set<std::string> local;
            for (const auto& row : result.rows) {
                if (row.localRanks)
                    local.insert(row.groupHash.value_or(std::string()));
            }
            if (!local.empty()) {
                QStringList names;
                for (const auto& hash : local) {
                    QString name = hash.empty() ? tr("(no group)") : QString::fromStdString(hash);
                    for (const auto& [h, n] : result.names) {
                        if (h == hash)
                            name = QString::fromStdString(n);
                    }
                    names << name.toHtmlEscaped();
                }
                title += tr(" \u00b7 <b>group-local ranks</b> (L<i>n</i>): global ranks unknown for group %1")
                             .arg(names.join(QStringLiteral(", ")));
            }
            m_clusterTitle->setText(title);
            m_clusterModel->setGroupNames(std::move(result.names));
            // The proxy keeps the user's sort column and order over the new rows.
            m_clusterModel->setRows(std::move(result.rows));
            TableSetup::fitColumns(m_clusterTable, kElasticColumns);
        });
    if (!started) {
        m_clusterModel->setRows({});
        m_clusterTitle->setText(tr("<b>Cluster links</b>"));
    }
}

} // namespace npuscope::gui

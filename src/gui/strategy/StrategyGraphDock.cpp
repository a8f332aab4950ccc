// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/strategy/StrategyGraphDock.h"

#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/strategy/StrategyGraphCanvas.h"
#include "npuscope/query/StrategyGraphQuery.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace npuscope::gui {

namespace {

using Layout = query::StrategyGraphLayout;

constexpr int kNodeRole = Qt::UserRole + 1;
constexpr int kScopeRole = Qt::UserRole + 2;
constexpr int kCollapsedRole = Qt::UserRole + 3;
constexpr int kMaxListed = 100; // operators listed per stage and kind (the counts say how many there are)

QString swatch(const QColor& c, const QString& label)
{
    return QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2").arg(c.name(), label.toHtmlEscaped());
}

// The last part of a full name (Default/.../MatMul-op12 → MatMul-op12): how MindSpore's task timelines name it.
QString shortName(const std::string& name)
{
    const auto slash = name.rfind('/');
    return QString::fromStdString(slash == std::string::npos ? name : name.substr(slash + 1));
}

} // namespace

StrategyGraphDock::StrategyGraphDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Strategy graph"), kObjectName, ws, parent)
{
    m_nodeRunner = addRunner();
    m_keyRunner = addRunner();
    const auto [body, layout, bar] = makeBody({ .spacing = 4 });
    m_summary = newWrappedLabel("strategyGraphSummary", body);
    bar->addWidget(m_summary, 1);
    auto* fit = new QPushButton(tr("Fit"), body);
    fit->setObjectName(QStringLiteral("strategyGraphFit"));
    fit->setToolTip(tr("The whole pipeline in view (F)"));
    bar->addWidget(fit);

    auto* legend = new QLabel(body);
    legend->setObjectName(QStringLiteral("strategyGraphLegend"));
    legend->setTextFormat(Qt::RichText);
    legend->setWordWrap(true);
    legend->setText(QStringList { swatch(StrategyGraphCanvas::kindColor(Layout::Kind::Cube), tr("MatMul / Conv (cube)")),
        swatch(StrategyGraphCanvas::kindColor(Layout::Kind::Vector), tr("vector")),
        swatch(StrategyGraphCanvas::kindColor(Layout::Kind::Communication), tr("collective communication")),
        swatch(StrategyGraphCanvas::kindColor(Layout::Kind::Pipeline), tr("Send / Receive")),
        swatch(StrategyGraphCanvas::kindColor(Layout::Kind::Other), tr("other")),
        tr("dot: sharded by a strategy"), tr("red outline: redistribution"),
        tr("purple outline: gradient aggregation"), tr("dashed curve: Send→Receive between stages"),
        tr("yellow: in a checked scope") }
            .join(QStringLiteral(" &nbsp; ")));
    layout->addWidget(legend);

    auto* split = new QSplitter(Qt::Horizontal, body);
    m_scopes = new QTreeWidget(split);
    m_scopes->setObjectName(QStringLiteral("strategyGraphScopes"));
    m_scopes->setHeaderLabels({ tr("Name scope (operators)") });
    m_scopes->setToolTip(tr("Check a scope to put a halo on its operators; right-click it to collapse it into one node"));
    m_scopes->setContextMenuPolicy(Qt::CustomContextMenu);
    m_canvas = new StrategyGraphCanvas(split);
    auto* right = new QSplitter(Qt::Vertical, split);
    m_special = new QTreeWidget(right);
    m_special->setObjectName(QStringLiteral("strategyGraphSpecial"));
    m_special->setHeaderLabels({ tr("Special operators"), tr("Strategy") });
    m_attributes = new QTextBrowser(right);
    m_attributes->setObjectName(QStringLiteral("strategyGraphAttributes"));
    m_attributes->setPlaceholderText(tr("Click an operator to see its fields."));
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 4);
    split->setStretchFactor(2, 1);
    split->setSizes({ 240, 900, 300 });
    m_special->setColumnWidth(0, 200);
    layout->addWidget(split, 1);
    setBody(body);

    connect(fit, &QPushButton::clicked, m_canvas, &StrategyGraphCanvas::fit);
    connect(m_canvas, &ChartWidget::itemClicked, this, [this](int item) { selectNode(item); });
    connect(m_scopes, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem*, int column) {
        if (column == 0)
            updateHalo();
    });
    connect(m_scopes, &QTreeWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QTreeWidgetItem* item = m_scopes->itemAt(pos);
        if (!item)
            return;
        const bool collapsed = item->data(0, kCollapsedRole).toBool();
        QMenu menu(this);
        QAction* toggle = menu.addAction(collapsed ? tr("Expand into its operators") : tr("Collapse into one node"));
        if (menu.exec(m_scopes->viewport()->mapToGlobal(pos)) == toggle)
            setScopeCollapsed(item, !collapsed);
    });
    connect(m_special, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        const QVariant node = item->data(0, kNodeRole);
        if (node.isValid()) {
            selectNode(node.toInt());
            m_canvas->centerOn(static_cast<uint32_t>(node.toInt()));
        }
    });
    connect(ws, &Workspace::operatorChanged, this, [this] { followOperator(); });
    requestReload();
}

void StrategyGraphDock::reload()
{
    const bool started = runner()->run(
        [](model::Database& db) { return std::make_shared<const Layout>(Layout::build(db)); },
        [this](std::shared_ptr<const Layout> layout) { showResult(std::move(layout)); });
    if (!started)
        showResult(nullptr);
}

void StrategyGraphDock::showResult(std::shared_ptr<const query::StrategyGraphLayout> layout)
{
    m_layout = layout && !layout->nodes.empty() ? std::move(layout) : nullptr;
    m_canvas->setGraph(m_layout);
    m_attributes->clear();
    fillScopes();
    fillSpecial();
    if (!m_layout) {
        m_summary->setText(tr("No parallel strategy graph loaded."));
        return;
    }
    int strategy = 0, redistribution = 0, grad = 0;
    for (const auto& s : m_layout->stages) {
        strategy += s.strategyOps;
        redistribution += s.redistributionOps;
        grad += s.gradAggregationOps;
    }
    // English has no .qm file: singular and plural are separate sources, each with %n for the translations.
    const auto n = [](size_t v) { return static_cast<int>(v); };
    const int stages = n(m_layout->stages.size()), operators = n(m_layout->nodes.size()),
              edges = n(m_layout->edges.size()), pairs = n(m_layout->sendRecv.size());
    const QStringList parts { stages == 1 ? tr("%n stage", nullptr, stages) : tr("%n stages", nullptr, stages),
        operators == 1 ? tr("%n operator", nullptr, operators) : tr("%n operators", nullptr, operators),
        edges == 1 ? tr("%n edge", nullptr, edges) : tr("%n edges", nullptr, edges),
        pairs == 1 ? tr("%n Send→Receive pair", nullptr, pairs) : tr("%n Send→Receive pairs", nullptr, pairs),
        tr("special: %1 with a strategy, %2 redistribution, %3 gradient aggregation")
            .arg(strategy)
            .arg(redistribution)
            .arg(grad) };
    m_summary->setText(parts.join(QStringLiteral(" · ")));
}

void StrategyGraphDock::fillScopes()
{
    const QSignalBlocker block(m_scopes);
    m_scopes->clear();
    if (!m_layout)
        return;
    // The layout's scope paths, parents first, up to the cap.
    std::map<std::string, QTreeWidgetItem*> items;
    int made = 0;
    for (const auto& [path, operators] : m_layout->scopeTree) {
        if (made >= kMaxScopeItems)
            break;
        const auto slash = path.rfind('/');
        QTreeWidgetItem* parentItem = nullptr;
        if (slash != std::string::npos) {
            const auto it = items.find(path.substr(0, slash));
            if (it == items.end())
                continue;
            parentItem = it->second;
        }
        const QString label = QString::fromStdString(slash == std::string::npos ? path : path.substr(slash + 1));
        auto* item = parentItem ? new QTreeWidgetItem(parentItem) : new QTreeWidgetItem(m_scopes);
        item->setText(0, tr("%1 (%2)").arg(label.isEmpty() ? tr("(no scope)") : label).arg(operators));
        item->setToolTip(0, QString::fromStdString(path));
        item->setData(0, kScopeRole, QString::fromStdString(path));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(0, Qt::Unchecked);
        items[path] = item;
        ++made;
    }
    m_scopes->expandToDepth(1);
}

void StrategyGraphDock::fillSpecial()
{
    m_special->clear();
    if (!m_layout)
        return;
    for (size_t s = 0; s < m_layout->stages.size(); ++s) {
        const auto& stage = m_layout->stages[s];
        auto* stageItem = new QTreeWidgetItem(m_special);
        stageItem->setText(0, tr("Stage %1 (%2 + %3 + %4)")
                                  .arg(stage.stage)
                                  .arg(stage.strategyOps)
                                  .arg(stage.redistributionOps)
                                  .arg(stage.gradAggregationOps));
        const std::pair<int, QString> kinds[] { { 1, tr("With a strategy (%1)").arg(stage.strategyOps) },
            { 2, tr("Redistribution (%1)").arg(stage.redistributionOps) },
            { 4, tr("Gradient aggregation (%1)").arg(stage.gradAggregationOps) } };
        for (const auto& [bit, label] : kinds) {
            auto* kindItem = new QTreeWidgetItem(stageItem);
            kindItem->setText(0, label);
            int listed = 0;
            for (uint32_t i = stage.first; i < stage.first + stage.count && listed < kMaxListed; ++i) {
                const auto& n = m_layout->nodes[i];
                if (!(n.special & bit))
                    continue;
                auto* op = new QTreeWidgetItem(kindItem);
                op->setText(0, QStringLiteral("%1 · %2").arg(n.index).arg(shortName(n.name)));
                op->setToolTip(0, QString::fromStdString(n.name));
                if (n.strategy)
                    op->setText(1, QString::fromStdString(*n.strategy));
                op->setData(0, kNodeRole, static_cast<int>(i));
                ++listed;
            }
        }
    }
    m_special->expandToDepth(0);
    m_special->resizeColumnToContents(0);
}

void StrategyGraphDock::updateHalo()
{
    std::vector<uint32_t> nodes;
    if (m_layout) {
        // The checked items whose parent is not checked (a checked parent covers its children).
        QList<QTreeWidgetItem*> stack;
        for (int i = 0; i < m_scopes->topLevelItemCount(); ++i)
            stack << m_scopes->topLevelItem(i);
        while (!stack.isEmpty()) {
            QTreeWidgetItem* item = stack.takeLast();
            if (item->checkState(0) == Qt::Checked) {
                const auto under = m_layout->nodesUnder(item->data(0, kScopeRole).toString().toStdString());
                nodes.insert(nodes.end(), under.begin(), under.end());
                continue;
            }
            for (int c = 0; c < item->childCount(); ++c)
                stack << item->child(c);
        }
    }
    m_canvas->setHalo(nodes);
}

void StrategyGraphDock::setScopeCollapsed(QTreeWidgetItem* item, bool collapsed)
{
    if (!item)
        return;
    item->setData(0, kCollapsedRole, collapsed);
    QFont font = item->font(0);
    font.setItalic(collapsed);
    item->setFont(0, font);
    updateCollapsed();
}

void StrategyGraphDock::updateCollapsed()
{
    // The collapsed items that are not under a collapsed item (a collapsed parent covers its children).
    std::vector<std::string> scopes;
    QList<QTreeWidgetItem*> stack;
    for (int i = 0; i < m_scopes->topLevelItemCount(); ++i)
        stack << m_scopes->topLevelItem(i);
    while (!stack.isEmpty()) {
        QTreeWidgetItem* item = stack.takeLast();
        if (item->data(0, kCollapsedRole).toBool()) {
            scopes.push_back(item->data(0, kScopeRole).toString().toStdString());
            continue;
        }
        for (int c = 0; c < item->childCount(); ++c)
            stack << item->child(c);
    }
    m_canvas->setCollapsed(scopes);
}

void StrategyGraphDock::selectNode(int node)
{
    if (!m_layout || node < 0 || static_cast<size_t>(node) >= m_layout->nodes.size())
        return;
    m_canvas->setSelectedItem(node);
    showAttributes(node);
    // The operator by name for the other views, on a rank of its stage: each stage's graph numbers its own operators,
    // so the same name on another stage is another operator. The selected rank when it is one of the stage's, else the
    // rank whose graph this is. The name is the one that rank's kernels use (the full name, else its last part).
    const auto& n = m_layout->nodes[static_cast<size_t>(node)];
    const auto& stage = m_layout->stages[n.stageSlot];
    std::optional<int64_t> rank = stage.graphRank;
    if (const auto selected = workspace()->selectedRank();
        selected && std::find(stage.ranks.begin(), stage.ranks.end(), *selected) != stage.ranks.end())
        rank = selected;
    m_keyRunner->run(
        [name = n.name, rank](model::Database& db) { return query::StrategyGraphQuery::kernelName(db, name, rank); },
        [this, rank](std::string key) {
            m_selecting = true;
            workspace()->setSelectedOperator(Workspace::OperatorKey { query::OperatorGroupBy::Name, key, rank });
            m_selecting = false;
        });
}

void StrategyGraphDock::showAttributes(int node)
{
    const auto& n = m_layout->nodes[static_cast<size_t>(node)];
    const int64_t stage = m_layout->stages[n.stageSlot].stage;
    m_nodeRunner->run(
        [stage, index = n.index](model::Database& db) { return query::StrategyGraphQuery::node(db, stage, index); },
        [this](std::optional<query::StrategyNode> found) {
            if (!found) {
                m_attributes->clear();
                return;
            }
            const auto& f = *found;
            // A value of thousands of characters (a MakeTuple's inputs) is cut: the panel is for reading.
            const auto row = [](const QString& key, const QString& value) {
                const QString shown = value.size() > 2000 ? value.left(2000) + QStringLiteral("…") : value;
                return QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(key.toHtmlEscaped(), shown.toHtmlEscaped());
            };
            const auto opt = [](const std::optional<std::string>& v) {
                return v ? QString::fromStdString(*v) : QStringLiteral("—");
            };
            QString html = QStringLiteral("<table cellspacing=\"2\">");
            html += row(tr("Type"), QString::fromStdString(f.opType));
            html += row(tr("Name"), QString::fromStdString(f.name));
            html += row(tr("Scope"), QString::fromStdString(f.scope));
            html += row(tr("Execution order"), QString::number(f.index));
            html += row(tr("Strategy"), opt(f.strategy));
            html += row(tr("Instance"), opt(f.instanceName));
            html += row(tr("Output shape"), opt(f.outputShape));
            html += row(tr("Output type"), opt(f.outputType));
            html += row(tr("Group"), opt(f.groupName));
            if (f.srTag)
                html += row(tr("sr_tag / peer rank"),
                    QStringLiteral("%1 / %2").arg(*f.srTag).arg(f.peerRank ? QString::number(*f.peerRank) : QStringLiteral("—")));
            html += row(tr("Inputs"), QString::fromStdString(f.inputs));
            html += row(tr("Attributes"), QString::fromStdString(f.attributes));
            html += QStringLiteral("</table>");
            m_attributes->setHtml(html);
        });
}

void StrategyGraphDock::followOperator()
{
    if (m_selecting || !m_layout)
        return;
    const auto op = workspace()->selectedOperator();
    if (!op || op->by != query::OperatorGroupBy::Name)
        return;
    // Op names repeat across stages (each stage's graph numbers its own): the stage of the operator's rank, else of
    // the selected rank, first.
    const std::optional<int64_t> rank = op->rank ? op->rank : workspace()->selectedRank();
    const std::string& wanted = op->key;
    const auto named = [&wanted](const std::string& name) {
        return name == wanted
            || (name.size() > wanted.size() && name.compare(name.size() - wanted.size(), wanted.size(), wanted) == 0
                && name[name.size() - wanted.size() - 1] == '/');
    };
    // The best match: the full name before the last part alone, then a node of the operator's stage before others.
    int found = -1, foundScore = -1;
    for (uint32_t i = 0; i < m_layout->nodes.size(); ++i) {
        const auto& n = m_layout->nodes[i];
        if (!named(n.name))
            continue;
        const auto& ranks = m_layout->stages[n.stageSlot].ranks;
        const bool ofRank = rank && std::find(ranks.begin(), ranks.end(), *rank) != ranks.end();
        const int score = (n.name == wanted ? 2 : 0) + (ofRank || !rank ? 1 : 0);
        if (score > foundScore) {
            found = static_cast<int>(i);
            foundScore = score;
        }
        if (score == 3)
            break;
    }
    if (found < 0)
        return;
    m_canvas->setSelectedItem(found);
    m_canvas->centerOn(static_cast<uint32_t>(found));
    showAttributes(found);
}

} // namespace npuscope::gui

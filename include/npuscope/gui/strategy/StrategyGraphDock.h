// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/query/StrategyGraphLayout.h"

#include <memory>

class QLabel;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace npuscope::gui {

class StrategyGraphCanvas;

// The parallel strategy graph of a MindSpore job (parallel_strategy_{rank}.json; docs/metrics.md "Parallel strategy
// graph"): every pipeline stage's computation graph by execution order, stages one under the other, joined by their
// Send→Receive pairs (StrategyGraphCanvas); on the left the name scopes as a tree whose checked scopes put a halo on
// their operators; on the right the special operators of each stage by kind (click one to go there) and the fields of
// the selected operator. Selecting an operator selects it by name in the Workspace (Operators, Marey, Timeline), and
// an operator selected elsewhere is found here by name. GUI thread only.
class StrategyGraphDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "strategyGraphDock";
    // Scope tree items at most (the deeper scopes of a very large graph are left out; their parents halo them).
    static constexpr int kMaxScopeItems = 2000;

    explicit StrategyGraphDock(Workspace* workspace, QWidget* parent = nullptr);

    StrategyGraphCanvas* canvas() const { return m_canvas; }
    QTreeWidget* scopeTree() const { return m_scopes; }
    QTreeWidget* specialTree() const { return m_special; }
    QTextBrowser* attributePanel() const { return m_attributes; }
    QLabel* summaryLabel() const { return m_summary; }
    // Selects the node at layout position `node` (as a click does).
    void selectNode(int node);
    // Draws the operators of a scope tree item as one node (collapsed) or each on its own (the scope menu's action).
    void setScopeCollapsed(QTreeWidgetItem* item, bool collapsed);

private:
    void reload() override;
    void showResult(std::shared_ptr<const query::StrategyGraphLayout> layout);
    void fillScopes();
    void fillSpecial();
    void updateHalo();
    void updateCollapsed();
    void showAttributes(int node);
    void followOperator();

    std::shared_ptr<const query::StrategyGraphLayout> m_layout;
    StrategyGraphCanvas* m_canvas = nullptr;
    QTreeWidget* m_scopes = nullptr;
    QTreeWidget* m_special = nullptr;
    QTextBrowser* m_attributes = nullptr;
    QLabel* m_summary = nullptr;
    QueryRunner* m_nodeRunner = nullptr;
    QueryRunner* m_keyRunner = nullptr; // the selected node's kernel name
    bool m_selecting = false;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/ElidedLabel.h"
#include "npuscope/gui/common/QueryDock.h"

#include <cstdint>
#include <optional>
#include <vector>

class QComboBox;

namespace npuscope::gui {

class FlopsScopeChart;

// FLOPs by scope: one rank's FLOPs per name scope from MindSpore's flops_scope_N.json (query::FlopsScopeQuery,
// docs/metrics.md "FLOPs per scope") as an icicle chart (FlopsScopeChart). The rank is the Workspace's selected rank
// when it has a scope file, else the first that has one; the Rank box chooses another (and selects it in the
// Workspace). Hover a box for its scope, FLOPs and shares; a click selects it and says its path under the chart.
// GUI thread only.
class FlopsScopeDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "flopsScopeDock";

    explicit FlopsScopeDock(Workspace* workspace, QWidget* parent = nullptr);

    FlopsScopeChart* chart() const { return m_chart; }
    QComboBox* rankCombo() const { return m_rank; }
    ElidedLabel* statusLabel() const { return m_status; }

private:
    void reload() override;
    // Queries the tree of the rank chosen in the box.
    void showRank();
    void updateStatus();

    QueryRunner* m_treeRunner;
    FlopsScopeChart* m_chart;
    QComboBox* m_rank;
    ElidedLabel* m_status;
};

} // namespace npuscope::gui

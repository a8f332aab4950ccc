// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/query/ParallelLayout.h"

#include <QString>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QSpinBox;

namespace npuscope::gui {

class StrategyChart;

// The parallel-strategy view: the loaded ranks laid out as PP stages × DP replicas × CP × TP cells
// (query::ParallelLayoutQuery), coloured by a per-rank metric (query::RankMetricQuery) for the selected step or all
// steps, with a range filter and the point-to-point pairs between stages. PP / DP / CP / TP / EP sizes the user
// applies override the data's layout; they are the workspace's (Workspace::parallelSizes, remembered per input set,
// also used by the Marey view); "From data" forgets them. Clicking a cell selects the rank in the Workspace. GUI thread only.
class ParallelStrategyDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "parallelStrategyDock";

    explicit ParallelStrategyDock(Workspace* workspace, QWidget* parent = nullptr);

    StrategyChart* chart() const { return m_chart; }
    QComboBox* metricCombo() const { return m_metric; }
    QDoubleSpinBox* lowSpin() const { return m_low; }
    // pp, dp, cp, tp, ep in that order.
    QSpinBox* sizeSpin(int index) const { return m_sizeSpins[index]; }
    QPushButton* applyButton() const { return m_apply; }
    QLabel* sourceLabel() const { return m_source; }
    // The sizes applied for the current input set, nullopt when the data's layout is used.
    std::optional<query::ParallelSizes> userSizes() const;
    // Applies sizes as if entered and "Apply" pressed (remembered for the input set).
    void applySizes(std::optional<query::ParallelSizes> sizes);

private:
    void reload() override;
    void reloadValues();
    void applyRange();
    void syncSelection();

    StrategyChart* m_chart;
    QScrollArea* m_scroll;
    QComboBox* m_metric;
    QDoubleSpinBox* m_low;
    QDoubleSpinBox* m_high;
    QSpinBox* m_sizeSpins[5];
    QPushButton* m_apply;
    QPushButton* m_fromData;
    QLabel* m_source;
    QLabel* m_unit;
    QueryRunner* m_valueRunner;
};

} // namespace npuscope::gui

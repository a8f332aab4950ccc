// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QScrollArea;

namespace npuscope::gui {

class MemoryHeatmap;

// The cluster memory heatmap: each device's peak reserved memory ÷ its capacity (docs/metrics.md, "Memory peak"),
// laid out by host × device. No profile records the capacity, so the dock shows the workspace's device memory
// (Workspace::deviceCapacityGb, GB = 2^30 bytes, shared with the views that use it) for the user to change. Clicking a cell
// selects the rank in the Workspace. GUI thread only.
class MemoryHeatmapDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "memoryHeatmapDock";
    static constexpr const char* kScaleSetting = "memory/heatmapScale"; // MemoryHeatmap::Scale as an int
    // Atlas 800T A2 / 910B class devices have 64 GB of HBM (the workspace's default).
    static constexpr double kDefaultCapacityGb = Workspace::kDefaultCapacityGb;

    explicit MemoryHeatmapDock(Workspace* workspace, QWidget* parent = nullptr);
    // The line above the map: ranks, the highest share and where the capacities come from.
    QLabel* summaryLabel() const { return m_summary; }

    MemoryHeatmap* heatmap() const { return m_heatmap; }
    QDoubleSpinBox* capacitySpin() const { return m_capacity; }
    // The capacity the ratios are computed with (MB, 2^20 bytes).
    double capacityMb() const;

private:
    void reload() override;
    void syncSelection();

    MemoryHeatmap* m_heatmap;
    QScrollArea* m_scroll;
    QDoubleSpinBox* m_capacity;
    QComboBox* m_scale;
    QLabel* m_summary;
};

} // namespace npuscope::gui

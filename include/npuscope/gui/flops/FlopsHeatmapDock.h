// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/DeviceHeatmap.h"
#include "npuscope/gui/common/ElidedLabel.h"
#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/gui/common/RankImportQueue.h"

#include <cstdint>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QScrollArea;

namespace npuscope::gui {

class FlopsHeatmap;

// The cluster FLOPs heatmap: each device's FLOPs ÷ the busiest device's, or FLOPS ÷ the fastest's (query::FlopsQuery,
// docs/metrics.md "FLOPs"), over the Workspace's selected step or every step, on the host × device grid. FLOPs come
// with the kernel rows, a deferred per-rank file: while the dock is visible it imports every rank's kernel totals in
// the background (DeferredLoadService::Part::KernelTotals through a RankImportQueue), says "kernels loaded for N of M
// ranks" and redraws as ranks arrive. When no loaded kernel carries FLOPs it says which profiler setting records them
// (FlopsQuery::kHowToRecord) instead of drawing zeros. Clicking a cell selects the rank in the Workspace.
// GUI thread only.
class FlopsHeatmapDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "flopsHeatmapDock";

    explicit FlopsHeatmapDock(Workspace* workspace, QWidget* parent = nullptr);

    FlopsHeatmap* heatmap() const { return m_heatmap; }
    QComboBox* measureCombo() const { return m_measure; }
    QCheckBox* allStepsCheck() const { return m_allSteps; }
    ElidedLabel* statusLabel() const { return m_status; }
    // The "FLOPs not recorded" message shown instead of the grid (hidden while there is a grid).
    QLabel* messageLabel() const { return m_message; }
    // Ranks whose kernels are being imported or wait to be.
    bool isImporting() const { return m_imports->isImporting(); }
    // The step the figures are for: nullopt = all steps.
    std::optional<int64_t> shownStep() const;

protected:
    void showEvent(QShowEvent* event) override;

private:
    // A new model or host naming: list the ranks, queue their imports, query.
    void reload() override;
    // The "All steps" box shows ticked and disabled while no step is selected; the user's choice returns with one.
    void syncAllStepsBox();
    // Re-queries FlopsQuery (step, measure or arrived ranks changed).
    void refresh();
    void updateStatus();
    void syncSelection();

    // FlopsQuery, apart from runner()'s rank listing so a refresh never drops the listing.
    QueryRunner* m_flopsRunner;
    FlopsHeatmap* m_heatmap;
    QScrollArea* m_scroll;
    QComboBox* m_measure;
    QCheckBox* m_allSteps;
    bool m_allStepsChoice = false; // the box as the user left it, while no step is selected (it shows ticked)
    ElidedLabel* m_status; // gives way to the controls in a narrow dock
    QLabel* m_message;
    RankImportQueue* m_imports;
    std::vector<DeviceHeatmap::Place> m_places;
    bool m_wholeRunOnly = false; // the last query had flops_summary figures (per run, not per step)
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/DeviceHeatmap.h"
#include "npuscope/gui/common/ElidedLabel.h"
#include "npuscope/gui/common/QueryDock.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QScrollArea;
class QTimer;

namespace npuscope::gui {

class FlopsHeatmap;

// The cluster FLOPs heatmap: each device's FLOPs ÷ the busiest device's, or FLOPS ÷ the fastest's (query::FlopsQuery,
// docs/metrics.md "FLOPs"), over the Workspace's selected step or every step, on the host × device grid. FLOPs come
// with the kernel rows, a deferred per-rank file: while the dock is visible it imports every rank's deferred files in
// the background (load::Loader::loadTimeline, kParallelImports at a time), says "kernels loaded for N of M ranks" and
// redraws as ranks arrive. When no loaded kernel carries FLOPs it says which profiler setting records them
// (FlopsQuery::kHowToRecord) instead of drawing zeros. Clicking a cell selects the rank in the Workspace.
// GUI thread only.
class FlopsHeatmapDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "flopsHeatmapDock";
    static constexpr int kParallelImports = 2;
    // Redraws while ranks arrive at most this often (ms): one FlopsQuery per arriving rank would queue up at 1,024.
    static constexpr int kRedrawIntervalMs = 500;

    explicit FlopsHeatmapDock(Workspace* workspace, QWidget* parent = nullptr);

    FlopsHeatmap* heatmap() const { return m_heatmap; }
    QComboBox* measureCombo() const { return m_measure; }
    QCheckBox* allStepsCheck() const { return m_allSteps; }
    ElidedLabel* statusLabel() const { return m_status; }
    // The "FLOPs not recorded" message shown instead of the grid (hidden while there is a grid).
    QLabel* messageLabel() const { return m_message; }
    // Ranks whose kernels are being imported or wait to be.
    bool isImporting() const { return !m_queue.empty() || m_inFlight > 0; }
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
    void startImports();
    void updateStatus();
    void syncSelection();

    quint64 m_importEpoch = 0; // bumped by reload()
    // FlopsQuery, apart from runner()'s rank listing so a refresh never drops the listing.
    QueryRunner* m_flopsRunner;
    FlopsHeatmap* m_heatmap;
    QScrollArea* m_scroll;
    QComboBox* m_measure;
    QCheckBox* m_allSteps;
    bool m_allStepsChoice = false; // the box as the user left it, while no step is selected (it shows ticked)
    ElidedLabel* m_status; // gives way to the controls in a narrow dock
    QLabel* m_message;
    QTimer* m_redraw;
    std::vector<DeviceHeatmap::Place> m_places;
    std::deque<int64_t> m_queue; // ranks still to import
    std::set<int64_t> m_pending; // queued or importing
    int m_inFlight = 0;
    int m_loaded = 0; // ranks whose import finished (or failed: not retried until the model changes)
    bool m_wholeRunOnly = false; // the last query had flops_summary figures (per run, not per step)
};

} // namespace npuscope::gui

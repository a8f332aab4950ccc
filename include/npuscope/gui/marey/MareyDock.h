// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/gui/common/RankImportQueue.h"
#include "npuscope/gui/marey/MareyChart.h"
#include "npuscope/query/MareyFindings.h"
#include "npuscope/query/ParallelLayout.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTimer;
class QTreeWidget;

namespace npuscope::model {
class Database;
}
namespace npuscope::load {
class ParseCache;
}

namespace npuscope::gui {

// The Marey view (docs/metrics.md, "Marey view"): the Workspace's step (the first step with kernels when none is
// selected) as one line per device, devices grouped by pipeline stage (query::MareyQuery over the parallel layout,
// with the sizes the Parallel strategy view remembers for the input set), and the findings beside it
// (query::MareyFindings). Kernels are deferred per-rank files: while the dock is visible it loads the shown step's
// kernels of the shown ranks in the background, kRanksPerJob ranks per job (importStepKernels through a
// RankImportQueue), says "kernels loaded for N of M ranks" and redraws as they arrive; another step loads its own rows.
// Clicking a device selects the rank; clicking a finding highlights it and selects its operator in the Workspace (the
// timeline highlights its occurrences). GUI thread only.
class MareyDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "mareyDock";
    static constexpr int kRanksPerJob = 64; // so progress shows and the first stage draws early

    explicit MareyDock(Workspace* workspace, QWidget* parent = nullptr);
    ~MareyDock() override;

    // Loads the kernels of one step of ranks into db: step_kernel rows of the ranks whose kernel files are not
    // imported (load::Loader::loadStepKernels; kernel_details.csv / op_summary, not trace_view.json), through cache
    // when set (the Workspace's parse cache: one entry per set of ranks and step). The one place the dock loads
    // kernels. Any thread except one holding the lock.
    static bool importStepKernels(model::Database& db, const std::vector<int64_t>& ranks, std::optional<int64_t> step,
        const load::ParseCache* cache);

    MareyChart* chart() const { return m_chart; }
    QComboBox* timeCombo() const { return m_time; }
    QTreeWidget* findingsList() const { return m_findings; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* legend() const { return m_legend; }
    bool isImporting() const { return m_imports->isImporting(); }
    // The step shown (nullopt before the first result, or when the profile has no kernel steps).
    std::optional<int64_t> shownStep() const { return m_shownStep; }
    const query::MareyFindingList& findings() const { return m_findingList; }
    // Highlights finding i of findings().findings and publishes its operator (what a click in the list does).
    void activateFinding(int index);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void reload() override;
    void refresh();
    void loadStep(std::optional<int64_t> step);
    void updateStatus();
    // Asks the load service for the memory part of the step's devices not asked for yet (the memory line).
    void requestMemory();
    void fillFindings();
    void rebuildCollapseMenu();
    std::optional<query::ParallelSizes> rememberedSizes() const;

    MareyChart* m_chart;
    QComboBox* m_time;
    QPushButton* m_collapse;
    QLabel* m_legend;
    QTreeWidget* m_findings;
    QLabel* m_status;
    QLabel* m_findingsNote;
    QueryRunner* m_importRunner;
    QueryRunner* m_dataRunner;
    RankImportQueue* m_imports; // the ranks of m_loadStep
    std::vector<int64_t> m_ranks; // the layout's loaded ranks, stage order
    std::optional<int64_t> m_loadStep; // the step whose kernels the queue loads
    std::optional<int64_t> m_shownStep;
    std::optional<query::ParallelSizes> m_sizesUsed; // the strategy sizes the last reload laid the stages out with
    std::shared_ptr<const query::MareyStep> m_step;
    query::MareyFindingList m_findingList;
    std::set<int64_t> m_memoryRequested; // ranks whose memory part was asked for since the last reload
    QTimer* m_memoryRedraw; // one refresh for imports that end together
};

} // namespace npuscope::gui

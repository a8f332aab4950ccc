// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/query/MemoryDetailQuery.h"

#include <cstdint>
#include <optional>
#include <vector>

class QCheckBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace npuscope::gui {

class MemoryOperatorDiffModel;

class MemoryCurveChart;
class ModuleMemoryModel;
class OperatorMemoryModel;

// The memory of one rank (the Workspace's selected rank, else the first): Allocated / Reserved / Active curves per
// component with the step boundaries (MemoryCurveChart), the operator_memory blocks with their inefficiency flags and
// a name filter, optionally only those allocated or released inside the Workspace's time window, and npu_module_mem
// per CANN module. A range dragged on the chart is published as the Workspace's time window (as the timeline does),
// and the published window is drawn as a band. Figures: query::MemoryDetailQuery. GUI thread only.
class MemoryDetailDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "memoryDetailDock";

    explicit MemoryDetailDock(Workspace* workspace, QWidget* parent = nullptr);

    MemoryCurveChart* chart() const { return m_chart; }
    OperatorMemoryModel* blockModel() const { return m_blocks; }
    QSortFilterProxyModel* blockProxy() const { return m_blockProxy; }
    // Compare mode's table of the selected rank's allocation changes.
    MemoryOperatorDiffModel* compareModel() const { return m_compareModel; }
    ModuleMemoryModel* moduleModel() const { return m_modules; }
    QCheckBox* windowOnlyCheck() const { return m_windowOnly; }
    QLineEdit* filterEdit() const { return m_filter; }
    QLabel* statusLabel() const { return m_status; }
    // The rank shown, nullopt before the first query or without ranks.
    std::optional<int64_t> shownRank() const { return m_rank; }

private:
    struct Shown; // a rank's detail, prepared off the GUI thread
    void reload() override;
    // The rank's deferred memory files through the workspace's load service (DeferredLoadService::Part::Memory),
    // then its detail.
    void importRank(int64_t rank);
    void queryDetail(int64_t rank);
    void showDetail(Shown s);
    void showNoProfile();
    // The Workspace's window changed: the band and, when asked, the block table.
    void applyWindow();
    void showBlocks();
    // Compare mode: the selected rank's operators whose allocation changed most and its peak in both runs
    // (BaselineComparison); hidden without a baseline.
    void showComparison();

    MemoryCurveChart* m_chart;
    OperatorMemoryModel* m_blocks;
    QSortFilterProxyModel* m_blockProxy;
    QTableView* m_blockTable;
    ModuleMemoryModel* m_modules;
    QTableView* m_moduleTable;
    QCheckBox* m_windowOnly;
    QLineEdit* m_filter;
    QLabel* m_status;
    QLabel* m_blockCount;
    QWidget* m_compareBox;
    QLabel* m_compareTitle;
    MemoryOperatorDiffModel* m_compareModel;
    QTableView* m_compareTable;
    std::optional<int64_t> m_rank;
    quint64 m_importRequest = 0; // the newest importRank(): older imports' answers are dropped
    std::vector<query::OperatorMemoryRow> m_allBlocks;
    int64_t m_origin = 0;
};

} // namespace npuscope::gui

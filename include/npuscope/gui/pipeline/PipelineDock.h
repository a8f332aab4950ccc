// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/query/PipelineQuery.h"

#include <vector>

class QComboBox;
class QLabel;
class QTableView;

namespace npuscope::gui {

class PipelineChain;
class PipelineOpTableModel;

// The MindSpore data pipeline of one rank (query::PipelineQuery, docs/metrics.md "Data pipeline"): the dataset
// operators as a chain from the sources to the device queue with workers and queue usage, a table of their figures
// (sortable, copied and exported by the shared table toolbar), and a line naming the bottleneck operator with the rule
// that found it, or why there is none. The rank follows the Workspace's selected rank when it has a pipeline, else
// the rank combo. GUI thread only.
class PipelineDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "pipelineDock";

    explicit PipelineDock(Workspace* workspace, QWidget* parent = nullptr);

    PipelineChain* chain() const { return m_chain; }
    PipelineOpTableModel* model() const { return m_model; }
    QComboBox* rankCombo() const { return m_rankCombo; }
    QLabel* bottleneckLabel() const { return m_bottleneck; }
    QLabel* queueLabel() const { return m_queue; }
    // The ranks with pipeline figures, as last queried.
    const std::vector<query::RankPipeline>& pipelines() const { return m_pipelines; }

private:
    void reload() override;
    void showResult(std::vector<query::RankPipeline> pipelines);
    // Shows the pipeline of the combo's rank.
    void showRank();
    void followSelection();

    std::vector<query::RankPipeline> m_pipelines;
    QComboBox* m_rankCombo = nullptr;
    QLabel* m_bottleneck = nullptr;
    QLabel* m_queue = nullptr;
    PipelineChain* m_chain = nullptr;
    PipelineOpTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/query/CriticalPath.h"

#include <cstdint>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTextBrowser;

namespace npuscope::gui {

class PathSegmentTableModel;

// A step's critical path across ranks (query::CriticalPath on query::DependencyGraph): its segments in time order with
// their rank, kind, operator and share; per rank and link shares, the operators' serial time; "Show in timeline" draws
// the path's stays on each rank, linked in order, in the Timeline; a what-if row replays the step with changes
// (query::WhatIf). Selecting a segment selects its rank and zooms the timeline to it. Loads the step's kernels of
// every rank (load::Loader::loadStepKernels, off the GUI thread) before building the graph. GUI thread only.
class CriticalPathDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "criticalPathDock";

    explicit CriticalPathDock(Workspace* workspace, QWidget* parent = nullptr);

    PathSegmentTableModel* model() const { return m_model; }
    QTableView* tableView() const { return m_table; }
    QComboBox* stepBox() const { return m_step; }
    QLabel* summaryLabel() const { return m_summary; }
    QTextBrowser* detailView() const { return m_detail; }
    QCheckBox* timelineToggle() const { return m_showInTimeline; }
    QLineEdit* whatIfEdit() const { return m_whatIf; }
    QPushButton* replayButton() const { return m_replay; }
    QLabel* whatIfResult() const { return m_whatIfResult; }
    // The path shown (nullopt before the first result).
    const std::optional<query::CriticalPathStep>& path() const { return m_path; }

    // Replays the shown step with the what-if row's changes (the Replay button).
    void replay();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void reload() override;
    void computeStep();
    void showPath();
    void showSegment();
    void applyTimelineFocus();

    std::shared_ptr<const query::DependencyGraph> m_graph;
    std::optional<query::CriticalPathStep> m_path;
    PathSegmentTableModel* m_model;
    QComboBox* m_step;
    QLabel* m_summary;
    QCheckBox* m_showInTimeline;
    QTableView* m_table;
    QTextBrowser* m_detail;
    QLineEdit* m_whatIf;
    QPushButton* m_replay;
    QLabel* m_whatIfResult;
    QueryRunner* m_pathRunner;
    QueryRunner* m_whatIfRunner;
    bool m_quiet = false; // the current row changes by itself: leave the Workspace selection alone
    // A step chosen while the view was not on screen: its kernels of every rank are loaded (and the path drawn in the
    // timeline) only once the user shows the view.
    bool m_computePending = false;
};

} // namespace npuscope::gui

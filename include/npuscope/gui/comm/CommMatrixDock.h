// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPointer>

#include "npuscope/query/CommAnalysisQuery.h"

#include "npuscope/gui/common/QueryDock.h"

#include <string>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;

namespace npuscope::gui {

class CommMatrixView;
class CommSelectionBar;

// Communication matrix: global src × dst heatmap (or one group's local ranks when its global ranks are unknown,
// labelled in the status line) for the Workspace step, group and op; when no
// concrete op is selected, "Total" or one op type's slot (total / top1 / middle / bottom…).
// Metric: bandwidth, size, time or transport. Clicking a cell selects its src rank. Queries run over
// the shared in-memory indexes without the database lock; a hidden dock waits until shown. GUI thread only.
class CommMatrixDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "commMatrixDock";

    explicit CommMatrixDock(Workspace* workspace, QWidget* parent = nullptr);
    ~CommMatrixDock() override;

    CommMatrixView* view() const { return m_view; }
    CommSelectionBar* selectionBar() const { return m_bar; }
    QComboBox* metricCombo() const { return m_metric; }
    QComboBox* slotCombo() const { return m_slot; }
    QCheckBox* hideLocalBox() const { return m_hideLocal; }
    QLabel* statusLabel() const { return m_status; }
    // Milliseconds the last query took in the worker (benchmarks).
    double lastQueryMs() const { return m_lastQueryMs; }
    // Results shown so far (benchmarks wait for the next one).
    int resultsApplied() const { return m_resultsApplied; }

private:
    // The slot list, then the matrix.
    void reload() override;
    void reloadSlots();
    void reloadMatrix();
    // The status line for the shown matrix (its counts follow "Hide diagonal").
    void updateStatus();

    QueryRunner* m_slotRunner;
    CommSelectionBar* m_bar;
    QComboBox* m_slot;
    QComboBox* m_metric;
    QComboBox* m_order;
    QCheckBox* m_hideLocal;
    QLabel* m_status;
    CommMatrixView* m_view;
    // While the view's images are being built: the workspace they count in as one of its queries (QPointer: the
    // dock may outlive it at the window's end).
    QPointer<Workspace> m_imagesBusy;
    bool m_updating = false;
    double m_lastQueryMs = 0;
    int m_resultsApplied = 0;
    std::vector<std::pair<std::string, std::string>> m_groupLabels; // hash -> "name (hash)" or hash
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDockWidget>

class QLabel;

namespace npuscope::gui {

class QueryRunner;
class TimeOverviewChart;
class Workspace;

// Time overview: per step, step time over ranks (min–max band, median, slowest rank) on the left
// axis and the mean communication and wait time on the right. Clicking a step selects it in the
// Workspace; clicking it again returns to all steps. GUI thread only.
class TimeOverviewDock : public QDockWidget {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "timeOverviewDock";

    explicit TimeOverviewDock(Workspace* workspace, QWidget* parent = nullptr);

    TimeOverviewChart* chart() const { return m_chart; }

private:
    void reload();

    Workspace* m_workspace;
    QueryRunner* m_runner;
    TimeOverviewChart* m_chart;
    QLabel* m_summary;
};

} // namespace npuscope::gui

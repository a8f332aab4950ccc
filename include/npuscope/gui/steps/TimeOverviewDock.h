// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"

class QCheckBox;
class QLabel;

namespace npuscope::gui {

class TimeOverviewChart;

// Time overview: per step, step time over ranks (min–max band, median, slowest rank) on the left
// axis and the mean communication and wait time on the right. Clicking a step selects it in the
// Workspace; clicking it again returns to all steps. GUI thread only.
class TimeOverviewDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "timeOverviewDock";

    explicit TimeOverviewDock(Workspace* workspace, QWidget* parent = nullptr);

    TimeOverviewChart* chart() const { return m_chart; }

private:
    void reload() override;

    TimeOverviewChart* m_chart;
    QLabel* m_summary;
    QCheckBox* m_fromZero;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/StepQuery.h"

#include "npuscope/gui/common/ChartWidget.h"

#include <optional>

namespace npuscope::gui {

// A donut of one StepSplit (computing, overlapped, communication, free, preparing) with the step
// wall time in the middle and a legend giving each part in ms and percent. Plain QPainter.
// GUI thread only.
class StepSplitPie : public ChartWidget {
    Q_OBJECT
public:
    explicit StepSplitPie(QWidget* parent = nullptr);

    // nullopt shows a placeholder text.
    void setSplit(const std::optional<query::StepSplit>& split, const QString& title);
    const std::optional<query::StepSplit>& split() const { return m_split; }
    QString title() const { return m_title; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::optional<query::StepSplit> m_split;
    QString m_title;
};

} // namespace npuscope::gui

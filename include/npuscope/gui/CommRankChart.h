// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"

#include <QWidget>

#include <optional>
#include <vector>

namespace npuscope::gui {

// One horizontal bar per rank: Transit, Wait and Idle stacked (their sum is the Elapsed time).
// Rows share the widget height (a 1,024-rank cluster gets sub-pixel rows, drawn at least 1 px).
// Hover shows the values, a click emits rankClicked. GUI thread only.
class CommRankChart : public QWidget {
    Q_OBJECT
public:
    explicit CommRankChart(QWidget* parent = nullptr);

    void setRows(std::vector<query::RankDuration> rows);
    void setSelectedRank(std::optional<int64_t> rank);
    int rowAt(int y) const;
    QString toolTipFor(int row) const;
    QSize sizeHint() const override { return { 360, 300 }; }

signals:
    void rankClicked(qint64 rank);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    QRect plotRect() const;

    std::vector<query::RankDuration> m_rows;
    std::optional<int64_t> m_selected;
    int64_t m_max = 0;
};

} // namespace npuscope::gui

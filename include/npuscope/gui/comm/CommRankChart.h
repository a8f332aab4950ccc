// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"

#include "npuscope/gui/common/ChartWidget.h"

#include <optional>
#include <vector>

namespace npuscope::gui {

// One horizontal bar per rank: Transit, Wait and Idle stacked (their sum is the Elapsed time). When the files
// have no transit / idle (MindSpore hccl_raw: communication cost and wait cost are separate figures, wait not
// part of elapsed) two bars per rank instead: Elapsed and Wait, on one scale, each labelled with its value.
// Rows share the widget height (a 1,024-rank cluster gets sub-pixel rows, drawn at least 1 px).
// Hover shows the values, a click emits rankClicked. GUI thread only.
class CommRankChart : public ChartWidget {
    Q_OBJECT
public:
    explicit CommRankChart(QWidget* parent = nullptr);

    void setRows(std::vector<query::RankDuration> rows);
    void setSelectedRank(std::optional<int64_t> rank);
    // Shown instead of the bars when there are no rows (why there is no communication).
    void setEmptyText(const QString& text);
    // True when no row has Transit or Idle: the stacked identity does not hold and separate bars are drawn.
    static bool separateFigures(const std::vector<query::RankDuration>& rows);
    bool separateFigures() const { return separateFigures(m_rows); }
    // The title that describes what is drawn.
    QString title() const;
    int rowAt(int y) const;
    int itemAt(const QPoint& pos) const override { return rowAt(pos.y()); }
    QString itemToolTip(int item) const override { return toolTipFor(item); }
    QString toolTipFor(int row) const;
    // Where a row's label is drawn, left of the bars (the selected row's label sits on a tag there, and the selection
    // band stays right of it).
    QRectF labelRect(size_t row) const;
    QSize sizeHint() const override { return { 360, 300 }; }

signals:
    void rankClicked(qint64 rank);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QRect plotRect() const;
    double maxRow() const;

    std::vector<query::RankDuration> m_rows;
    std::optional<int64_t> m_selected;
    int64_t m_max = 0;
    QString m_emptyText;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/ChartWidget.h"
#include "npuscope/query/ParallelLayout.h"
#include "npuscope/query/RankMetricQuery.h"

#include <QColor>

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace npuscope::gui {

// The ranks of a ParallelLayout as nested boxes: one column per pipeline stage, inside it one box per DP replica
// (wrapped into several replica columns when DP is large), inside that CP blocks of TP cells. Each cell is coloured
// by a per-rank metric's deviation from the median over the ranks shown (DivergingScale: neutral within the band,
// warm above, cool below, full at ±20 %; with a legend), so a 1 % spread stays one colour; cells outside the
// range filter are faded, ranks without the figure grey, ranks of the world that were not loaded hatched. Point-to-
// point pairs between stages are thin lines between cell centres. Cells shrink to fit down to kMinCell px, then the
// widget grows (meant for a QScrollArea with widgetResizable). Items are rank ids (the layout's ranks are 0 ..
// world-1). GUI thread only.
class StrategyChart : public ChartWidget {
    Q_OBJECT
public:
    static constexpr int kMinCell = 6; // px
    static constexpr int kMaxCellWidth = 72; // px
    static constexpr int kMaxCellHeight = 40; // px

    explicit StrategyChart(QWidget* parent = nullptr);

    void setLayoutData(query::ParallelLayout layout);
    const query::ParallelLayout& layoutData() const { return m_layout; }
    // Values by rank in the metric's unit (ns or a ratio).
    void setValues(query::RankMetric metric, std::map<int64_t, double> values);
    const std::map<int64_t, double>& values() const { return m_values; }
    void setP2pPairs(std::vector<std::pair<int64_t, int64_t>> pairs);
    const std::vector<std::pair<int64_t, int64_t>>& p2pPairs() const { return m_pairs; }
    // Cells whose value lies outside [low, high] are faded; nullopt bounds are open.
    void setRange(std::optional<double> low, std::optional<double> high);
    bool inRange(int64_t rank) const;
    void setSelectedRank(std::optional<int64_t> rank);

    // The cell of a rank at the current size (px), empty when the rank is not in the layout.
    QRect cellRect(int64_t rank) const;
    QColor colorOf(std::optional<double> value) const;
    // The colour of a relative deviation from the median (opaque: the cells are drawn on each other's borders).
    static QColor deviationColour(double deviation, double band);
    // The metric value as shown ("12.345 ms", "37.5 %").
    QString formatValue(double value) const;

    int itemAt(const QPoint& pos) const override;
    QString itemToolTip(int item) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void rankClicked(qint64 rank);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Geometry {
        int top = 0; // of the stage boxes
        int stageWidth = 0, stageGap = 0, left = 0;
        int replicaColumns = 1; // DP replicas side by side inside a stage
        int cellWidth = kMinCell, cellHeight = kMinCell;
        int replicaWidth = 0, replicaHeight = 0; // cells plus the replica box padding
        int cpGap = 0; // px between CP blocks of a replica
    };
    Geometry computeGeometry(int width, int height) const;
    void relayout();
    int legendHeight() const;
    void paintLegend(QPainter& p) const;

    query::ParallelLayout m_layout;
    query::RankMetric m_metric = query::RankMetric::StepTime;
    std::map<int64_t, double> m_values;
    std::optional<double> m_median; // over m_values: the colour's reference
    std::optional<double> m_low, m_high;
    std::vector<std::pair<int64_t, int64_t>> m_pairs;
    Geometry m_geometry;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/ChartWidget.h"
#include "npuscope/query/compare/RunComparison.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace npuscope::gui {

// One component's Δ (new − base, ms) of every matched rank, in rank order: a colour strip (red slower, green faster,
// strength by |Δ| against the largest) over a bar per rank around a zero line. With more ranks than pixel columns
// each column is a bin showing its rank of largest |Δ|, so one outlier among 1,024 ranks stays visible. The rank
// with the largest increase is marked and named. Items are indexes into the matched ranks. GUI thread only.
class RankDeltaStrip : public ChartWidget {
    Q_OBJECT
public:
    explicit RankDeltaStrip(QWidget* parent = nullptr);

    void setDiff(const query::RunDiff& diff);
    void setComponent(query::DiffComponent component);
    query::DiffComponent component() const { return m_component; }

    // The matched rank (base rank id) of an item, nullopt for none.
    std::optional<int64_t> rankOf(int item) const;
    // The rank with the largest increase of the component, nullopt when no rank got slower.
    std::optional<int64_t> largestIncreaseRank() const;
    // Marks a rank (the Workspace selection); nullopt for none.
    void setMarkedRank(std::optional<int64_t> rank);

    int itemAt(const QPoint& pos) const override;
    QString itemToolTip(int item) const override;
    QSize sizeHint() const override { return { 520, 120 }; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Entry {
        int64_t rank = 0;
        std::optional<double> base, neu;
        std::optional<double> delta() const { return base && neu ? std::optional<double>(*neu - *base) : std::nullopt; }
    };
    void rebuild();
    // Pixel columns of the plot and the ranks per column (≥ 1); columns share ranks evenly.
    int columnOf(int item) const;
    int representative(int column) const;

    query::RunDiff m_diff;
    query::DiffComponent m_component = query::DiffComponent::Computing;
    std::vector<Entry> m_entries;
    double m_scale = 0; // largest |Δ|
    int m_largest = -1; // item of the largest increase
    int m_marked = -1;
};

} // namespace npuscope::gui

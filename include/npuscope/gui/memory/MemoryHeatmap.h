// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/MemoryQuery.h"

#include "npuscope/gui/common/DeviceHeatmap.h"

#include <QColor>
#include <QString>

#include <optional>
#include <vector>

namespace npuscope::gui {

// One cell per device, coloured by peak reserved ÷ capacity (MemoryQuery), on the host × device grid of
// DeviceHeatmap. Items are indexes into cells(). GUI thread only.
class MemoryHeatmap : public DeviceHeatmap {
    Q_OBJECT
public:
    struct Cell {
        query::RankMemoryPeak peak;
        QString host; // as drawn: the rank's host, or "—"
        int row = 0;
        int column = 0;
    };
    static constexpr double kHighRatio = 0.9; // ratios above this are drawn red

    explicit MemoryHeatmap(QWidget* parent = nullptr);

    // Replaces the cells (peaks in rank order, as MemoryQuery::peaks returns them).
    void setPeaks(std::vector<query::RankMemoryPeak> peaks);
    const std::vector<Cell>& cells() const { return m_cells; }
    // Fill colour of a ratio; nullopt (no memory records or no capacity) is grey.
    static QColor colorOf(std::optional<double> ratio);

    QString itemToolTip(int item) const override;

protected:
    QColor cellColor(int index) const override;
    QString cellText(int index) const override;
    Legend legend() const override;

private:
    std::vector<Cell> m_cells;
};

} // namespace npuscope::gui

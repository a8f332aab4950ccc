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
    // What the blue ramp spans: the device's memory (0 … 90 %), or the spread of the devices shown (least … most
    // used): at 1,024 ranks that reserve 52 % ± 1 % each, the device scale paints every cell the same blue. Ratios
    // above kHighRatio are red on both.
    enum class Scale { Device, Spread };
    static constexpr double kMinSpread = 0.005; // Spread: the ramp spans at least 0.5 % of device memory
    void setScale(Scale scale);
    Scale scale() const { return m_scale; }
    // The colour of a cell's ratio on the current scale.
    QColor colorOnScale(std::optional<double> ratio) const;

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
    void updateSpread();

    std::vector<Cell> m_cells;
    Scale m_scale = Scale::Device;
    double m_least = 0, m_most = 0; // Spread: the least and most ratio among the cells (below kHighRatio)
};

} // namespace npuscope::gui

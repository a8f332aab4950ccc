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
    // What the colour says: the share of the device's memory (a blue ramp 0 … 90 %), or the deviation of the device's
    // peak from the median device's (DivergingScale: within the neutral band, ±2 % by default, uncoloured; warm above,
    // cool below, full at ±20 %): at 1,024 ranks that reserve 52 % ± 1 % each, the device scale paints every cell the
    // same blue, and a least-to-most ramp painted a 1 % spread from light to dark. Ratios above kHighRatio are red on
    // both. (The value 1 was "least to most used device", which the median scale replaces in saved settings.)
    enum class Scale { Device, Median };
    // Median: the fill of a device within the neutral band.
    static QColor neutralColor();
    void setScale(Scale scale);
    Scale scale() const { return m_scale; }
    // The colour of a cell's ratio on the current scale.
    QColor colorOnScale(std::optional<double> ratio) const;
    // Median: the median device's ratio (0 without cells).
    double medianRatio() const { return m_median; }

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
    void updateMedian();
    // A deviation's DivergingScale colour made opaque over neutralColor() (neutralColor() within the band).
    QColor deviationColor(double deviation) const;

    std::vector<Cell> m_cells;
    Scale m_scale = Scale::Device;
    double m_median = 0; // Median: the median ratio of the cells that have one
};

} // namespace npuscope::gui

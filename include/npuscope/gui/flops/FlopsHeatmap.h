// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/FlopsQuery.h"

#include "npuscope/gui/common/DeviceHeatmap.h"

#include <QColor>
#include <QString>

#include <optional>
#include <set>
#include <vector>

namespace npuscope::gui {

// One cell per device on the host × device grid of DeviceHeatmap, coloured by its FLOPs ÷ the busiest device's, or
// (Measure::FlopsPerSecond) its FLOPS ÷ the fastest device's (query::FlopsQuery). The ramp makes the low end the
// alarming one: devices near the best are dark blue, a device doing much less work is orange to red, so a light
// device stands out in a dark grid. Items are indexes into cells(). GUI thread only.
class FlopsHeatmap : public DeviceHeatmap {
    Q_OBJECT
public:
    enum class Measure { Flops, FlopsPerSecond };
    struct Cell {
        Place place;
        std::optional<query::RankFlops> flops; // nullopt: no kernel rows loaded for the rank
        bool pending = false; // the rank's kernels are still being imported
    };

    explicit FlopsHeatmap(QWidget* parent = nullptr);

    // Replaces the cells: one per place (in this order), with that rank's row of summary if it has one.
    // pending: ranks whose kernels are still being imported.
    void setFlops(
        const std::vector<Place>& places, const query::FlopsSummary& summary, const std::set<int64_t>& pending = {});
    const std::vector<Cell>& cells() const { return m_cells; }
    void setMeasure(Measure measure);
    Measure measure() const { return m_measure; }
    // The drawn value of a cell (0..1) under the current measure; nullopt when the rank has no FLOPs.
    std::optional<double> valueOf(int index) const;
    // Fill colour of a relative value; nullopt is grey.
    static QColor colorOf(std::optional<double> relative);
    // "1.23 TFLOPs"-style: value with a T/G/M/k prefix before unit.
    static QString withPrefix(double value, const QString& unit);

    QString itemToolTip(int item) const override;

protected:
    QColor cellColor(int index) const override;
    QString cellText(int index) const override;
    Legend legend() const override;

private:
    std::vector<Cell> m_cells;
    Measure m_measure = Measure::Flops;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/TimelineQuery.h"

#include "npuscope/gui/common/RowTableModel.h"

#include <vector>

namespace npuscope::gui {

// The timeline's area statistics (one row per slice name over a selected time range and rows) as a
// sortable table. Durations are shown in µs; SortRole (and ValueRole) gives the raw value (ns, count,
// name) used for sorting and CSV export. GUI thread only.
class AreaStatsModel : public RowTableModel<query::AreaStat> {
    Q_OBJECT
public:
    enum Column { Name, Count, TotalWall, TotalSelf, Average, Min, Max, ColumnCount };
    enum Role { SortRole = Qt::UserRole };

    explicit AreaStatsModel(QObject* parent = nullptr);

    void setStats(std::vector<query::AreaStat> stats);
    const std::vector<query::AreaStat>& stats() const { return rows(); }
    // Writes the rows in their current order as CSV (name, count, then ns values); false on I/O error.
    bool exportCsv(const QString& path) const;

protected:
    std::optional<QVariant> cellData(const query::AreaStat& stat, int column, int role) const override;
    // Equal values keep the names in alphabetical order.
    bool tieLess(const query::AreaStat& a, const query::AreaStat& b) const override { return a.name < b.name; }
};

} // namespace npuscope::gui

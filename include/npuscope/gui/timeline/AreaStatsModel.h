// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/TimelineQuery.h"

#include <QAbstractTableModel>

#include <vector>

namespace npuscope::gui {

// The timeline's area statistics (one row per slice name over a selected time range and rows) as a
// sortable table. Durations are shown in µs; SortRole gives the raw value (ns, count, name) used
// for sorting and CSV export. GUI thread only.
class AreaStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Count, TotalWall, TotalSelf, Average, Min, Max, ColumnCount };
    enum Role { SortRole = Qt::UserRole };

    explicit AreaStatsModel(QObject* parent = nullptr);

    void setStats(std::vector<query::AreaStat> stats);
    const std::vector<query::AreaStat>& stats() const { return m_stats; }
    // Writes the rows in their current order as CSV (name, count, then ns values); false on I/O error.
    bool exportCsv(const QString& path) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    QVariant sortValue(const query::AreaStat& s, int column) const;

    std::vector<query::AreaStat> m_stats;
};

} // namespace npuscope::gui

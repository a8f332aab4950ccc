// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/query/StepQuery.h"

#include <QAbstractTableModel>

#include <array>

namespace npuscope::gui {

// The footer under the cluster steps table: min / median / max / mean / spread of each column over the
// ranks, from query::clusterStats (the median is what the table's colours are relative to). Columns match
// StepTableModel::Column (the Rank column holds the row label). GUI thread only.
class StepStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Row { Min, Median, Max, Mean, Spread, RowCount };
    // Same numbering as StepTableModel::Column.
    enum Column { LabelColumn = 0, ColumnCount = 16 };
    enum Role {
        // double: the statistic (ns for Min/Max/Mean, a ratio for Spread); invalid when absent.
        RawValueRole = Qt::UserRole + 1,
        // qlonglong: the rank holding the min or max; invalid otherwise.
        RankIdRole,
    };

    explicit StepStatsModel(QObject* parent = nullptr);

    // stats per StepColumn; wallStats: the Step wall time column's.
    void setStats(
        const std::array<query::ColumnStats, query::kStepColumnCount>& stats, const query::ColumnStats& wallStats = {});
    void clear();
    void setUnit(TimeFormat::Unit unit);
    // Empty columns after ColumnCount, so that the footer keeps the table's column numbering when compare mode adds
    // its columns to the table (StepTableModel::setComparison).
    void setExtraColumns(int count);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const query::ColumnStats* statsFor(int column) const;

    std::array<query::ColumnStats, query::kStepColumnCount> m_stats {};
    query::ColumnStats m_wallStats;
    bool m_hasStats = false;
    int m_extraColumns = 0;
    TimeFormat::Unit m_unit = TimeFormat::Unit::Milliseconds;
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/query/ClusterMean.h"
#include "npuscope/query/StepQuery.h"

#include "npuscope/gui/compare/ComparedRowTableModel.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace npuscope::query {
struct RankDiff;
struct RunDiff;
}

namespace npuscope::gui {

// One row per rank of the step_trace breakdown (one step, or each rank's mean over steps), led by the step wall time
// that defines the "slowest rank" (StepQuery::slowestRank). Time cells are coloured by their relative deviation from
// the column's median over ranks (DivergingScale: neutral within the band, warm above, cool below) so a slow rank
// stands out and a 1 % spread does not. GUI thread only; the rows come from StepQuery in a worker.
// The table carries both generations' columns: step_trace_time.csv (Computing .. Preparing) and the old MindSpore /
// MindInsight iteration trace (Total .. Tail), plus the host (mapping id, or IP when the user asked). Views show
// only isColumnShown() columns, so each generation's data shows its own columns.
class StepTableModel : public ComparedRowTableModel<query::StepBreakdown> {
    Q_OBJECT
public:
    enum Column {
        Rank,
        Device,
        Host,
        WallTime, // StepBreakdown::wallTime(): Computing + Communication(Not Overlapped) + Free + Preparing
        Computing,
        CommunicationNotOverlapped,
        Overlapped,
        Communication,
        Free,
        Stage,
        Bubble,
        Preparing,
        Total,
        IterationInterval,
        FpBp,
        Tail,
        ColumnCount
    };
    enum Role {
        // qlonglong: ns for time columns, the id for Rank/Device; QString for Host; invalid QVariant when absent.
        RawValueRole = ValueRole,
        // double: query::deviationFromMedian of the cell (what its colour shows); invalid when not defined.
        DeviationRole,
        // qlonglong: the row's rank, for every column.
        RankIdRole,
    };
    // The StepColumn of each time column, Computing .. Tail in column order: the columns with a short title in
    // model::kStepColumns (the table's columns are the summary text's); StageTableModel's time columns are the first
    // eight.
    static constexpr std::array<query::StepColumn, ColumnCount - Computing> kTimeColumns = [] {
        std::array<query::StepColumn, ColumnCount - Computing> out {};
        size_t n = 0;
        for (const auto& c : model::kStepColumns) {
            if (c.shortTitle)
                out.at(n++) = c.column;
        }
        return n == out.size() ? out : throw "StepTableModel: one time column per titled step column";
    }();
    // Tables of more ranks than this open sorted by the step wall time, slowest first (ClusterStepsDock): on a large
    // cluster the rank order hides the ranks that matter below the fold; a small one reads well in rank order.
    static constexpr int kRankOrderMaxRanks = 16;

    explicit StepTableModel(QObject* parent = nullptr);

    // stats: per StepColumn over the ranks (ClusterMean::stats); wallStats: the same of the wall time.
    void setRows(std::vector<query::StepBreakdown> rows,
        const std::array<query::ColumnStats, query::kStepColumnCount>& stats, const query::ColumnStats& wallStats = {});
    void clear();
    // rank -> host name (mapping id or IP, as RankQuery::hosts gives it); ranks without one show "—".
    void setHosts(std::map<int64_t, QString> hosts);
    // Whether a view should show the column for the current rows: Rank and Device always; Host when some rank has
    // a host; an iteration trace column (Total .. Tail) when some row has it; a step_trace_time.csv column always
    // for new-generation data (absent ones say "—" as before), and for old-generation data only when some row has
    // it (e.g. filled from ascend_cluster_analyse_*.csv).
    bool isColumnShown(int column) const;
    void setUnit(TimeFormat::Unit unit);
    TimeFormat::Unit unit() const { return m_unit; }
    // Drawn bold; nullopt for none.
    void setHighlightedRank(std::optional<int64_t> rank);
    std::optional<int64_t> highlightedRank() const { return m_highlightedRank; }
    // Row of a rank, -1 if absent.
    int rowOfRank(int64_t rank) const;

    // Compare mode (setComparison): Base / New / Δ / Δ % of the step (wall time) and the Δ of computing,
    // communication not overlapped and free per rank (query::RankDiff of the rank, ms per step), appended after
    // ColumnCount.
    bool isComparing() const { return comparison() != nullptr; }
    // The column of the step's Δ in compare mode (-1 otherwise): the default sort, by |Δ| descending.
    int compareDeltaColumn() const { return comparison() ? ColumnCount + 2 : -1; }

    // The StepColumn behind a time column, nullopt for Rank/Device/Host/WallTime.
    static std::optional<query::StepColumn> stepColumn(int column);
    // WallTime and the StepColumn columns: what shows in the time unit and is coloured.
    static bool isTimeColumn(int column);
    static QString columnTitle(int column);

    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    std::optional<QVariant> cellData(const query::StepBreakdown& row, int column, int role) const override;
    std::vector<RowColumn<query::StepBreakdown>> comparisonColumns(const query::RunDiff* diff) override;

private:
    std::optional<int64_t> rawValue(const query::StepBreakdown& row, int column) const;
    std::optional<double> deviation(const query::StepBreakdown& row, int column) const;

    const query::ColumnStats* statsOf(int column) const;

    std::array<query::ColumnStats, query::kStepColumnCount> m_stats {};
    query::ColumnStats m_wallStats;
    TimeFormat::Unit m_unit = TimeFormat::Unit::Milliseconds;
    std::optional<int64_t> m_highlightedRank;
    std::map<int64_t, QString> m_hosts;
    std::map<int64_t, const query::RankDiff*> m_rankDiffs; // by the new run's rank id
};

} // namespace npuscope::gui

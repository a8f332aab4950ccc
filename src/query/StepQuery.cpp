// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/StepQuery.h"
#include "npuscope/model/ReadRow.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

namespace npuscope::query {

namespace {

// ", <c1>, <c2>, ..." for the first `count` step columns (model::kStepColumns order), each written as
// before + column + after (nothing for the plain column, an aggregate around it otherwise).
std::string stepColumnList(int count, const char* before = "", const char* after = "")
{
    std::string out;
    for (int i = 0; i < count; ++i)
        out += std::string(", ") + before + model::kStepColumns[static_cast<size_t>(i)].sql + after;
    return out;
}

// select + " FROM " + table, only the rows of step when there is one, in order, prepared with step bound.
model::Statement prepareForStep(
    model::Database& db, std::string select, const char* table, std::optional<int64_t> step, const char* order)
{
    std::string sql = std::move(select) + " FROM " + table;
    if (step)
        sql += " WHERE step = ?1";
    sql += std::string(" ORDER BY ") + order;
    auto st = db.prepare(sql);
    if (step)
        st.bind(1, *step);
    return st;
}

// The means of count step columns of table per key (rank_id of step_trace, stage_index of cluster_stage_step), after
// head (the key and the columns before the step columns) and before the row count. skipFirst leaves out each key's
// first step when it has more than one. One text for both tables, so the two averages agree.
std::string averagedSql(const char* head, int count, const std::string& table, const std::string& key, bool skipFirst)
{
    std::string sql = head;
    sql += stepColumnList(count, "CAST(ROUND(AVG(", ")) AS INTEGER)");
    sql += ", COUNT(*) FROM " + table;
    if (skipFirst) {
        const std::string sameKey = " f WHERE f." + key + " = " + table + "." + key + ")";
        sql += " WHERE NOT (step IS NOT NULL AND step = (SELECT MIN(f.step) FROM " + table + sameKey
            + " AND (SELECT COUNT(DISTINCT f.step) FROM " + table + sameKey + " > 1)";
    }
    sql += " GROUP BY " + key + " ORDER BY " + key;
    return sql;
}

StepBreakdown readBreakdown(const model::Statement& st)
{
    StepBreakdown b;
    model::readRow(st, b.rank, b.device, b.step);
    for (int i = 0; i < kStepColumnCount; ++i)
        b.values[static_cast<size_t>(i)] = st.optInt(3 + i);
    return b;
}

} // namespace

const char* stepColumnTitle(StepColumn c) { return model::stepColumnSpec(c).title; }

const char* stepColumnJsonKey(StepColumn c) { return model::stepColumnSpec(c).jsonKey; }

bool isIterationTraceColumn(StepColumn c) { return model::stepColumnSpec(c).iterationTrace; }

std::optional<int64_t> StepBreakdown::wallTime() const
{
    const auto computing = value(StepColumn::Computing);
    const auto comm = value(StepColumn::CommunicationNotOverlapped);
    const auto free = value(StepColumn::Free);
    if (!computing && !comm && !free)
        return value(StepColumn::Total); // old generation: the iteration trace's total, else nullopt
    return computing.value_or(0) + comm.value_or(0) + free.value_or(0) + value(StepColumn::Preparing).value_or(0);
}

StepSplit splitOf(const StepBreakdown& b)
{
    StepSplit s;
    const auto interval = b.value(StepColumn::IterationInterval);
    const auto fpBp = b.value(StepColumn::FpBp);
    const auto tail = b.value(StepColumn::Tail);
    if (interval || fpBp || tail) {
        // Old generation: the iteration trace is the split; its parts add up to the file's total.
        s.iterationTrace = true;
        s.hasPreparing = false;
        s.iterationInterval = std::max<int64_t>(0, interval.value_or(0));
        s.fpBp = std::max<int64_t>(0, fpBp.value_or(0));
        s.tail = std::max<int64_t>(0, tail.value_or(0));
        s.analyseComputation = b.value(StepColumn::Computing);
        s.analyseCommunicationAlone = b.value(StepColumn::CommunicationNotOverlapped);
        return s;
    }
    s.overlapped = b.value(StepColumn::Overlapped).value_or(0);
    s.computingNotOverlapped = std::max<int64_t>(0, b.value(StepColumn::Computing).value_or(0) - s.overlapped);
    s.communicationNotOverlapped = b.value(StepColumn::CommunicationNotOverlapped).value_or(0);
    s.free = b.value(StepColumn::Free).value_or(0);
    s.preparing = b.value(StepColumn::Preparing).value_or(0);
    s.hasPreparing = b.value(StepColumn::Preparing).has_value();
    return s;
}

std::vector<int64_t> StepQuery::steps(model::Database& db)
{
    return model::readInts(db, "SELECT DISTINCT step FROM step_trace WHERE step IS NOT NULL ORDER BY step");
}

std::vector<StepBreakdown> StepQuery::breakdown(model::Database& db, std::optional<int64_t> step)
{
    // The Device_id column exists only in multi-device builds; otherwise use the rank's device.
    auto st = prepareForStep(db,
        std::string("SELECT rank_id, COALESCE(device_id, (SELECT r.device_id FROM rank r WHERE "
                    "r.rank_id = step_trace.rank_id)), step")
            + stepColumnList(kStepColumnCount),
        "step_trace", step, "rank_id, step, device_id");
    std::vector<StepBreakdown> out;
    while (st.step())
        out.push_back(readBreakdown(st));
    return out;
}

std::vector<StepBreakdown> StepQuery::averaged(model::Database& db, bool skipFirst)
{
    // Mean per rank, keeping NULL when a column is absent in every step of that rank.
    auto st = db.prepare(averagedSql("SELECT rank_id, COALESCE(MIN(device_id), (SELECT r.device_id FROM rank r WHERE "
                                     "r.rank_id = step_trace.rank_id)), NULL",
        kStepColumnCount, "step_trace", "rank_id", skipFirst));
    std::vector<StepBreakdown> out;
    while (st.step()) {
        auto b = readBreakdown(st);
        b.stepCount = static_cast<int>(st.int64(3 + kStepColumnCount));
        out.push_back(b);
    }
    return out;
}

namespace {

// The stage table has the step_trace_time.csv columns (Computing .. Preparing), in StepColumn order.
constexpr int kStageColumnCount = model::kStepTraceFileColumnCount;

std::vector<int64_t> rankList(const std::string& text)
{
    std::vector<int64_t> out;
    size_t start = 0;
    while (start < text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        if (comma > start)
            out.push_back(std::stoll(text.substr(start, comma - start)));
        start = comma + 1;
    }
    return out;
}

std::vector<StageBreakdown> readStages(model::Statement& st, bool averaged)
{
    std::vector<StageBreakdown> out;
    while (st.step()) {
        StageBreakdown b;
        b.stage = st.int64(0);
        b.ranks = rankList(st.text(1));
        b.step = st.optInt(2);
        for (int i = 0; i < kStageColumnCount; ++i)
            b.values[static_cast<size_t>(i)] = st.optInt(3 + i);
        if (averaged)
            b.stepCount = static_cast<int>(st.int64(3 + kStageColumnCount));
        out.push_back(std::move(b));
    }
    return out;
}

} // namespace

std::vector<StageBreakdown> StepQuery::stages(model::Database& db, std::optional<int64_t> step)
{
    auto st = prepareForStep(db, "SELECT stage_index, ranks, step" + stepColumnList(kStageColumnCount),
        "cluster_stage_step", step, "step, stage_index, source_line");
    return readStages(st, false);
}

std::vector<StageBreakdown> StepQuery::averagedStages(model::Database& db, bool skipFirst)
{
    auto st = db.prepare(averagedSql(
        "SELECT stage_index, MIN(ranks), NULL", kStageColumnCount, "cluster_stage_step", "stage_index", skipFirst));
    return readStages(st, true);
}

namespace {

// min / max (first rank on a tie) / mean / median / spread of (rank, value) pairs in row order.
ColumnStats statsOf(const std::vector<std::pair<int64_t, int64_t>>& values)
{
    ColumnStats s;
    double sum = 0;
    std::vector<int64_t> sorted;
    sorted.reserve(values.size());
    for (const auto& [rank, v] : values) {
        const double x = static_cast<double>(v);
        if (!s.min || x < *s.min) {
            s.min = x;
            s.minRank = rank;
        }
        if (!s.max || x > *s.max) {
            s.max = x;
            s.maxRank = rank;
        }
        sum += x;
        ++s.count;
        sorted.push_back(v);
    }
    if (s.count > 0) {
        s.mean = sum / s.count;
        if (*s.mean != 0)
            s.spread = (*s.max - *s.min) / *s.mean;
        std::sort(sorted.begin(), sorted.end());
        const size_t n = sorted.size();
        s.median = n % 2 ? static_cast<double>(sorted[n / 2])
                         : (static_cast<double>(sorted[n / 2 - 1]) + static_cast<double>(sorted[n / 2])) / 2;
    }
    return s;
}

} // namespace

std::array<ColumnStats, kStepColumnCount> clusterStats(const std::vector<StepBreakdown>& rows)
{
    std::array<ColumnStats, kStepColumnCount> stats {};
    std::vector<std::pair<int64_t, int64_t>> values;
    values.reserve(rows.size());
    for (size_t c = 0; c < stats.size(); ++c) {
        values.clear();
        for (const auto& r : rows) {
            if (const auto v = r.values[c])
                values.emplace_back(r.rank, *v);
        }
        stats[c] = statsOf(values);
    }
    return stats;
}

ColumnStats wallTimeStats(const std::vector<StepBreakdown>& rows)
{
    std::vector<std::pair<int64_t, int64_t>> values;
    values.reserve(rows.size());
    for (const auto& r : rows) {
        if (const auto v = r.wallTime())
            values.emplace_back(r.rank, *v);
    }
    return statsOf(values);
}

std::vector<StepBreakdown> StepQuery::withoutFirstStep(std::vector<StepBreakdown> rows)
{
    // Per rank: its lowest step and how many distinct steps it has (as the SQL of averaged() counts them).
    std::map<int64_t, std::set<int64_t>> steps;
    for (const auto& r : rows) {
        if (r.step)
            steps[r.rank].insert(*r.step);
    }
    std::erase_if(rows, [&steps](const StepBreakdown& r) {
        if (!r.step)
            return false;
        const auto& own = steps[r.rank];
        return own.size() > 1 && *r.step == *own.begin();
    });
    return rows;
}

std::optional<int64_t> StepQuery::slowestRank(const std::vector<StepBreakdown>& rows)
{
    std::map<int64_t, int64_t> total;
    for (const auto& row : rows) {
        const auto wall = row.wallTime();
        if (row.step && wall)
            total[row.rank] += *wall;
    }
    std::optional<int64_t> slowest;
    for (const auto& [rank, ns] : total) {
        if (!slowest || ns > total[*slowest])
            slowest = rank;
    }
    return slowest;
}

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/StatisticsQuery.h"
#include "npuscope/model/ReadRow.h"

#include <map>

namespace npuscope::query {

namespace {

// " WHERE rank_id IN (0,1,...)" for the chosen ranks (integers: no binding needed), "" for every rank.
std::string rankFilter(const std::vector<int64_t>& ranks)
{
    if (ranks.empty())
        return {};
    std::string sql = " WHERE rank_id IN (";
    for (size_t i = 0; i < ranks.size(); ++i)
        sql += (i ? "," : "") + std::to_string(ranks[i]);
    return sql + ")";
}

std::optional<double> meanOf(int64_t totalNs, int64_t count)
{
    if (count <= 0)
        return std::nullopt;
    return static_cast<double>(totalNs) / static_cast<double>(count);
}

std::vector<int64_t> ranksOf(model::Database& db, const char* table)
{
    return model::readInts(db, std::string("SELECT DISTINCT rank_id FROM ") + table + " ORDER BY rank_id");
}

} // namespace

namespace {

// The rows of table summed over ranks by its two key columns (keys: their SQL, NULL read as ""), largest total
// first; setKeys(row, statement) fills the keys. The numeric columns are the same in both files' tables.
template <typename Row, typename SetKeys>
std::vector<Row> sums(
    model::Database& db, const char* keys, const char* table, const std::vector<int64_t>& ranks, SetKeys setKeys)
{
    std::vector<Row> out;
    auto st = db.prepare(std::string("SELECT ") + keys
        + ", COUNT(DISTINCT rank_id), COALESCE(SUM(count), 0), COALESCE(SUM(total_ns), 0), MIN(min_ns), MAX(max_ns) "
          "FROM "
        + table + rankFilter(ranks) + " GROUP BY 1, 2 ORDER BY 5 DESC, 1, 2");
    while (st.step()) {
        Row r;
        setKeys(r, st);
        r.ranks = static_cast<int>(st.int64(2));
        r.count = st.int64(3);
        r.totalNs = st.int64(4);
        r.minNs = st.optInt(5);
        r.maxNs = st.optInt(6);
        r.meanNs = meanOf(r.totalNs, r.count);
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace

std::vector<OpStatisticRow> StatisticsQuery::ops(model::Database& db, const std::vector<int64_t>& ranks)
{
    auto out = sums<OpStatisticRow>(
        db, "op_type, COALESCE(core_type, '')", "op_statistic", ranks, [](OpStatisticRow& r, model::Statement& st) {
            r.opType = st.text(0);
            r.coreType = st.text(1);
        });
    int64_t all = 0;
    for (const auto& r : out)
        all += r.totalNs;
    for (auto& r : out)
        r.sharePct = all > 0 ? static_cast<double>(r.totalNs) / static_cast<double>(all) * 100.0 : 0.0;
    return out;
}

std::vector<ApiStatisticRow> StatisticsQuery::apis(model::Database& db, const std::vector<int64_t>& ranks)
{
    auto out = sums<ApiStatisticRow>(
        db, "COALESCE(level, ''), api_name", "api_statistic", ranks, [](ApiStatisticRow& r, model::Statement& st) {
            r.level = st.text(0);
            r.apiName = st.text(1);
        });
    std::map<std::string, int64_t> levelTotal;
    for (const auto& r : out)
        levelTotal[r.level] += r.totalNs;
    for (auto& r : out) {
        const int64_t level = levelTotal[r.level];
        r.sharePct = level > 0 ? static_cast<double>(r.totalNs) / static_cast<double>(level) * 100.0 : 0.0;
    }
    return out;
}

std::vector<int64_t> StatisticsQuery::opRanks(model::Database& db) { return ranksOf(db, "op_statistic"); }

std::vector<int64_t> StatisticsQuery::apiRanks(model::Database& db) { return ranksOf(db, "api_statistic"); }

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/OperatorReport.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

namespace npuscope::query {

namespace {

using ojson = nlohmann::ordered_json;

// The integer ns as a double µs: the nearest double to the exact decimal, which JSON prints with at most 3 digits.
ojson us(int64_t ns) { return ojson(static_cast<double>(ns) / 1000.0); }

// Exact fixed-point µs text with 3 decimals, computed on the integer (no double rounding).
std::string usText(int64_t ns)
{
    const uint64_t magnitude = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%s%llu.%03llu", ns < 0 ? "-" : "",
        static_cast<unsigned long long>(magnitude / 1000), static_cast<unsigned long long>(magnitude % 1000));
    return buf;
}

ojson rowJson(const OperatorRow& r)
{
    const bool some = r.count > 0;
    ojson row { { "rank", r.rank }, { "key", r.key }, { "count", r.count }, { "total_us", us(r.totalNs) },
        { "mean_us", some ? us(r.meanNs()) : ojson() }, { "min_us", some ? us(r.minNs) : ojson() },
        { "max_us", some ? us(r.maxNs) : ojson() }, { "wait_us", us(r.waitNs) } };
    // Added to npuscope.ops/1 (optional: only where a MindSpore FLOPs file gives them, docs/metrics.md).
    if (r.flops)
        row["flops"] = *r.flops;
    if (r.flopsPerSecond)
        row["flops_per_s"] = *r.flopsPerSecond;
    return row;
}

// Figures right-aligned, the key column left-aligned (last, so that a long name pushes no figure aside).
std::string table(
    const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows, size_t keyColumn)
{
    std::vector<size_t> width(header.size());
    for (size_t c = 0; c < header.size(); ++c)
        width[c] = header[c].size();
    for (const auto& r : rows)
        for (size_t c = 0; c < r.size(); ++c)
            width[c] = std::max(width[c], r[c].size());
    std::ostringstream out;
    auto line = [&](const std::vector<std::string>& cells) {
        std::string text;
        for (size_t c = 0; c < cells.size(); ++c) {
            const std::string fill(width[c] - cells[c].size(), ' ');
            text += (c ? "  " : "") + (c == keyColumn ? cells[c] + fill : fill + cells[c]);
        }
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        out << text << "\n";
    };
    line(header);
    for (const auto& r : rows)
        line(r);
    return out.str();
}

} // namespace

nlohmann::ordered_json OperatorReport::json(model::Database& db, const OperatorSelection& sel)
{
    const auto index = OperatorQuery::forDatabase(db);
    ojson rows = ojson::array();
    if (sel.compareRank && sel.rank) {
        for (const auto& c : index->compare(sel.groupBy, *sel.rank, *sel.compareRank)) {
            ojson r = rowJson(c.base);
            r["compare_rank"] = c.compareRank;
            r["compare_count"] = c.compareCount;
            r["compare_total_us"] = us(c.compareTotalNs);
            r["diff_us"] = us(c.diffNs());
            rows.push_back(std::move(r));
        }
    } else {
        for (const auto& r : index->group(sel.groupBy, sel.rank))
            rows.push_back(rowJson(r));
    }
    return ojson { { "schema", "npuscope.ops/1" }, { "group_by", std::string(groupByName(sel.groupBy)) },
        { "rows", std::move(rows) } };
}

std::string OperatorReport::text(model::Database& db, const OperatorSelection& sel)
{
    const auto index = OperatorQuery::forDatabase(db);
    const std::string by(groupByName(sel.groupBy));
    std::vector<std::vector<std::string>> cells;
    if (sel.compareRank && sel.rank) {
        for (const auto& c : index->compare(sel.groupBy, *sel.rank, *sel.compareRank))
            cells.push_back({ std::to_string(c.base.count), usText(c.base.totalNs), std::to_string(c.compareCount),
                usText(c.compareTotalNs), usText(c.diffNs()), c.base.key });
        const std::string base = "rank " + std::to_string(*sel.rank);
        const std::string other = "rank " + std::to_string(*sel.compareRank);
        return "Operators by " + by + ": " + other + " compared with " + base + " (µs, difference = " + other + " − "
            + base + ")\n"
            + table({ "count " + std::to_string(*sel.rank), "total " + std::to_string(*sel.rank),
                        "count " + std::to_string(*sel.compareRank), "total " + std::to_string(*sel.compareRank),
                        "difference", by },
                cells, 5);
    }
    for (const auto& r : index->group(sel.groupBy, sel.rank))
        cells.push_back({ std::to_string(r.rank), std::to_string(r.count), usText(r.totalNs), usText(r.meanNs()),
            usText(r.minNs), usText(r.maxNs), usText(r.waitNs), r.key });
    return "Operators by " + by + " over all loaded steps (µs)\n"
        + table({ "rank", "count", "total", "mean", "min", "max", "wait", by }, cells, 7);
}

} // namespace npuscope::query

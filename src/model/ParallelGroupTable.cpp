// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/ParallelGroupTable.h"
#include "npuscope/model/ReadRow.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <vector>

namespace npuscope::model {

namespace {

// Ascending ranks as stored: "0,2,4" ("" for none).
std::string rankText(const std::vector<int64_t>& ranks)
{
    std::string out;
    for (const int64_t r : ranks) {
        if (!out.empty())
            out += ',';
        out += std::to_string(r);
    }
    return out;
}

std::vector<int64_t> parseRankText(std::string_view text)
{
    std::vector<int64_t> out;
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
        int64_t v = 0;
        const auto [next, ec] = std::from_chars(p, end, v);
        if (ec != std::errc())
            break; // written by add(): only integers and commas
        out.push_back(v);
        p = next + 1;
    }
    return out;
}

} // namespace

ParallelGroupTable::ParallelGroupTable(Database& db)
    : m_insert(db, "parallel_group", { "rank_id", "raw_name", "name", "global_ranks" })
{
}

void ParallelGroupTable::add(const ParallelGroupRow& r)
{
    m_insert.insert(r.rankId, r.rawName, r.name, rankText(r.globalRanks));
}

std::optional<ParallelGroupRow> ParallelGroupTable::fromJson(
    int64_t rankId, std::string_view rawName, const nlohmann::json& entry)
{
    // A repeated key keeps its last value (nlohmann's DOM does the same), so "the last one" holds.
    if (!entry.is_object() || !entry.contains("global_ranks"))
        return std::nullopt;
    const auto& ranks = entry.at("global_ranks");
    if (!ranks.is_array())
        return std::nullopt;
    ParallelGroupRow row;
    row.rankId = rankId;
    row.rawName = rawName;
    for (const auto& r : ranks) {
        if (r.is_number_integer())
            row.globalRanks.push_back(r.get<int64_t>());
    }
    std::sort(row.globalRanks.begin(), row.globalRanks.end());
    if (const auto name = entry.find("group_name"); name != entry.end() && name->is_string())
        row.name = name->get<std::string>();
    return row;
}

void ParallelGroupTable::forEach(Database& db, const std::function<void(const ParallelGroupRow&)>& fn)
{
    auto st = db.prepare("SELECT rank_id, raw_name, name, global_ranks FROM parallel_group ORDER BY rowid");
    ParallelGroupRow row;
    while (st.step()) {
        readRow(st, row.rankId, row.rawName, row.name);
        row.globalRanks = parseRankText(st.text(3));
        fn(row);
    }
}

void ParallelGroupTable::forEachLatest(Database& db, const std::function<void(const ParallelGroupRow&)>& fn)
{
    struct Latest {
        int64_t order = 0; // the last row's place (rows are read last to first)
        int64_t rankId = 0;
        std::string globalRanks;
        std::optional<std::string> name;
    };
    std::unordered_map<std::string, Latest> byName;
    auto st = db.prepare("SELECT rank_id, raw_name, name, global_ranks FROM parallel_group ORDER BY rowid DESC");
    for (int64_t read = 0; st.step(); ++read) {
        auto [it, first] = byName.try_emplace(st.text(1));
        Latest& l = it->second;
        if (first) {
            l.order = -read;
            l.rankId = st.int64(0);
            l.globalRanks = st.text(3);
        }
        if (!l.name)
            l.name = st.optText(2);
    }
    std::vector<std::pair<const std::string*, const Latest*>> rows;
    rows.reserve(byName.size());
    for (const auto& [rawName, latest] : byName)
        rows.emplace_back(&rawName, &latest);
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second->order < b.second->order; });
    ParallelGroupRow row;
    for (const auto& [rawName, latest] : rows) {
        row.rankId = latest->rankId;
        row.rawName = *rawName;
        row.name = latest->name;
        row.globalRanks = parseRankText(latest->globalRanks);
        fn(row);
    }
}

} // namespace npuscope::model

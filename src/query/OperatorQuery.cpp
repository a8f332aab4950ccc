// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/OperatorQuery.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace npuscope::query {

namespace {

constexpr const char* kNoType = "(no type)";

uint64_t rankKey(int64_t rank, int32_t key)
{
    return (static_cast<uint64_t>(static_cast<uint32_t>(rank)) << 32) | static_cast<uint32_t>(key);
}

int64_t rankOf(uint64_t packed) { return static_cast<int32_t>(static_cast<uint32_t>(packed >> 32)); }

} // namespace

std::string_view groupByName(OperatorGroupBy by)
{
    switch (by) {
    case OperatorGroupBy::Type:
        return "type";
    case OperatorGroupBy::Name:
        return "name";
    case OperatorGroupBy::Shape:
        return "shape";
    }
    return "type";
}

std::optional<OperatorGroupBy> groupByFromName(std::string_view name)
{
    for (auto by : { OperatorGroupBy::Type, OperatorGroupBy::Name, OperatorGroupBy::Shape })
        if (groupByName(by) == name)
            return by;
    return std::nullopt;
}

int64_t OperatorRow::meanNs() const
{
    if (count == 0)
        return 0;
    const int64_t half = count / 2;
    return totalNs >= 0 ? (totalNs + half) / count : -((-totalNs + half) / count);
}

void OperatorQuery::Accumulator::add(const Kernel& k)
{
    minNs = count == 0 ? k.durNs : std::min(minNs, k.durNs);
    maxNs = count == 0 ? k.durNs : std::max(maxNs, k.durNs);
    ++count;
    totalNs += k.durNs;
    waitNs += k.waitNs;
}

int32_t OperatorQuery::intern(std::string s)
{
    auto [it, inserted] = m_keyIds.emplace(std::move(s), static_cast<int32_t>(m_keys.size()));
    if (inserted)
        m_keys.push_back(it->first);
    return it->second;
}

std::shared_ptr<const OperatorQuery> OperatorQuery::build(model::Database& db)
{
    auto index = std::make_shared<OperatorQuery>();
    // The model's string ids of names and types mapped once to key ids.
    std::unordered_map<int64_t, int32_t> keyOfString;
    auto strings = db.prepare("SELECT id, value FROM string WHERE id IN (SELECT name_id FROM kernel UNION "
                              "SELECT type_id FROM kernel WHERE type_id IS NOT NULL)");
    std::unordered_map<int64_t, std::string> text;
    while (strings.step()) {
        const int64_t id = strings.int64(0);
        text.emplace(id, strings.text(1));
        keyOfString.emplace(id, index->intern(strings.text(1)));
    }
    const int32_t noType = index->intern(kNoType);
    auto st = db.prepare("SELECT rank_id, name_id, type_id, input_shapes, dur, wait_ns FROM kernel ORDER BY rowid");
    while (st.step()) {
        Kernel k;
        k.rank = static_cast<int32_t>(st.int64(0));
        const int64_t nameId = st.int64(1);
        k.key[static_cast<int>(OperatorGroupBy::Name)] = keyOfString.at(nameId);
        k.key[static_cast<int>(OperatorGroupBy::Type)] = st.isNull(2) ? noType : keyOfString.at(st.int64(2));
        const auto shapes = st.optText(3);
        k.key[static_cast<int>(OperatorGroupBy::Shape)] = shapes && !shapes->empty()
            ? index->intern(text.at(nameId) + " [" + *shapes + "]")
            : k.key[static_cast<int>(OperatorGroupBy::Name)];
        k.durNs = st.int64(4);
        k.waitNs = st.optInt(5).value_or(0);
        index->m_kernels.push_back(k);
    }
    return index;
}

std::shared_ptr<const OperatorQuery> OperatorQuery::forDatabase(model::Database& db)
{
    return db.cached<OperatorQuery>([](model::Database& d) { return build(d); });
}

std::vector<int64_t> OperatorQuery::ranks() const
{
    std::set<int64_t> seen;
    for (const auto& k : m_kernels)
        seen.insert(k.rank);
    return { seen.begin(), seen.end() };
}

template <typename Keep>
std::vector<std::pair<uint64_t, OperatorQuery::Accumulator>> OperatorQuery::accumulate(
    OperatorGroupBy by, Keep keep) const
{
    const int slot = static_cast<int>(by);
    std::vector<std::pair<uint64_t, Accumulator>> groups;
    std::unordered_map<uint64_t, uint32_t> slotOf;
    for (const auto& k : m_kernels) {
        if (!keep(k.rank))
            continue;
        auto [it, inserted] = slotOf.try_emplace(rankKey(k.rank, k.key[slot]), static_cast<uint32_t>(groups.size()));
        if (inserted)
            groups.push_back({ it->first, Accumulator {} });
        groups[it->second].second.add(k);
    }
    return groups;
}

OperatorRow OperatorQuery::row(uint64_t key, const Accumulator& a) const
{
    OperatorRow r;
    r.rank = rankOf(key);
    r.key = m_keys[static_cast<uint32_t>(key)];
    r.count = a.count;
    r.totalNs = a.totalNs;
    r.minNs = a.minNs;
    r.maxNs = a.maxNs;
    r.waitNs = a.waitNs;
    return r;
}

std::vector<OperatorRow> OperatorQuery::group(OperatorGroupBy by, std::optional<int64_t> rank) const
{
    const auto groups = accumulate(by, [&](int32_t r) { return !rank || r == *rank; });
    std::vector<OperatorRow> rows;
    rows.reserve(groups.size());
    for (const auto& [key, a] : groups)
        rows.push_back(row(key, a));
    std::sort(rows.begin(), rows.end(), [](const OperatorRow& a, const OperatorRow& b) {
        return std::make_tuple(a.rank, -a.totalNs, std::cref(a.key))
            < std::make_tuple(b.rank, -b.totalNs, std::cref(b.key));
    });
    return rows;
}

std::vector<OperatorCompareRow> OperatorQuery::compare(OperatorGroupBy by, int64_t baseRank, int64_t compareRank) const
{
    const auto groups = accumulate(by, [&](int32_t r) { return r == baseRank || r == compareRank; });
    // Key id -> row, filled from both ranks' groups.
    std::unordered_map<uint32_t, OperatorCompareRow> byKey;
    for (const auto& [key, a] : groups) {
        const auto keyId = static_cast<uint32_t>(key);
        auto [it, inserted] = byKey.try_emplace(keyId);
        OperatorCompareRow& c = it->second;
        if (inserted) {
            c.base.rank = baseRank;
            c.base.key = m_keys[keyId];
            c.compareRank = compareRank;
        }
        // The same rank on both sides compares a rank with itself.
        if (rankOf(key) == baseRank) {
            c.base = row(key, a);
            c.base.rank = baseRank;
        }
        if (rankOf(key) == compareRank) {
            c.compareCount = a.count;
            c.compareTotalNs = a.totalNs;
        }
    }
    std::vector<OperatorCompareRow> rows;
    rows.reserve(byKey.size());
    for (auto& [keyId, c] : byKey)
        rows.push_back(std::move(c));
    std::sort(rows.begin(), rows.end(), [](const OperatorCompareRow& a, const OperatorCompareRow& b) {
        return std::make_tuple(-a.diffNs(), std::cref(a.base.key))
            < std::make_tuple(-b.diffNs(), std::cref(b.base.key));
    });
    return rows;
}

} // namespace npuscope::query

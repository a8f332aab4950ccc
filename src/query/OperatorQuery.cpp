// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/OperatorQuery.h"

#include "npuscope/core/EnumNames.h"
#include "npuscope/query/TranslationMarker.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace npuscope::query {

namespace {

constexpr const char* kNoType = "(no type)";
constexpr int kCoreBits = 64;

uint64_t rankKey(int64_t rank, int32_t key)
{
    return (static_cast<uint64_t>(static_cast<uint32_t>(rank)) << 32) | static_cast<uint32_t>(key);
}

int64_t rankOf(uint64_t packed) { return static_cast<int32_t>(static_cast<uint32_t>(packed >> 32)); }

constexpr EnumName<OperatorGroupBy> kGroupByNames[] { { OperatorGroupBy::Type, "type" },
    { OperatorGroupBy::Name, "name" }, { OperatorGroupBy::Shape, "shape" } };

constexpr EnumName<CoreClass> kCoreClassNames[] {
    { CoreClass::AiCore, QT_TRANSLATE_NOOP("CoreClass", "AI Core") },
    { CoreClass::AiVector, QT_TRANSLATE_NOOP("CoreClass", "AI Vector") },
    { CoreClass::Mix, QT_TRANSLATE_NOOP("CoreClass", "MIX") },
    { CoreClass::AiCpu, QT_TRANSLATE_NOOP("CoreClass", "AI CPU") },
    { CoreClass::Communication, QT_TRANSLATE_NOOP("CoreClass", "communication") },
};

} // namespace

std::string_view groupByName(OperatorGroupBy by) { return nameOf(kGroupByNames, by, "type"); }

std::optional<OperatorGroupBy> groupByFromName(std::string_view name) { return valueOf(kGroupByNames, name); }

CoreClass coreClassOf(std::string_view core)
{
    // GPU_* and NCCL: the classes of PyTorch Kineto GPU kernels (io::KinetoKernelClass, docs/metrics.md).
    if (core == "AI_CORE" || core == "GPU_GEMM" || core == "GPU_CONV")
        return CoreClass::AiCore;
    if (core == "AI_VECTOR_CORE" || core == "GPU_VECTOR")
        return CoreClass::AiVector;
    if (core == "MIX_AIC" || core == "MIX_AIV" || core == "GPU_FLASH_ATTENTION")
        return CoreClass::Mix;
    if (core == "AI_CPU")
        return CoreClass::AiCpu;
    if (core == "HCCL" || core == "COMMUNICATION" || core == "NCCL")
        return CoreClass::Communication;
    return CoreClass::Other;
}

std::string_view coreClassName(CoreClass c)
{
    return nameOf(kCoreClassNames, c, QT_TRANSLATE_NOOP("CoreClass", "other"));
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
    if (k.blockDim >= 0) {
        blockDimMin = blockDimMin < 0 ? k.blockDim : std::min<int64_t>(blockDimMin, k.blockDim);
        blockDimMax = std::max<int64_t>(blockDimMax, k.blockDim);
    }
    if (k.core >= 0)
        cores |= uint64_t { 1 } << std::min(k.core, kCoreBits - 1);
}

void OperatorQuery::Accumulator::merge(const Accumulator& a)
{
    if (a.count == 0)
        return;
    minNs = count == 0 ? a.minNs : std::min(minNs, a.minNs);
    maxNs = count == 0 ? a.maxNs : std::max(maxNs, a.maxNs);
    count += a.count;
    totalNs += a.totalNs;
    waitNs += a.waitNs;
    if (a.blockDimMin >= 0) {
        blockDimMin = blockDimMin < 0 ? a.blockDimMin : std::min(blockDimMin, a.blockDimMin);
        blockDimMax = std::max(blockDimMax, a.blockDimMax);
    }
    cores |= a.cores;
}

int32_t OperatorQuery::intern(std::string s)
{
    auto [it, inserted] = m_keyIds.emplace(std::move(s), static_cast<int32_t>(m_keys.size()));
    if (inserted) {
        m_keys.push_back(it->first);
        m_keyShapes.emplace_back();
    }
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
    std::unordered_map<std::string, int32_t> coreIds;
    auto st = db.prepare("SELECT rank_id, name_id, type_id, input_shapes, dur, wait_ns, block_dim, accelerator_core "
                         "FROM kernel ORDER BY rowid");
    while (st.step()) {
        Kernel k;
        k.rank = static_cast<int32_t>(st.int64(0));
        const int64_t nameId = st.int64(1);
        k.key[static_cast<int>(OperatorGroupBy::Name)] = keyOfString.at(nameId);
        k.key[static_cast<int>(OperatorGroupBy::Type)] = st.isNull(2) ? noType : keyOfString.at(st.int64(2));
        const auto shapes = st.optText(3);
        if (shapes && !shapes->empty()) {
            const int32_t id = index->intern(text.at(nameId) + " [" + *shapes + "]");
            index->m_keyShapes[static_cast<size_t>(id)] = *shapes;
            k.key[static_cast<int>(OperatorGroupBy::Shape)] = id;
        } else {
            k.key[static_cast<int>(OperatorGroupBy::Shape)] = k.key[static_cast<int>(OperatorGroupBy::Name)];
        }
        k.durNs = st.int64(4);
        k.waitNs = st.optInt(5).value_or(0);
        k.blockDim = static_cast<int32_t>(st.optInt(6).value_or(-1));
        if (auto core = st.optText(7)) {
            auto [it, inserted] = coreIds.try_emplace(*core, static_cast<int32_t>(index->m_cores.size()));
            if (inserted) {
                index->m_cores.push_back(*core);
                index->m_coreClass.push_back(coreClassOf(*core));
            }
            k.core = it->second;
        }
        index->m_kernels.push_back(k);
    }
    index->joinFlops(db);
    return index;
}

void OperatorQuery::joinFlops(model::Database& db)
{
    // Per (rank, name key id): the file's rows of that name summed (a name on several lines, as in the per-task
    // form, adds up); the time each row implies is its FLOPs ÷ its FLOPS.
    std::unordered_map<uint64_t, FlopsSum> byName;
    auto st = db.prepare("SELECT rank_id, name, TOTAL(flops), "
                         "TOTAL(CASE WHEN flops_per_s > 0 THEN flops / flops_per_s END), "
                         "SUM(flops IS NOT NULL AND (flops_per_s IS NULL OR flops_per_s <= 0)) "
                         "FROM op_flops WHERE flops IS NOT NULL GROUP BY rank_id, name");
    while (st.step()) {
        const auto id = m_keyIds.find(st.text(1));
        if (id == m_keyIds.end())
            continue;
        byName[rankKey(st.int64(0), id->second)] = { st.real(2), st.real(3), st.int64(4) == 0 };
    }
    if (byName.empty())
        return;
    const auto add = [](FlopsSum& to, const FlopsSum& from) {
        to.flops += from.flops;
        to.seconds += from.seconds;
        to.rateKnown = to.rateKnown && from.rateKnown;
    };
    // Each distinct (rank, key, name) once: a key's FLOPs are its names', not its kernels' count of them.
    std::array<std::set<std::pair<uint64_t, int32_t>>, 3> seen;
    const int nameSlot = static_cast<int>(OperatorGroupBy::Name);
    for (const auto& k : m_kernels) {
        const auto f = byName.find(rankKey(k.rank, k.key[nameSlot]));
        if (f == byName.end())
            continue;
        for (int slot = 0; slot < 3; ++slot) {
            if (!seen[static_cast<size_t>(slot)].emplace(rankKey(k.rank, k.key[slot]), k.key[nameSlot]).second)
                continue;
            add(m_keyFlops[static_cast<size_t>(slot)][rankKey(k.rank, k.key[slot])], f->second);
            add(m_keyFlops[static_cast<size_t>(slot)][rankKey(kAllRanks, k.key[slot])], f->second);
        }
    }
}

void OperatorQuery::fillFlops(OperatorRow& r, uint64_t packed, OperatorGroupBy by) const
{
    const auto& sums = m_keyFlops[static_cast<size_t>(by)];
    const auto it = sums.find(packed);
    if (it == sums.end())
        return;
    r.flops = it->second.flops;
    if (it->second.rateKnown && it->second.seconds > 0)
        r.flopsPerSecond = it->second.flops / it->second.seconds;
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

OperatorRow OperatorQuery::row(uint64_t key, const Accumulator& a, OperatorGroupBy by) const
{
    OperatorRow r;
    r.rank = rankOf(key);
    r.key = m_keys[static_cast<uint32_t>(key)];
    if (by == OperatorGroupBy::Shape)
        r.shapes = m_keyShapes[static_cast<uint32_t>(key)];
    r.blockDimMin = a.blockDimMin;
    r.blockDimMax = a.blockDimMax;
    for (size_t i = 0; i < m_cores.size() && a.cores; ++i) {
        const uint64_t bit = uint64_t { 1 } << std::min<size_t>(i, kCoreBits - 1);
        if (!(a.cores & bit))
            continue;
        r.accelerator += (r.accelerator.empty() ? "" : ", ") + (i < kCoreBits - 1 ? m_cores[i] : std::string("…"));
        if (i >= kCoreBits - 1)
            break;
    }
    r.count = a.count;
    r.totalNs = a.totalNs;
    r.minNs = a.minNs;
    r.maxNs = a.maxNs;
    r.waitNs = a.waitNs;
    fillFlops(r, key, by);
    return r;
}

std::vector<OperatorRow> OperatorQuery::group(OperatorGroupBy by, std::optional<int64_t> rank) const
{
    const auto groups = accumulate(by, [&](int32_t r) { return !rank || r == *rank; });
    std::vector<OperatorRow> rows;
    rows.reserve(groups.size());
    for (const auto& [key, a] : groups)
        rows.push_back(row(key, a, by));
    std::sort(rows.begin(), rows.end(), [](const OperatorRow& a, const OperatorRow& b) {
        return std::make_tuple(a.rank, -a.totalNs, std::cref(a.key))
            < std::make_tuple(b.rank, -b.totalNs, std::cref(b.key));
    });
    return rows;
}

std::vector<OperatorRow> OperatorQuery::aggregate(OperatorGroupBy by) const
{
    const int slot = static_cast<int>(by);
    // Key id -> accumulator over every rank; key ids are dense, so a vector indexed by id.
    std::vector<Accumulator> byKey(m_keys.size());
    for (const auto& k : m_kernels)
        byKey[static_cast<size_t>(k.key[slot])].add(k);
    std::vector<OperatorRow> rows;
    for (size_t id = 0; id < byKey.size(); ++id) {
        if (byKey[id].count > 0)
            rows.push_back(row(rankKey(kAllRanks, static_cast<int32_t>(id)), byKey[id], by));
    }
    std::sort(rows.begin(), rows.end(), [](const OperatorRow& a, const OperatorRow& b) {
        return std::make_tuple(-a.totalNs, std::cref(a.key)) < std::make_tuple(-b.totalNs, std::cref(b.key));
    });
    return rows;
}

std::array<int64_t, kCoreClassCount> OperatorQuery::coreTotals(std::optional<int64_t> rank) const
{
    std::array<int64_t, kCoreClassCount> totals {};
    for (const auto& k : m_kernels) {
        if (rank && k.rank != *rank)
            continue;
        const CoreClass c = k.core >= 0 ? m_coreClass[static_cast<size_t>(k.core)] : CoreClass::Other;
        totals[static_cast<size_t>(c)] += k.durNs;
    }
    return totals;
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
            c.base = row(key, a, by);
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

namespace {

// Keeps the n rows ranked first by `before`, in their original order.
template <typename Row, typename Before> std::vector<Row> keepFirst(std::vector<Row> rows, size_t n, Before before)
{
    if (n == 0 || n >= rows.size())
        return rows;
    std::vector<size_t> order(rows.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
        [&](size_t a, size_t b) { return before(rows[a], rows[b]); });
    order.resize(n);
    std::sort(order.begin(), order.end());
    std::vector<Row> out;
    out.reserve(n);
    for (size_t i : order)
        out.push_back(std::move(rows[i]));
    return out;
}

} // namespace

std::vector<OperatorRow> OperatorQuery::largest(std::vector<OperatorRow> rows, size_t n)
{
    return keepFirst(std::move(rows), n, [](const OperatorRow& a, const OperatorRow& b) {
        return std::make_tuple(-a.totalNs, std::cref(a.key)) < std::make_tuple(-b.totalNs, std::cref(b.key));
    });
}

std::vector<OperatorCompareRow> OperatorQuery::largest(std::vector<OperatorCompareRow> rows, size_t n)
{
    return keepFirst(std::move(rows), n, [](const OperatorCompareRow& a, const OperatorCompareRow& b) {
        const int64_t da = a.diffNs() < 0 ? -a.diffNs() : a.diffNs();
        const int64_t db = b.diffNs() < 0 ? -b.diffNs() : b.diffNs();
        return std::make_tuple(-da, std::cref(a.base.key)) < std::make_tuple(-db, std::cref(b.base.key));
    });
}

std::vector<OperatorShare> OperatorQuery::topShares(const std::vector<OperatorRow>& rows, size_t n)
{
    int64_t all = 0;
    std::vector<OperatorRow> positive;
    for (const auto& r : rows) {
        all += r.totalNs;
        if (r.totalNs > 0)
            positive.push_back(r);
    }
    const size_t keys = positive.size();
    auto top = largest(std::move(positive), n);
    std::sort(top.begin(), top.end(), [](const OperatorRow& a, const OperatorRow& b) {
        return std::make_tuple(-a.totalNs, std::cref(a.key)) < std::make_tuple(-b.totalNs, std::cref(b.key));
    });
    std::vector<OperatorShare> shares;
    int64_t rest = all;
    for (const auto& r : top) {
        shares.push_back({ r.key, r.totalNs });
        rest -= r.totalNs;
    }
    if (top.size() < keys || rest != 0)
        shares.push_back({ "other", rest });
    return shares;
}

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/compare/RunComparison.h"

#include "npuscope/core/EnumNames.h"
#include "npuscope/core/ThreadPriority.h"

#include "npuscope/query/MemoryQuery.h"
#include "npuscope/query/OperatorQuery.h"
#include "npuscope/query/StepQuery.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <set>
#include <thread>
#include <tuple>
#include <unordered_map>

namespace npuscope::query {

namespace {

constexpr double kNsPerMs = 1e6;
constexpr const char* kUnmappedCore = "GPU_UNMAPPED";
constexpr const char* kUnmappedCategory = "unmapped GPU kernel";
constexpr const char* kNoType = "(no type)";

std::optional<double> ms(std::optional<int64_t> ns)
{
    if (!ns)
        return std::nullopt;
    return static_cast<double>(*ns) / kNsPerMs;
}

DiffBreakdown breakdownOf(const StepBreakdown& b)
{
    DiffBreakdown d;
    auto set = [&](DiffComponent c, std::optional<int64_t> ns) { d.ms[static_cast<std::size_t>(c)] = ms(ns); };
    set(DiffComponent::Step, b.wallTime());
    set(DiffComponent::Computing, b.value(StepColumn::Computing));
    set(DiffComponent::CommunicationNotOverlapped, b.value(StepColumn::CommunicationNotOverlapped));
    set(DiffComponent::Overlapped, b.value(StepColumn::Overlapped));
    set(DiffComponent::Free, b.value(StepColumn::Free));
    set(DiffComponent::Bubble, b.value(StepColumn::Bubble));
    set(DiffComponent::Preparing, b.value(StepColumn::Preparing));
    return d;
}

// Mean of each component over the rows that have it.
DiffBreakdown meanOf(const std::vector<const DiffBreakdown*>& rows)
{
    DiffBreakdown out;
    for (std::size_t c = 0; c < kDiffComponentCount; ++c) {
        double sum = 0;
        int n = 0;
        for (const auto* r : rows) {
            if (r->ms[c]) {
                sum += *r->ms[c];
                ++n;
            }
        }
        if (n > 0)
            out.ms[c] = sum / n;
    }
    return out;
}

std::string categoryOf(const std::optional<std::string>& core)
{
    if (core && *core == kUnmappedCore)
        return kUnmappedCategory;
    return std::string(coreClassName(coreClassOf(core.value_or(std::string()))));
}

// One side's figures before matching.
struct Side {
    std::map<int64_t, DiffBreakdown> ranks;
    DiffSide info;
    // Per key: Σ count and Σ ns over the chosen steps of every rank, divided later.
    struct Sum {
        std::string category;
        double count = 0, ns = 0;
    };
    std::map<std::string, Sum> categories, types, kernels, unmapped;
    struct CommSum {
        double count = 0, elapse = 0, transit = 0, wait = 0, sizeMb = 0, bwTransit = 0;
        std::set<int64_t> ranks;
    };
    std::map<std::pair<std::string, std::string>, CommSum> comm;
    std::map<int64_t, std::optional<double>> memory;
    struct MemorySum {
        double mb = 0;
        int64_t count = 0;
    };
    std::map<int64_t, std::map<std::string, MemorySum>> memoryOperators; // rank -> operator name -> allocations
};

// The SQL condition keeping rows of the chosen steps ("" when every row counts).
std::string stepFilter(const std::vector<int64_t>& steps)
{
    if (steps.empty())
        return "";
    std::string sql = "step IN (";
    for (std::size_t i = 0; i < steps.size(); ++i)
        sql += (i ? "," : "") + std::to_string(steps[i]);
    return sql + ")";
}

Side readSide(model::Database& db, std::optional<int64_t> step)
{
    auto guard = db.lock();
    Side side;
    side.info.step = step;
    const auto rows = step ? StepQuery::breakdown(db, step) : StepQuery::averaged(db);
    for (const auto& r : rows) {
        side.ranks[r.rank] = breakdownOf(r);
        side.info.ranks.push_back(r.rank);
    }
    std::vector<int64_t> steps;
    if (step)
        steps.push_back(*step);
    else
        steps = StepQuery::steps(db);
    side.info.stepCount = static_cast<int64_t>(steps.size());
    const std::string filter = stepFilter(steps);
    auto levels = db.prepare("SELECT DISTINCT profiler_level FROM rank WHERE profiler_level IS NOT NULL AND "
                             "profiler_level <> '' ORDER BY 1");
    while (levels.step())
        side.info.profilerLevels.push_back(levels.text(0));

    // Kernels: one pass over the rows, strings resolved once per distinct id.
    struct Key {
        int64_t name;
        std::optional<int64_t> type;
        std::optional<std::string> core;
    };
    std::map<std::tuple<int64_t, int64_t, std::string>, std::pair<Key, std::pair<int64_t, int64_t>>> byKey;
    std::set<int64_t> kernelRanks;
    {
        // The kernel rows of imported ranks and the kernel_sum rows (count, Σ dur per key) of the others
        // (load::Loader::loadKernelSums); importing a rank's kernels drops its kernel_sum rows, so none counts twice.
        const std::string where = filter.empty() ? std::string() : " WHERE " + filter;
        auto st = db.prepare("SELECT rank_id, name_id, type_id, accelerator_core, 1, dur FROM kernel" + where
            + " UNION ALL SELECT rank_id, name_id, type_id, accelerator_core, kernels, dur_ns FROM kernel_sum" + where);
        while (st.step()) {
            const auto type = st.optInt(2);
            const auto core = st.optText(3);
            auto& [key, sums] = byKey[{ st.int64(1), type.value_or(-1), core.value_or(std::string("\x01")) }];
            key = Key { st.int64(1), type, core };
            sums.first += st.int64(4);
            sums.second += st.int64(5);
            kernelRanks.insert(st.int64(0));
            side.info.kernelRows += st.int64(4);
        }
    }
    side.info.kernelRanks = static_cast<int64_t>(kernelRanks.size());
    std::unordered_map<int64_t, std::string> strings;
    {
        auto st = db.prepare("SELECT id, value FROM string");
        while (st.step())
            strings.emplace(st.int64(0), st.text(1));
    }
    const double perStep = static_cast<double>(std::max<int64_t>(1, side.info.stepCount))
        * static_cast<double>(std::max<int64_t>(1, side.info.kernelRanks));
    auto add = [&](std::map<std::string, Side::Sum>& map, const std::string& k, const std::string& category,
                   int64_t count, int64_t ns) {
        auto [it, added] = map.try_emplace(k);
        if (added)
            it->second.category = category;
        it->second.count += static_cast<double>(count) / perStep;
        it->second.ns += static_cast<double>(ns) / perStep;
    };
    for (const auto& [id, entry] : byKey) {
        const auto& [key, sums] = entry;
        const std::string category = categoryOf(key.core);
        const std::string name = strings.count(key.name) ? strings[key.name] : std::string();
        const std::string type = key.type && strings.count(*key.type) ? strings[*key.type] : std::string(kNoType);
        add(side.categories, category, category, sums.first, sums.second);
        add(side.types, type, category, sums.first, sums.second);
        add(side.kernels, name, category, sums.first, sums.second);
        if (key.core && *key.core == kUnmappedCore)
            add(side.unmapped, name, category, sums.first, sums.second);
    }

    // Communication ops (not the "Total Op Info" rows) and their bandwidth rows, summed here in one pass over each
    // table: SQL's GROUP BY on the text keys and the bandwidth rows' join sorted every row (seconds on a 1,024-rank
    // cluster's 700,000 bandwidth rows, npuscope-bench diff).
    {
        std::unordered_map<int64_t, Side::CommSum*> ofOp; // comm_op.id -> its key's sums
        auto st = db.prepare("SELECT id, COALESCE(op_type, ''), COALESCE(group_hash, ''), rank_id, elapse_ns, "
                             "transit_ns, wait_ns FROM comm_op WHERE is_total = 0"
            + (filter.empty() ? std::string() : " AND " + filter));
        while (st.step()) {
            auto& c = side.comm[{ st.text(1), st.text(2) }];
            c.count += 1;
            c.elapse += st.optReal(4).value_or(0);
            c.transit += st.optReal(5).value_or(0);
            c.wait += st.optReal(6).value_or(0);
            c.ranks.insert(st.int64(3));
            ofOp.emplace(st.int64(0), &c);
        }
        auto bw
            = db.prepare("SELECT comm_op_id, size_mb, transit_ns FROM comm_bandwidth WHERE bandwidth_gbps IS NOT NULL");
        while (bw.step()) {
            const auto it = ofOp.find(bw.int64(0));
            if (it == ofOp.end())
                continue;
            it->second->sizeMb += bw.optReal(1).value_or(0);
            it->second->bwTransit += bw.optReal(2).value_or(0);
        }
    }
    for (const auto& p : MemoryQuery::peaks(db))
        side.memory[p.rank] = p.peakReservedMb;
    {
        auto st = db.prepare("SELECT rank_id, name, COUNT(*), TOTAL(size_kb) FROM operator_memory GROUP BY 1, 2");
        while (st.step())
            side.memoryOperators[st.int64(0)][st.text(1)] = { st.real(3) / 1024.0, st.int64(2) };
    }
    return side;
}

std::vector<OperatorDiff> joined(
    const std::map<std::string, Side::Sum>& base, const std::map<std::string, Side::Sum>& neu)
{
    std::map<std::string, OperatorDiff> byKey;
    for (const auto& [k, s] : base)
        byKey[k] = { k, s.category, s.ns / kNsPerMs, 0, s.count, 0 };
    for (const auto& [k, s] : neu) {
        auto it = byKey.try_emplace(k, OperatorDiff { k, s.category, 0, 0, 0, 0 }).first;
        it->second.newMs = s.ns / kNsPerMs;
        it->second.newCount = s.count;
    }
    std::vector<OperatorDiff> out;
    out.reserve(byKey.size());
    for (auto& [k, d] : byKey)
        out.push_back(std::move(d));
    std::stable_sort(out.begin(), out.end(),
        [](const OperatorDiff& a, const OperatorDiff& b) { return std::abs(a.deltaMs()) > std::abs(b.deltaMs()); });
    return out;
}

// Per component its summary JSON key and its title.
struct ComponentText {
    DiffComponent value;
    const char* key;
    const char* title;
};
constexpr ComponentText kComponentTexts[] {
    { DiffComponent::Step, "step_ms", "step" },
    { DiffComponent::Computing, "computing_ms", "computing" },
    { DiffComponent::CommunicationNotOverlapped, "communication_not_overlapped_ms", "communication not overlapped" },
    { DiffComponent::Overlapped, "overlapped_ms", "overlapped" },
    { DiffComponent::Free, "free_ms", "free" },
    { DiffComponent::Bubble, "bubble_ms", "bubble" },
    { DiffComponent::Preparing, "preparing_ms", "preparing" },
};

} // namespace

const char* diffComponentKey(DiffComponent c)
{
    const ComponentText* t = entryOf(kComponentTexts, c);
    return t ? t->key : "step_ms";
}

const char* diffComponentTitle(DiffComponent c)
{
    const ComponentText* t = entryOf(kComponentTexts, c);
    return t ? t->title : "step";
}

std::optional<double> diffDelta(const DiffBreakdown& base, const DiffBreakdown& neu, DiffComponent c)
{
    const auto b = base.value(c), n = neu.value(c);
    if (!b || !n)
        return std::nullopt;
    return *n - *b;
}

std::optional<double> diffDeltaPct(const DiffBreakdown& base, const DiffBreakdown& neu, DiffComponent c)
{
    const auto b = base.value(c), n = neu.value(c);
    if (!b || !n || *b == 0)
        return std::nullopt;
    return (*n - *b) / *b * 100.0;
}

StepSplit splitOfDiff(const DiffBreakdown& b)
{
    auto ns = [&b](DiffComponent c) { return static_cast<int64_t>(std::llround(b.value(c).value_or(0) * kNsPerMs)); };
    StepSplit s;
    s.overlapped = ns(DiffComponent::Overlapped);
    s.computingNotOverlapped = std::max<int64_t>(0, ns(DiffComponent::Computing) - s.overlapped);
    s.communicationNotOverlapped = ns(DiffComponent::CommunicationNotOverlapped);
    s.free = ns(DiffComponent::Free);
    s.preparing = ns(DiffComponent::Preparing);
    s.hasPreparing = b.value(DiffComponent::Preparing).has_value();
    return s;
}

RunDiff RunComparison::compare(model::Database& base, model::Database& neu, const Options& options)
{
    // The two sides at the same time (each database under its own lock).
    Side b;
    std::exception_ptr baseError;
    std::thread baseRead([&] {
        enterBackground();
        try {
            b = readSide(base, options.stepBase);
        } catch (...) {
            baseError = std::current_exception();
        }
    });
    Side n;
    try {
        n = readSide(neu, options.stepNew);
    } catch (...) {
        baseRead.join();
        throw;
    }
    baseRead.join();
    if (baseError)
        std::rethrow_exception(baseError);
    RunDiff out;
    out.base = b.info;
    out.neu = n.info;

    // Ranks by id; two single-rank inputs are compared whatever their ids (a GPU baseline is often another rank).
    std::vector<std::pair<int64_t, int64_t>> pairs;
    if (b.ranks.size() == 1 && n.ranks.size() == 1) {
        pairs.emplace_back(b.ranks.begin()->first, n.ranks.begin()->first);
    } else {
        for (const auto& [rank, row] : b.ranks) {
            if (n.ranks.count(rank))
                pairs.emplace_back(rank, rank);
            else
                out.unmatchedBase.push_back(rank);
        }
        for (const auto& [rank, row] : n.ranks) {
            if (!b.ranks.count(rank))
                out.unmatchedNew.push_back(rank);
        }
    }
    std::vector<const DiffBreakdown*> baseRows, newRows;
    for (const auto& [br, nr] : pairs) {
        out.ranks.push_back({ br, nr, b.ranks.at(br), n.ranks.at(nr) });
        baseRows.push_back(&b.ranks.at(br));
        newRows.push_back(&n.ranks.at(nr));
        const auto bm = b.memory.find(br);
        const auto nm = n.memory.find(nr);
        const std::optional<double> bp = bm == b.memory.end() ? std::nullopt : bm->second;
        const std::optional<double> np = nm == n.memory.end() ? std::nullopt : nm->second;
        if (bp || np)
            out.memory.push_back({ br, bp, np });
    }
    for (const auto& [br, nr] : pairs) {
        const auto bm = b.memoryOperators.find(br);
        const auto nm = n.memoryOperators.find(nr);
        std::map<std::string, MemoryOperatorDiff> byName;
        if (bm != b.memoryOperators.end()) {
            for (const auto& [name, sum] : bm->second)
                byName[name] = { br, name, sum.mb, 0, sum.count, 0 };
        }
        if (nm != n.memoryOperators.end()) {
            for (const auto& [name, sum] : nm->second) {
                auto& d = byName.try_emplace(name, MemoryOperatorDiff { br, name, 0, 0, 0, 0 }).first->second;
                d.newMb = sum.mb;
                d.newCount = sum.count;
            }
        }
        for (auto& entry : byName)
            out.memoryOperators.push_back(std::move(entry.second));
    }
    std::stable_sort(out.memoryOperators.begin(), out.memoryOperators.end(),
        [](const MemoryOperatorDiff& x, const MemoryOperatorDiff& y) {
            return std::abs(x.deltaMb()) > std::abs(y.deltaMb());
        });
    out.clusterBase = meanOf(baseRows);
    out.clusterNew = meanOf(newRows);

    out.categories = joined(b.categories, n.categories);
    out.types = joined(b.types, n.types);
    out.kernels = joined(b.kernels, n.kernels);
    out.unmapped = joined(b.unmapped, n.unmapped);

    const double baseSteps = static_cast<double>(std::max<int64_t>(1, b.info.stepCount));
    const double newSteps = static_cast<double>(std::max<int64_t>(1, n.info.stepCount));
    std::set<std::pair<std::string, std::string>> keys;
    for (const auto& [k, v] : b.comm)
        keys.insert(k);
    for (const auto& [k, v] : n.comm)
        keys.insert(k);
    for (const auto& key : keys) {
        CommDiff d;
        d.opType = key.first;
        d.group = key.second;
        auto fill = [&](const std::map<std::pair<std::string, std::string>, Side::CommSum>& map, double steps,
                        double& count, double& elapse, double& transit, double& wait, std::optional<double>& bw) {
            const auto it = map.find(key);
            if (it == map.end())
                return;
            const double per = steps * static_cast<double>(std::max<std::size_t>(1, it->second.ranks.size()));
            count = it->second.count / per;
            elapse = it->second.elapse / per / kNsPerMs;
            transit = it->second.transit / per / kNsPerMs;
            wait = it->second.wait / per / kNsPerMs;
            if (it->second.bwTransit > 0)
                bw = it->second.sizeMb / 1e3 / (it->second.bwTransit / 1e9);
        };
        fill(b.comm, baseSteps, d.baseCount, d.baseElapseMs, d.baseTransitMs, d.baseWaitMs, d.baseBandwidthGbps);
        fill(n.comm, newSteps, d.newCount, d.newElapseMs, d.newTransitMs, d.newWaitMs, d.newBandwidthGbps);
        out.communication.push_back(std::move(d));
    }
    std::stable_sort(out.communication.begin(), out.communication.end(), [](const CommDiff& x, const CommDiff& y) {
        return std::abs(x.newElapseMs - x.baseElapseMs) > std::abs(y.newElapseMs - y.baseElapseMs);
    });
    return out;
}

} // namespace npuscope::query

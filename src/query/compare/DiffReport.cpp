// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/compare/DiffReport.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace npuscope::query {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::array<DiffComponent, kDiffComponentCount> kComponents { DiffComponent::Step, DiffComponent::Computing,
    DiffComponent::CommunicationNotOverlapped, DiffComponent::Overlapped, DiffComponent::Free, DiffComponent::Bubble,
    DiffComponent::Preparing };

Json value(std::optional<double> v) { return v ? Json(*v) : Json(nullptr); }

Json breakdownJson(const DiffBreakdown& b)
{
    Json o = Json::object();
    for (auto c : kComponents)
        o[diffComponentKey(c)] = value(b.value(c));
    return o;
}

Json comparedJson(const DiffBreakdown& base, const DiffBreakdown& neu)
{
    Json o = Json::object();
    o["base"] = breakdownJson(base);
    o["new"] = breakdownJson(neu);
    Json delta = Json::object(), pct = Json::object();
    for (auto c : kComponents) {
        delta[diffComponentKey(c)] = value(diffDelta(base, neu, c));
        pct[diffComponentKey(c)] = value(diffDeltaPct(base, neu, c));
    }
    o["delta"] = std::move(delta);
    o["delta_pct"] = std::move(pct);
    return o;
}

// A figure of both runs as "base_<name>", "new_<name>" and "delta_<name>" (new − base).
void putChange(Json& o, const std::string& name, double base, double neu)
{
    o["base_" + name] = base;
    o["new_" + name] = neu;
    o["delta_" + name] = neu - base;
}

Json sideJson(const DiffSide& s, const std::string& path)
{
    Json o = Json::object();
    o["path"] = path;
    o["ranks"] = s.ranks.size();
    o["step"] = s.step ? Json(*s.step) : Json(nullptr);
    o["step_count"] = s.stepCount;
    o["kernel_ranks"] = s.kernelRanks;
    return o;
}

Json operatorJson(const OperatorDiff& d, const char* keyName)
{
    Json o = Json::object();
    o[keyName] = d.key;
    if (std::string_view(keyName) != "category")
        o["category"] = d.category;
    putChange(o, "ms", d.baseMs, d.newMs);
    o["base_count"] = d.baseCount;
    o["new_count"] = d.newCount;
    return o;
}

Json operatorsJson(const std::vector<OperatorDiff>& rows, const char* keyName, std::size_t top)
{
    Json a = Json::array();
    for (std::size_t i = 0; i < rows.size() && (top == 0 || i < top); ++i)
        a.push_back(operatorJson(rows[i], keyName));
    return a;
}

// v right-aligned in width characters with decimals digits, with a + for positive values when sign is set.
std::string num(double v, int width, int decimals, bool sign = false)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(decimals) << std::setw(width);
    if (sign)
        s << std::showpos;
    s << v;
    return s.str();
}

std::string signedMs(double v) { return num(v, 0, 1, true) + " ms"; }

// "all ranks", "rank 5", "ranks 8–15, 20".
std::string rankList(const std::vector<int64_t>& ranks, std::size_t total)
{
    if (ranks.size() == total && total > 1)
        return "all ranks";
    std::string out = ranks.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        out += (i ? ", " : "") + std::to_string(ranks[i]);
        if (j > i)
            out += "–" + std::to_string(ranks[j]);
        i = j + 1;
        if (i < ranks.size() && out.size() > 60) {
            out += ", … (" + std::to_string(ranks.size()) + " ranks)";
            break;
        }
    }
    return out;
}

// The ranks whose change of c goes the way of the cluster's and is at least half the largest such change.
std::vector<int64_t> ranksDriving(const RunDiff& diff, DiffComponent c, double clusterDelta)
{
    double largest = 0;
    for (const auto& r : diff.ranks) {
        if (auto d = diffDelta(r.base, r.neu, c); d && (*d > 0) == (clusterDelta > 0))
            largest = std::max(largest, std::abs(*d));
    }
    std::vector<int64_t> out;
    for (const auto& r : diff.ranks) {
        if (auto d = diffDelta(r.base, r.neu, c); d && (*d > 0) == (clusterDelta > 0) && std::abs(*d) >= largest / 2)
            out.push_back(r.rank);
    }
    return out;
}

std::string cell(std::optional<double> v, int width = 10, int decimals = 3, bool sign = false)
{
    return v ? num(*v, width, decimals, sign) : std::string(static_cast<std::size_t>(width - 1), ' ') + "—";
}

} // namespace

std::string DiffReport::levelNote(const RunDiff& diff)
{
    const auto& a = diff.base.profilerLevels;
    const auto& b = diff.neu.profilerLevels;
    if (a.empty() || b.empty() || a == b)
        return {};
    auto join = [](const std::vector<std::string>& v) {
        std::string out;
        for (const auto& s : v)
            out += (out.empty() ? "" : "+") + s;
        return out;
    };
    // What a level records (torch_npu profiler levels): Level0 writes no communication.json and no operator details,
    // Level1 adds them and the AI Core metrics, Level2 more kernel detail: a figure one side never recorded changes
    // by up to 100 % without the run having changed.
    return "the inputs were collected at different profiler levels (base " + join(a) + ", new " + join(b)
        + "): figures one level does not record (communication details, operator categories, \"other\") differ "
          "because of the collection, not the run; compare profiles of the same level";
}

std::string DiffReport::headline(const RunDiff& diff)
{
    const auto stepDelta = diffDelta(diff.clusterBase, diff.clusterNew, DiffComponent::Step);
    if (!stepDelta)
        return diff.ranks.empty() ? "no rank of the base matches a rank of the new input"
                                  : "the inputs have no step breakdown to compare";
    std::string out = "step ";
    const auto pct = diffDeltaPct(diff.clusterBase, diff.clusterNew, DiffComponent::Step);
    out += pct ? num(*pct, 0, 1, true) + " %" + " (" + signedMs(*stepDelta) + ")" : signedMs(*stepDelta);
    // The components that moved most (at least a tenth of the largest move), largest first.
    std::vector<std::pair<double, DiffComponent>> moved;
    for (auto c : kComponents) {
        if (c == DiffComponent::Step || c == DiffComponent::Overlapped)
            continue; // overlapped time is inside computing; step is the sum
        if (auto d = diffDelta(diff.clusterBase, diff.clusterNew, c); d && *d != 0)
            moved.emplace_back(*d, c);
    }
    std::sort(
        moved.begin(), moved.end(), [](const auto& a, const auto& b) { return std::abs(a.first) > std::abs(b.first); });
    const double largest = moved.empty() ? 0 : std::abs(moved.front().first);
    std::string parts;
    for (std::size_t i = 0; i < moved.size() && i < 3; ++i) {
        const double d = moved[i].first; // not a structured binding: clang 14 cannot capture one in a lambda
        const auto c = moved[i].second;
        if (std::abs(d) < largest / 10 || std::abs(d) < 0.05)
            break;
        std::string part = std::string(diffComponentTitle(c)) + " " + signedMs(d);
        if (c == DiffComponent::Computing) {
            const auto type = std::find_if(diff.types.begin(), diff.types.end(), [&](const OperatorDiff& t) {
                return t.category != "communication" && (t.deltaMs() > 0) == (d > 0) && t.deltaMs() != 0;
            });
            if (type != diff.types.end())
                part += ", of which " + type->key + " " + signedMs(type->deltaMs());
        }
        const auto ranks = ranksDriving(diff, c, d);
        if (!ranks.empty() && diff.ranks.size() > 1)
            part += " on " + rankList(ranks, diff.ranks.size());
        parts += (parts.empty() ? "" : "; ") + part;
    }
    // A few ranks that computed much longer barely move the cluster mean (their peers wait in communication
    // instead), so they are named when one rank's computing change is at least a tenth of the step change.
    const bool computingNamed = parts.find(diffComponentTitle(DiffComponent::Computing)) != std::string::npos;
    double largestRank = 0;
    for (const auto& r : diff.ranks) {
        if (auto d = diffDelta(r.base, r.neu, DiffComponent::Computing); d && std::abs(*d) > std::abs(largestRank))
            largestRank = *d;
    }
    if (!computingNamed && diff.ranks.size() > 1 && largestRank != 0
        && std::abs(largestRank) >= std::abs(*stepDelta) / 10) {
        parts += std::string(parts.empty() ? "" : "; ") + "computing " + signedMs(largestRank) + " on "
            + rankList(ranksDriving(diff, DiffComponent::Computing, largestRank), diff.ranks.size());
    }
    if (!parts.empty())
        out += ": " + parts;
    return out;
}

nlohmann::ordered_json DiffReport::json(
    const RunDiff& diff, const std::string& basePath, const std::string& newPath, std::size_t top)
{
    Json root = Json::object();
    root["schema"] = "npuscope.diff/1";
    root["headline"] = headline(diff);
    root["base"] = sideJson(diff.base, basePath);
    root["new"] = sideJson(diff.neu, newPath);
    root["cluster"] = comparedJson(diff.clusterBase, diff.clusterNew);
    Json ranks = Json::array();
    for (const auto& r : diff.ranks) {
        Json o = Json::object();
        o["rank"] = r.rank;
        o["new_rank"] = r.newRank;
        const Json compared = comparedJson(r.base, r.neu);
        for (auto it = compared.begin(); it != compared.end(); ++it)
            o[it.key()] = it.value();
        ranks.push_back(std::move(o));
    }
    root["ranks"] = std::move(ranks);
    root["unmatched_ranks"] = Json { { "base", diff.unmatchedBase }, { "new", diff.unmatchedNew } };
    root["categories"] = operatorsJson(diff.categories, "category", 0);
    root["types"] = operatorsJson(diff.types, "name", top);
    root["kernels"] = operatorsJson(diff.kernels, "name", top);
    root["unmapped_kernels"] = operatorsJson(diff.unmapped, "name", 0);
    Json comm = Json::array();
    for (const auto& c : diff.communication) {
        Json o = Json::object();
        o["op_type"] = c.opType;
        o["group"] = c.group;
        putChange(o, "count", c.baseCount, c.newCount);
        putChange(o, "elapse_ms", c.baseElapseMs, c.newElapseMs);
        putChange(o, "transit_ms", c.baseTransitMs, c.newTransitMs);
        putChange(o, "wait_ms", c.baseWaitMs, c.newWaitMs);
        o["base_bandwidth_gbps"] = value(c.baseBandwidthGbps);
        o["new_bandwidth_gbps"] = value(c.newBandwidthGbps);
        o["delta_bandwidth_gbps"] = c.baseBandwidthGbps && c.newBandwidthGbps
            ? Json(*c.newBandwidthGbps - *c.baseBandwidthGbps)
            : Json(nullptr);
        comm.push_back(std::move(o));
    }
    root["communication"] = std::move(comm);
    Json memory = Json::array();
    for (const auto& m : diff.memory) {
        Json o = Json::object();
        o["rank"] = m.rank;
        o["base_peak_mb"] = value(m.basePeakMb);
        o["new_peak_mb"] = value(m.newPeakMb);
        o["delta_mb"] = m.basePeakMb && m.newPeakMb ? Json(*m.newPeakMb - *m.basePeakMb) : Json(nullptr);
        memory.push_back(std::move(o));
    }
    root["memory"] = std::move(memory);
    Json memoryOperators = Json::array();
    for (std::size_t i = 0; i < diff.memoryOperators.size() && (top == 0 || i < top); ++i) {
        const auto& m = diff.memoryOperators[i];
        Json o = Json::object();
        o["rank"] = m.rank;
        o["name"] = m.name;
        putChange(o, "mb", m.baseMb, m.newMb);
        o["base_count"] = m.baseCount;
        o["new_count"] = m.newCount;
        memoryOperators.push_back(std::move(o));
    }
    root["memory_operators"] = std::move(memoryOperators);
    return root;
}

std::string DiffReport::text(
    const RunDiff& diff, const std::string& basePath, const std::string& newPath, std::size_t top)
{
    std::string out = headline(diff) + "\n";
    if (const auto note = levelNote(diff); !note.empty())
        out += "note: " + note + "\n";
    auto sideLine = [](const char* label, const DiffSide& s, const std::string& path) {
        std::string line = std::string(label) + ": " + path + " — " + std::to_string(s.ranks.size()) + " ranks, ";
        line += s.step         ? "step " + std::to_string(*s.step)
            : s.stepCount > 1  ? "mean of " + std::to_string(s.stepCount) + " steps"
            : s.stepCount == 1 ? std::string("its one step")
                               : std::string("whole range (no step numbers)");
        return line + "\n";
    };
    out += sideLine("base", diff.base, basePath);
    out += sideLine("new ", diff.neu, newPath);
    if (!diff.unmatchedBase.empty() || !diff.unmatchedNew.empty())
        out += "unmatched ranks: base only " + std::to_string(diff.unmatchedBase.size()) + ", new only "
            + std::to_string(diff.unmatchedNew.size()) + "\n";

    out += "\nCluster (mean over matched ranks, ms)\n  component                           base        new      delta  "
           " delta %\n";
    for (auto c : kComponents) {
        char name[40];
        std::snprintf(name, sizeof name, "  %-30s", diffComponentTitle(c));
        out += name + cell(diff.clusterBase.value(c)) + " " + cell(diff.clusterNew.value(c)) + " "
            + cell(diffDelta(diff.clusterBase, diff.clusterNew, c), 10, 3, true) + " "
            + (diffDeltaPct(diff.clusterBase, diff.clusterNew, c)
                    ? num(*diffDeltaPct(diff.clusterBase, diff.clusterNew, c), 8, 1, true) + "%"
                    : std::string("        —"))
            + "\n";
    }

    // Ranks by |step Δ|, the top K.
    std::vector<const RankDiff*> ranks;
    for (const auto& r : diff.ranks)
        ranks.push_back(&r);
    std::stable_sort(ranks.begin(), ranks.end(), [](const RankDiff* a, const RankDiff* b) {
        const auto da = diffDelta(a->base, a->neu, DiffComponent::Step).value_or(0);
        const auto db = diffDelta(b->base, b->neu, DiffComponent::Step).value_or(0);
        return std::abs(da) > std::abs(db);
    });
    out += "\nRanks by |step delta| (ms)\n  rank        step Δ   computing Δ  comm not ovl Δ      free Δ\n";
    for (std::size_t i = 0; i < ranks.size() && (top == 0 || i < top); ++i) {
        const auto& r = *ranks[i];
        char line[32];
        std::snprintf(line, sizeof line, "  %5lld  ", static_cast<long long>(r.rank));
        out += line + cell(diffDelta(r.base, r.neu, DiffComponent::Step), 12, 3, true) + "  "
            + cell(diffDelta(r.base, r.neu, DiffComponent::Computing), 12, 3, true) + "  "
            + cell(diffDelta(r.base, r.neu, DiffComponent::CommunicationNotOverlapped), 14, 3, true) + "  "
            + cell(diffDelta(r.base, r.neu, DiffComponent::Free), 10, 3, true) + "\n";
    }

    auto table = [&](const char* title, const std::vector<OperatorDiff>& rows, std::size_t limit) {
        if (rows.empty())
            return;
        out += std::string("\n") + title + " (ms per rank and step)\n        base         new       delta  name\n";
        for (std::size_t i = 0; i < rows.size() && (limit == 0 || i < limit); ++i) {
            const auto& d = rows[i];
            std::string name = d.key.size() > 90 ? d.key.substr(0, 89) + "…" : d.key;
            out += num(d.baseMs, 12, 3) + num(d.newMs, 12, 3) + num(d.deltaMs(), 12, 3, true) + "  " + name + "\n";
        }
    };
    table("Categories", diff.categories, 0);
    table("Op types", diff.types, top);
    table("Kernels", diff.kernels, top);
    table("Unmapped GPU kernels", diff.unmapped, top);

    if (!diff.communication.empty()) {
        out += "\nCommunication (ms per rank and step)\n  base elapse  new elapse       delta  op type / group\n";
        for (std::size_t i = 0; i < diff.communication.size() && (top == 0 || i < top); ++i) {
            const auto& c = diff.communication[i];
            out += num(c.baseElapseMs, 13, 3) + num(c.newElapseMs, 12, 3)
                + num(c.newElapseMs - c.baseElapseMs, 12, 3, true) + "  " + (c.opType.empty() ? "?" : c.opType)
                + (c.group.empty() ? "" : " @" + c.group) + "\n";
        }
    }
    if (!diff.memory.empty()) {
        std::vector<const MemoryDiff*> mem;
        for (const auto& m : diff.memory)
            mem.push_back(&m);
        auto delta = [](const MemoryDiff* m) {
            return m->basePeakMb && m->newPeakMb ? std::abs(*m->newPeakMb - *m->basePeakMb) : 0.0;
        };
        std::stable_sort(mem.begin(), mem.end(), [&](auto* a, auto* b) { return delta(a) > delta(b); });
        out += "\nMemory peak reserved (MB)\n  rank        base         new       delta\n";
        for (std::size_t i = 0; i < mem.size() && (top == 0 || i < top); ++i) {
            const auto* m = mem[i];
            char line[32];
            std::snprintf(line, sizeof line, "  %5lld", static_cast<long long>(m->rank));
            out += line + cell(m->basePeakMb, 12, 1) + cell(m->newPeakMb, 12, 1)
                + cell(m->basePeakMb && m->newPeakMb ? std::optional<double>(*m->newPeakMb - *m->basePeakMb)
                                                     : std::nullopt,
                    12, 1, true)
                + "\n";
        }
    }
    if (!diff.memoryOperators.empty()) {
        out += "\nOperators whose allocation changed most (operator_memory, MB over the profiled window)\n  rank       "
               " "
               "base         new       delta  count base/new  name\n";
        for (std::size_t i = 0; i < diff.memoryOperators.size() && (top == 0 || i < top); ++i) {
            const auto& m = diff.memoryOperators[i];
            char line[64];
            std::snprintf(line, sizeof line, "  %5lld", static_cast<long long>(m.rank));
            char counts[48];
            std::snprintf(counts, sizeof counts, "  %6lld/%-6lld  ", static_cast<long long>(m.baseCount),
                static_cast<long long>(m.newCount));
            const std::string name = m.name.size() > 90 ? m.name.substr(0, 89) + "…" : m.name;
            out += line + num(m.baseMb, 12, 1) + num(m.newMb, 12, 1) + num(m.deltaMb(), 12, 1, true) + counts + name
                + "\n";
        }
    }
    return out;
}

} // namespace npuscope::query

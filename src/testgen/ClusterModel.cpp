// SPDX-License-Identifier: Apache-2.0
// The cluster generator's shared model code: the text formats of times and numbers, the Megatron-style layout of
// ranks into tp / dp / pp groups, op names, the links of a communication op (bandwidth and transport per pair of
// ranks, HCCL's mesh-and-ring peers of an all-reduce), the late-launch delay, and the overlap analysis that turns a
// planned step's kernels and ops into its step_trace_time.csv figures. Both planners and the file writers use it.
#include "ClusterGeneratorParts.h"

#include "npuscope/core/GroupHash.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace npuscope::testgen::detail {

// ---- text formatting ----

std::string usText(int64_t ns)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000), static_cast<long long>(ns % 1000));
    return buf;
}

std::string fixed(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// ---- cluster layout ----

Layout buildLayout(int pp, int tp, int dp)
{
    Layout l;
    l.pp = pp;
    l.tp = tp;
    l.dp = dp;
    l.world = pp * tp * dp;
    l.rankGroups.assign(static_cast<size_t>(l.world), { -1, -1, -1 });
    int next = 0;
    auto makeGroup = [&next](const std::string& name, std::vector<int> ranks) {
        Group g;
        g.raw = "group_name_" + std::to_string(next++);
        g.name = name;
        g.hashValue = groupDoubleHash(g.raw);
        g.hash = groupDoubleHashText(g.raw);
        g.code3 = 100 + static_cast<int>(g.hashValue % 900);
        g.ranks = std::move(ranks);
        return g;
    };
    std::vector<int> all(static_cast<size_t>(l.world));
    for (int r = 0; r < l.world; ++r)
        all[static_cast<size_t>(r)] = r;
    l.defaultGroup = makeGroup("default_group", all);
    auto add = [&](GroupKind kind, const char* name, std::vector<int> ranks) {
        if (ranks.size() < 2)
            return;
        for (int r : ranks)
            l.rankGroups[static_cast<size_t>(r)][kind] = static_cast<int>(l.groups.size());
        l.groups.push_back(makeGroup(name, std::move(ranks)));
    };
    // The groups along one axis of the (p, d, t) grid, rank = p * tp * dp + d * tp + t: one per point of the other two
    // axes (the first of them outermost), its ranks in the order of the axis.
    const std::array<int, 3> size { pp, dp, tp };
    auto addAlong = [&](GroupKind kind, const char* name, size_t axis) {
        const size_t outer = axis == 0 ? 1 : 0;
        const size_t inner = axis == 2 ? 1 : 2;
        for (int a = 0; a < size[outer]; ++a) {
            for (int b = 0; b < size[inner]; ++b) {
                std::vector<int> ranks;
                for (int k = 0; k < size[axis]; ++k) {
                    std::array<int, 3> at {};
                    at[outer] = a;
                    at[inner] = b;
                    at[axis] = k;
                    ranks.push_back(at[0] * tp * dp + at[1] * tp + at[2]);
                }
                add(kind, name, ranks);
            }
        }
    };
    addAlong(TpGroup, "tp", 2);
    addAlong(DpGroup, "dp", 1);
    addAlong(PpGroup, "pp", 0);
    return l;
}

// ---- per rank plan ----

// --late-launch-rank: the extra device idle time (ns) before the index-th kernel of a step of rank, 0 when none.
int64_t lateLaunchDelay(const GeneratorOptions& o, int rank, size_t index)
{
    if (!o.lateLaunchRank || *o.lateLaunchRank != rank || index < GeneratorOptions::kLateLaunchFirst)
        return 0;
    return (index - GeneratorOptions::kLateLaunchFirst) % GeneratorOptions::kLateLaunchEvery == 0
        ? int64_t { GeneratorOptions::kLateLaunchDelayUs } * 1000
        : 0;
}

std::string opKey(const Cluster& c, const CommOp& op)
{
    const Group& g = c.layout.groups[static_cast<size_t>(op.group)];
    return "hcom_" + op.type + "__" + std::to_string(g.code3) + "_" + std::to_string(op.index) + "_1";
}

std::string lowerType(const std::string& t)
{
    std::string s = t;
    for (auto& ch : s)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

namespace {

// Bandwidth (GB/s) and transport of the link between two global ranks for one op: both ends compute the same.
double linkBandwidth(const Cluster& c, int srcGlobal, int dstGlobal, uint64_t opSalt, std::string* transport)
{
    if (srcGlobal == dstGlobal) {
        if (transport)
            *transport = "LOCAL";
        return 380.0 + 120.0 * unit(mix(opSalt, static_cast<uint64_t>(srcGlobal) * 7919u));
    }
    const bool sameServer = srcGlobal / kRanksPerServer == dstGlobal / kRanksPerServer;
    if (transport)
        *transport = sameServer ? "HCCS" : "RDMA";
    const int a = std::min(srcGlobal, dstGlobal);
    const int b = std::max(srcGlobal, dstGlobal);
    const uint64_t pair = static_cast<uint64_t>(a) * 1000003u + static_cast<uint64_t>(b);
    double bw = (sameServer ? 17.0 : 11.5) * (0.92 + 0.12 * unit(mix(opSalt, pair)));
    const auto& slow = c.options.slowLink;
    if (slow && std::min(slow->first, slow->second) == a && std::max(slow->first, slow->second) == b)
        bw *= GeneratorOptions::kSlowLinkFactor;
    return bw;
}

// MB / (GB/s) = ms.
int64_t transferNs(double sizeMb, double bandwidthGbps)
{
    return std::max<int64_t>(1, static_cast<int64_t>(sizeMb / bandwidthGbps * 1e6 + 0.5));
}

} // namespace

// Link between two global ranks for one op of a group: both ends compute the same numbers.
LinkInst makeLink(const Cluster& c, const Group& g, int srcGlobal, int dstGlobal, double sizeMb, uint64_t opSalt)
{
    LinkInst l;
    l.srcGlobal = srcGlobal;
    l.dstGlobal = dstGlobal;
    l.srcLocal = g.localOf(srcGlobal);
    l.dstLocal = g.localOf(dstGlobal);
    // Whole multiples of 512 B, as tensors of real hidden sizes are (the advice alignment rule finds no issue).
    l.sizeMb = std::round(sizeMb * 1e6 / 512.0) * 512.0 / 1e6;
    l.timeNs = transferNs(sizeMb, linkBandwidth(c, srcGlobal, dstGlobal, opSalt, &l.transport));
    return l;
}

namespace {

// The peers an all-reduce of group g sends to from rank, with each link's share of the data, as HCCL's hierarchical
// algorithm moves it (docs/metrics.md, "Generated links"): a full mesh among the group's ranks on the rank's server
// (reduce-scatter then all-gather: 2 x data / m to each of the m - 1 peers), and when the group spans S > 1 servers
// a ring across them between the ranks at the same place on their server (2 (S - 1) / S x data / m to the next
// server's rank). A group on one server is a plain mesh, as before; allToAll keeps every pair (2 x data / n each).
std::vector<std::pair<int, double>> allReducePeers(const Group& g, int rank, double dataMb, bool allToAll)
{
    std::vector<std::pair<int, double>> out;
    const double n = static_cast<double>(g.ranks.size());
    const int myServer = rank / kRanksPerServer;
    std::vector<int> servers; // the group's servers, ascending (its ranks are)
    std::vector<int> mine; // the group's ranks on the rank's server
    for (int r : g.ranks) {
        if (servers.empty() || servers[servers.size() - 1] != r / kRanksPerServer)
            servers.push_back(r / kRanksPerServer);
        if (r / kRanksPerServer == myServer)
            mine.push_back(r);
    }
    if (allToAll || servers.size() == 1) {
        for (int peer : g.ranks) {
            if (peer != rank)
                out.emplace_back(peer, 2.0 * dataMb / n);
        }
        return out;
    }
    const double m = static_cast<double>(mine.size());
    size_t place = 0;
    for (size_t i = 0; i < mine.size(); ++i) {
        if (mine[i] == rank)
            place = i;
        else
            out.emplace_back(mine[i], 2.0 * dataMb / m);
    }
    const size_t at = static_cast<size_t>(std::find(servers.begin(), servers.end(), myServer) - servers.begin());
    const int nextServer = servers[(at + 1) % servers.size()];
    std::vector<int> next;
    for (int r : g.ranks) {
        if (r / kRanksPerServer == nextServer)
            next.push_back(r);
    }
    const double s = static_cast<double>(servers.size());
    out.emplace_back(next[place % next.size()], 2.0 * (s - 1.0) / s * dataMb / m);
    return out;
}

} // namespace

// An all-reduce's links from rank: its LOCAL share (dataMb / n) first, then the links of allReducePeers. transit =
// the slowest 2 x dataMb / n share to any peer of the group, the generator's op-time model (kept when the links
// became HCCL's, so step figures did not change).
void allReduceLinks(const Cluster& c, const Group& g, int rank, double dataMb, uint64_t salt, CommOp& op)
{
    const double n = static_cast<double>(g.ranks.size());
    op.links.push_back(makeLink(c, g, rank, rank, dataMb / n, salt));
    for (int peer : g.ranks) {
        if (peer != rank)
            op.transit
                = std::max(op.transit, transferNs(2.0 * dataMb / n, linkBandwidth(c, rank, peer, salt, nullptr)));
    }
    for (const auto& [peer, sizeMb] : allReducePeers(g, rank, dataMb, c.options.allToAllGroups))
        op.links.push_back(makeLink(c, g, rank, peer, sizeMb, salt));
}

// Overlap analysis from the intervals, the way the profiler derives step_trace_time.csv.
void finishStep(StepPlan& sp)
{
    std::sort(sp.ops.begin(), sp.ops.end(), [](const CommOp& a, const CommOp& b) { return a.ts < b.ts; });
    // Preparing ends where the first device task starts.
    int64_t first = sp.kernels.empty() ? sp.end : sp.kernels.front().ts;
    if (!sp.ops.empty())
        first = std::min(first, sp.ops.front().ts);
    sp.prep = first - sp.start;
    for (const auto& k : sp.kernels)
        sp.computing += k.dur;
    for (auto& op : sp.ops) {
        const int64_t a = op.ts;
        const int64_t b = op.ts + op.elapse();
        int64_t cursor = a;
        for (const auto& k : sp.kernels) {
            const int64_t ka = std::max(a, k.ts);
            const int64_t kb = std::min(b, k.ts + k.dur);
            if (kb <= ka)
                continue;
            op.overlapped += kb - ka;
            if (ka > cursor)
                op.notOverlapped.emplace_back(cursor, ka);
            cursor = kb;
        }
        if (cursor < b)
            op.notOverlapped.emplace_back(cursor, b);
        sp.comm += op.elapse();
        sp.overlapped += op.overlapped;
        if (op.type == "receive")
            sp.receive += op.elapse() - op.overlapped;
    }
    sp.notOverlapped = sp.comm - sp.overlapped;
    sp.bubble = sp.receive;
    sp.free = (sp.end - sp.start - sp.prep) - sp.computing - sp.notOverlapped;
}

} // namespace npuscope::testgen::detail

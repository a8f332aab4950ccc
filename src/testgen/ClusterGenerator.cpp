// SPDX-License-Identifier: Apache-2.0
#include "npuscope/testgen/ClusterGenerator.h"

#include "npuscope/core/GroupHash.h"
#include "npuscope/model/Database.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <variant>
#include <vector>

namespace npuscope::testgen {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// 2025-01-09 07:48:00 UTC, the day of the real 2025-01 samples.
constexpr int64_t kEpochBaseNs = 1736408880000000000;
constexpr int kFirstStep = 50;
constexpr int kRanksPerServer = 8;
constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000000;
constexpr int kTpOpsFwd = 2;
constexpr int kTpOpsBwd = 2;
constexpr int kDpOps = 2;

uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t mix(uint64_t a, uint64_t b) { return splitmix(a ^ splitmix(b + 0x632be59bd9b4e019ull)); }

// [0, 1) from 53 random bits; avoids std::uniform_real_distribution, whose output differs by library.
double unit(uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

class Random {
public:
    explicit Random(uint64_t seed)
        : m_engine(seed)
    {
    }
    double uniform(double lo, double hi) { return lo + (hi - lo) * unit(m_engine()); }
    int64_t range(int64_t lo, int64_t hi) // inclusive
    {
        return lo + static_cast<int64_t>(m_engine() % static_cast<uint64_t>(hi - lo + 1));
    }

private:
    std::mt19937_64 m_engine;
};

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

double round4(double v) { return static_cast<double>(static_cast<int64_t>(v * 10000.0 + 0.5)) / 10000.0; }
double nsToMs(int64_t ns) { return static_cast<double>(ns) / 1e6; }

// ---- cluster layout ----

enum GroupKind { TpGroup = 0, DpGroup = 1, PpGroup = 2 };

struct Group {
    std::string raw, name, hash;
    uint64_t hashValue = 0;
    int code3 = 100;
    std::vector<int> ranks; // ascending global ranks; local rank = index
    int localOf(int global) const // ranks.size() when global is not in the group
    {
        const auto it = std::lower_bound(ranks.begin(), ranks.end(), global);
        return static_cast<int>((it != ranks.end() && *it == global ? it : ranks.end()) - ranks.begin());
    }
};

struct Layout {
    int pp = 1, tp = 1, dp = 1, world = 1;
    Group defaultGroup;
    std::vector<Group> groups;
    std::vector<std::array<int, 3>> rankGroups; // per rank: group index for tp/dp/pp, -1 when size 1
    int stage(int r) const { return r / (tp * dp); }
};

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
    for (int p = 0; p < pp; ++p) {
        for (int d = 0; d < dp; ++d) {
            std::vector<int> ranks;
            for (int t = 0; t < tp; ++t)
                ranks.push_back(p * tp * dp + d * tp + t);
            add(TpGroup, "tp", ranks);
        }
    }
    for (int p = 0; p < pp; ++p) {
        for (int t = 0; t < tp; ++t) {
            std::vector<int> ranks;
            for (int d = 0; d < dp; ++d)
                ranks.push_back(p * tp * dp + d * tp + t);
            add(DpGroup, "dp", ranks);
        }
    }
    for (int d = 0; d < dp; ++d) {
        for (int t = 0; t < tp; ++t) {
            std::vector<int> ranks;
            for (int p = 0; p < pp; ++p)
                ranks.push_back(p * tp * dp + d * tp + t);
            add(PpGroup, "pp", ranks);
        }
    }
    return l;
}

// ---- per rank plan ----

struct KernelType {
    const char* type;
    const char* core;
    double weight;
    const char* inShapes;
    const char* inTypes;
    const char* inFormats;
    const char* outShapes;
    const char* fullName = nullptr; // torch_npu's aclnn<Api>_<Impl>_<Type> name (pipeline schedule kernels)
};

// The first kRandomKernelTypes entries are the ones the flat (pp = 1) step draws at random; the rest only appear in
// the pipeline schedule.
constexpr size_t kRandomKernelTypes = 10;
enum PipeKernelType {
    kMatMulV2 = 0,
    kFlashAttentionScore = 1,
    kAdd = 2,
    kMul = 3,
    kCast = 4,
    kLayerNormV3 = 10,
    kFastGelu,
    kFlashAttentionScoreGrad,
    kLayerNormGradV3,
    kFastGeluGrad,
    kApplyAdamWV2,
};

constexpr std::array<KernelType, 16> kKernelTypes { {
    { "MatMulV2", "AI_CORE", 3.0, "4096,4096;4096,11008", "BF16;BF16", "ND;ND", "4096,11008" },
    { "FlashAttentionScore", "MIX_AIC", 4.0, "4096,1,4096;4096,1,4096;4096,1,4096", "BF16;BF16;BF16", "ND;ND;ND",
        "4096,1,4096" },
    { "Add", "AI_VECTOR_CORE", 0.4, "4096,1,4096;4096,1,4096", "BF16;BF16", "ND;ND", "4096,1,4096" },
    { "Mul", "AI_VECTOR_CORE", 0.4, "4096,1,4096;4096,1,4096", "BF16;BF16", "ND;ND", "4096,1,4096" },
    { "Cast", "AI_VECTOR_CORE", 0.3, "4096,1,4096", "FLOAT", "ND", "4096,1,4096" },
    { "RmsNorm", "AI_VECTOR_CORE", 0.6, "4096,1,4096;4096", "BF16;BF16", "ND;ND", "4096,1,4096" },
    { "SoftmaxV2", "AI_VECTOR_CORE", 0.8, "32,4096,4096", "BF16", "ND", "32,4096,4096" },
    { "SwiGlu", "AI_VECTOR_CORE", 0.7, "4096,1,22016", "BF16", "ND", "4096,1,11008" },
    { "TransData", "AI_VECTOR_CORE", 0.3, "32,3,224,224", "FLOAT", "NCHW", "32,1,224,224,16" },
    { "GroupedMatmul", "AI_CORE", 2.5, "4096,4096;8,4096,1408", "BF16;BF16", "ND;ND", "4096,1408" },
    { "LayerNormV3", "AI_VECTOR_CORE", 0.5, "4096,1,4096;4096;4096", "BF16;BF16;BF16", "ND;ND;ND", "4096,1,4096",
        "aclnnLayerNorm_LayerNormV3_LayerNormV3" },
    { "FastGelu", "AI_VECTOR_CORE", 0.7, "4096,1,11008", "BF16", "ND", "4096,1,11008",
        "aclnnFastGelu_FastGelu_FastGelu" },
    { "FlashAttentionScoreGrad", "MIX_AIC", 8.0, "4096,1,4096;4096,1,4096;4096,1,4096;4096,1,4096",
        "BF16;BF16;BF16;BF16", "ND;ND;ND;ND", "4096,1,4096",
        "aclnnFlashAttentionScoreGrad_FlashAttentionScoreGrad_FlashAttentionScoreGrad" },
    { "LayerNormGradV3", "AI_VECTOR_CORE", 1.0, "4096,1,4096;4096,1,4096;4096", "BF16;BF16;FLOAT", "ND;ND;ND",
        "4096,1,4096", "aclnnLayerNormBackward_LayerNormGradV3_LayerNormGradV3" },
    { "FastGeluGrad", "AI_VECTOR_CORE", 0.9, "4096,1,11008;4096,1,11008", "BF16;BF16", "ND;ND", "4096,1,11008",
        "aclnnFastGeluBackward_FastGeluGrad_FastGeluGrad" },
    { "ApplyAdamWV2", "AI_VECTOR_CORE", 3.0, "16777216;16777216;16777216;16777216", "FLOAT;FLOAT;FLOAT;FLOAT",
        "ND;ND;ND;ND", "16777216", "aclnnApplyAdamWV2_ApplyAdamWV2_ApplyAdamWV2" },
} };

// Full names of the flat step's types when the pipeline schedule uses them.
constexpr std::array<const char*, 5> kPipeBaseNames { "aclnnMatmul_MatMulCommon_MatMulV2",
    "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore", "aclnnAdd_AddAiCore_Add",
    "aclnnMul_MulAiCore_Mul", "aclnnCast_CastAiCore_Cast" };

struct Kernel {
    int64_t ts = 0, dur = 0, waitNs = 0;
    int type = 0;
    int taskId = 0;
    int nameIndex = 0; // < 0: the type's full aclnn name without a counter (pipeline schedule)
    bool lateLaunch = false; // --late-launch-rank: the host launched it late (see lateLaunchDelay)
};

// --late-launch-rank keeps the rank's timing (its collectives stay in step with its peers'): the idle time a late
// launch adds is taken back from the durations of the kernel and those after it in the run, each giving up to half.
struct LateLaunchDebt {
    int64_t owed = 0;
    int64_t pay(int64_t late, int64_t dur)
    {
        owed += late;
        const int64_t paid = std::min(owed, dur / 2);
        owed -= paid;
        return dur - paid;
    }
};

// --late-launch-rank: the extra device idle time (ns) before the index-th kernel of a step of rank, 0 when none.
int64_t lateLaunchDelay(const GeneratorOptions& o, int rank, size_t index)
{
    if (!o.lateLaunchRank || *o.lateLaunchRank != rank || index < GeneratorOptions::kLateLaunchFirst)
        return 0;
    return (index - GeneratorOptions::kLateLaunchFirst) % GeneratorOptions::kLateLaunchEvery == 0
        ? int64_t { GeneratorOptions::kLateLaunchDelayUs } * 1000
        : 0;
}

struct LinkInst {
    int srcLocal = 0, dstLocal = 0, srcGlobal = 0, dstGlobal = 0;
    std::string transport;
    double sizeMb = 0;
    int64_t timeNs = 0;
    double bandwidth() const { return timeNs > 0 ? sizeMb / nsToMs(timeNs) : 0.0; } // MB/ms = GB/s
};

struct CommOp {
    std::string type; // allReduce, send, receive
    int group = 0; // index into Layout::groups
    bool p2p = false;
    int index = 0; // op counter inside the group (key "_<index>_1")
    int64_t ts = 0, wait = 0, transit = 0, sync = 0, idle = 0;
    int64_t elapse() const { return wait + transit + idle; }
    std::vector<LinkInst> links; // first entry is the LOCAL self link (pipeline p2p ops too)
    int64_t overlapped = 0;
    std::vector<std::pair<int64_t, int64_t>> notOverlapped; // [start, end) segments
};

struct StepPlan {
    int step = 0;
    int64_t start = 0, prep = 0, end = 0;
    std::vector<Kernel> kernels; // sorted by ts, never overlapping
    std::vector<CommOp> ops; // sorted by ts, never overlapping
    int64_t computing = 0, comm = 0, overlapped = 0, notOverlapped = 0, free = 0, bubble = 0, receive = 0;
};

struct Cluster {
    GeneratorOptions options; // microbatches resolved (2 * pp when 0)
    Layout layout;
    int kernelsPerStep = 24;
    int64_t epochBase = 0;
    std::vector<std::vector<int64_t>> compute; // [rank][step] ns
    std::vector<int64_t> rankStart; // first step start per rank
};

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

int64_t groupMaxCompute(const Cluster& c, const Group& g, int step)
{
    int64_t m = 0;
    for (int r : g.ranks)
        m = std::max(m, c.compute[static_cast<size_t>(r)][static_cast<size_t>(step)]);
    return m;
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

class RankPlanner {
public:
    RankPlanner(const Cluster& c, int rank)
        : m_c(c)
        , m_rank(rank)
        , m_rng(mix(c.options.seed, 0x5eed0000ull + static_cast<uint64_t>(rank)))
        , m_slowHost(c.options.slowHost && *c.options.slowHost == rank)
    {
        m_groups = c.layout.rankGroups[static_cast<size_t>(rank)];
    }

    std::vector<StepPlan> plan()
    {
        std::vector<StepPlan> steps;
        int64_t t = m_c.rankStart[static_cast<size_t>(m_rank)];
        for (int s = 0; s < m_c.options.steps; ++s) {
            steps.push_back(planStep(s, t));
            t = steps.back().end + m_rng.range(20 * kUs, 60 * kUs);
        }
        return steps;
    }

private:
    int64_t gap()
    {
        return m_slowHost ? m_rng.range(GeneratorOptions::kSlowHostGapLoNs, GeneratorOptions::kSlowHostGapHiNs)
                          : m_rng.range(800, 4 * kUs);
    }

    void addChunk(StepPlan& sp, int64_t& t, int64_t computeNs, int count)
    {
        count = std::max(1, count);
        std::vector<double> weights;
        std::vector<int> types;
        double sum = 0;
        for (int i = 0; i < count; ++i) {
            const int type = static_cast<int>(m_rng.range(0, static_cast<int64_t>(kRandomKernelTypes) - 1));
            const double w = kKernelTypes[static_cast<size_t>(type)].weight * m_rng.uniform(0.5, 1.5);
            types.push_back(type);
            weights.push_back(w);
            sum += w;
        }
        int64_t used = 0;
        double acc = 0;
        LateLaunchDebt debt;
        for (int i = 0; i < count; ++i) {
            acc += weights[static_cast<size_t>(i)];
            const int64_t upto
                = i + 1 == count ? computeNs : static_cast<int64_t>(static_cast<double>(computeNs) * acc / sum);
            Kernel k;
            k.type = types[static_cast<size_t>(i)];
            k.dur = std::max<int64_t>(1, upto - used);
            used += k.dur;
            const int64_t late = lateLaunchDelay(m_c.options, m_rank, sp.kernels.size());
            k.dur = debt.pay(late, k.dur);
            const int64_t g = gap() + late;
            t += g;
            k.ts = t;
            k.waitNs = g;
            k.lateLaunch = late > 0;
            k.taskId = m_taskId++;
            k.nameIndex = m_nameCounter[static_cast<size_t>(k.type)]++;
            t += k.dur;
            sp.kernels.push_back(k);
        }
    }

    CommOp collective(int kind, int step, int64_t extraWait)
    {
        const Group& g = m_c.layout.groups[static_cast<size_t>(m_groups[static_cast<size_t>(kind)])];
        const int perStep = kind == TpGroup ? kTpOpsFwd + kTpOpsBwd : kDpOps;
        int& counter = m_opCounter[m_groups[static_cast<size_t>(kind)]];
        const int inStep = counter % perStep;
        CommOp op;
        op.type = "allReduce";
        op.group = m_groups[static_cast<size_t>(kind)];
        op.index = counter++;
        const uint64_t opSalt = mix(g.hashValue, static_cast<uint64_t>(step) * 64u + static_cast<uint64_t>(inStep));
        const double dataMb = kind == TpGroup
            ? 16.0 + 48.0 * unit(mix(g.hashValue, static_cast<uint64_t>(inStep)))
            : 96.0 + 160.0 * unit(mix(g.hashValue, 77u + static_cast<uint64_t>(inStep)));
        allReduceLinks(m_c, g, m_rank, dataMb, opSalt, op);
        op.wait = m_rng.range(15 * kUs, 180 * kUs) + extraWait;
        op.sync = std::min(op.wait, m_rng.range(0, 40 * kUs));
        op.idle = m_rng.range(10 * kUs, 120 * kUs);
        return op;
    }

    CommOp p2p(bool send, int peer, int step, int64_t extraWait)
    {
        const int gi = m_groups[PpGroup];
        const Group& g = m_c.layout.groups[static_cast<size_t>(gi)];
        CommOp op;
        op.type = send ? "send" : "receive";
        op.group = gi;
        op.p2p = true;
        op.index = m_opCounter[gi + 1000000]++;
        const int a = std::min(m_rank, peer);
        const int b = std::max(m_rank, peer);
        const uint64_t opSalt = mix(g.hashValue,
            static_cast<uint64_t>(step) * 4096u + static_cast<uint64_t>(a) * 64u + static_cast<uint64_t>(b)
                + (send == (m_rank < peer) ? 1u : 2u));
        const double dataMb = 8.0 + 16.0 * unit(mix(g.hashValue, static_cast<uint64_t>(a + b)));
        op.links.push_back(
            send ? makeLink(m_c, g, m_rank, peer, dataMb, opSalt) : makeLink(m_c, g, peer, m_rank, dataMb, opSalt));
        op.transit = op.links.front().timeNs;
        op.wait = m_rng.range(10 * kUs, 60 * kUs) + extraWait;
        op.sync = std::min(op.wait, m_rng.range(0, 20 * kUs));
        op.idle = m_rng.range(5 * kUs, 40 * kUs);
        return op;
    }

    void placeBlocking(StepPlan& sp, int64_t& t, CommOp op)
    {
        t += gap();
        op.ts = t;
        t += op.elapse();
        sp.ops.push_back(std::move(op));
    }

    StepPlan planStep(int s, int64_t start)
    {
        const auto& L = m_c.layout;
        StepPlan sp;
        sp.step = kFirstStep + s;
        sp.start = start;
        sp.prep = m_rng.range(1 * kMs, 4 * kMs);
        const int64_t c = m_c.compute[static_cast<size_t>(m_rank)][static_cast<size_t>(s)];
        const int nk = m_c.kernelsPerStep;
        const bool hasTp = m_groups[TpGroup] >= 0;
        const bool hasDp = m_groups[DpGroup] >= 0;
        const bool hasPp = m_groups[PpGroup] >= 0;
        const int stage = L.stage(m_rank);
        const int tpd = L.tp * L.dp;

        auto delta = [&](int kind) -> int64_t {
            const int gi = m_groups[static_cast<size_t>(kind)];
            if (gi < 0)
                return 0;
            return groupMaxCompute(m_c, L.groups[static_cast<size_t>(gi)], s) - c;
        };
        const int64_t tpDelta = delta(TpGroup);
        const int64_t dpDelta = delta(DpGroup);
        auto peerDelta = [&](int peer) {
            return std::max<int64_t>(0, m_c.compute[static_cast<size_t>(peer)][static_cast<size_t>(s)] - c);
        };

        // Compute split: forward 32 %, backward 60 % (the last 15 % is the tail the dp all-reduce
        // hides under), optimizer 8 %.
        const std::array<double, 7> frac { 0.11, 0.11, 0.10, 0.25, 0.20, 0.15, 0.08 };
        std::array<int64_t, 7> chunkNs {};
        int64_t assigned = 0;
        for (size_t i = 0; i < frac.size(); ++i) {
            chunkNs[i] = i + 1 == frac.size() ? c - assigned : static_cast<int64_t>(static_cast<double>(c) * frac[i]);
            assigned += chunkNs[i];
        }
        auto count = [&](size_t i) { return std::max(2, static_cast<int>(frac[i] * nk + 0.5)); };

        int64_t t = start + sp.prep - gap();
        // Forward.
        if (hasPp && stage > 0) {
            const int peer = m_rank - tpd;
            placeBlocking(sp, t, p2p(false, peer, s, stage * 1500 * kUs + peerDelta(peer) / 2));
        }
        for (size_t i = 0; i < 3; ++i) {
            addChunk(sp, t, chunkNs[i], count(i));
            if (hasTp && i < static_cast<size_t>(kTpOpsFwd))
                placeBlocking(sp, t, collective(TpGroup, s, tpDelta / (kTpOpsFwd + kTpOpsBwd)));
        }
        if (hasPp && stage + 1 < L.pp) {
            placeBlocking(sp, t, p2p(true, m_rank + tpd, s, 0));
            const int peer = m_rank + tpd;
            placeBlocking(sp, t, p2p(false, peer, s, (L.pp - 1 - stage) * 1500 * kUs + peerDelta(peer) / 2));
        }
        // Backward.
        for (size_t i = 3; i < 5; ++i) {
            addChunk(sp, t, chunkNs[i], count(i));
            if (hasTp)
                placeBlocking(sp, t, collective(TpGroup, s, tpDelta / (kTpOpsFwd + kTpOpsBwd)));
        }
        if (hasPp && stage > 0)
            placeBlocking(sp, t, p2p(true, m_rank - tpd, s, 0));
        // Tail: the dp gradient all-reduce runs on the HCCL stream while the last backward kernels run.
        const int64_t tailStart = t;
        addChunk(sp, t, chunkNs[5], count(5));
        int64_t hccl = tailStart + 5 * kUs + 1;
        if (hasDp) {
            for (int i = 0; i < kDpOps; ++i) {
                CommOp op = collective(DpGroup, s, i == 0 ? dpDelta : 0);
                op.ts = hccl;
                hccl += op.elapse() + gap();
                sp.ops.push_back(std::move(op));
            }
        }
        t = std::max(t, hccl);
        addChunk(sp, t, chunkNs[6], count(6));
        sp.end = t + gap();

        finishStep(sp);
        return sp;
    }

    const Cluster& m_c;
    int m_rank;
    Random m_rng;
    bool m_slowHost = false; // host-bound: launches its device tasks far apart
    std::array<int, 3> m_groups {};
    std::map<int, int> m_opCounter;
    int m_taskId = 1000;
    std::array<int, kKernelTypes.size()> m_nameCounter {};
};

// ---- pipeline schedule (pp > 1) ----

struct PipeKernel {
    int type;
    double weight; // relative duration inside its block
    bool tpSync; // the tp all-reduce of a row / column parallel linear follows this kernel
};

// One transformer layer of one microbatch, Megatron order: the row-parallel attention projection and fc2 end in a
// tp all-reduce going forward; going backward the column-parallel qkv and fc1 input gradients do. Backward is about
// twice the forward time (input and weight gradient per matmul).
constexpr std::array<PipeKernel, 10> kForwardLayer { { { kLayerNormV3, 0.5, false }, { kMatMulV2, 3.0, false },
    { kFlashAttentionScore, 4.0, false }, { kMatMulV2, 1.5, true }, { kAdd, 0.4, false }, { kLayerNormV3, 0.5, false },
    { kMatMulV2, 3.0, false }, { kFastGelu, 0.7, false }, { kMatMulV2, 3.0, true }, { kAdd, 0.4, false } } };
constexpr std::array<PipeKernel, 14> kBackwardLayer { { { kMatMulV2, 3.0, false }, { kMatMulV2, 3.0, false },
    { kFastGeluGrad, 0.9, false }, { kMatMulV2, 3.0, false }, { kMatMulV2, 3.0, true },
    { kLayerNormGradV3, 1.0, false }, { kAdd, 0.4, false }, { kMatMulV2, 1.5, false }, { kMatMulV2, 1.5, false },
    { kFlashAttentionScoreGrad, 8.0, false }, { kMatMulV2, 3.0, false }, { kMatMulV2, 3.0, true },
    { kLayerNormGradV3, 1.0, false }, { kAdd, 0.4, false } } };
// The same layer in fewer kernels and one tp all-reduce per pass (no residual Adds, the second LayerNorm folded in,
// one kernel per matmul pair going backward, the attention and MLP all-reduces fused), for trace budgets below one
// full layer per pass: it keeps a default cluster's files near the flat step's size.
constexpr std::array<PipeKernel, 7> kForwardCompact { { { kLayerNormV3, 1.0, false }, { kMatMulV2, 3.0, false },
    { kFlashAttentionScore, 4.0, false }, { kMatMulV2, 1.5, false }, { kMatMulV2, 3.0, false },
    { kFastGelu, 0.7, false }, { kMatMulV2, 3.0, true } } };
constexpr std::array<PipeKernel, 7> kBackwardCompact { { { kMatMulV2, 6.0, false }, { kFastGeluGrad, 0.9, false },
    { kMatMulV2, 6.0, false }, { kMatMulV2, 3.0, false }, { kFlashAttentionScoreGrad, 8.0, false },
    { kMatMulV2, 6.0, true }, { kLayerNormGradV3, 2.0, false } } };
// Gradient unscale / fp32 cast while the dp all-reduce runs, then the optimizer.
constexpr std::array<PipeKernel, 3> kGradTail { { { kCast, 1.0, false }, { kMul, 1.0, false }, { kAdd, 0.5, false } } };
constexpr std::array<PipeKernel, 4> kOptimizer { { { kApplyAdamWV2, 3.0, false }, { kMul, 1.0, false },
    { kAdd, 1.0, false }, { kCast, 0.5, false } } };
constexpr double kPipeForwardShare = 0.9 / 3.0; // of a rank's step compute: forward 30 %, backward 60 %
constexpr double kPipeTailShare = 0.04;
constexpr double kPipeOptimizerShare = 0.06;
constexpr double kGradNormMb = 0.004; // a few fp32 partial norms
constexpr double kTpDataPerStepMb = 160.0; // the flat step's 4 tp all-reduces of ~40 MB, spread over the schedule

// One stage's 1F1B order: min(P - 1 - stage, M) warm-up forwards, then one forward and one backward in turn, then the
// cool-down backwards. first = forward, second = microbatch.
std::vector<std::pair<bool, int>> oneFOneB(int pp, int stage, int microbatches)
{
    std::vector<std::pair<bool, int>> order;
    const int warmup = std::min(pp - 1 - stage, microbatches);
    for (int m = 0; m < warmup; ++m)
        order.emplace_back(true, m);
    for (int i = 0; i < microbatches - warmup; ++i) {
        order.emplace_back(true, warmup + i);
        order.emplace_back(false, i);
    }
    for (int m = microbatches - warmup; m < microbatches; ++m)
        order.emplace_back(false, m);
    return order;
}

// Plans every rank's steps at once, since stages wait for each other: per step and dp replica the stages run their
// 1F1B order (a receive waits for the neighbour's send, the tp ranks of a stage end every tp all-reduce together),
// then the dp gradient all-reduce joins the replicas, a pp-group all-reduce joins the stages and the optimizer ends the
// step. Random draws are hashes of (rank, that rank's draw counter) or (group, op), so the result does not depend on
// the order ranks are visited in.
class PipelinePlanner {
public:
    explicit PipelinePlanner(const Cluster& c)
        : m_c(c)
        , m_L(c.layout)
        , m_m(c.options.microbatches)
    {
        // As many layers per pass as the trace budget's kernel count allows; below one full layer the compact one.
        const double perLayerMb = static_cast<double>(m_m) * (kForwardLayer.size() + kBackwardLayer.size());
        if (static_cast<double>(c.kernelsPerStep) < perLayerMb) {
            m_forward.assign(kForwardCompact.begin(), kForwardCompact.end());
            m_backward.assign(kBackwardCompact.begin(), kBackwardCompact.end());
        } else {
            m_forward.assign(kForwardLayer.begin(), kForwardLayer.end());
            m_backward.assign(kBackwardLayer.begin(), kBackwardLayer.end());
            m_layers = static_cast<int>(static_cast<double>(c.kernelsPerStep) / perLayerMb + 0.5);
        }
        m_ranks.resize(static_cast<size_t>(m_L.world));
        for (int r = 0; r < m_L.world; ++r) {
            auto& pr = m_ranks[static_cast<size_t>(r)];
            pr.salt = mix(c.options.seed, 0x919e0000ull + static_cast<uint64_t>(r));
            pr.groups = m_L.rankGroups[static_cast<size_t>(r)];
            pr.slowHost = c.options.slowHost && *c.options.slowHost == r;
        }
    }

    // [rank][step]
    std::vector<std::vector<StepPlan>> plan()
    {
        const int ranks = m_L.world;
        std::vector<std::vector<StepPlan>> out(static_cast<size_t>(ranks));
        int64_t stepStart = m_c.epochBase;
        for (int s = 0; s < m_c.options.steps; ++s) {
            for (int r = 0; r < ranks; ++r) {
                auto& pr = m_ranks[static_cast<size_t>(r)];
                pr.sp = StepPlan {};
                pr.sp.step = kFirstStep + s;
                // Every rank starts the step within the folder skew (< 0.5 ms) of the others.
                pr.sp.start = stepStart + (m_c.rankStart[static_cast<size_t>(r)] - m_c.epochBase);
                pr.sp.prep = draw(pr, 1 * kMs, 4 * kMs);
                pr.t = pr.sp.start + pr.sp.prep;
            }
            for (int d = 0; d < m_L.dp; ++d)
                runReplica(s, d);
            finishWithDataParallel(s);
            int64_t last = 0;
            for (int r = 0; r < ranks; ++r) {
                auto& pr = m_ranks[static_cast<size_t>(r)];
                finishStep(pr.sp);
                last = std::max(last, pr.sp.end);
                out[static_cast<size_t>(r)].push_back(std::move(pr.sp));
            }
            stepStart = last + 20 * kUs
                + static_cast<int64_t>(mix(m_c.options.seed, 0x57e9ull + static_cast<uint64_t>(s)) % (40 * kUs));
        }
        return out;
    }

private:
    struct RankState {
        StepPlan sp;
        int64_t t = 0; // compute / blocking-comm stream cursor
        uint64_t salt = 0, draws = 0;
        int taskId = 1000;
        std::array<int, 3> groups {};
        std::map<int, int> opCounter; // per group; p2p ops count under group + 1000000
        bool slowHost = false; // host-bound: launches its device tasks far apart
    };

    int rankAt(int stage, int d, int t) const { return stage * m_L.tp * m_L.dp + d * m_L.tp + t; }
    int64_t compute(int r, int s) const { return m_c.compute[static_cast<size_t>(r)][static_cast<size_t>(s)]; }

    static int64_t draw(RankState& pr, int64_t lo, int64_t hi)
    {
        return lo + static_cast<int64_t>(mix(pr.salt, pr.draws++) % static_cast<uint64_t>(hi - lo + 1));
    }
    int64_t groupDraw(uint64_t key, int64_t lo, int64_t hi) const
    {
        return lo + static_cast<int64_t>(mix(m_c.options.seed, key) % static_cast<uint64_t>(hi - lo + 1));
    }
    static int64_t gap(RankState& pr)
    {
        return pr.slowHost ? draw(pr, GeneratorOptions::kSlowHostGapLoNs, GeneratorOptions::kSlowHostGapHiNs)
                           : draw(pr, 800, 4 * kUs);
    }

    // A collective of the group every rank in ranks belongs to, started when each arrives and ended together when the
    // last has arrived and the slowest link has moved its share. start: each rank's arrival (its cursor by default).
    void collective(int kind, const std::vector<int>& ranks, int s, double dataMb, const std::vector<int64_t>& arrive,
        int64_t baseWaitLo, int64_t baseWaitHi, bool advanceCursor, std::vector<int64_t>& ends)
    {
        const int gi = m_ranks[static_cast<size_t>(ranks.front())].groups[static_cast<size_t>(kind)];
        const Group& g = m_L.groups[static_cast<size_t>(gi)];
        const int index = m_ranks[static_cast<size_t>(ranks.front())].opCounter[gi];
        const uint64_t opKeySalt = mix(g.hashValue, static_cast<uint64_t>(s) * 1000003u + static_cast<uint64_t>(index));
        const int64_t latest = *std::max_element(arrive.begin(), arrive.end());
        const int64_t baseWait = groupDraw(opKeySalt, baseWaitLo, baseWaitHi);
        const int64_t baseIdle = groupDraw(opKeySalt + 1, 10 * kUs, 60 * kUs);
        std::vector<CommOp> ops(ranks.size());
        int64_t slowest = 0;
        for (size_t i = 0; i < ranks.size(); ++i) {
            const int r = ranks[i];
            auto& pr = m_ranks[static_cast<size_t>(r)];
            CommOp& op = ops[i];
            op.type = "allReduce";
            op.group = gi;
            op.index = pr.opCounter[gi]++;
            allReduceLinks(m_c, g, r, dataMb, opKeySalt, op);
            slowest = std::max(slowest, op.transit);
        }
        const int64_t end = latest + baseWait + slowest + baseIdle;
        ends.assign(ranks.size(), end);
        for (size_t i = 0; i < ranks.size(); ++i) {
            auto& pr = m_ranks[static_cast<size_t>(ranks[i])];
            CommOp& op = ops[i];
            op.ts = arrive[i];
            op.wait = latest - arrive[i] + baseWait;
            op.sync = std::min(op.wait, draw(pr, 0, 40 * kUs));
            op.idle = end - op.ts - op.wait - op.transit;
            if (advanceCursor)
                pr.t = end;
            pr.sp.ops.push_back(std::move(op));
        }
    }

    CommOp p2pOp(int r, int peer, bool send, int s, int mb, bool forward) const
    {
        const int gi = m_ranks[static_cast<size_t>(r)].groups[PpGroup];
        const Group& g = m_L.groups[static_cast<size_t>(gi)];
        CommOp op;
        op.type = send ? "send" : "receive";
        op.group = gi;
        op.p2p = true;
        // Both ends of a transfer derive the same link from the same salt.
        const int a = std::min(r, peer);
        const int b = std::max(r, peer);
        const uint64_t opSalt = mix(g.hashValue,
            (static_cast<uint64_t>(s) * 4096u + static_cast<uint64_t>(mb)) * 2u + (forward ? 0u : 1u)
                + static_cast<uint64_t>(a) * 7919u * 65536u + static_cast<uint64_t>(b));
        // One microbatch's activations (or their gradient) of a tp rank: seq 4096 x hidden 4096 x BF16 / tp.
        const double dataMb
            = (24.0 + 16.0 * unit(mix(g.hashValue, static_cast<uint64_t>(a + b)))) / static_cast<double>(m_L.tp);
        const int src = send ? r : peer;
        const int dst = send ? peer : r;
        // Each side's matrix also carries its own link ("0-0" beside "0-1"), as torch_npu writes it: msprof-analyze
        // maps a file's local ranks to global ones through that self link. First, as in a collective, so links[1] is
        // the transfer wherever the peer link is read.
        op.links.push_back(makeLink(m_c, g, r, r, dataMb, opSalt));
        op.links.push_back(makeLink(m_c, g, src, dst, dataMb, opSalt));
        op.transit = op.links[1].timeNs;
        return op;
    }

    // A send or receive at the rank's cursor, waiting 10-60 µs and at least until readyAt (a receive: when the
    // neighbour's data starts to move). Returns that moment for this op (start + wait).
    int64_t placeP2p(int r, int peer, bool send, int s, int mb, bool forward, int64_t readyAt)
    {
        auto& pr = m_ranks[static_cast<size_t>(r)];
        CommOp op = p2pOp(r, peer, send, s, mb, forward);
        op.index = pr.opCounter[op.group + 1000000]++;
        pr.t += gap(pr);
        op.ts = pr.t;
        op.wait = std::max(draw(pr, 10 * kUs, 60 * kUs), readyAt - op.ts);
        op.sync = std::min(op.wait, draw(pr, 0, 20 * kUs));
        op.idle = draw(pr, 5 * kUs, 40 * kUs);
        const int64_t moving = op.ts + op.wait;
        pr.t += op.elapse();
        pr.sp.ops.push_back(std::move(op));
        return moving;
    }

    void runOp(int s, int d, int stage, bool forward, int mb, std::vector<int64_t>& sendReady)
    {
        const int tp = m_L.tp;
        const int pp = m_L.pp;
        const int from = forward ? stage - 1 : stage + 1; // the stage whose output this op consumes
        const int to = forward ? stage + 1 : stage - 1;
        auto readyIndex = [&](int st, int t) {
            return ((static_cast<size_t>(st) * static_cast<size_t>(tp) + static_cast<size_t>(t))
                           * static_cast<size_t>(m_m)
                       + static_cast<size_t>(mb))
                * 2u
                + (forward ? 0u : 1u);
        };
        std::vector<int> ranks;
        for (int t = 0; t < tp; ++t)
            ranks.push_back(rankAt(stage, d, t));
        // Receive: posted when the rank gets here, done once the neighbour's data has crossed the link.
        if (from >= 0 && from < pp) {
            for (int t = 0; t < tp; ++t) {
                placeP2p(ranks[static_cast<size_t>(t)], rankAt(from, d, t), false, s, mb, forward,
                    sendReady[readyIndex(from, t)]);
            }
        }
        // Compute, with the tp all-reduces ending together on every tp rank of the stage.
        const auto& block = forward ? m_forward : m_backward;
        double blockWeight = 0;
        for (const auto& k : block)
            blockWeight += k.weight;
        const auto syncsPerLayer
            = std::count_if(block.begin(), block.end(), [](const PipeKernel& k) { return k.tpSync; });
        const double tpMb = kTpDataPerStepMb / (2.0 * static_cast<double>(syncsPerLayer) * m_m * m_layers);
        for (int layer = 0; layer < m_layers; ++layer) {
            size_t segStart = 0;
            for (size_t i = 0; i < block.size(); ++i) {
                if (!block[i].tpSync && i + 1 != block.size())
                    continue;
                for (int r : ranks) {
                    auto& pr = m_ranks[static_cast<size_t>(r)];
                    const double budget = static_cast<double>(compute(r, s)) * kPipeForwardShare * (forward ? 1.0 : 2.0)
                        / static_cast<double>(m_m * m_layers);
                    kernelRun(pr, block, segStart, i + 1, budget, blockWeight);
                }
                segStart = i + 1;
                if (block[i].tpSync && tp > 1) {
                    std::vector<int64_t> arrive;
                    for (int r : ranks) {
                        auto& pr = m_ranks[static_cast<size_t>(r)];
                        arrive.push_back(pr.t + gap(pr));
                    }
                    std::vector<int64_t> ends;
                    collective(TpGroup, ranks, s, tpMb, arrive, 10 * kUs, 60 * kUs, true, ends);
                }
            }
        }
        // Send: eager, done when the data has left; the receiver may still be busy.
        if (to >= 0 && to < pp) {
            for (int t = 0; t < tp; ++t) {
                sendReady[readyIndex(stage, t)]
                    = placeP2p(ranks[static_cast<size_t>(t)], rankAt(to, d, t), true, s, mb, forward, 0);
            }
        }
    }

    void kernelRun(
        RankState& pr, const std::vector<PipeKernel>& block, size_t from, size_t to, double budget, double blockWeight)
    {
        LateLaunchDebt debt;
        for (size_t i = from; i < to; ++i) {
            const double jitter = 0.97 + 0.06 * unit(mix(pr.salt, pr.draws++));
            Kernel k;
            k.type = block[i].type;
            k.dur = std::max<int64_t>(1, static_cast<int64_t>(budget * block[i].weight / blockWeight * jitter));
            const int64_t late
                = lateLaunchDelay(m_c.options, static_cast<int>(&pr - m_ranks.data()), pr.sp.kernels.size());
            k.dur = debt.pay(late, k.dur);
            const int64_t g = gap(pr) + late;
            pr.t += g;
            k.ts = pr.t;
            k.waitNs = g;
            k.lateLaunch = late > 0;
            k.taskId = pr.taskId++;
            k.nameIndex = -1;
            pr.t += k.dur;
            pr.sp.kernels.push_back(k);
        }
    }

    // The stages of one dp replica: each runs its 1F1B order; an op waits until the op it receives from has been
    // planned (forward m of the previous stage, backward m of the next), which 1F1B always allows.
    void runReplica(int s, int d)
    {
        const int pp = m_L.pp;
        std::vector<std::vector<std::pair<bool, int>>> orders;
        for (int st = 0; st < pp; ++st)
            orders.push_back(oneFOneB(pp, st, m_m));
        std::vector<size_t> next(static_cast<size_t>(pp), 0);
        std::vector<std::vector<std::array<bool, 2>>> done(
            static_cast<size_t>(pp), std::vector<std::array<bool, 2>>(static_cast<size_t>(m_m), { false, false }));
        std::vector<int64_t> sendReady(static_cast<size_t>(pp * m_L.tp * m_m * 2), 0);
        bool progress = true;
        while (progress) {
            progress = false;
            for (int st = 0; st < pp; ++st) {
                auto& n = next[static_cast<size_t>(st)];
                while (n < orders[static_cast<size_t>(st)].size()) {
                    const auto [forward, mb] = orders[static_cast<size_t>(st)][n];
                    const int from = forward ? st - 1 : st + 1;
                    if (from >= 0 && from < pp
                        && !done[static_cast<size_t>(from)][static_cast<size_t>(mb)][forward ? 0 : 1])
                        break;
                    runOp(s, d, st, forward, mb, sendReady);
                    done[static_cast<size_t>(st)][static_cast<size_t>(mb)][forward ? 0 : 1] = true;
                    ++n;
                    progress = true;
                }
            }
        }
    }

    // Gradient tail and dp all-reduce (on the HCCL stream, under the tail kernels), the pipeline-wide gradient-norm
    // all-reduce, then the optimizer.
    void finishWithDataParallel(int s)
    {
        const std::vector<PipeKernel> tail(kGradTail.begin(), kGradTail.end());
        const std::vector<PipeKernel> optimizer(kOptimizer.begin(), kOptimizer.end());
        auto weight = [](const std::vector<PipeKernel>& b) {
            double w = 0;
            for (const auto& k : b)
                w += k.weight;
            return w;
        };
        std::vector<int64_t> hccl(static_cast<size_t>(m_L.world));
        for (int r = 0; r < m_L.world; ++r) {
            auto& pr = m_ranks[static_cast<size_t>(r)];
            hccl[static_cast<size_t>(r)] = pr.t + 5 * kUs + 1;
            kernelRun(pr, tail, 0, tail.size(), static_cast<double>(compute(r, s)) * kPipeTailShare, weight(tail));
        }
        if (m_L.dp > 1) {
            for (size_t gi = 0; gi < m_L.groups.size(); ++gi) {
                const Group& g = m_L.groups[gi];
                if (m_L.rankGroups[static_cast<size_t>(g.ranks.front())][DpGroup] != static_cast<int>(gi))
                    continue;
                for (int i = 0; i < kDpOps; ++i) {
                    std::vector<int64_t> arrive;
                    for (int r : g.ranks)
                        arrive.push_back(hccl[static_cast<size_t>(r)]);
                    const double dataMb = 96.0 + 160.0 * unit(mix(g.hashValue, 77u + static_cast<uint64_t>(i)));
                    std::vector<int64_t> ends;
                    collective(DpGroup, g.ranks, s, dataMb, arrive, 15 * kUs, 180 * kUs, false, ends);
                    for (size_t k = 0; k < g.ranks.size(); ++k) {
                        auto& pr = m_ranks[static_cast<size_t>(g.ranks[k])];
                        hccl[static_cast<size_t>(g.ranks[k])] = ends[k] + gap(pr);
                    }
                }
            }
        }
        for (int r = 0; r < m_L.world; ++r) {
            auto& pr = m_ranks[static_cast<size_t>(r)];
            pr.t = std::max(pr.t, hccl[static_cast<size_t>(r)]);
        }
        // The gradient-norm all-reduce of the optimizer spans the pipeline, so every stage leaves the step with the
        // first one, the last to finish its backward passes.
        for (size_t gi = 0; gi < m_L.groups.size(); ++gi) {
            const Group& g = m_L.groups[gi];
            if (m_L.rankGroups[static_cast<size_t>(g.ranks.front())][PpGroup] != static_cast<int>(gi))
                continue;
            std::vector<int64_t> arrive;
            for (int r : g.ranks) {
                auto& pr = m_ranks[static_cast<size_t>(r)];
                arrive.push_back(pr.t + gap(pr));
            }
            std::vector<int64_t> ends;
            collective(PpGroup, g.ranks, s, kGradNormMb, arrive, 10 * kUs, 40 * kUs, true, ends);
        }
        for (int r = 0; r < m_L.world; ++r) {
            auto& pr = m_ranks[static_cast<size_t>(r)];
            kernelRun(pr, optimizer, 0, optimizer.size(), static_cast<double>(compute(r, s)) * kPipeOptimizerShare,
                weight(optimizer));
            pr.sp.end = pr.t + gap(pr);
        }
    }

    const Cluster& m_c;
    const Layout& m_L;
    int m_m = 1; // microbatches per step
    int m_layers = 1; // transformer layers per microbatch on a stage
    std::vector<PipeKernel> m_forward, m_backward; // one layer's kernels
    std::vector<RankState> m_ranks;
};

// ---- file writers ----

class Out {
public:
    explicit Out(const fs::path& path)
        : m_stream(path, std::ios::binary | std::ios::trunc)
        , m_path(path)
    {
        m_buf.reserve(1 << 20);
    }
    bool ok() const { return m_stream.good(); }
    Out& operator<<(const std::string& s)
    {
        m_buf += s;
        maybeFlush();
        return *this;
    }
    Out& operator<<(const char* s)
    {
        m_buf += s;
        maybeFlush();
        return *this;
    }
    Out& operator<<(char ch)
    {
        m_buf += ch;
        return *this;
    }
    Out& operator<<(int64_t v) { return *this << std::to_string(v); }
    Out& operator<<(int v) { return *this << std::to_string(v); }
    uint64_t bytes() const { return m_flushed + m_buf.size(); }
    bool close(std::string& error)
    {
        flush();
        m_stream.close();
        if (!m_stream) {
            error = "cannot write " + m_path.string();
            return false;
        }
        return true;
    }

private:
    void maybeFlush()
    {
        if (m_buf.size() >= (1u << 20))
            flush();
    }
    void flush()
    {
        m_stream.write(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
        m_flushed += m_buf.size();
        m_buf.clear();
    }
    std::ofstream m_stream;
    fs::path m_path;
    std::string m_buf;
    uint64_t m_flushed = 0;
};

bool writeText(const fs::path& path, const std::string& text, std::string& error)
{
    Out out(path);
    if (!out.ok()) {
        error = "cannot create " + path.string();
        return false;
    }
    out << text;
    return out.close(error);
}

std::string folderTimestamp(int64_t epochNs)
{
    using namespace std::chrono;
    const sys_time<milliseconds> tp { milliseconds(epochNs / kMs) };
    const auto day = floor<days>(tp);
    const year_month_day ymd { day };
    const hh_mm_ss<milliseconds> hms { tp - day };
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d%02u%02u%02lld%02lld%02lld%03lld", static_cast<int>(ymd.year()),
        static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
        static_cast<long long>(hms.hours().count()), static_cast<long long>(hms.minutes().count()),
        static_cast<long long>(hms.seconds().count()), static_cast<long long>(hms.subseconds().count()));
    return buf;
}

std::string profilerInfo(int rank, int64_t endNs, uint64_t seed)
{
    Json j;
    j["config"]["common_config"]["activities"] = { "ProfilerActivity.CPU", "ProfilerActivity.NPU" };
    j["config"]["common_config"]["schedule"]
        = Json { { "wait", 0 }, { "active", 1 }, { "warmup", 10 }, { "repeat", 1 }, { "skip_first", 40 } };
    j["config"]["common_config"]["record_shapes"] = true;
    j["config"]["common_config"]["profile_memory"] = true;
    j["config"]["common_config"]["with_stack"] = false;
    j["config"]["common_config"]["with_flops"] = false;
    j["config"]["common_config"]["with_modules"] = false;
    auto& e = j["config"]["experimental_config"];
    e["_profiler_level"] = "Level1";
    e["_aic_metrics"] = "ACL_AICORE_PIPE_UTILIZATION";
    e["_l2_cache"] = false;
    e["_msprof_tx"] = false;
    e["_data_simplification"] = true;
    e["record_op_args"] = false;
    e["_export_type"] = "text";
    e["_op_attr"] = false;
    e["_gc_detect_threshold"] = nullptr;
    const int64_t monotonicEnd
        = 172164265133640 + static_cast<int64_t>(mix(seed, static_cast<uint64_t>(rank)) % 1000000000u);
    const int64_t duration = 700 * kMs;
    j["start_info"] = Json { { "syscnt_enable", true }, { "freq", 100 },
        { "start_cnt", (monotonicEnd - duration) / 10 }, { "start_monotonic", monotonicEnd - duration } };
    j["end_info"] = Json { { "collectionTimeEnd", endNs }, { "MonotonicTimeEnd", monotonicEnd } };
    j["rank_id"] = rank;
    return j.dump(4);
}

std::string profilerMetadata(const Cluster& c, int rank)
{
    const auto& L = c.layout;
    Json j;
    j["distributed_args"] = Json { { "tensor_model_parallel_size", L.tp }, { "pipeline_model_parallel_size", L.pp },
        { "data_parallel_size", L.dp }, { "context_parallel_size", 1 }, { "expert_model_parallel_size", 1 },
        { "sequence_parallel", false }, { "rank", rank }, { "world_size", L.world } };
    j["ENV_VARIABLES"] = Json { { "ASCEND_GLOBAL_LOG_LEVEL", "3" }, { "HCCL_RDMA_TC", "" }, { "HCCL_RDMA_SL", "" },
        { "ACLNN_CACHE_LIMIT", "" }, { "HOST_CACHE_CAPACITY", "" }, { "ASCEND_ENHANCE_ENABLE", "" },
        { "PYTORCH_NPU_ALLOC_CONF", "expandable_segments:True" }, { "ASCEND_LAUNCH_BLOCKING", "" } };
    auto entry = [&](const Group& g) {
        return Json { { "group_name", g.name }, { "group_rank", g.localOf(rank) }, { "global_ranks", g.ranks } };
    };
    Json groups = Json::object();
    groups[L.defaultGroup.raw] = entry(L.defaultGroup);
    for (int gi : L.rankGroups[static_cast<size_t>(rank)]) {
        if (gi >= 0)
            groups[L.groups[static_cast<size_t>(gi)].raw] = entry(L.groups[static_cast<size_t>(gi)]);
    }
    j["parallel_group_info"] = std::move(groups);
    return j.dump(4);
}

std::string stepTraceCsv(const std::vector<StepPlan>& steps)
{
    std::string s = "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                    "Communication(Not Overlapped and Exclude Receive),Preparing\n";
    for (const auto& sp : steps) {
        const int64_t stage = sp.computing + sp.notOverlapped + sp.free - sp.bubble;
        s += std::to_string(sp.step) + "," + usText(sp.computing) + "," + usText(sp.notOverlapped) + ","
            + usText(sp.overlapped) + "," + usText(sp.comm) + "," + usText(sp.free) + "," + usText(stage) + ","
            + usText(sp.bubble) + "," + usText(sp.notOverlapped - sp.receive) + "," + usText(sp.prep) + "\n";
    }
    return s;
}

const char* kKernelHeader
    = "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait "
      "Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output "
      "Data Types,Output Formats,Context "
      "ID,aicore_time(us),aic_total_cycles,aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,aic_"
      "mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,aic_icache_"
      "miss_rate,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,aiv_"
      "mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,cube_utilization(%)\n";

// The same columns with aic_metrics=ArithmeticUtilization (FORMATS.md §6.1, the early-2024 33-column header's PMU
// part): FLOPs per kernel in aic/aiv_cube_fops and aic/aiv_vector_fops.
const char* kKernelHeaderFlops
    = "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait "
      "Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output "
      "Data Types,Output Formats,Context ID,aicore_time(us),aic_total_cycles,aic_mac_fp16_ratio,aic_mac_int8_ratio,"
      "aic_cube_fops,aic_vector_fops,aiv_time(us),aiv_total_cycles,aiv_vec_fp32_ratio,aiv_vec_fp16_ratio,"
      "aiv_vec_int32_ratio,aiv_vec_misc_ratio,aiv_cube_fops,aiv_vector_fops\n";
constexpr int kPmuColumns = 25; // PipeUtilization columns after Context ID
constexpr int kPmuColumnsFlops = 14; // ArithmeticUtilization columns after Context ID

std::string kernelName(const Kernel& k)
{
    const auto& kt = kKernelTypes[static_cast<size_t>(k.type)];
    if (k.nameIndex < 0)
        return kt.fullName ? kt.fullName : kPipeBaseNames[static_cast<size_t>(k.type)];
    return std::string(kt.type) + "_" + std::to_string(k.nameIndex);
}

// 13 aic + 11 aiv PMU columns + cube_utilization, plausible for the core type.
std::string pmuColumns(const Kernel& k, uint64_t salt)
{
    const auto& kt = kKernelTypes[static_cast<size_t>(k.type)];
    const double us = static_cast<double>(k.dur) / 1000.0;
    const bool aic = std::string(kt.core) != "AI_VECTOR_CORE";
    const bool aiv = std::string(kt.core) != "AI_CORE";
    auto r = [&](int i) { return 0.05 + 0.9 * unit(mix(salt, static_cast<uint64_t>(i))); };
    std::string s;
    auto add = [&s](const std::string& v) { s += "," + v; };
    if (aic) {
        const double t = us * 0.97;
        add(fixed(t, 3));
        add(std::to_string(static_cast<int64_t>(t * 1800.0 * 24)));
        for (int i = 0; i < 5; ++i) {
            add(fixed(t * r(i), 3));
            add(fixed(r(i), 3));
        }
        add(fixed(r(9) * 0.01, 3));
    } else {
        add("0.0");
        add("0");
        for (int i = 0; i < 11; ++i)
            add("0.0");
    }
    if (aiv) {
        const double t = us * 0.95;
        add(fixed(t, 3));
        add(std::to_string(static_cast<int64_t>(t * 1800.0 * 48)));
        for (int i = 0; i < 4; ++i) {
            add(fixed(t * r(10 + i), 3));
            add(fixed(r(10 + i), 3));
        }
        add(fixed(r(20) * 0.01, 3));
    } else {
        add("0.0");
        add("0");
        for (int i = 0; i < 9; ++i)
            add("0.0");
    }
    add(aic ? fixed(40.0 + 50.0 * r(21), 3) : "0");
    return s;
}

// 14 ArithmeticUtilization columns: times and cycles as pmuColumns, FLOPs from the kernel's duration (a cube kernel
// at ~60 % of a 910B-class AI Core's ~300 TFLOPS fp16 peak per 24 cores, vector kernels far lower) times flopsFactor.
std::string pmuColumnsFlops(const Kernel& k, uint64_t salt, double flopsFactor)
{
    const auto& kt = kKernelTypes[static_cast<size_t>(k.type)];
    const double us = static_cast<double>(k.dur) / 1000.0;
    const bool aic = std::string(kt.core) != "AI_VECTOR_CORE";
    const bool aiv = std::string(kt.core) != "AI_CORE";
    auto r = [&](int i) { return 0.05 + 0.9 * unit(mix(salt, static_cast<uint64_t>(i))); };
    auto fops = [&](double perUs) { return std::to_string(static_cast<int64_t>(us * perUs * flopsFactor)); };
    std::string s;
    auto add = [&s](const std::string& v) { s += "," + v; };
    if (aic) {
        const double t = us * 0.97;
        add(fixed(t, 3));
        add(std::to_string(static_cast<int64_t>(t * 1800.0 * 24)));
        add(fixed(r(0), 3));
        add("0.0");
        add(fops(1.8e8 * (0.8 + 0.2 * r(1))));
        add(fops(2.0e6 * r(2)));
    } else {
        for (const char* v : { "0.0", "0", "0.0", "0.0", "0", "0" })
            add(v);
    }
    if (aiv) {
        const double t = us * 0.95;
        add(fixed(t, 3));
        add(std::to_string(static_cast<int64_t>(t * 1800.0 * 48)));
        for (int i = 0; i < 4; ++i)
            add(fixed(r(10 + i) * 0.25, 3));
        add("0");
        add(fops(6.0e6 * (0.8 + 0.2 * r(14))));
    } else {
        for (const char* v : { "0.0", "0", "0.0", "0.0", "0.0", "0.0", "0", "0" })
            add(v);
    }
    return s;
}

bool writeKernelDetails(
    const fs::path& path, const Cluster& c, int rank, const std::vector<StepPlan>& steps, std::string& error)
{
    Out out(path);
    if (!out.ok()) {
        error = "cannot create " + path.string();
        return false;
    }
    const GeneratorOptions& o = c.options;
    const bool flops = o.flops || o.flopsLightRank;
    const double flopsFactor
        = o.flopsLightRank && *o.flopsLightRank == rank ? GeneratorOptions::kFlopsLightFactor : 1.0;
    out << (flops ? kKernelHeaderFlops : kKernelHeader);
    // A communication row leaves Mix Block Dim .. Context ID (9 columns) and every PMU column N/A.
    std::string na;
    for (int i = 0; i < 9 + (flops ? kPmuColumnsFlops : kPmuColumns); ++i)
        na += ",N/A";
    for (const auto& sp : steps) {
        size_t ki = 0;
        size_t oi = 0;
        while (ki < sp.kernels.size() || oi < sp.ops.size()) {
            const bool kernelNext
                = oi >= sp.ops.size() || (ki < sp.kernels.size() && sp.kernels[ki].ts <= sp.ops[oi].ts);
            std::string row = std::to_string(sp.step) + ",4294967295,";
            if (kernelNext) {
                const Kernel& k = sp.kernels[ki++];
                const auto& kt = kKernelTypes[static_cast<size_t>(k.type)];
                const uint64_t salt
                    = mix(c.options.seed, static_cast<uint64_t>(rank) * 1000003u + static_cast<uint64_t>(k.taskId));
                row += std::to_string(k.taskId) + ",2," + kernelName(k) + "," + kt.type + ",dynamic," + kt.core + ","
                    + usText(k.ts) + "\t," + usText(k.dur) + "," + usText(k.waitNs) + ","
                    + std::to_string(std::string(kt.core) == "AI_CORE" ? 24 : 48) + ","
                    + (std::string(kt.core).rfind("MIX", 0) == 0 ? "48" : "0") + ","
                    + (std::string(kt.core) == "AI_CORE" ? "YES" : "NO") + ",\"\"\"" + kt.inShapes + "\"\"\","
                    + kt.inTypes + "," + kt.inFormats + ",\"\"\"" + kt.outShapes + "\"\"\"," + "BF16,ND,N/A"
                    + (flops ? pmuColumnsFlops(k, salt, flopsFactor) : pmuColumns(k, salt));
            } else {
                const CommOp& op = sp.ops[oi++];
                row += "N/A,N/A," + opKey(c, op) + ",hcom_" + op.type + "_,N/A,HCCL," + usText(op.ts) + "\t,"
                    + usText(op.elapse()) + ",0.0,0" + na;
            }
            out << row << "\n";
        }
    }
    return out.close(error);
}

std::string opStatisticCsv(const std::vector<StepPlan>& steps)
{
    struct Stat {
        int64_t count = 0, total = 0, min = std::numeric_limits<int64_t>::max(), max = 0;
    };
    std::map<int, Stat> stats;
    int64_t all = 0;
    for (const auto& sp : steps) {
        for (const auto& k : sp.kernels) {
            auto& st = stats[k.type];
            ++st.count;
            st.total += k.dur;
            st.min = std::min(st.min, k.dur);
            st.max = std::max(st.max, k.dur);
            all += k.dur;
        }
    }
    std::vector<std::pair<int, Stat>> rows(stats.begin(), stats.end());
    std::stable_sort(
        rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.total > b.second.total; });
    std::string s = "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n";
    for (const auto& [type, st] : rows) {
        const auto& kt = kKernelTypes[static_cast<size_t>(type)];
        s += std::string(kt.type) + "," + kt.core + "," + std::to_string(st.count) + "," + usText(st.total) + ","
            + usText(st.min) + "," + usText(st.total / st.count) + "," + usText(st.max) + ","
            + fixed(100.0 * static_cast<double>(st.total) / static_cast<double>(std::max<int64_t>(1, all)), 3) + "\n";
    }
    return s;
}

Json bandwidthInfo(const std::vector<const CommOp*>& ops, bool total)
{
    struct Acc {
        double size = 0;
        int64_t time = 0;
        std::map<std::string, std::pair<int64_t, double>> dist; // packet MB text -> (count, ms)
    };
    std::map<std::string, Acc> acc;
    for (const CommOp* op : ops) {
        for (const auto& l : op->links) {
            if (l.transport == "LOCAL")
                continue;
            auto& a = acc[l.transport];
            a.size += l.sizeMb;
            a.time += l.timeNs;
            auto& d = a.dist[fixed(l.sizeMb, 6)];
            d.first += 1;
            d.second += nsToMs(l.timeNs);
        }
    }
    Json out = Json::object();
    auto entry = [&](const char* name, const Acc* a, bool withDist) {
        Json e;
        const double size = a ? a->size : 0.0;
        const int64_t time = a ? a->time : 0;
        Json dist = Json::object();
        if (a && withDist) {
            for (const auto& [k, v] : a->dist)
                dist[k] = Json::array({ v.first, v.second });
        }
        if (total) {
            e["Transit Time(ms)"] = nsToMs(time);
            e["Transit Size(MB)"] = size;
            e["Size Distribution"] = dist;
        } else {
            e["Transit Size(MB)"] = size;
            e["Transit Time(ms)"] = nsToMs(time);
            e["Bandwidth(GB/s)"] = time > 0 ? round4(size / nsToMs(time)) : 0.0;
            e["Large Packet Ratio"] = 0.0;
            e["Size Distribution"] = dist;
        }
        out[name] = std::move(e);
    };
    auto find = [&](const char* name) -> const Acc* {
        auto it = acc.find(name);
        return it == acc.end() ? nullptr : &it->second;
    };
    entry("RDMA", find("RDMA"), true);
    entry("HCCS", find("HCCS"), true);
    entry("PCIE", nullptr, false);
    entry("SDMA", find("HCCS"), false); // HCCS links move data with SDMA; torch_npu repeats the totals
    entry("SIO", nullptr, false);
    return out;
}

Json timeInfo(int64_t start, bool withStart, int64_t elapse, int64_t transit, int64_t wait, int64_t sync, int64_t idle)
{
    Json t;
    if (withStart)
        t["Start Timestamp(us)"] = static_cast<double>(start / 100) / 10.0;
    t["Elapse Time(ms)"] = nsToMs(elapse);
    t["Transit Time(ms)"] = nsToMs(transit);
    t["Wait Time(ms)"] = nsToMs(wait);
    t["Synchronization Time(ms)"] = nsToMs(sync);
    t["Idle Time(ms)"] = nsToMs(idle);
    t["Wait Time Ratio"]
        = wait + transit > 0 ? round4(static_cast<double>(wait) / static_cast<double>(wait + transit)) : 0.0;
    t["Synchronization Time Ratio"]
        = sync + transit > 0 ? round4(static_cast<double>(sync) / static_cast<double>(sync + transit)) : 0.0;
    return t;
}

std::string communicationJson(const Cluster& c, const std::vector<StepPlan>& steps)
{
    Json root = Json::object();
    for (const auto& sp : steps) {
        Json stepObj;
        for (const bool p2p : { true, false }) {
            Json kind = Json::object();
            std::vector<const CommOp*> all;
            int64_t e = 0, tr = 0, w = 0, sy = 0, id = 0;
            for (const auto& op : sp.ops) {
                if (op.p2p != p2p)
                    continue;
                all.push_back(&op);
                Json info;
                info["Communication Time Info"]
                    = timeInfo(op.ts, true, op.elapse(), op.transit, op.wait, op.sync, op.idle);
                info["Communication Bandwidth Info"] = bandwidthInfo({ &op }, false);
                kind[opKey(c, op) + "@" + c.layout.groups[static_cast<size_t>(op.group)].hash] = std::move(info);
                e += op.elapse();
                tr += op.transit;
                w += op.wait;
                sy += op.sync;
                id += op.idle;
            }
            if (!all.empty()) {
                Json info;
                info["Communication Time Info"] = timeInfo(0, false, e, tr, w, sy, id);
                info["Communication Bandwidth Info"] = bandwidthInfo(all, true);
                kind["Total Op Info"] = std::move(info);
            }
            stepObj[p2p ? "p2p" : "collective"] = std::move(kind);
        }
        root["step" + std::to_string(sp.step)] = std::move(stepObj);
    }
    return root.dump();
}

Json linkJson(const LinkInst& l, const std::string* opName)
{
    Json j;
    j["Transport Type"] = l.transport;
    j["Transit Size(MB)"] = l.sizeMb;
    j["Transit Time(ms)"] = nsToMs(l.timeNs);
    j["Bandwidth(GB/s)"] = round4(l.bandwidth());
    if (opName)
        j["Op Name"] = *opName;
    return j;
}

std::string matrixJson(const Cluster& c, const std::vector<StepPlan>& steps)
{
    Json root = Json::object();
    for (const auto& sp : steps) {
        Json stepObj;
        for (const bool p2p : { true, false }) {
            Json kind = Json::object();
            // (group, type) -> ops in time order
            std::map<std::pair<int, std::string>, std::vector<const CommOp*>> byGroup;
            for (const auto& op : sp.ops) {
                if (op.p2p == p2p)
                    byGroup[{ op.group, op.type }].push_back(&op);
            }
            for (const auto& [key, ops] : byGroup) {
                const Group& g = c.layout.groups[static_cast<size_t>(key.first)];
                const std::string suffix = "@" + g.hash;
                const std::string type = lowerType(key.second);
                // Per link: ops ranked by that link's bandwidth, highest first.
                std::map<std::string, std::vector<std::pair<const LinkInst*, const CommOp*>>> perLink;
                std::vector<std::string> linkOrder;
                for (const CommOp* op : ops) {
                    for (const auto& l : op->links) {
                        const std::string lk = std::to_string(l.srcLocal) + "-" + std::to_string(l.dstLocal);
                        if (!perLink.count(lk))
                            linkOrder.push_back(lk);
                        perLink[lk].emplace_back(&l, op);
                    }
                }
                for (auto& [lk, v] : perLink) {
                    std::stable_sort(v.begin(), v.end(),
                        [](const auto& a, const auto& b) { return a.first->bandwidth() > b.first->bandwidth(); });
                }
                const size_t n = ops.size();
                std::vector<std::pair<std::string, size_t>> slots { { "top1", 0 } };
                if (n >= 3)
                    slots.emplace_back("middle", n / 2);
                slots.emplace_back("bottom1", n - 1);
                if (n >= 2)
                    slots.emplace_back("bottom2", n - 2);
                if (n >= 4)
                    slots.emplace_back("bottom3", n - 3);
                for (const auto& [slot, rankIndex] : slots) {
                    Json links = Json::object();
                    for (const auto& lk : linkOrder) {
                        const auto& v = perLink[lk];
                        const size_t i = std::min(rankIndex, v.size() - 1);
                        const std::string name = opKey(c, *v[i].second);
                        links[lk] = linkJson(*v[i].first, &name);
                    }
                    kind[type + "-" + slot + suffix] = std::move(links);
                }
                Json totals = Json::object();
                for (const auto& lk : linkOrder) {
                    LinkInst sum = *perLink[lk].front().first;
                    sum.sizeMb = 0;
                    sum.timeNs = 0;
                    for (const auto& [l, op] : perLink[lk]) {
                        sum.sizeMb += l->sizeMb;
                        sum.timeNs += l->timeNs;
                    }
                    totals[lk] = linkJson(sum, nullptr);
                }
                kind[type + "-total" + suffix] = std::move(totals);
            }
            stepObj[p2p ? "p2p" : "collective"] = std::move(kind);
        }
        root["step" + std::to_string(sp.step)] = std::move(stepObj);
    }
    return root.dump();
}

std::string memoryRecordCsv(int device, const std::vector<StepPlan>& steps, uint64_t salt, double factor)
{
    std::string s
        = "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n";
    const std::string dev = "NPU:" + std::to_string(device);
    int i = 0;
    for (const auto& sp : steps) {
        for (int q = 0; q < 4; ++q, ++i) {
            const int64_t ts = sp.start + (sp.end - sp.start) * q / 4;
            const double alloc = factor
                * (18000.0 + 9000.0 * (q == 2 ? 1.0 : 0.4) + 200.0 * unit(mix(salt, static_cast<uint64_t>(i))));
            s += "PTA," + usText(ts) + "\t," + fixed(alloc, 4) + "," + fixed(32768.0 * factor, 4) + ","
                + fixed(alloc + 512.0, 4) + ",187651225116672," + dev + "\n";
            s += "APP," + usText(ts + 20 * kUs) + "\t,," + fixed(factor * 34000.0 + alloc / 100.0, 4) + ",,," + dev
                + "\n";
        }
    }
    return s;
}

// The CANN modules of the real sample, except APP, which reserves what memory_record.csv's APP rows reach (factor ×
// 34,000 MB plus at most 1 % of the PTA allocation). The two files do not measure the same thing: on rank 0 of the real
// sample (tests/data/torch_npu_2rank_level1) npu_module_mem's APP peaks at 1,452 MB and memory_record's APP reserved at
// 2,113.7 MB. Here they are equal, so that a generated rank's module table is at least of the curve's size (it was
// the real 2,109.6 MB beside a 34,000 MB curve).
std::string npuModuleMemCsv(int device, const std::vector<StepPlan>& steps, double factor)
{
    std::string s = "Component,Timestamp(us),Total Reserved(MB),Device\n";
    const std::array<std::pair<const char*, double>, 5> modules { { { "SLOG", 0.0 }, { "HCCL", 612.5 },
        { "RUNTIME", 301.25 }, { "GE", 96.0 }, { "APP", factor * (34000.0 + 272.0) } } };
    for (const auto& sp : steps) {
        for (const auto& [name, mb] : modules)
            s += std::string(name) + "," + usText(sp.start) + "\t," + fixed(mb, 4) + ",NPU:" + std::to_string(device)
                + "\n";
    }
    return s;
}

// ---- trace_view.json (streamed) ----

class TraceWriter {
public:
    TraceWriter(Out& out, const Cluster& c, int rank)
        : m_out(out)
        , m_c(c)
    {
        m_hostPid = 2100000 + static_cast<int64_t>(mix(c.options.seed, static_cast<uint64_t>(rank)) % 900000u);
        m_device = rank % kRanksPerServer;
        m_cannTid = m_hostPid + 3;
    }

    void write(const std::vector<StepPlan>& steps)
    {
        m_out << '[';
        metadata();
        for (const auto& sp : steps)
            step(sp);
        filler(steps);
        m_out << ']';
    }

private:
    int64_t devicePid(int sort) const { return (m_hostPid << 10) | (static_cast<int64_t>(sort) << 5) | m_device; }

    void sep()
    {
        if (m_first)
            m_first = false;
        else
            m_out << ", ";
    }

    void meta(const char* name, int64_t pid, int64_t tid, const std::string& argsJson)
    {
        sep();
        m_out << "{\"ph\": \"M\", \"name\": \"" << name << "\", \"pid\": " << pid << ", \"tid\": " << tid
              << ", \"args\": " << argsJson << "}";
    }

    void process(int64_t pid, const char* name, const char* label, int sort)
    {
        meta("process_name", pid, 0, std::string("{\"name\": \"") + name + "\"}");
        meta("process_labels", pid, 0, std::string("{\"labels\": \"") + label + "\"}");
        meta("process_sort_index", pid, 0, "{\"sort_index\": " + std::to_string(sort) + "}");
    }

    void thread(int64_t pid, int64_t tid, const std::string& name, int64_t sort)
    {
        meta("thread_name", pid, tid, "{\"name\": \"" + name + "\"}");
        meta("thread_sort_index", pid, tid, "{\"sort_index\": " + std::to_string(sort) + "}");
    }

    void metadata()
    {
        process(m_hostPid, "Python", "CPU", 0);
        thread(m_hostPid, m_hostPid, "Thread " + std::to_string(m_hostPid), m_hostPid);
        process(devicePid(7), "CANN", "CPU", 7);
        thread(devicePid(7), m_cannTid, "Thread " + std::to_string(m_cannTid), m_cannTid);
        process(devicePid(13), "Ascend Hardware", "NPU", 13);
        thread(devicePid(13), 2, "Stream 2", 2);
        process(devicePid(14), "AI Core Freq", "NPU", 14);
        process(devicePid(15), "HCCL", "NPU", 15);
        thread(devicePid(15), 0, "Group 0 Communication", 0);
        thread(devicePid(15), 1, "Plane 0", 1);
        process(devicePid(17), "HBM", "NPU", 17);
        process(devicePid(23), "Overlap Analysis", "NPU", 23);
        thread(devicePid(23), 0, "Computing", 0);
        thread(devicePid(23), 1, "Communication", 1);
        thread(devicePid(23), 2, "Communication(Not Overlapped)", 2);
        thread(devicePid(23), 3, "Free", 3);
    }

    void x(const std::string& name, int64_t pid, int64_t tid, int64_t ts, int64_t dur, const char* cat,
        const std::string& args)
    {
        sep();
        m_out << "{\"ph\": \"X\", \"name\": \"" << name << "\", \"pid\": " << pid << ", \"tid\": " << tid
              << ", \"ts\": \"" << usText(ts) << "\", \"dur\": " << usText(dur);
        if (cat)
            m_out << ", \"cat\": \"" << cat << "\"";
        if (!args.empty())
            m_out << ", \"args\": " << args;
        m_out << '}';
    }

    void flow(char ph, const char* name, const char* cat, const std::string& idJson, int64_t pid, int64_t tid,
        int64_t ts, bool bp)
    {
        sep();
        m_out << "{\"ph\": \"" << ph << "\", ";
        if (bp)
            m_out << "\"bp\": \"e\", ";
        m_out << "\"name\": \"" << name << "\", \"id\": " << idJson << ", \"pid\": " << pid << ", \"tid\": " << tid
              << ", \"ts\": \"" << usText(ts) << "\", \"cat\": \"" << cat << "\"}";
    }

    void counter(const char* name, int64_t pid, int64_t ts, const std::string& args)
    {
        sep();
        m_out << "{\"name\": \"" << name << "\", \"ts\": \"" << usText(ts) << "\", \"pid\": " << pid
              << ", \"tid\": 0, \"args\": " << args << ", \"ph\": \"C\"}";
    }

    // A device item (kernel or comm op) the host launches.
    struct Item {
        int64_t ts = 0, dur = 0;
        const Kernel* kernel = nullptr;
        const CommOp* op = nullptr;
    };

    std::string hostToDeviceId()
    {
        ++m_connection;
        // Kernel launches carry 68-bit composite ids (FORMATS.md §5.2); every fourth one a plain connection id.
        if (m_connection % 4 == 0)
            return std::to_string(900 + m_connection);
        char buf[48];
        std::snprintf(buf, sizeof buf, "4000%016llu",
            static_cast<unsigned long long>(4068119343529983ull
                + static_cast<unsigned long long>(m_connection) * 281474976710656ull % 5000000000000000ull));
        return buf;
    }

    void step(const StepPlan& sp)
    {
        const int64_t hw = devicePid(13);
        const int64_t hccl = devicePid(15);
        const int64_t ov = devicePid(23);
        x("ProfilerStep#" + std::to_string(sp.step), m_hostPid, m_hostPid, sp.start, sp.end - sp.start, "cpu_op",
            "{\"Sequence number\": -1, \"Fwd thread id\": 0}");
        counter("AI Core Freq", devicePid(14), sp.start, "{\"MHz\": 1800}");
        for (int q = 0; q < 16; ++q) {
            const int64_t ts = sp.start + (sp.end - sp.start) * q / 16;
            const double v = 2000.0 + 40000.0 * unit(mix(static_cast<uint64_t>(ts), 3u));
            counter("HBM 0/Read", devicePid(17), ts, "{\"Read(MB/s)\": " + fixed(v, 3) + "}");
            counter("HBM 0/Write", devicePid(17), ts, "{\"Write(MB/s)\": " + fixed(v * 0.6, 3) + "}");
        }

        std::vector<Item> items;
        for (const auto& k : sp.kernels)
            items.push_back({ k.ts, k.dur, &k, nullptr });
        for (const auto& op : sp.ops)
            items.push_back({ op.ts, op.elapse(), nullptr, &op });
        std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.ts < b.ts; });

        int64_t prev = sp.start;
        int64_t idleFrom = sp.start; // end of the device work so far
        for (const auto& it : items) {
            std::string deviceName;
            int64_t devPid = hw;
            int64_t devTid = 2;
            if (it.kernel) {
                const Kernel& k = *it.kernel;
                const auto& kt = kKernelTypes[static_cast<size_t>(k.type)];
                deviceName = kernelName(k);
                x(deviceName, hw, 2, k.ts, k.dur, nullptr,
                    "{\"Model Id\": 4294967295, \"Task Type\": \""
                        + std::string(std::string(kt.core) == "AI_CORE" ? "AI_CORE" : "AI_VECTOR_CORE")
                        + "\", \"Physic Stream Id\": 2, \"Task Id\": " + std::to_string(k.taskId)
                        + ", \"Batch Id\": 0, \"Subtask Id\": 4294967295, \"connection_id\": "
                        + std::to_string(k.taskId) + "}");
                x("Computing", ov, 0, k.ts, k.dur, nullptr, std::string());
            } else {
                const CommOp& op = *it.op;
                devPid = hccl;
                devTid = 0;
                deviceName = opKey(m_c, op);
                const auto& peerLink = op.links.size() > 1 ? op.links[1] : op.links.front();
                x(deviceName, hccl, 0, op.ts, op.elapse(), nullptr,
                    "{\"connection_id\": " + std::to_string(m_connection)
                        + ", \"model id\": 4294967295, \"data_type\": "
                          "\"BF16\", \"alg_type\": \"MESH-RING\", \"count\": "
                        + std::to_string(static_cast<int64_t>(peerLink.sizeMb * 5e5)) + "}");
                x("Notify_Wait", hccl, 1, op.ts, op.wait, nullptr,
                    "{\"notify_id\": 1, \"task type\": \"Notify Wait\", \"transport type\": \"LOCAL\"}");
                x("Memcpy", hccl, 1, op.ts + op.wait, op.transit, nullptr,
                    "{\"task type\": \"Memcpy\", \"src rank\": " + std::to_string(peerLink.srcLocal)
                        + ", \"dst rank\": " + std::to_string(peerLink.dstLocal) + ", \"transport type\": \""
                        + (peerLink.transport == "RDMA" ? "RDMA" : "SDMA") + "\", \"size(Byte)\": "
                        + std::to_string(static_cast<int64_t>(peerLink.sizeMb * 1e6)) + ", \"link type\": \""
                        + (peerLink.transport == "RDMA"         ? "ROCE"
                                : peerLink.transport == "LOCAL" ? "ON_CHIP"
                                                                : "HCCS")
                        + "\", \"bandwidth(GB/s)\": " + fixed(peerLink.bandwidth(), 4) + "}");
                x("Communication", ov, 1, op.ts, op.elapse(), nullptr, std::string());
                for (const auto& [a, b] : op.notOverlapped)
                    x("Communication(Not Overlapped)", ov, 2, a, b - a, nullptr, std::string());
            }
            // Host launch inside (prev, it.ts): cpu_op + CANN api + the flows to the device item.
            if (it.ts > prev + 10) {
                const int64_t lag = (it.ts - prev) / 2;
                const int64_t lead = std::min<int64_t>(lag, 200 * kUs);
                int64_t hs = it.ts - lead;
                int64_t hd = std::max<int64_t>(1, std::min<int64_t>(lead * 6 / 10, 25 * kUs));
                if (it.kernel && it.kernel->lateLaunch)
                    lateLaunchHost(it.ts, idleFrom, hs, hd);
                const std::string hostName = it.kernel
                    ? "aten::" + lowerType(kKernelTypes[static_cast<size_t>(it.kernel->type)].type)
                    : "Hccl" + it.op->type;
                x(hostName, m_hostPid, m_hostPid, hs, hd, "cpu_op", "{\"Sequence number\": -1, \"Fwd thread id\": 0}");
                flow('s', "torch_to_npu", "async_npu", std::to_string(it.ts), m_hostPid, m_hostPid, hs, true);
                flow('f', "torch_to_npu", "async_npu", std::to_string(it.ts), devPid, devTid, it.ts, true);
                const std::string id = hostToDeviceId();
                const int64_t cd = std::max<int64_t>(1, hd / 2);
                // A late launch's CANN API is its last part, ending right before the kernel starts.
                const int64_t cs = it.kernel && it.kernel->lateLaunch ? hs + hd - cd - 1 : hs + hd / 4;
                const std::string api = it.kernel
                    ? "aclnn" + std::string(kKernelTypes[static_cast<size_t>(it.kernel->type)].type)
                    : it.op->type == "send"    ? "HcclSend"
                    : it.op->type == "receive" ? "HcclRecv"
                                               : "HcclAllReduce";
                x("AscendCL@" + api, devicePid(7), m_cannTid, cs, cd, nullptr,
                    "{\"Thread Id\": " + std::to_string(m_cannTid)
                        + ", \"Mode\": \"ACL_OP\", \"level\": \"acl\", \"id\": \"" + api
                        + "\", \"item_id\": \"0\", \"connection_id\": " + std::to_string(m_connection) + "}");
                const std::string flowName = "HostToDevice" + id;
                flow('s', flowName.c_str(), "HostToDevice", "\"" + id + "\"", devicePid(7), m_cannTid, cs, false);
                flow('f', flowName.c_str(), "HostToDevice", "\"" + id + "\"", devPid, devTid, it.ts, true);
                m_hostOps.push_back({ prev, hs, hs + hd, it.ts });
            }
            prev = it.ts;
            idleFrom = std::max(idleFrom, it.ts + it.dur);
        }
        // Free: gaps in the union of device activity after Preparing.
        std::vector<std::pair<int64_t, int64_t>> spans;
        for (const auto& it : items)
            spans.emplace_back(it.ts, it.ts + it.dur);
        std::sort(spans.begin(), spans.end());
        int64_t cursor = sp.start + sp.prep;
        for (const auto& [a, b] : spans) {
            if (a > cursor)
                x("Free", ov, 3, cursor, a - cursor, nullptr, std::string());
            cursor = std::max(cursor, b);
        }
        if (sp.end > cursor)
            x("Free", ov, 3, cursor, sp.end - cursor, nullptr, std::string());
    }

    // --late-launch-rank: the host starts launching the kernel at deviceTs only once the device has gone idle
    // (idleFrom) and needs until just before deviceTs: the aten op [hs, hs + hd) covers the device's idle time.
    static void lateLaunchHost(int64_t deviceTs, int64_t idleFrom, int64_t& hs, int64_t& hd)
    {
        hs = std::min(idleFrom + 5 * kUs, deviceTs - 20 * kUs);
        hd = deviceTs - 2 * kUs - hs;
    }

    // Python frames around each host launch until the file reaches the requested size.
    void filler(const std::vector<StepPlan>&)
    {
        const auto target = static_cast<uint64_t>(m_c.options.traceMb * 1e6);
        if (m_hostOps.empty() || m_out.bytes() >= target)
            return;
        constexpr uint64_t kFrameBytes = 230;
        const uint64_t remaining = target - m_out.bytes();
        const int64_t depth
            = std::clamp<int64_t>(static_cast<int64_t>(remaining / (kFrameBytes * m_hostOps.size())), 0, 400);
        int64_t extra = static_cast<int64_t>(remaining / kFrameBytes) - depth * static_cast<int64_t>(m_hostOps.size());
        static const std::array<const char*, 6> kFrames {
            "megatron/core/transformer/transformer_layer.py(184): forward",
            "megatron/core/transformer/attention.py(312): forward", "torch/nn/modules/module.py(1527): _call_impl",
            "megatron/core/tensor_parallel/layers.py(795): forward",
            "mindspeed/core/fusions/fused_layer_norm.py(61): forward",
            "torch/nn/modules/module.py(1518): _wrapped_call_impl"
        };
        int64_t pyId = 1;
        for (const auto& h : m_hostOps) {
            int64_t d = depth;
            if (extra > 0) {
                ++d;
                --extra;
            }
            const int64_t leftRoom = h.hostStart - h.lo - 1;
            const int64_t rightRoom = h.hi - 1 - h.hostEnd;
            if (leftRoom < 0 || rightRoom < 0)
                continue;
            for (int64_t j = 0; j < d; ++j) {
                const int64_t ml = leftRoom * (d - j) / (d + 1);
                const int64_t mr = rightRoom * (d - j) / (d + 1);
                x(kFrames[static_cast<size_t>((pyId + j) % static_cast<int64_t>(kFrames.size()))], m_hostPid, m_hostPid,
                    h.hostStart - ml, (h.hostEnd + mr) - (h.hostStart - ml), "python_function",
                    "{\"Python id\": " + std::to_string(pyId + j)
                        + ", \"Python parent id\": " + std::to_string(pyId + j - 1) + "}");
            }
            pyId += d;
        }
    }

    struct HostOp {
        int64_t lo, hostStart, hostEnd, hi;
    };

    Out& m_out;
    const Cluster& m_c;
    int64_t m_hostPid = 0;
    int m_device = 0;
    int64_t m_cannTid = 0;
    bool m_first = true;
    int64_t m_connection = 0;
    std::vector<HostOp> m_hostOps;
};

// ---- output folder ----

bool prepareOutDir(const fs::path& out, std::string& error)
{
    std::error_code ec;
    if (fs::exists(out, ec)) {
        if (!fs::is_directory(out, ec)) {
            error = out.string() + " exists and is not a folder";
            return false;
        }
        if (fs::directory_iterator(out, ec) == fs::directory_iterator()) {
            if (ec) {
                error = "cannot list " + out.string() + ": " + ec.message();
                return false;
            }
            return true;
        }
        const fs::path marker = out / ClusterGenerator::kMarkerFile;
        if (!fs::is_regular_file(marker, ec)) {
            error = "refusing to write into " + out.string()
                + ": the folder is not empty and was not produced by npuscope-cli generate";
            return false;
        }
        std::ifstream in(marker);
        std::string line;
        std::getline(in, line); // header
        while (std::getline(in, line)) {
            const fs::path entry(line);
            // Only plain rank folder names the generator writes; never a path that leaves the folder.
            if (line.empty() || entry.has_parent_path() || line.find("..") != std::string::npos || line.size() < 10
                || line.compare(line.size() - 10, 10, "_ascend_pt") != 0)
                continue;
            fs::remove_all(out / entry, ec);
            if (ec) {
                error = "cannot remove " + (out / entry).string() + ": " + ec.message();
                return false;
            }
        }
        fs::remove(marker, ec);
        return true;
    }
    fs::create_directories(out, ec);
    if (ec) {
        error = "cannot create " + out.string() + ": " + ec.message();
        return false;
    }
    return true;
}

// ---- analysis.db: the db form of the same step trace and communication data ----

// One writable SQLite file, closed on destruction. Only the generator writes files (into its own output folder).
class SqliteOut {
public:
    explicit SqliteOut(const fs::path& path)
    {
        model::Database::configureSqlite();
        if (sqlite3_open_v2(path.string().c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr)
            != SQLITE_OK)
            fail("open");
    }
    ~SqliteOut()
    {
        for (auto* st : m_statements)
            sqlite3_finalize(st);
        sqlite3_close_v2(m_db);
    }
    SqliteOut(const SqliteOut&) = delete;
    SqliteOut& operator=(const SqliteOut&) = delete;

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }

    void exec(const char* sql)
    {
        if (ok() && sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
            fail(sql);
    }
    sqlite3_stmt* prepare(const char* sql)
    {
        sqlite3_stmt* st = nullptr;
        if (ok() && sqlite3_prepare_v2(m_db, sql, -1, &st, nullptr) != SQLITE_OK)
            fail(sql);
        if (st)
            m_statements.push_back(st);
        return st;
    }
    // Binds the values (text, double or int64 per the variant index) and runs one INSERT.
    using Value = std::variant<std::string, double, int64_t>;
    void insert(sqlite3_stmt* st, const std::vector<Value>& values)
    {
        if (!ok() || !st)
            return;
        sqlite3_reset(st);
        for (size_t i = 0; i < values.size(); ++i) {
            const int at = static_cast<int>(i) + 1;
            if (const auto* t = std::get_if<std::string>(&values[i]))
                sqlite3_bind_text(st, at, t->c_str(), static_cast<int>(t->size()), SQLITE_TRANSIENT);
            else if (const auto* d = std::get_if<double>(&values[i]))
                sqlite3_bind_double(st, at, *d);
            else
                sqlite3_bind_int64(st, at, std::get<int64_t>(values[i]));
        }
        if (sqlite3_step(st) != SQLITE_DONE)
            fail("insert");
    }

private:
    void fail(const std::string& what)
    {
        if (m_error.empty())
            m_error = what + ": " + (m_db ? sqlite3_errmsg(m_db) : "cannot open");
    }

    sqlite3* m_db = nullptr;
    std::vector<sqlite3_stmt*> m_statements;
    std::string m_error;
};

std::vector<std::string> splitCsvLine(const std::string& line)
{
    std::vector<std::string> out(1);
    for (char ch : line) {
        if (ch == ',')
            out.emplace_back();
        else
            out.back() += ch;
    }
    return out;
}

// Writes ASCEND_PROFILER_OUTPUT/analysis.db as torch_npu's db export lays it out (FORMATS.md §10; tables and
// column types as in the real level1 sample): StepTraceTime (µs), CommAnalyzerTime (start µs, times ms),
// CommAnalyzerBandwidth (one row per op, transport and packet size, the transport figures repeated; a transport
// with no packets gets one 0/0/0 row; transports with no traffic are left out), CommAnalyzerMatrix (local ranks as
// text, op_name per slot). Everything is read back from the text exports written for the same rank, so both forms
// carry the same values (numbers pass through double, as they do in the real export).
bool writeAnalysisDb(const fs::path& path, const std::string& stepCsv, const std::string& commJson,
    const std::string& matrixJson, std::string& error)
{
    std::error_code ec;
    fs::remove(path, ec);
    SqliteOut db(path);
    db.exec("PRAGMA journal_mode=OFF");
    db.exec("CREATE TABLE StepTraceTime (step TEXT, computing NUMERIC, communication_not_overlapped NUMERIC, "
            "overlapped NUMERIC, communication NUMERIC, free NUMERIC, stage NUMERIC, bubble NUMERIC, "
            "communication_not_overlapped_and_exclude_receive NUMERIC, preparing NUMERIC)");
    db.exec("CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, "
            "elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, "
            "idle_time NUMERIC, step TEXT, type TEXT)");
    db.exec("CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, transport_type TEXT, "
            "transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, large_packet_ratio NUMERIC, "
            "package_size NUMERIC, count NUMERIC, total_duration NUMERIC, step TEXT, type TEXT)");
    db.exec("CREATE TABLE CommAnalyzerMatrix (hccl_op_name TEXT, group_name TEXT, src_rank TEXT, dst_rank TEXT, "
            "transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, step TEXT, "
            "type TEXT, op_name TEXT)");
    db.exec("BEGIN");
    auto* stepSt = db.prepare("INSERT INTO StepTraceTime VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)");
    std::istringstream lines(stepCsv);
    std::string line;
    std::getline(lines, line); // header
    while (std::getline(lines, line)) {
        const auto cells = splitCsvLine(line);
        if (cells.size() < 10)
            continue;
        std::vector<SqliteOut::Value> v { cells[0] };
        for (size_t i = 1; i < 10; ++i)
            v.emplace_back(std::stod(cells[i]));
        db.insert(stepSt, v);
    }

    auto* timeSt = db.prepare("INSERT INTO CommAnalyzerTime VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)");
    auto* bwSt = db.prepare("INSERT INTO CommAnalyzerBandwidth VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)");
    auto split = [](const std::string& key) {
        const auto at = key.rfind('@');
        return at == std::string::npos ? std::pair { key, std::string() }
                                       : std::pair { key.substr(0, at), key.substr(at + 1) };
    };
    const auto comm = Json::parse(commJson);
    for (const auto& [step, kinds] : comm.items()) {
        for (const auto& [kind, ops] : kinds.items()) {
            for (const auto& [key, info] : ops.items()) {
                if (key == "Total Op Info")
                    continue; // the real db export has per-op rows only
                const auto [name, group] = split(key);
                const auto& t = info["Communication Time Info"];
                db.insert(timeSt,
                    { name, group, t["Start Timestamp(us)"].get<double>(), t["Elapse Time(ms)"].get<double>(),
                        t["Transit Time(ms)"].get<double>(), t["Wait Time(ms)"].get<double>(),
                        t["Synchronization Time(ms)"].get<double>(), t["Idle Time(ms)"].get<double>(), step, kind });
                for (const auto& [transport, b] : info["Communication Bandwidth Info"].items()) {
                    const double size = b["Transit Size(MB)"].get<double>();
                    const double time = b["Transit Time(ms)"].get<double>();
                    const auto& dist = b["Size Distribution"];
                    if (size == 0 && time == 0 && dist.empty())
                        continue;
                    std::vector<SqliteOut::Value> v { name, group, transport, size, time,
                        b["Bandwidth(GB/s)"].get<double>(), b["Large Packet Ratio"].get<double>() };
                    if (dist.empty()) {
                        auto row = v;
                        row.insert(row.end(), { 0.0, int64_t { 0 }, 0.0, step, kind });
                        db.insert(bwSt, row);
                    }
                    for (const auto& [packet, countAndMs] : dist.items()) {
                        auto row = v;
                        row.insert(row.end(),
                            { std::stod(packet), countAndMs[0].get<int64_t>(), countAndMs[1].get<double>(), step,
                                kind });
                        db.insert(bwSt, row);
                    }
                }
            }
        }
    }

    auto* matrixSt = db.prepare("INSERT INTO CommAnalyzerMatrix VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)");
    const auto matrix = Json::parse(matrixJson);
    for (const auto& [step, kinds] : matrix.items()) {
        for (const auto& [kind, ops] : kinds.items()) {
            for (const auto& [key, links] : ops.items()) {
                const auto [name, group] = split(key);
                for (const auto& [link, l] : links.items()) {
                    const auto dash = link.find('-');
                    db.insert(matrixSt,
                        { name, group, link.substr(0, dash), link.substr(dash + 1),
                            l["Transport Type"].get<std::string>(), l["Transit Size(MB)"].get<double>(),
                            l["Transit Time(ms)"].get<double>(), l["Bandwidth(GB/s)"].get<double>(), step, kind,
                            l.contains("Op Name") ? l["Op Name"].get<std::string>() : std::string() });
                }
            }
        }
    }
    db.exec("COMMIT");
    if (!db.ok()) {
        error = "cannot write " + path.string() + ": " + db.error();
        return false;
    }
    return true;
}

// The clock offset of a rank's server: 0 for server 0, else up to clockSkewUs µs, a pure function of seed and server.
int64_t clockOffsetNs(const Cluster& c, int rank)
{
    const int server = rank / kRanksPerServer;
    if (c.options.clockSkewUs <= 0 || server == 0)
        return 0;
    const auto span = static_cast<uint64_t>(c.options.clockSkewUs) * kUs + 1;
    return static_cast<int64_t>(mix(c.options.seed, 0xc10c0000ull + static_cast<uint64_t>(server)) % span);
}

// Moves every timestamp of a rank's plan by its clock offset (what the rank's own clock read); durations stay.
void shiftClock(std::vector<StepPlan>& steps, int64_t offsetNs)
{
    if (offsetNs == 0)
        return;
    for (auto& sp : steps) {
        sp.start += offsetNs;
        sp.end += offsetNs;
        for (auto& k : sp.kernels)
            k.ts += offsetNs;
        for (auto& op : sp.ops) {
            op.ts += offsetNs;
            for (auto& seg : op.notOverlapped) {
                seg.first += offsetNs;
                seg.second += offsetNs;
            }
        }
    }
}

bool generateRank(const Cluster& c, int rank, const std::vector<StepPlan>& steps, const fs::path& root,
    std::string& folder, std::string& error)
{
    folder
        = "rank" + std::to_string(rank) + "_" + folderTimestamp(c.rankStart[static_cast<size_t>(rank)]) + "_ascend_pt";
    const fs::path dir = root / folder;
    const fs::path out = dir / "ASCEND_PROFILER_OUTPUT";
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) {
        error = "cannot create " + out.string() + ": " + ec.message();
        return false;
    }
    const int device = rank % kRanksPerServer;
    const uint64_t salt = mix(c.options.seed, 0xabcdef00ull + static_cast<uint64_t>(rank));
    const std::string stepCsv = stepTraceCsv(steps);
    const std::string comm = communicationJson(c, steps);
    const std::string matrix = matrixJson(c, steps);
    const double memoryFactor
        = c.options.memoryHeavyRank && *c.options.memoryHeavyRank == rank ? GeneratorOptions::kMemoryHeavyFactor : 1.0;
    if (c.options.analysisDb && !writeAnalysisDb(out / "analysis.db", stepCsv, comm, matrix, error))
        return false;
    if (!writeText(dir / ("profiler_info_" + std::to_string(rank) + ".json"),
            profilerInfo(rank, steps.back().end + 40 * kMs, c.options.seed), error)
        || !writeText(dir / "profiler_metadata.json", profilerMetadata(c, rank), error)
        || !writeText(out / "step_trace_time.csv", stepCsv, error)
        || !writeKernelDetails(out / "kernel_details.csv", c, rank, steps, error)
        || !writeText(out / "op_statistic.csv", opStatisticCsv(steps), error)
        || !writeText(out / "communication.json", comm, error)
        || !writeText(out / "communication_matrix.json", matrix, error)
        || !writeText(out / "memory_record.csv", memoryRecordCsv(device, steps, salt, memoryFactor), error)
        || !writeText(out / "npu_module_mem.csv", npuModuleMemCsv(device, steps, memoryFactor), error))
        return false;
    Out trace(out / "trace_view.json");
    if (!trace.ok()) {
        error = "cannot create " + (out / "trace_view.json").string();
        return false;
    }
    TraceWriter(trace, c, rank).write(steps);
    return trace.close(error);
}

} // namespace

bool ClusterGenerator::generate(const GeneratorOptions& input, std::string& error)
{
    GeneratorOptions o = input;
    if (o.ranks < 1) {
        error = "--ranks must be at least 1";
        return false;
    }
    if (o.steps < 1 || o.steps > 10000) {
        error = "--steps must be between 1 and 10000";
        return false;
    }
    if (!(o.traceMb >= 0) || o.traceMb > 100000) {
        error = "--trace-mb must be between 0 and 100000";
        return false;
    }
    if (o.pp < 0 || o.tp < 0 || o.dp < 0) {
        error = "--pp, --tp and --dp must be positive";
        return false;
    }
    if (o.pp == 0)
        o.pp = 1;
    if (o.tp == 0)
        o.tp = 1;
    if (o.dp == 0)
        o.dp = o.ranks % (o.pp * o.tp) == 0 ? o.ranks / (o.pp * o.tp) : 0;
    if (static_cast<int64_t>(o.pp) * o.tp * o.dp != o.ranks) {
        error = "pp * tp * dp (" + std::to_string(o.pp) + " * " + std::to_string(o.tp) + " * " + std::to_string(o.dp)
            + ") must equal --ranks " + std::to_string(o.ranks);
        return false;
    }
    if (o.slowRank && (*o.slowRank < 0 || *o.slowRank >= o.ranks)) {
        error = "--slow-rank " + std::to_string(*o.slowRank) + " is out of range 0.." + std::to_string(o.ranks - 1);
        return false;
    }
    for (const auto& [flag, rank] :
        { std::pair { "--memory-heavy-rank", o.memoryHeavyRank }, std::pair { "--flops-light-rank", o.flopsLightRank },
            std::pair { "--late-launch-rank", o.lateLaunchRank }, std::pair { "--slow-host", o.slowHost } }) {
        if (rank && (*rank < 0 || *rank >= o.ranks)) {
            error = std::string(flag) + " " + std::to_string(*rank) + " is out of range 0.."
                + std::to_string(o.ranks - 1);
            return false;
        }
    }
    if (o.clockSkewUs < 0 || o.clockSkewUs > 1000000000) {
        error = "--clock-skew-us must be between 0 and 1000000000";
        return false;
    }
    if (o.microbatches < 0 || o.microbatches > 10000) {
        error = "--microbatches must be between 1 and 10000";
        return false;
    }
    if (o.microbatches == 0)
        o.microbatches = 2 * o.pp;
    if (o.outDir.empty()) {
        error = "--out is required";
        return false;
    }

    Cluster c;
    c.options = o;
    c.layout = buildLayout(o.pp, o.tp, o.dp);
    if (o.slowLink) {
        const auto [a, b] = *o.slowLink;
        if (a < 0 || b < 0 || a >= o.ranks || b >= o.ranks || a == b) {
            error = "--slow-link " + std::to_string(a) + "-" + std::to_string(b) + " needs two different ranks in 0.."
                + std::to_string(o.ranks - 1);
            return false;
        }
        bool shared = false;
        for (const auto& g : c.layout.groups)
            shared = shared
                || (std::count(g.ranks.begin(), g.ranks.end(), a) && std::count(g.ranks.begin(), g.ranks.end(), b));
        if (!shared) {
            error = "--slow-link " + std::to_string(a) + "-" + std::to_string(b)
                + ": the two ranks share no tp, dp or pp group, so no link joins them";
            return false;
        }
    }

    // Roughly 60 % of the trace budget goes to per-kernel events (~1.4 KB each), the rest to Python frames.
    const double kernels = o.traceMb * 1e6 * 0.6 / 1400.0 / o.steps;
    c.kernelsPerStep = static_cast<int>(std::clamp(kernels, 24.0, 200000.0));
    c.epochBase = kEpochBaseNs + static_cast<int64_t>(mix(o.seed, 1u) % 86400u) * 1000 * kMs;
    c.compute.assign(static_cast<size_t>(o.ranks), std::vector<int64_t>(static_cast<size_t>(o.steps)));
    c.rankStart.resize(static_cast<size_t>(o.ranks));
    for (int r = 0; r < o.ranks; ++r) {
        const uint64_t rs = mix(o.seed, 0xc0ffee00ull + static_cast<uint64_t>(r));
        c.rankStart[static_cast<size_t>(r)] = c.epochBase + static_cast<int64_t>(rs % 500000u);
        for (int s = 0; s < o.steps; ++s) {
            double ns = 80.0 * kMs * (0.97 + 0.06 * unit(mix(rs, static_cast<uint64_t>(s))));
            if (o.slowRank && *o.slowRank == r)
                ns *= GeneratorOptions::kSlowFactor;
            c.compute[static_cast<size_t>(r)][static_cast<size_t>(s)] = static_cast<int64_t>(ns);
        }
    }

    const fs::path root(o.outDir);
    if (!prepareOutDir(root, error))
        return false;
    std::string marker = "npuscope cluster generator output; the folders below are replaced by the next run\n";
    // Pipeline stages wait for each other, so a pp > 1 cluster is planned whole; a flat one rank by rank.
    std::vector<std::vector<StepPlan>> pipeline;
    if (o.pp > 1)
        pipeline = PipelinePlanner(c).plan();
    for (int r = 0; r < o.ranks; ++r) {
        std::string folder;
        std::vector<StepPlan> steps;
        if (o.pp > 1)
            steps = std::move(pipeline[static_cast<size_t>(r)]);
        else
            steps = RankPlanner(c, r).plan();
        shiftClock(steps, clockOffsetNs(c, r));
        if (!generateRank(c, r, steps, root, folder, error))
            return false;
        marker += folder + "\n";
        // Written after every rank so a failed run can still be regenerated over.
        if (!writeText(root / kMarkerFile, marker, error))
            return false;
    }
    return true;
}

} // namespace npuscope::testgen

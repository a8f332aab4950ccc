// SPDX-License-Identifier: Apache-2.0
// The flat (pp = 1) step planner: each rank's steps on their own, from a random stream seeded by the rank. A step
// is forward, backward and optimizer compute split into random kernels, with the tp all-reduces between the
// chunks and the dp gradient all-reduce on the HCCL stream under the last backward kernels.
#include "ClusterGeneratorParts.h"

#include <map>
#include <random>

namespace npuscope::testgen::detail {

namespace {

constexpr int kTpOpsFwd = 2;
constexpr int kTpOpsBwd = 2;

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

int64_t groupMaxCompute(const Cluster& c, const Group& g, int step)
{
    int64_t m = 0;
    for (int r : g.ranks)
        m = std::max(m, c.compute[static_cast<size_t>(r)][static_cast<size_t>(step)]);
    return m;
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

} // namespace

std::vector<StepPlan> planRank(const Cluster& c, int rank) { return RankPlanner(c, rank).plan(); }

} // namespace npuscope::testgen::detail

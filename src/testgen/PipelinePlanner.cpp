// SPDX-License-Identifier: Apache-2.0
// The pipeline (pp > 1) planner: the transformer-layer kernel blocks of a 1F1B schedule, and the planner that runs
// every stage of every dp replica together (receives wait for the neighbour's send, tp all-reduces end together),
// then the dp gradient all-reduce, the pipeline-wide gradient-norm all-reduce and the optimizer.
#include "ClusterGeneratorParts.h"

#include <map>

namespace npuscope::testgen::detail {

namespace {

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

} // namespace

std::vector<std::vector<StepPlan>> planPipeline(const Cluster& c) { return PipelinePlanner(c).plan(); }

} // namespace npuscope::testgen::detail

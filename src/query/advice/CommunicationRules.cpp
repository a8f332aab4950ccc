// SPDX-License-Identifier: Apache-2.0
// Communication rules over communication.json: wait ratio, small packets, RDMA retransmission, 512 B alignment.
#include "AdviceRules.h"

#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/TranslationMarker.h"
#include "npuscope/query/advice/AdviceThresholds.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace npuscope::query::advice {

namespace {

using T = AdviceThresholds;

void waitRatio(const AdviceContext& ctx, std::vector<Finding>& out)
{
    std::vector<RankDuration> above;
    for (auto& d : CommAnalysisQuery::durations(ctx.db, {})) {
        if (d.waitRatio && *d.waitRatio > T::kWaitRatio)
            above.push_back(std::move(d));
    }
    if (above.empty())
        return;
    std::sort(above.begin(), above.end(), [](const RankDuration& a, const RankDuration& b) {
        return *a.waitRatio != *b.waitRatio ? *a.waitRatio > *b.waitRatio : a.rank < b.rank;
    });
    const auto& top = above.front();
    // Σ step wall time over every step, as the durations
    const auto it = ctx.stepsOf.find(top.rank);
    const double waitShare
        = it != ctx.stepsOf.end() && it->second.sumNs > 0 ? static_cast<double>(top.waitNs) / it->second.sumNs : 1.0;
    // Waiting a few per cent of the step is the jitter of healthy ranks, whatever the ratio.
    Finding f = Finding::ofRule("wait_ratio", "communication",
        waitShare >= T::kWaitMinShareOfStep ? Severity::Warning : Severity::Info, T::kWaitRatio,
        text(QT_TRANSLATE_NOOP("Advice", "Σwait ÷ (Σwait + Σtransit) of a rank's communication ops > %1"),
            { fixed(T::kWaitRatio, 1) }));
    f.value = *top.waitRatio;
    f.unit = "ratio";
    for (const auto& d : above)
        f.ranks.push_back(d.rank);
    f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                          "Rank %1 waits %2 ms in its communication ops against %3 ms of transfer (wait ratio %4, "
                          "synchronisation ratio %5; the wait is %6 % of its step time); ranks above %7: %8."),
        { std::to_string(top.rank), fixed(static_cast<double>(top.waitNs) / 1e6, 3),
            fixed(static_cast<double>(top.transitNs) / 1e6, 3), fixed(*top.waitRatio, 3),
            top.syncRatio ? fixed(*top.syncRatio, 3) : std::string("—"), fixed(waitShare * 100, 1),
            fixed(T::kWaitRatio, 1), std::to_string(above.size()) }));
    f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
        "The ranks wait for a peer that arrives late: find it (slow_rank, the Time overview) or the link that delays "
        "the transfer (slow_link). A synchronisation ratio above 0.2 on the waiting rank points to a slow rank, a "
        "lower one to the links.")));
    // The top rank's wait per step; below kWaitMinShareOfStep it stays info, the jitter of healthy ranks
    // (docs/metrics.md, "Impact").
    if (it != ctx.stepsOf.end() && it->second.count > 0)
        setImpact(f, static_cast<double>(top.waitNs) / it->second.count, it->second.meanNs(), T::kWaitMinShareOfStep);
    f.evidence.view = "commduration";
    f.evidence.rank = top.rank;
    out.push_back(std::move(f));
}

void packetRules(const AdviceContext& ctx, std::vector<Finding>& out)
{
    for (const auto& d : CommAnalysisQuery::packets(ctx.db, {})) {
        const double limit = d.transport == "SDMA" ? T::kSmallSdmaMb : d.transport == "RDMA" ? T::kSmallRdmaMb : 0;
        int64_t total = 0, small = 0, smallNs = 0, large = 0, misaligned = 0;
        for (const auto& bin : d.bins) {
            total += bin.count;
            if (bin.packageMb < limit) {
                small += bin.count;
                smallNs += bin.totalNs;
            }
            const double bytes = std::round(bin.packageMb * 1e6);
            if (bytes >= T::kAlignmentMinBytes) {
                large += bin.count;
                if (std::fmod(bytes, T::kAlignmentBytes) != 0)
                    misaligned += bin.count;
            }
        }
        if (limit > 0 && total > 0 && static_cast<double>(small) / static_cast<double>(total) > T::kSmallPacketShare) {
            Finding f = Finding::ofRule("small_packets", "communication", Severity::Warning, T::kSmallPacketShare,
                text(QT_TRANSLATE_NOOP("Advice", "share of %1 transfers smaller than %2 MB > %3"),
                    { d.transport, fixed(limit, 0), fixed(T::kSmallPacketShare, 1) }));
            f.value = static_cast<double>(small) / static_cast<double>(total);
            f.unit = "share";
            f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                                  "%1 of %2 %3 transfers (%4 %) are smaller than %5 MB; they take %6 ms in total."),
                { std::to_string(small), std::to_string(total), d.transport, fixed(f.value * 100, 1), fixed(limit, 0),
                    fixed(static_cast<double>(smallNs) / 1e6, 3) }));
            f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
                "Many small transfers are bound by latency and host launches: fuse gradients into larger buckets, "
                "raise the batch size or gradient accumulation, prefer ZeRO-1/2 to ZeRO-3 where memory allows, use "
                "fused optimizers.")));
            f.evidence.view = "commduration";
            f.evidence.transport = d.transport;
            out.push_back(std::move(f));
        }
        if (large > 0 && static_cast<double>(misaligned) / static_cast<double>(large) > T::kAlignmentShare) {
            Finding f = Finding::ofRule("alignment", "communication", Severity::Info, T::kAlignmentShare,
                text(QT_TRANSLATE_NOOP(
                         "Advice", "share of %1 transfers of at least 1 MB whose size is not a multiple of %2 B > %3"),
                    { d.transport, fixed(T::kAlignmentBytes, 0), fixed(T::kAlignmentShare, 1) }));
            f.value = static_cast<double>(misaligned) / static_cast<double>(large);
            f.unit = "share";
            f.setMessage(
                text(QT_TRANSLATE_NOOP("Advice", "%1 of %2 %3 transfers of at least 1 MB are not a multiple of 512 B."),
                    { std::to_string(misaligned), std::to_string(large), d.transport }));
            f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
                "Unaligned transfers use the DMA engines less efficiently: pad tensors (hidden sizes, bucket sizes) to "
                "multiples of 512 B.")));
            f.evidence.view = "commduration";
            f.evidence.transport = d.transport;
            out.push_back(std::move(f));
        }
    }
}

void retransmission(const AdviceContext& ctx, std::vector<Finding>& out)
{
    const auto index = CommOpIndex::forDatabase(ctx.db);
    const int32_t rdma = index->id("RDMA");
    if (rdma < 0)
        return;
    std::set<int64_t> ranks, steps;
    std::set<std::string> ops;
    double worstMs = 0;
    std::optional<std::pair<int64_t, int64_t>> worstAt; // (rank, step) of the longest transfer
    for (const auto& op : index->ops(std::nullopt)) {
        for (const auto& bw : index->bandwidths(op)) {
            const double ms = static_cast<double>(bw.transitNs) / 1e6;
            if (bw.transport != rdma || ms <= T::kRetransmissionMs)
                continue;
            ranks.insert(op.rank);
            if (op.hasStep)
                steps.insert(op.step);
            if (op.name >= 0)
                ops.insert(index->text(op.name));
            if (ms > worstMs) {
                worstMs = ms;
                worstAt = op.hasStep ? std::optional(std::make_pair(int64_t { op.rank }, op.step)) : std::nullopt;
            }
        }
    }
    if (ranks.empty())
        return;
    Finding f = Finding::ofRule("rdma_retransmission", "communication", Severity::Critical, T::kRetransmissionMs,
        text(QT_TRANSLATE_NOOP("Advice", "RDMA transit time of one op > %1 ms"), { fixed(T::kRetransmissionMs, 0) }));
    f.value = worstMs;
    f.unit = "ms";
    f.ranks.assign(ranks.begin(), ranks.end());
    f.steps.assign(steps.begin(), steps.end());
    f.ops.assign(ops.begin(), ops.end());
    f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                          "RDMA transfers of %1 ops take up to %2 ms on ranks %3: one transfer this long means the NIC "
                          "retransmitted."),
        { std::to_string(ops.size()), fixed(worstMs, 1), rankList(f.ranks) }));
    f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
        "Check the RDMA network: link flaps and error counters on the NICs and switches, PFC / ECN configuration, "
        "HCCL_RDMA_TIMEOUT / HCCL_RDMA_RETRY_CNT.")));
    // The retransmitted transfer against the step it happened in (else the rank's mean step): a transfer this long
    // is the step's time (docs/metrics.md, "Impact").
    double stepNs = 0;
    if (worstAt) {
        for (const auto& row : StepQuery::breakdown(ctx.db, worstAt->second)) {
            if (row.rank == worstAt->first && row.wallTime())
                stepNs = static_cast<double>(*row.wallTime());
        }
    }
    if (!(stepNs > 0) && !f.ranks.empty())
        stepNs = ctx.rankStepNs(f.ranks.front());
    setImpact(f, worstMs * 1e6, stepNs);
    f.evidence.view = "commduration";
    f.evidence.rank = f.ranks.front();
    f.evidence.transport = "RDMA";
    out.push_back(std::move(f));
}

} // namespace

void communicationRules(const AdviceContext& ctx, std::vector<Finding>& out)
{
    waitRatio(ctx, out);
    packetRules(ctx, out);
    retransmission(ctx, out);
}

} // namespace npuscope::query::advice

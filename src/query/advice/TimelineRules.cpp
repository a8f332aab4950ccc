// SPDX-License-Identifier: Apache-2.0
// The rules that read the ranks' timelines: idle gaps with their cause, host- or device-bound collectives, SDMA
// contention with MatMul, and the dispatch chain.
#include "AdviceRules.h"
#include "TimelineDigest.h"

#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/advice/AdviceThresholds.h"
#include "npuscope/query/advice/OutlierTest.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace npuscope::query::advice {

namespace {

using T = AdviceThresholds;

double ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }
double us(int64_t ns) { return static_cast<double>(ns) / 1e3; }

std::vector<int64_t> ranksOf(const std::vector<TimelineDigest>& digests)
{
    std::vector<int64_t> ranks;
    for (const auto& d : digests)
        ranks.push_back(d.rank());
    return ranks;
}

std::string examined(const std::vector<TimelineDigest>& digests)
{
    return formatText("Ranks examined (timeline loaded): %s.", rankList(ranksOf(digests)).c_str());
}

struct Gap {
    Span span;
    const TimelineTask* next = nullptr;
    std::string cause;
    std::string detail;
};

// Labels a device idle gap (docs/metrics.md, "idle_gap").
void labelGap(const TimelineDigest& d, Gap& gap)
{
    const int64_t length = gap.span.length();
    const double share = T::kGapCauseShare;
    if (d.busyFromOverlap()) {
        const int64_t other = d.deviceWorkWithin(gap.span.begin, gap.span.end);
        if (static_cast<double>(other) >= share * static_cast<double>(length)) {
            gap.cause = "device work that is neither compute nor communication";
            gap.detail = formatText("%.3f ms of other device tasks", ms(other));
            return;
        }
    }
    if (!gap.next) {
        gap.cause = "unknown (no device task starts at its end)";
        return;
    }
    const auto launch = d.launchOf(*gap.next);
    if (!launch) {
        gap.cause = "unknown (no launch flow into " + gap.next->name + ")";
        return;
    }
    const int64_t delay = std::clamp<int64_t>(launch->event.end - gap.span.begin, 0, length);
    if (static_cast<double>(delay) < share * static_cast<double>(length)) {
        gap.cause = "device waited with the launch done (a dependency or synchronisation)";
        gap.detail = formatText(
            "%s ended %.3f ms before the gap's end", launch->event.name.c_str(), ms(gap.span.end - launch->event.end));
        return;
    }
    const TimelineTask& host = launch->hostOp ? *launch->hostOp : launch->event;
    const int64_t hostWindow = std::max<int64_t>(0, host.begin - gap.span.begin);
    const int64_t idle = hostWindow - d.hostCoverage(host.track, gap.span.begin, host.begin, gap.span.end);
    if (static_cast<double>(idle) >= share * static_cast<double>(length)) {
        gap.cause = "long gap on the host side";
        gap.detail
            = formatText("the launching host thread ran nothing for %.3f ms before %s", ms(idle), host.name.c_str());
        return;
    }
    gap.cause = "host launched late";
    // A CANN launch may end a little after its task started (real level1 profiles: ~0.02 ms).
    const int64_t lead = gap.span.end - launch->event.end;
    gap.detail = formatText("%s ended %.3f ms into the gap, %.3f ms %s %s started", launch->event.name.c_str(),
        ms(delay), ms(std::abs(lead)), lead >= 0 ? "before" : "after", gap.next->name.c_str());
}

void idleGaps(const std::vector<TimelineDigest>& digests, std::vector<Finding>& out)
{
    const auto minGap = static_cast<int64_t>(T::kIdleGapMs * 1e6);
    for (const auto& d : digests) {
        const auto& busy = d.busy();
        if (busy.size() < 2)
            continue;
        std::vector<Gap> gaps;
        for (size_t i = 1; i < busy.size(); ++i) {
            // A gap holding a step's start is that step's Preparing (the preparing rule).
            if (busy[i].begin - busy[i - 1].end >= minGap && !d.holdsStepStart(busy[i - 1].end, busy[i].begin))
                gaps.push_back({ { busy[i - 1].end, busy[i].begin }, nullptr, {}, {} });
        }
        if (gaps.empty())
            continue;
        std::sort(gaps.begin(), gaps.end(), [](const Gap& a, const Gap& b) {
            return a.span.length() != b.span.length() ? a.span.length() > b.span.length() : a.span.begin < b.span.begin;
        });
        const size_t total = gaps.size();
        gaps.resize(std::min(gaps.size(), static_cast<size_t>(T::kIdleGapTop)));
        int64_t idle = 0;
        Finding f;
        std::string list;
        for (auto& gap : gaps) {
            gap.next = d.taskStartingAt(gap.span.end);
            labelGap(d, gap);
            idle += gap.span.length();
            if (gap.next && std::find(f.ops.begin(), f.ops.end(), gap.next->name) == f.ops.end())
                f.ops.push_back(gap.next->name);
            list += formatText("%s%.3f ms at %.3f ms before %s: %s%s%s", list.empty() ? "" : "; ",
                ms(gap.span.length()), ms(gap.span.begin - d.timeline().begin), gap.next ? gap.next->name.c_str() : "?",
                gap.cause.c_str(), gap.detail.empty() ? "" : " — ", gap.detail.c_str());
        }
        const int64_t deviceSpan = busy.back().end - busy.front().begin;
        const double share = deviceSpan > 0 ? static_cast<double>(idle) / static_cast<double>(deviceSpan) : 0;
        f.id = "idle_gap";
        f.category = "scheduling";
        f.severity = share >= T::kIdleGapShare ? Severity::Warning : Severity::Info;
        f.threshold = T::kIdleGapMs;
        f.thresholdText
            = formatText("device idle (neither compute nor communication) longer than %.1f ms", T::kIdleGapMs);
        f.value = ms(gaps.front().span.length());
        f.unit = "ms";
        f.ranks = { d.rank() };
        f.message = formatText("Rank %lld's device idles in %zu gaps of at least %.1f ms; the longest %zu (%.1f %% of "
                               "its device span; times from the timeline's start): %s. The longest: %s.",
            static_cast<long long>(d.rank()), total, T::kIdleGapMs, gaps.size(), share * 100, list.c_str(),
            gaps.front().cause.c_str());
        f.suggestion = gaps.front().cause == "host launched late"
            ? "The host could not keep the device fed: look at the Python and CANN work before the launch (slow "
              "operators on the host, small kernels, synchronising calls such as .item()); fuse operators, enable "
              "task queue / graph mode, or move host work off the critical path."
            : gaps.front().cause == "long gap on the host side"
            ? "The host thread did nothing before the launch: it waited (data loading, a synchronisation, a lock, "
              "garbage collection); look at the host thread in the Timeline at that time."
            : "Look at the device tasks around the gap in the Timeline: memory copies, events and other non-compute "
              "tasks, or a dependency that kept the stream waiting.";
        f.evidence.view = "timeline";
        f.evidence.rank = d.rank();
        out.push_back(std::move(f));
    }
}

// One rank's instance of a collective: its HCCL op slice and what led to its start.
struct Arrival {
    const TimelineDigest* digest = nullptr;
    const TimelineTask* op = nullptr;
};

void collectiveBound(const std::vector<TimelineDigest>& digests, std::vector<Finding>& out)
{
    if (digests.size() < 2)
        return;
    // The n-th op of a name on each rank is the same collective.
    std::map<std::pair<std::string, int>, std::vector<Arrival>> instances;
    for (const auto& d : digests) {
        std::map<std::string, int> seen;
        for (const auto& op : d.hcclOps())
            instances[{ op.name, seen[op.name]++ }].push_back({ &d, &op });
    }
    struct Candidate {
        std::string name;
        Arrival early, late;
        int64_t spread = 0;
    };
    std::vector<Candidate> candidates;
    for (auto& [key, arrivals] : instances) {
        if (arrivals.size() < 2)
            continue;
        const auto [lo, hi] = std::minmax_element(arrivals.begin(), arrivals.end(),
            [](const Arrival& a, const Arrival& b) { return a.op->begin < b.op->begin; });
        candidates.push_back({ key.first, *lo, *hi, hi->op->begin - lo->op->begin });
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        return a.spread != b.spread ? a.spread > b.spread : a.late.op->begin < b.late.op->begin;
    });
    const auto minSpread = static_cast<int64_t>(T::kCollectiveSpreadMs * 1e6);
    for (size_t i = 0; i < candidates.size() && i < static_cast<size_t>(T::kCollectiveTop); ++i) {
        const Candidate& c = candidates[i];
        if (c.spread < minSpread)
            break;
        const TimelineDigest& late = *c.late.digest;
        const TimelineDigest& early = *c.early.digest;
        const TimelineTask& op = *c.late.op;
        // Since each rank's device began the step's work: the late rank's extra device idle time is what its host
        // cost it.
        const int64_t lateFrom = late.stepWorkStart(op.begin);
        const int64_t earlyFrom = early.stepWorkStart(c.early.op->begin);
        const int64_t lateBusy = late.busyWithin(lateFrom, op.begin);
        const int64_t earlyBusy = early.busyWithin(earlyFrom, c.early.op->begin);
        const int64_t lateIdle = (op.begin - lateFrom) - lateBusy;
        const int64_t earlyIdle = (c.early.op->begin - earlyFrom) - earlyBusy;
        const int64_t extraIdle = lateIdle - earlyIdle;
        const bool hostBound = static_cast<double>(extraIdle) >= T::kGapCauseShare * static_cast<double>(c.spread);
        Finding f;
        f.id = "collective_bound";
        f.category = "communication";
        f.severity = hostBound ? Severity::Warning : Severity::Info;
        f.threshold = T::kCollectiveSpreadMs;
        f.thresholdText = formatText("one of the %d collectives whose start spread over the ranks is the largest, "
                                     "from %.1f ms",
            T::kCollectiveTop, T::kCollectiveSpreadMs);
        f.value = ms(c.spread);
        f.unit = "ms";
        f.ranks = { late.rank(), early.rank() };
        f.ops = { c.name };
        const auto lr = static_cast<long long>(late.rank());
        const auto er = static_cast<long long>(early.rank());
        const std::string head = formatText(
            "%s starts %.3f ms later on rank %lld than on rank %lld", c.name.c_str(), ms(c.spread), lr, er);
        if (hostBound) {
            const Span gap = late.longestIdleWithin(lateFrom, op.begin);
            const TimelineTask* next = late.taskStartingAt(gap.end);
            const auto launch = next ? late.launchOf(*next) : std::nullopt;
            f.message
                = formatText("%s: host-bound. Since its step's work began rank %lld's device was idle %.3f ms more "
                             "than rank %lld's (%.3f vs %.3f ms), the longest %.3f ms before %s%s%s. %s",
                    head.c_str(), lr, ms(extraIdle), er, ms(lateIdle), ms(earlyIdle), ms(gap.length()),
                    next ? next->name.c_str() : "?", launch ? ", launched by " : "",
                    launch ? launch->event.name.c_str() : "", examined(digests).c_str());
            f.suggestion = "The late rank's host kept its device waiting: look at its host thread before those "
                           "launches (idle_gap names the gaps).";
        } else {
            const TimelineTask* longest = nullptr;
            for (const auto& task : late.deviceTasks()) {
                if (task.begin >= lateFrom && task.end <= op.begin
                    && (!longest || task.end - task.begin > longest->end - longest->begin))
                    longest = &task;
            }
            f.message = formatText("%s: device-bound (its device was not idle longer). Since the step's work began "
                                   "rank %lld's device was busy %.3f ms and idle %.3f ms, rank %lld's busy %.3f ms and "
                                   "idle %.3f ms; rank %lld's longest task there %s. %s",
                head.c_str(), lr, ms(lateBusy), ms(lateIdle), er, ms(earlyBusy), ms(earlyIdle), lr,
                longest ? longest->name.c_str() : "?", examined(digests).c_str());
            f.suggestion = "The late rank's device had more to do: compare its kernels with the early rank's "
                           "(Operators, compare ranks) or look for a slow rank.";
        }
        f.evidence.view = "timeline";
        f.evidence.rank = f.ranks[0];
        f.evidence.op = c.name;
        out.push_back(std::move(f));
    }
}

bool isMatMul(const std::string& name)
{
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
    return lower.find("matmul") != std::string::npos;
}

void sdmaContention(const AdviceContext& ctx, const std::vector<TimelineDigest>& digests, std::vector<Finding>& out)
{
    const auto index = CommOpIndex::forDatabase(ctx.db);
    if (index->size() == 0)
        return;
    const int32_t sdma = index->id("SDMA");
    if (sdma < 0)
        return;
    std::map<int64_t, const TimelineDigest*> byRank;
    for (const auto& d : digests)
        byRank[d.rank()] = &d;
    for (const auto& [rank, d] : byRank) {
        std::vector<TimelineTask> matmuls;
        for (const auto& task : d->deviceTasks()) {
            if (isMatMul(task.name))
                matmuls.push_back(task);
        }
        if (matmuls.empty())
            continue;
        size_t sdmaOps = 0;
        std::vector<std::pair<double, std::string>> contended;
        for (const auto& op : index->ops(std::nullopt)) {
            if (op.rank != rank || !op.hasStart)
                continue;
            for (const auto& bw : index->bandwidths(op)) {
                if (bw.transport != sdma || bw.sizeMb < T::kLinkMinSizeMb || bw.transitNs <= 0)
                    continue;
                ++sdmaOps;
                const double gbps = bw.sizeMb / ms(bw.transitNs); // MB/ms = GB/s
                if (gbps >= T::kContentionSdmaGbps)
                    continue;
                const int64_t a = op.startNs, b = op.startNs + op.elapseNs;
                const auto it = std::lower_bound(
                    matmuls.begin(), matmuls.end(), b, [](const TimelineTask& t, int64_t v) { return t.begin < v; });
                // Kernels of one stream do not overlap: one that overlaps [a, b) is among the last few started
                // before b.
                bool overlaps = false;
                for (auto j = it; j != matmuls.begin() && it - j < 8 && !overlaps;) {
                    --j;
                    overlaps = j->end > a;
                }
                if (overlaps)
                    contended.emplace_back(gbps, index->text(op.name));
            }
        }
        if (contended.empty())
            continue;
        std::sort(contended.begin(), contended.end());
        Finding f;
        f.id = "sdma_contention";
        f.category = "communication";
        f.severity = Severity::Warning;
        f.threshold = T::kContentionSdmaGbps;
        f.thresholdText = formatText("SDMA bandwidth < %.1f GB/s while a MatMul runs", T::kContentionSdmaGbps);
        f.value = contended.front().first;
        f.unit = "GB/s";
        f.ranks = { rank };
        for (const auto& [gbps, name] : contended) {
            if (f.ops.size() < 10 && std::find(f.ops.begin(), f.ops.end(), name) == f.ops.end())
                f.ops.push_back(name);
        }
        f.message = formatText("On rank %lld, %zu of %zu SDMA transfers of at least %.0f MB run below %.1f GB/s while "
                               "a MatMul kernel overlaps them (the slowest %.2f GB/s, %s). %s",
            static_cast<long long>(rank), contended.size(), sdmaOps, T::kLinkMinSizeMb, T::kContentionSdmaGbps, f.value,
            contended.front().second.c_str(), examined(digests).c_str());
        f.suggestion = "Communication and MatMul compete for HBM bandwidth: schedule the overlapped collective "
                       "elsewhere, split it, or accept the overlap if the step still gains.";
        f.evidence.view = "timeline";
        f.evidence.rank = rank;
        f.evidence.op = contended.front().second;
        out.push_back(std::move(f));
    }
}

void dispatchChain(const std::vector<TimelineDigest>& digests, std::vector<Finding>& out)
{
    std::vector<double> hostToLaunch, launchToDevice, total;
    std::vector<int64_t> ranks;
    std::string perRank;
    for (const auto& d : digests) {
        std::vector<double> rankTotal;
        for (const auto& task : d.deviceTasks()) {
            const auto launch = d.launchOf(task);
            if (!launch || !launch->hostOp)
                continue;
            const TimelineTask& op = *launch->hostOp;
            if (launch->event.id != op.id)
                hostToLaunch.push_back(us(launch->event.begin - op.begin));
            launchToDevice.push_back(us(task.begin - launch->event.end));
            rankTotal.push_back(us(task.begin - op.begin));
        }
        if (rankTotal.empty())
            continue;
        ranks.push_back(d.rank());
        total.insert(total.end(), rankTotal.begin(), rankTotal.end());
        if (ranks.size() <= 8)
            perRank += formatText("%s%lld: %.1f µs over %zu", perRank.empty() ? "" : ", ",
                static_cast<long long>(d.rank()), OutlierTest::median(rankTotal), rankTotal.size());
    }
    if (total.empty())
        return;
    Finding f;
    f.id = "dispatch_chain";
    f.category = "scheduling";
    f.severity = Severity::Info;
    f.threshold = 0;
    f.thresholdText = "statistics, no threshold";
    f.value = OutlierTest::median(total);
    f.unit = "us";
    f.ranks = ranks;
    const auto p90 = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[std::min(v.size() - 1, static_cast<size_t>(0.9 * static_cast<double>(v.size())))];
    };
    // The CANN API only counts when its HostToDevice flow is bound to a slice.
    const std::string cann = hostToLaunch.empty() ? std::string("no CANN API bound to a HostToDevice flow")
                                                  : formatText("aten op start → CANN API start median %.1f µs over %zu",
                                                      OutlierTest::median(hostToLaunch), hostToLaunch.size());
    f.message = formatText("Dispatch chain of %zu device tasks with an aten op → device flow: aten op start → device "
                           "task start median %.1f µs (p90 %.1f); %s; launch end → device start median %.1f µs (p90 "
                           "%.1f). Per rank (median, tasks): %s. %s",
        total.size(), f.value, p90(total), cann.c_str(), OutlierTest::median(launchToDevice), p90(launchToDevice),
        perRank.c_str(), examined(digests).c_str());
    f.suggestion = "A launch → device time near zero means the device waits for the host (host-bound); a large one "
                   "that the host runs ahead, as it should.";
    f.evidence.view = "timeline";
    f.evidence.rank = ranks.front();
    out.push_back(std::move(f));
}

} // namespace

void timelineRules(const AdviceContext& ctx, std::vector<Finding>& out)
{
    const auto digests = TimelineDigest::loadAll(ctx.db);
    if (digests.empty())
        return;
    idleGaps(digests, out);
    collectiveBound(digests, out);
    sdmaContention(ctx, digests, out);
    dispatchChain(digests, out);
}

} // namespace npuscope::query::advice

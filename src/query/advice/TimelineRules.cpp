// SPDX-License-Identifier: Apache-2.0
// The rules that read the ranks' timelines: idle gaps with their cause, host- or device-bound collectives, SDMA
// contention with MatMul, and the dispatch chain.
#include "AdviceRules.h"
#include "TimelineDigest.h"

#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/TranslationMarker.h"
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

FindingText examined(const std::vector<TimelineDigest>& digests)
{
    return text(QT_TRANSLATE_NOOP("Advice", "Ranks examined (timeline loaded): %1."), { rankList(ranksOf(digests)) });
}

// The causes the suggestion of idle_gap tells apart.
constexpr const char* kHostLate = QT_TRANSLATE_NOOP("Advice", "host launched late");
constexpr const char* kHostGap = QT_TRANSLATE_NOOP("Advice", "long gap on the host side");

struct Gap {
    Span span;
    const TimelineTask* next = nullptr;
    FindingText cause;
    FindingText detail; // empty source: none
};

// Labels a device idle gap (docs/metrics.md, "idle_gap").
void labelGap(const TimelineDigest& d, Gap& gap)
{
    const int64_t length = gap.span.length();
    const double share = T::kGapCauseShare;
    if (d.busyFromOverlap()) {
        const int64_t other = d.deviceWorkWithin(gap.span.begin, gap.span.end);
        if (static_cast<double>(other) >= share * static_cast<double>(length)) {
            gap.cause = text(QT_TRANSLATE_NOOP("Advice", "device work that is neither compute nor communication"));
            gap.detail = text(QT_TRANSLATE_NOOP("Advice", "%1 ms of other device tasks"), { fixed(ms(other), 3) });
            return;
        }
    }
    if (!gap.next) {
        gap.cause = text(QT_TRANSLATE_NOOP("Advice", "unknown (no device task starts at its end)"));
        return;
    }
    const auto launch = d.launchOf(*gap.next);
    if (!launch) {
        gap.cause = text(QT_TRANSLATE_NOOP("Advice", "unknown (no launch flow into %1)"), { gap.next->name });
        return;
    }
    const int64_t delay = std::clamp<int64_t>(launch->event.end - gap.span.begin, 0, length);
    if (static_cast<double>(delay) < share * static_cast<double>(length)) {
        gap.cause
            = text(QT_TRANSLATE_NOOP("Advice", "device waited with the launch done (a dependency or synchronisation)"));
        gap.detail = text(QT_TRANSLATE_NOOP("Advice", "%1 ended %2 ms before the gap's end"),
            { launch->event.name, fixed(ms(gap.span.end - launch->event.end), 3) });
        return;
    }
    const TimelineTask& host = launch->hostOp ? *launch->hostOp : launch->event;
    const int64_t hostWindow = std::max<int64_t>(0, host.begin - gap.span.begin);
    const int64_t idle = hostWindow - d.hostCoverage(host.track, gap.span.begin, host.begin, gap.span.end);
    if (static_cast<double>(idle) >= share * static_cast<double>(length)) {
        gap.cause = text(kHostGap);
        gap.detail = text(QT_TRANSLATE_NOOP("Advice", "the launching host thread ran nothing for %1 ms before %2"),
            { fixed(ms(idle), 3), host.name });
        return;
    }
    gap.cause = text(kHostLate);
    // A CANN launch may end a little after its task started (real level1 profiles: ~0.02 ms).
    const int64_t lead = gap.span.end - launch->event.end;
    gap.detail = text(lead >= 0 ? QT_TRANSLATE_NOOP("Advice", "%1 ended %2 ms into the gap, %3 ms before %4 started")
                                : QT_TRANSLATE_NOOP("Advice", "%1 ended %2 ms into the gap, %3 ms after %4 started"),
        { launch->event.name, fixed(ms(delay), 3), fixed(ms(std::abs(lead)), 3), gap.next->name });
}

void idleGaps(const AdviceContext& ctx, const std::vector<TimelineDigest>& digests, std::vector<Finding>& out)
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
        std::vector<FindingText> list;
        for (auto& gap : gaps) {
            gap.next = d.taskStartingAt(gap.span.end);
            labelGap(d, gap);
            idle += gap.span.length();
            if (gap.next && std::find(f.ops.begin(), f.ops.end(), gap.next->name) == f.ops.end())
                f.ops.push_back(gap.next->name);
            std::vector<FindingText> args { fixed(ms(gap.span.length()), 3),
                fixed(ms(gap.span.begin - d.timeline().begin), 3), gap.next ? gap.next->name : std::string("?"),
                gap.cause };
            if (gap.detail.source.empty()) {
                list.push_back(text(QT_TRANSLATE_NOOP("Advice", "%1 ms at %2 ms before %3: %4"), std::move(args)));
            } else {
                args.push_back(gap.detail);
                list.push_back(text(QT_TRANSLATE_NOOP("Advice", "%1 ms at %2 ms before %3: %4 — %5"), std::move(args)));
            }
        }
        const int64_t deviceSpan = busy.back().end - busy.front().begin;
        const double share = deviceSpan > 0 ? static_cast<double>(idle) / static_cast<double>(deviceSpan) : 0;
        f.id = "idle_gap";
        f.category = "scheduling";
        f.severity = share >= T::kIdleGapShare ? Severity::Warning : Severity::Info;
        f.threshold = T::kIdleGapMs;
        f.setThreshold(
            text(QT_TRANSLATE_NOOP("Advice", "device idle (neither compute nor communication) longer than %1 ms"),
                { fixed(T::kIdleGapMs, 1) }));
        f.value = ms(gaps.front().span.length());
        f.unit = "ms";
        f.ranks = { d.rank() };
        f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                              "Rank %1's device idles in %2 gaps of at least %3 ms; the longest %4 (%5 % of its device "
                              "span; times from the timeline's start): %6. The longest: %7."),
            { std::to_string(d.rank()), std::to_string(total), fixed(T::kIdleGapMs, 1), std::to_string(gaps.size()),
                fixed(share * 100, 1), joined(list, QT_TRANSLATE_NOOP("Advice", "%1; %2")), gaps.front().cause }));
        const std::string& cause = gaps.front().cause.source;
        f.setSuggestion(cause == kHostLate
                ? text(QT_TRANSLATE_NOOP("Advice",
                    "The host could not keep the device fed: look at the Python and CANN work before the launch (slow "
                    "operators on the host, small kernels, synchronising calls such as .item()); fuse operators, "
                    "enable task queue / graph mode, or move host work off the critical path."))
                : cause == kHostGap
                ? text(QT_TRANSLATE_NOOP("Advice",
                    "The host thread did nothing before the launch: it waited (data loading, a synchronisation, a "
                    "lock, garbage collection); look at the host thread in the Timeline at that time."))
                : text(QT_TRANSLATE_NOOP("Advice",
                    "Look at the device tasks around the gap in the Timeline: memory copies, events and other "
                    "non-compute tasks, or a dependency that kept the stream waiting.")));
        // The gaps' share of the device span, in ms of the rank's mean step (the timeline may cover several steps);
        // without step times, of the device span (docs/metrics.md, "Impact").
        if (const double stepNs = ctx.rankStepNs(d.rank()); stepNs > 0)
            setImpact(f, share * stepNs, stepNs);
        else
            setImpact(f, static_cast<double>(idle), static_cast<double>(deviceSpan));
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

void collectiveBound(const AdviceContext& ctx, const std::vector<TimelineDigest>& digests, std::vector<Finding>& out)
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
        Finding f = Finding::ofRule("collective_bound", "communication", hostBound ? Severity::Warning : Severity::Info,
            T::kCollectiveSpreadMs,
            text(QT_TRANSLATE_NOOP("Advice",
                     "one of the %1 collectives whose start spread over the ranks is the largest, from %2 "
                     "ms"),
                { std::to_string(T::kCollectiveTop), fixed(T::kCollectiveSpreadMs, 1) }));
        f.value = ms(c.spread);
        f.unit = "ms";
        f.ranks = { late.rank(), early.rank() };
        f.ops = { c.name };
        const std::string lr = std::to_string(late.rank());
        const std::string er = std::to_string(early.rank());
        const FindingText head = text(QT_TRANSLATE_NOOP("Advice", "%1 starts %2 ms later on rank %3 than on rank %4"),
            { c.name, fixed(ms(c.spread), 3), lr, er });
        if (hostBound) {
            const Span gap = late.longestIdleWithin(lateFrom, op.begin);
            const TimelineTask* next = late.taskStartingAt(gap.end);
            const auto launch = next ? late.launchOf(*next) : std::nullopt;
            f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                                  "%1: host-bound. Since its step's work began rank %2's device was idle %3 ms more "
                                  "than rank %4's (%5 vs %6 ms), the longest %7 ms before %8%9. %10"),
                { head, lr, fixed(ms(extraIdle), 3), er, fixed(ms(lateIdle), 3), fixed(ms(earlyIdle), 3),
                    fixed(ms(gap.length()), 3), next ? next->name : std::string("?"),
                    launch ? text(QT_TRANSLATE_NOOP("Advice", ", launched by %1"), { launch->event.name })
                           : FindingText(),
                    examined(digests) }));
            f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
                "The late rank's host kept its device waiting: look at its host thread before those launches (idle_gap "
                "names the gaps).")));
        } else {
            const TimelineTask* longest = nullptr;
            for (const auto& task : late.deviceTasks()) {
                if (task.begin >= lateFrom && task.end <= op.begin
                    && (!longest || task.end - task.begin > longest->end - longest->begin))
                    longest = &task;
            }
            f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                                  "%1: device-bound (its device was not idle longer). Since the step's work began rank "
                                  "%2's device was busy %3 ms and idle %4 ms, rank %5's busy %6 ms and idle %7 ms; "
                                  "rank %8's longest task there %9. %10"),
                { head, lr, fixed(ms(lateBusy), 3), fixed(ms(lateIdle), 3), er, fixed(ms(earlyBusy), 3),
                    fixed(ms(earlyIdle), 3), lr, longest ? longest->name : std::string("?"), examined(digests) }));
            f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
                "The late rank's device had more to do: compare its kernels with the early rank's (Operators, compare "
                "ranks) or look for a slow rank.")));
        }
        // The early ranks wait the spread for the late one in this collective (docs/metrics.md, "Impact").
        setImpact(f, static_cast<double>(c.spread), ctx.rankStepNs(late.rank()));
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
        Finding f = Finding::ofRule("sdma_contention", "communication", Severity::Warning, T::kContentionSdmaGbps,
            text(QT_TRANSLATE_NOOP("Advice", "SDMA bandwidth < %1 GB/s while a MatMul runs"),
                { fixed(T::kContentionSdmaGbps, 1) }));
        f.value = contended.front().first;
        f.unit = "GB/s";
        f.ranks = { rank };
        for (const auto& [gbps, name] : contended) {
            if (f.ops.size() < 10 && std::find(f.ops.begin(), f.ops.end(), name) == f.ops.end())
                f.ops.push_back(name);
        }
        f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                              "On rank %1, %2 of %3 SDMA transfers of at least %4 MB run below %5 GB/s while a MatMul "
                              "kernel overlaps them (the slowest %6 GB/s, %7). %8"),
            { std::to_string(rank), std::to_string(contended.size()), std::to_string(sdmaOps),
                fixed(T::kLinkMinSizeMb, 0), fixed(T::kContentionSdmaGbps, 1), fixed(f.value, 2),
                contended.front().second, examined(digests) }));
        f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
            "Communication and MatMul compete for HBM bandwidth: schedule the overlapped collective elsewhere, split "
            "it, or accept the overlap if the step still gains.")));
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
    std::vector<FindingText> perRank;
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
            perRank.push_back(text(QT_TRANSLATE_NOOP("Advice", "%1: %2 µs over %3"),
                { std::to_string(d.rank()), fixed(OutlierTest::median(rankTotal), 1),
                    std::to_string(rankTotal.size()) }));
    }
    if (total.empty())
        return;
    Finding f = Finding::ofRule("dispatch_chain", "scheduling", Severity::Info, 0,
        text(QT_TRANSLATE_NOOP("Advice", "statistics, no threshold")));
    f.value = OutlierTest::median(total);
    f.unit = "us";
    f.ranks = ranks;
    const auto p90 = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[std::min(v.size() - 1, static_cast<size_t>(0.9 * static_cast<double>(v.size())))];
    };
    // The CANN API only counts when its HostToDevice flow is bound to a slice.
    const FindingText cann = hostToLaunch.empty()
        ? text(QT_TRANSLATE_NOOP("Advice", "no CANN API bound to a HostToDevice flow"))
        : text(QT_TRANSLATE_NOOP("Advice", "aten op start → CANN API start median %1 µs over %2"),
            { fixed(OutlierTest::median(hostToLaunch), 1), std::to_string(hostToLaunch.size()) });
    f.setMessage(
        text(QT_TRANSLATE_NOOP("Advice",
                 "Dispatch chain of %1 device tasks with an aten op → device flow: aten op start → device task "
                 "start median %2 µs (p90 %3); %4; launch end → device start median %5 µs (p90 %6). Per rank "
                 "(median, tasks): %7. %8"),
            { std::to_string(total.size()), fixed(f.value, 1), fixed(p90(total), 1), cann,
                fixed(OutlierTest::median(launchToDevice), 1), fixed(p90(launchToDevice), 1),
                joined(perRank, QT_TRANSLATE_NOOP("Advice", "%1, %2")), examined(digests) }));
    f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
        "A launch → device time near zero means the device waits for the host (host-bound); a large one that the host "
        "runs ahead, as it should.")));
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
    idleGaps(ctx, digests, out);
    collectiveBound(ctx, digests, out);
    sdmaContention(ctx, digests, out);
    dispatchChain(digests, out);
}

} // namespace npuscope::query::advice

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CriticalPath.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace npuscope::query {

// Indexed by PathKind.
constexpr const char* kKindNames[] = { "compute", "communication", "host", "idle" };
constexpr int64_t PathShare::* kShareOf[] = { &PathShare::computeNs, &PathShare::communicationNs, &PathShare::hostNs,
    &PathShare::idleNs };

const char* pathKindName(PathKind kind) { return kKindNames[static_cast<size_t>(kind)]; }

void PathShare::add(PathKind kind, int64_t ns) { this->*kShareOf[static_cast<size_t>(kind)] += ns; }

namespace {

// The member a communication task's moment of moving waited for under the given times: (lane, task), or (−1, −1) when
// it moved on its own account (binding::waitedFor, the rule Blame's last arriver follows too).
std::pair<int32_t, int32_t> boundBy(const DepStep& step, const StepTiming& timing, size_t lane, size_t task)
{
    const auto& t = step.lanes[lane].tasks[task];
    if (t.instance < 0 || (t.binding != DepBinding::Receive && t.binding != DepBinding::Collective))
        return { -1, -1 };
    const auto& at = step.memberAt[static_cast<size_t>(t.instance) - step.firstInstance];
    std::vector<MemberBinding> bound(at.size());
    std::vector<int64_t> ready(at.size(), 0);
    int64_t sendMoving = std::numeric_limits<int64_t>::min();
    for (size_t m = 0; m < at.size(); ++m) {
        const auto [l, k] = at[m];
        if (l < 0)
            continue;
        const auto lu = static_cast<size_t>(l);
        const auto ku = static_cast<size_t>(k);
        const auto& other = step.lanes[lu].tasks[ku];
        bound[m] = { other.binding, other.ownWaitNs, other.residualNs };
        ready[m] = timing.start[lu][ku] + other.ownWaitNs;
        if (m == 0)
            sendMoving = timing.moving[lu][ku];
    }
    const int32_t by = binding::waitedFor(bound, ready, sendMoving, static_cast<size_t>(t.member));
    return by < 0 ? std::make_pair(-1, -1) : at[static_cast<size_t>(by)];
}

} // namespace

std::vector<PathSegment> CriticalPath::walk(const DepStep& step, const StepTiming& timing)
{
    std::vector<PathSegment> out;
    if (step.lanes.empty())
        return out;
    size_t lane = timing.slowestLane();
    if (step.lanes[lane].tasks.empty())
        return out;
    // Start at the lane's task that ends last.
    size_t task = 0;
    for (size_t t = 1; t < timing.end[lane].size(); ++t) {
        if (timing.end[lane][t] >= timing.end[lane][task])
            task = t;
    }
    int64_t hi = timing.end[lane][task];
    auto push = [&](size_t l, int32_t t, PathKind kind, int64_t a, int64_t b) {
        if (b <= a)
            return;
        PathSegment s;
        s.lane = l;
        s.rank = step.lanes[l].rank;
        s.task = t;
        s.kind = kind;
        if (t >= 0 && (kind == PathKind::Compute || kind == PathKind::Communication)) {
            const auto& owner = step.lanes[l].tasks[static_cast<size_t>(t)];
            s.op = owner.name;
            s.instance = owner.instance;
        }
        s.start = a;
        s.end = b;
        s.writtenStart = a + step.lanes[l].offsetNs;
        out.push_back(s);
    };
    size_t guard = 0;
    size_t budget = 4;
    for (const auto& l : step.lanes)
        budget += 2 * l.tasks.size();
    while (guard++ < budget) {
        const auto& t = step.lanes[lane].tasks[task];
        const int64_t start = timing.start[lane][task];
        if (t.kind == DepKind::Communication && t.binding != DepBinding::None) {
            const int64_t moving = std::min(hi, timing.moving[lane][task]);
            push(lane, static_cast<int32_t>(task), PathKind::Communication, moving, hi);
            const auto [bl, bt] = boundBy(step, timing, lane, task);
            if (bl >= 0) {
                const auto l = static_cast<size_t>(bl);
                const auto k = static_cast<size_t>(bt);
                const int64_t arrived = std::min(timing.start[l][k], moving);
                push(l, bt, PathKind::Communication, arrived, moving);
                lane = l;
                task = k;
                hi = arrived;
            } else {
                push(lane, static_cast<int32_t>(task), PathKind::Communication, std::min(start, moving), moving);
                hi = std::min(start, moving);
            }
        } else {
            push(lane, static_cast<int32_t>(task),
                t.kind == DepKind::Compute ? PathKind::Compute : PathKind::Communication, std::min(start, hi), hi);
            hi = std::min(start, hi);
        }
        // The gap before the task, then the task it followed.
        const auto& cur = step.lanes[lane].tasks[task];
        if (cur.pred < 0) {
            push(lane, -1, PathKind::Idle, timing.stepStart[lane], hi);
            break;
        }
        const auto p = static_cast<size_t>(cur.pred);
        const int64_t predEnd = std::min(hi, timing.end[lane][p]);
        push(lane, static_cast<int32_t>(task), step.lanes[lane].kernels ? PathKind::Host : PathKind::Compute, predEnd,
            hi);
        task = p;
        hi = predEnd;
    }
    // The path spans the slowest rank's step: a rank it began on that started the step later adds the wait for it
    // (idle), one that started earlier has its leading idle cut at that start.
    const int64_t anchor = timing.stepStart[timing.slowestLane()];
    if (!out.empty() && out.back().start > anchor) {
        const auto& first = out.back();
        push(first.lane, -1, PathKind::Idle, anchor, first.start);
    }
    while (!out.empty() && out.back().kind == PathKind::Idle && out.back().start < anchor) {
        if (out.back().end <= anchor)
            out.pop_back();
        else {
            out.back().start = anchor;
            out.back().writtenStart = anchor + step.lanes[out.back().lane].offsetNs;
        }
    }
    std::reverse(out.begin(), out.end());
    return out;
}

std::vector<PathVisit> CriticalPath::visits(const std::vector<PathSegment>& segments)
{
    std::vector<PathVisit> out;
    for (size_t i = 0; i < segments.size(); ++i) {
        const auto& s = segments[i];
        if (out.empty() || out.back().rank != s.rank) {
            PathVisit v;
            v.rank = s.rank;
            v.firstSegment = i;
            v.start = s.start;
            v.writtenStart = s.writtenStart;
            out.push_back(v);
        }
        auto& v = out.back();
        v.segmentCount += 1;
        v.end = s.end;
        v.writtenEnd = s.writtenStart + s.durNs();
        v.share.add(s.kind, s.durNs());
        if (s.op >= 0 && s.durNs() > v.longestNs) {
            v.longestNs = s.durNs();
            v.longestOp = s.op;
        }
    }
    return out;
}

std::vector<int64_t> CriticalPath::commOps(const DependencyGraph& graph, const std::vector<PathSegment>& segments)
{
    std::vector<int64_t> out;
    for (const auto& s : segments) {
        if (s.instance < 0 || s.task < 0)
            continue;
        const auto& inst = graph.set.instances[static_cast<size_t>(s.instance)];
        for (const auto& m : inst.members) {
            if (m.rank == s.rank)
                out.push_back(m.commOpId);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<OperatorTime> CriticalPath::operatorTimes(const DepStep& step)
{
    std::unordered_map<int32_t, OperatorTime> byName;
    struct Event {
        int64_t at;
        int32_t task;
        bool open;
    };
    std::vector<Event> events;
    std::vector<int64_t> serial;
    std::vector<int32_t> active;
    for (const auto& lane : step.lanes) {
        events.clear();
        for (size_t t = 0; t < lane.tasks.size(); ++t) {
            if (lane.tasks[t].end <= lane.tasks[t].start)
                continue;
            events.push_back({ lane.tasks[t].start, static_cast<int32_t>(t), true });
            events.push_back({ lane.tasks[t].end, static_cast<int32_t>(t), false });
        }
        std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
            return a.at != b.at ? a.at < b.at : (a.open != b.open ? !a.open : a.task < b.task);
        });
        serial.assign(lane.tasks.size(), 0);
        active.clear();
        int64_t last = 0;
        for (const auto& e : events) {
            if (active.size() == 1)
                serial[static_cast<size_t>(active.front())] += e.at - last;
            last = e.at;
            if (e.open)
                active.push_back(e.task);
            else
                active.erase(std::find(active.begin(), active.end(), e.task));
        }
        for (size_t t = 0; t < lane.tasks.size(); ++t) {
            const auto& task = lane.tasks[t];
            auto& o = byName[task.name];
            o.name = task.name;
            o.kind = task.kind;
            o.count += 1;
            const int64_t dur = std::max<int64_t>(0, task.end - task.start);
            o.durNs += dur;
            o.serialNs += serial[t];
            o.parallelNs += dur - serial[t];
        }
    }
    std::vector<OperatorTime> out;
    out.reserve(byName.size());
    for (auto& [name, o] : byName)
        out.push_back(o);
    std::sort(out.begin(), out.end(), [](const OperatorTime& a, const OperatorTime& b) {
        return a.serialNs != b.serialNs ? a.serialNs > b.serialNs : a.name < b.name;
    });
    return out;
}

CriticalPathStep CriticalPath::analyse(const DependencyGraph& graph, const DepStep& step, const StepTiming& timing)
{
    CriticalPathStep out;
    out.step = step.step;
    if (step.lanes.empty())
        return out;
    const size_t slowest = timing.slowestLane();
    out.slowestRank = step.lanes[slowest].rank;
    out.stepNs = timing.wallNs(slowest);
    out.segments = walk(step, timing);
    std::map<int64_t, PathShare> ranks;
    std::map<std::pair<int64_t, int64_t>, int64_t> links;
    for (const auto& s : out.segments) {
        out.lengthNs += s.durNs();
        out.share.add(s.kind, s.durNs());
        ranks[s.rank].add(s.kind, s.durNs());
        if (s.instance >= 0) {
            const auto& inst = graph.set.instances[static_cast<size_t>(s.instance)];
            if (inst.p2p && inst.members.size() == 2)
                links[{ inst.members[0].rank, inst.members[1].rank }] += s.durNs();
        }
    }
    out.ranks.assign(ranks.begin(), ranks.end());
    out.links.assign(links.begin(), links.end());
    out.operators = operatorTimes(step);
    for (const auto& o : out.operators) {
        if (o.kind == DepKind::Communication && out.topCommunication.size() < kTopCommunication)
            out.topCommunication.push_back(o);
    }
    return out;
}

std::vector<CriticalPathStep> CriticalPath::run(const DependencyGraph& graph, std::optional<int64_t> step)
{
    std::vector<CriticalPathStep> out;
    for (const auto& s : graph.steps) {
        if (step && s.step != *step)
            continue;
        out.push_back(analyse(graph, s, StepTiming::measured(s)));
    }
    return out;
}

} // namespace npuscope::query

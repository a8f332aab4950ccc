// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/DependencyGraph.h"

#include "npuscope/model/ReadRow.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <queue>
#include <string_view>
#include <unordered_map>

namespace npuscope::query {

namespace {

// A send that waited at least this share of the time until its receiver arrived waited for it (rendezvous).
constexpr double kWaitedForShare = 0.5;
// Arrivals closer than this are simultaneous; a receive moving within this of its send moved with it.
constexpr int64_t kToleranceNs = 20000;

struct KernelRow {
    int64_t start = 0, dur = 0;
    int32_t name = -1, type = -1;
    bool comm = false;
};

bool startsWithHcom(std::string_view name) { return name.size() >= 4 && name.substr(0, 4) == "hcom"; }

// Kernel rows per (step, rank): the kernel table for ranks whose kernels are imported, else step_kernel. Names are
// read by string id and interned once per distinct id.
std::map<std::pair<int64_t, int64_t>, std::vector<KernelRow>> readKernels(
    model::Database& db, std::optional<int64_t> step, StringTable& strings)
{
    std::map<std::pair<int64_t, int64_t>, std::vector<KernelRow>> out;
    auto st = db.prepare("SELECT rank_id, step, name_id, type_id, COALESCE(accelerator_core IN ('HCCL', "
                         "'COMMUNICATION'), 0), ts, dur FROM kernel WHERE step IS NOT NULL AND (?1 IS NULL OR step = "
                         "?1) UNION ALL SELECT rank_id, step, name_id, type_id, COALESCE(accelerator_core IN ('HCCL', "
                         "'COMMUNICATION'), 0), ts, dur FROM step_kernel WHERE step IS NOT NULL AND (?1 IS NULL OR "
                         "step = ?1) AND rank_id NOT IN (SELECT DISTINCT rank_id FROM kernel)");
    st.bind(1, step);
    auto text = db.prepare("SELECT value FROM string WHERE id = ?1");
    std::unordered_map<int64_t, std::pair<int32_t, bool>> interned; // string id -> (table id, hcom name)
    auto intern = [&](int64_t id) -> std::pair<int32_t, bool> {
        if (auto it = interned.find(id); it != interned.end())
            return it->second;
        text.reset();
        text.bind(1, id);
        std::pair<int32_t, bool> v { -1, false };
        if (text.step()) {
            const auto value = text.textView(0).value_or(std::string_view());
            v = { strings.intern(value), startsWithHcom(value) };
        }
        interned.emplace(id, v);
        return v;
    };
    std::vector<KernelRow>* rows = nullptr;
    std::pair<int64_t, int64_t> key { -1, -1 };
    while (st.step()) {
        const std::pair<int64_t, int64_t> k { st.int64(1), st.int64(0) };
        if (!rows || k != key) {
            key = k;
            rows = &out[k];
        }
        KernelRow r;
        const auto [name, hcom] = intern(st.int64(2));
        r.name = name;
        r.type = st.isNull(3) ? -1 : intern(st.int64(3)).first;
        r.comm = st.int64(4) != 0 || hcom;
        r.start = st.int64(5);
        r.dur = std::max<int64_t>(0, st.int64(6));
        rows->push_back(r);
    }
    return out;
}

// The predecessor of every task (tasks by start): the task that ended last at or before its start.
void linkPredecessors(std::vector<DepTask>& tasks)
{
    using Pending = std::pair<int64_t, int32_t>; // (end, index), smallest end first
    std::priority_queue<Pending, std::vector<Pending>, std::greater<>> pending;
    int32_t best = -1;
    int64_t bestEnd = 0;
    for (size_t i = 0; i < tasks.size(); ++i) {
        while (!pending.empty() && pending.top().first <= tasks[i].start) {
            const auto [end, idx] = pending.top();
            pending.pop();
            if (best < 0 || end > bestEnd || (end == bestEnd && idx > best)) {
                best = idx;
                bestEnd = end;
            }
        }
        tasks[i].pred = best;
        pending.emplace(tasks[i].end, static_cast<int32_t>(i));
    }
}

// How each member of an instance of the step waits for the others (DepBinding), from the measured times.
void bindInstance(const CollectiveInstance& inst, const std::vector<std::pair<int32_t, int32_t>>& at,
    std::vector<DepLane>& lanes)
{
    auto task = [&](size_t m) -> DepTask* {
        if (at[m].first < 0)
            return nullptr;
        return &lanes[static_cast<size_t>(at[m].first)].tasks[static_cast<size_t>(at[m].second)];
    };
    std::vector<MemberTimes> times(inst.members.size());
    for (size_t m = 0; m < inst.members.size(); ++m) {
        if (auto* t = task(m)) {
            t->transitNs = inst.members[m].transitNs;
            t->postNs = t->end - t->movingNs;
            times[m] = { true, t->start, t->movingNs };
        } else {
            times[m].present = false;
        }
    }
    const auto bound = binding::bind(inst.p2p && inst.members.size() == 2, times);
    for (size_t m = 0; m < inst.members.size(); ++m) {
        if (auto* t = task(m)) {
            t->binding = bound[m].binding;
            t->ownWaitNs = bound[m].ownWaitNs;
            t->residualNs = bound[m].residualNs;
        }
    }
}

} // namespace

namespace binding {

std::vector<MemberBinding> bind(bool pair, const std::vector<MemberTimes>& members)
{
    std::vector<MemberBinding> out(members.size());
    if (pair && members.size() == 2 && members[0].present && members[1].present) {
        const auto& send = members[0];
        const auto& recv = members[1];
        const int64_t sendWait = send.moving - send.arrival;
        const int64_t recvWait = recv.moving - recv.arrival;
        const int64_t later = recv.arrival - send.arrival;
        const bool rendezvous
            = later > kToleranceNs && static_cast<double>(sendWait) >= kWaitedForShare * static_cast<double>(later);
        if (!rendezvous) {
            out[0] = { DepBinding::EagerSend, sendWait, 0 };
            const bool bound = recv.moving <= send.moving + kToleranceNs;
            const int64_t own = bound ? std::min(recvWait, sendWait) : recvWait;
            out[1] = { DepBinding::Receive, own, recv.moving - std::max(recv.arrival + own, send.moving) };
            return out;
        }
    }
    // Collective semantics: every member moves when the last has arrived plus the least wait.
    int64_t least = -1;
    for (const auto& m : members) {
        if (m.present)
            least = least < 0 ? m.moving - m.arrival : std::min(least, m.moving - m.arrival);
    }
    int64_t common = std::numeric_limits<int64_t>::min();
    for (const auto& m : members) {
        if (m.present)
            common = std::max(common, m.arrival + least);
    }
    for (size_t k = 0; k < members.size(); ++k) {
        if (members[k].present)
            out[k] = { DepBinding::Collective, least, members[k].moving - common };
    }
    return out;
}

std::vector<MemberTimes> timesOf(const CollectiveInstance& inst)
{
    std::vector<MemberTimes> out(inst.members.size());
    for (size_t m = 0; m < inst.members.size(); ++m) {
        const auto& mem = inst.members[m];
        // As the graph places a member: no start time, no place (DependencyGraphBuilder::build).
        out[m].present = mem.startNs != 0;
        out[m].arrival = mem.alignedStartNs;
        out[m].moving = std::clamp(mem.alignedStartNs + mem.waitNs, mem.alignedStartNs, mem.alignedEndNs());
    }
    return out;
}

int32_t waitedFor(
    const std::vector<MemberBinding>& bound, const std::vector<int64_t>& ready, int64_t sendMoving, size_t member)
{
    const auto& b = bound[member];
    if (b.binding == DepBinding::Receive)
        return sendMoving > ready[member] ? 0 : -1;
    if (b.binding != DepBinding::Collective)
        return -1;
    int64_t best = ready[member];
    int32_t by = -1;
    for (size_t k = 0; k < bound.size(); ++k) {
        if (k == member || bound[k].binding != DepBinding::Collective)
            continue;
        if (ready[k] > best) {
            best = ready[k];
            by = static_cast<int32_t>(k);
        }
    }
    return by;
}

size_t lastArriver(const CollectiveInstance& inst)
{
    const auto& ms = inst.members;
    // Members that move together (a collective, a send that waited for its receiver): the one that waited least. Its
    // arrival is what the common moment waited for, read from its own clock (the graph's latest arrival + least wait
    // is the same member when the clock offsets are right, and needs them).
    auto leastWait = [&] {
        size_t last = 0;
        for (size_t i = 1; i < ms.size(); ++i) {
            if (ms[i].waitNs < ms[last].waitNs
                || (ms[i].waitNs == ms[last].waitNs && ms[i].alignedStartNs > ms[last].alignedStartNs))
                last = i;
        }
        return last;
    };
    if (!inst.p2p || ms.size() != 2)
        return leastWait();
    const auto times = timesOf(inst);
    if (!times[0].present || !times[1].present)
        return leastWait();
    const auto bound = bind(true, times);
    if (bound[0].binding != DepBinding::EagerSend)
        return leastWait();
    // A send and its receive: the send when the receive waited for it, else the receive arrived last itself.
    const std::vector<int64_t> ready { times[0].arrival + bound[0].ownWaitNs, times[1].arrival + bound[1].ownWaitNs };
    return waitedFor(bound, ready, times[0].moving, 1) == 0 ? 0 : 1;
}

} // namespace binding

const DepStep* DependencyGraph::stepOf(int64_t step) const
{
    for (const auto& s : steps) {
        if (s.step == step)
            return &s;
    }
    return nullptr;
}

size_t StepTiming::slowestLane() const
{
    size_t best = 0;
    for (size_t i = 1; i < stepStart.size(); ++i) {
        if (wallNs(i) > wallNs(best))
            best = i;
    }
    return best;
}

StepTiming StepTiming::measured(const DepStep& step)
{
    StepTiming t;
    for (const auto& lane : step.lanes) {
        auto& s = t.start.emplace_back();
        auto& e = t.end.emplace_back();
        auto& m = t.moving.emplace_back();
        for (const auto& task : lane.tasks) {
            s.push_back(task.start);
            e.push_back(task.end);
            m.push_back(task.kind == DepKind::Communication && task.binding != DepBinding::None ? task.movingNs
                                                                                               : task.start);
        }
        t.stepStart.push_back(lane.stepStart);
        t.stepEnd.push_back(lane.stepEnd);
    }
    return t;
}

DependencyGraph DependencyGraphBuilder::build(model::Database& db, std::optional<int64_t> step)
{
    return build(db, CollectiveInstances::build(db), step);
}

DependencyGraph DependencyGraphBuilder::build(model::Database& db, CollectiveSet set, std::optional<int64_t> step)
{
    DependencyGraph g;
    g.set = std::move(set);
    std::unordered_map<int64_t, int64_t> offsetOf; // rank -> ns its clock runs ahead of the reference
    for (const auto& d : g.set.offsets) {
        for (const int64_t r : d.ranks)
            offsetOf[r] = d.offsetNs;
    }
    std::map<std::pair<int64_t, int64_t>, std::vector<KernelRow>> kernels;
    std::map<std::pair<int64_t, int64_t>, int64_t> preparing;
    {
        auto guard = db.lock();
        kernels = readKernels(db, step, g.strings);
        auto st = db.prepare("SELECT rank_id, step, preparing_ns FROM step_trace WHERE step IS NOT NULL AND "
                             "preparing_ns IS NOT NULL AND (?1 IS NULL OR step = ?1)");
        st.bind(1, step);
        while (st.step())
            preparing[{ st.int64(1), st.int64(0) }] = st.int64(2);
    }
    // Communication members per (step, rank): (instance, member).
    std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int32_t, int32_t>>> comm;
    std::map<int64_t, std::pair<size_t, size_t>> instanceRange; // step -> [first, end) (instances are by step)
    for (size_t i = 0; i < g.set.instances.size(); ++i) {
        const auto& inst = g.set.instances[i];
        if (step && inst.step != *step)
            continue;
        auto [it, fresh] = instanceRange.emplace(inst.step, std::make_pair(i, i + 1));
        if (!fresh)
            it->second.second = i + 1;
        for (size_t m = 0; m < inst.members.size(); ++m) {
            // Members without a start time (MindSpore's old hccl_raw files write durations only) cannot be placed.
            if (inst.members[m].startNs != 0)
                comm[{ inst.step, inst.members[m].rank }].emplace_back(
                    static_cast<int32_t>(i), static_cast<int32_t>(m));
        }
    }
    std::map<int64_t, std::vector<int64_t>> ranksOfStep;
    for (const auto& [key, rows] : kernels)
        ranksOfStep[key.first].push_back(key.second);
    for (const auto& [key, members] : comm)
        ranksOfStep[key.first].push_back(key.second);
    for (auto& [stepId, ranks] : ranksOfStep) {
        std::sort(ranks.begin(), ranks.end());
        ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
        DepStep ds;
        ds.step = stepId;
        std::unordered_map<int64_t, size_t> laneOf;
        for (const int64_t rank : ranks) {
            DepLane lane;
            lane.rank = rank;
            if (auto it = offsetOf.find(rank); it != offsetOf.end())
                lane.offsetNs = it->second;
            const auto c = comm.find({ stepId, rank });
            const bool hasComm = c != comm.end() && !c->second.empty();
            if (const auto k = kernels.find({ stepId, rank }); k != kernels.end()) {
                lane.kernels = true;
                for (const auto& row : k->second) {
                    if (row.comm && hasComm)
                        continue; // the comm_op rows stand for these
                    DepTask t;
                    t.start = row.start - lane.offsetNs;
                    t.end = t.start + row.dur;
                    t.name = row.name;
                    t.type = row.type;
                    t.kind = row.comm ? DepKind::Communication : DepKind::Compute;
                    t.movingNs = t.start;
                    lane.tasks.push_back(t);
                }
            }
            if (hasComm) {
                for (const auto& [i, m] : c->second) {
                    const auto& mem = g.set.instances[static_cast<size_t>(i)].members[static_cast<size_t>(m)];
                    DepTask t;
                    t.start = mem.alignedStartNs;
                    t.end = mem.alignedEndNs();
                    t.movingNs = std::clamp(t.start + mem.waitNs, t.start, t.end);
                    t.name = g.strings.intern(mem.opKey);
                    t.type = g.strings.intern(mem.opType);
                    t.kind = DepKind::Communication;
                    t.instance = i;
                    t.member = m;
                    lane.tasks.push_back(t);
                }
            }
            std::stable_sort(lane.tasks.begin(), lane.tasks.end(), [](const DepTask& a, const DepTask& b) {
                return a.start != b.start ? a.start < b.start : a.end < b.end;
            });
            linkPredecessors(lane.tasks);
            if (const auto p = preparing.find({ stepId, rank }); p != preparing.end())
                lane.preparingNs = std::max<int64_t>(0, p->second);
            if (!lane.tasks.empty()) {
                lane.stepStart = lane.tasks.front().start - lane.preparingNs;
                lane.stepEnd = lane.tasks.front().end;
                for (const auto& t : lane.tasks)
                    lane.stepEnd = std::max(lane.stepEnd, t.end);
            }
            laneOf[rank] = ds.lanes.size();
            ds.lanes.push_back(std::move(lane));
        }
        // Where each member of the step's instances landed.
        if (const auto r = instanceRange.find(stepId); r != instanceRange.end()) {
            ds.firstInstance = r->second.first;
            ds.instanceCount = r->second.second - r->second.first;
        }
        ds.memberAt.resize(ds.instanceCount);
        for (size_t i = 0; i < ds.instanceCount; ++i)
            ds.memberAt[i].assign(g.set.instances[ds.firstInstance + i].members.size(), { -1, -1 });
        for (size_t l = 0; l < ds.lanes.size(); ++l) {
            const auto& tasks = ds.lanes[l].tasks;
            for (size_t t = 0; t < tasks.size(); ++t) {
                if (tasks[t].instance >= 0) {
                    ds.memberAt[static_cast<size_t>(tasks[t].instance) - ds.firstInstance]
                               [static_cast<size_t>(tasks[t].member)]
                        = { static_cast<int32_t>(l), static_cast<int32_t>(t) };
                }
            }
        }
        for (size_t i = 0; i < ds.instanceCount; ++i)
            bindInstance(g.set.instances[ds.firstInstance + i], ds.memberAt[i], ds.lanes);
        g.steps.push_back(std::move(ds));
    }
    return g;
}

std::vector<int64_t> DependencyGraphBuilder::steps(model::Database& db)
{
    auto guard = db.lock();
    return model::readInts(db,
        "SELECT step FROM step_trace WHERE step IS NOT NULL UNION SELECT step FROM comm_op WHERE step IS NOT NULL AND "
        "is_total = 0 ORDER BY 1");
}

int64_t DependencyGraphBuilder::medianGapNs(const DepStep& step)
{
    std::vector<int64_t> gaps;
    for (const auto& lane : step.lanes) {
        if (!lane.kernels)
            continue;
        for (const auto& t : lane.tasks) {
            if (t.pred >= 0)
                gaps.push_back(std::max<int64_t>(0, t.start - lane.tasks[static_cast<size_t>(t.pred)].end));
        }
    }
    if (gaps.empty())
        return 0;
    auto mid = gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2);
    std::nth_element(gaps.begin(), mid, gaps.end());
    return *mid;
}

StepTiming DependencyGraphBuilder::replay(const DepStep& step, const ReplayChanges& changes, int64_t* cycles)
{
    StepTiming out = StepTiming::measured(step);
    const size_t laneCount = step.lanes.size();
    // Nodes: every task (flattened by lane), then one per instance whose members move together.
    std::vector<size_t> base(laneCount + 1, 0);
    for (size_t l = 0; l < laneCount; ++l)
        base[l + 1] = base[l] + step.lanes[l].tasks.size();
    const size_t taskNodes = base[laneCount];
    const size_t nodes = taskNodes + step.instanceCount;
    auto nodeOf = [&](size_t lane, int32_t task) { return base[lane] + static_cast<size_t>(task); };
    auto durFactor = [&](size_t l, size_t t) {
        return changes.durFactor.empty() || changes.durFactor[l].empty() ? 1.0 : changes.durFactor[l][t];
    };
    auto transitFactor = [&](size_t l, size_t t) {
        return changes.transitFactor.empty() || changes.transitFactor[l].empty() ? 1.0 : changes.transitFactor[l][t];
    };
    auto scaled = [](int64_t ns, double f) -> int64_t { return f == 1.0 ? ns : static_cast<int64_t>(std::llround(static_cast<double>(ns) * f)); };
    auto newTransit = [&](size_t l, size_t t) {
        return scaled(step.lanes[l].tasks[t].transitNs, transitFactor(l, t));
    };
    // Dependencies as edges dep -> node (CSR), and each node's count of those not yet replayed.
    std::vector<std::pair<size_t, size_t>> edges;
    for (size_t l = 0; l < laneCount; ++l) {
        const auto& tasks = step.lanes[l].tasks;
        for (size_t t = 0; t < tasks.size(); ++t) {
            const size_t n = nodeOf(l, static_cast<int32_t>(t));
            if (tasks[t].pred >= 0)
                edges.emplace_back(nodeOf(l, tasks[t].pred), n);
            if (tasks[t].instance < 0)
                continue;
            const size_t i = static_cast<size_t>(tasks[t].instance) - step.firstInstance;
            if (tasks[t].binding == DepBinding::Collective) {
                edges.emplace_back(taskNodes + i, n);
            } else if (tasks[t].binding == DepBinding::Receive) {
                const auto [sl, st] = step.memberAt[i][0];
                if (sl >= 0)
                    edges.emplace_back(nodeOf(static_cast<size_t>(sl), st), n);
            }
        }
    }
    for (size_t i = 0; i < step.instanceCount; ++i) {
        for (const auto& [l, t] : step.memberAt[i]) {
            if (l < 0)
                continue;
            const auto& task = step.lanes[static_cast<size_t>(l)].tasks[static_cast<size_t>(t)];
            if (task.binding == DepBinding::Collective && task.pred >= 0)
                edges.emplace_back(nodeOf(static_cast<size_t>(l), task.pred), taskNodes + i);
        }
    }
    std::vector<uint32_t> indegree(nodes, 0);
    std::vector<size_t> first(nodes + 1, 0);
    for (const auto& [from, to] : edges) {
        ++first[from + 1];
        ++indegree[to];
    }
    for (size_t n = 0; n < nodes; ++n)
        first[n + 1] += first[n];
    std::vector<size_t> next(edges.size());
    {
        std::vector<size_t> fill(first.begin(), first.end() - 1);
        for (const auto& [from, to] : edges)
            next[fill[from]++] = to;
    }
    // Where a task's replayed arrival comes from: its predecessor's replayed end plus its (changed) gap.
    auto arrival = [&](size_t l, size_t t) {
        const auto& lane = step.lanes[l];
        const auto& task = lane.tasks[t];
        if (task.pred < 0)
            return out.stepStart[l] + (task.start - lane.stepStart);
        const auto p = static_cast<size_t>(task.pred);
        int64_t gap = task.start - lane.tasks[p].end;
        if (lane.kernels) {
            if (!changes.idealHost.empty() && changes.idealHost[l])
                gap = std::min(gap, changes.idealGapNs);
        } else if (!changes.gapFactor.empty()) {
            gap = scaled(gap, changes.gapFactor[l]);
        }
        return out.end[l][p] + gap;
    };
    std::vector<int64_t> common(step.instanceCount, 0), postDelta(step.instanceCount, 0);
    auto replayInstance = [&](size_t i) {
        int64_t moving = std::numeric_limits<int64_t>::min();
        int64_t oldMax = 0, newMax = 0;
        bool any = false;
        for (const auto& [l, t] : step.memberAt[i]) {
            if (l < 0)
                continue;
            const auto lu = static_cast<size_t>(l);
            const auto tu = static_cast<size_t>(t);
            const auto& task = step.lanes[lu].tasks[tu];
            if (task.binding != DepBinding::Collective)
                continue;
            moving = std::max(moving, arrival(lu, tu) + task.ownWaitNs);
            oldMax = std::max(oldMax, task.transitNs);
            newMax = std::max(newMax, newTransit(lu, tu));
            any = true;
        }
        common[i] = any ? moving : 0;
        postDelta[i] = newMax - oldMax;
    };
    auto replayTask = [&](size_t l, size_t t) {
        const auto& task = step.lanes[l].tasks[t];
        const int64_t start = arrival(l, t);
        out.start[l][t] = start;
        if (task.kind == DepKind::Compute || task.binding == DepBinding::None) {
            out.moving[l][t] = start;
            out.end[l][t] = start + scaled(task.end - task.start, durFactor(l, t));
            return;
        }
        const size_t i = static_cast<size_t>(task.instance) - step.firstInstance;
        int64_t moving = 0, post = task.postNs;
        switch (task.binding) {
        case DepBinding::Collective:
            moving = common[i] + task.residualNs;
            post += postDelta[i];
            break;
        case DepBinding::EagerSend:
            moving = start + task.ownWaitNs + task.residualNs;
            post += newTransit(l, t) - task.transitNs;
            break;
        case DepBinding::Receive: {
            const auto [sl, st] = step.memberAt[i][0];
            const int64_t sent = sl >= 0 ? out.moving[static_cast<size_t>(sl)][static_cast<size_t>(st)]
                                         : std::numeric_limits<int64_t>::min();
            moving = std::max(start + task.ownWaitNs, sent) + task.residualNs;
            post += newTransit(l, t) - task.transitNs;
            break;
        }
        case DepBinding::None:
            break;
        }
        moving = std::max(moving, start);
        out.moving[l][t] = moving;
        out.end[l][t] = moving + std::max<int64_t>(0, post);
    };
    // Kahn's order; a node left when nothing is ready (a cycle) is replayed in measured order.
    std::vector<int64_t> measuredAt(nodes);
    for (size_t l = 0; l < laneCount; ++l) {
        for (size_t t = 0; t < step.lanes[l].tasks.size(); ++t)
            measuredAt[nodeOf(l, static_cast<int32_t>(t))] = step.lanes[l].tasks[t].start;
    }
    for (size_t i = 0; i < step.instanceCount; ++i) {
        int64_t at = std::numeric_limits<int64_t>::max();
        for (const auto& [l, t] : step.memberAt[i]) {
            if (l >= 0)
                at = std::min(at, step.lanes[static_cast<size_t>(l)].tasks[static_cast<size_t>(t)].start);
        }
        measuredAt[taskNodes + i] = at;
    }
    std::vector<size_t> byTime(nodes);
    for (size_t n = 0; n < nodes; ++n)
        byTime[n] = n;
    std::sort(byTime.begin(), byTime.end(), [&](size_t a, size_t b) { return measuredAt[a] < measuredAt[b]; });
    std::vector<bool> done(nodes, false);
    std::vector<size_t> ready;
    for (size_t n = 0; n < nodes; ++n) {
        if (indegree[n] == 0)
            ready.push_back(n);
    }
    std::vector<size_t> laneOfNode(taskNodes);
    for (size_t l = 0; l < laneCount; ++l)
        std::fill(laneOfNode.begin() + static_cast<std::ptrdiff_t>(base[l]),
            laneOfNode.begin() + static_cast<std::ptrdiff_t>(base[l + 1]), l);
    size_t processed = 0, forcedCursor = 0;
    int64_t forced = 0;
    while (processed < nodes) {
        size_t n;
        if (!ready.empty()) {
            n = ready.back();
            ready.pop_back();
        } else {
            while (done[byTime[forcedCursor]])
                ++forcedCursor;
            n = byTime[forcedCursor];
            ++forced;
        }
        if (done[n])
            continue;
        done[n] = true;
        ++processed;
        if (n < taskNodes) {
            const size_t l = laneOfNode[n];
            replayTask(l, n - base[l]);
        } else {
            replayInstance(n - taskNodes);
        }
        for (size_t e = first[n]; e < first[n + 1]; ++e) {
            const size_t to = next[e];
            if (indegree[to] > 0 && --indegree[to] == 0 && !done[to])
                ready.push_back(to);
        }
    }
    for (size_t l = 0; l < laneCount; ++l) {
        int64_t end = out.stepStart[l];
        for (const int64_t e : out.end[l])
            end = std::max(end, e);
        out.stepEnd[l] = step.lanes[l].tasks.empty() ? step.lanes[l].stepEnd : end;
    }
    if (cycles)
        *cycles = forced;
    return out;
}

} // namespace npuscope::query

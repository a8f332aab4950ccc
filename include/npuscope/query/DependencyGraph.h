// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/CollectiveInstances.h"
#include "npuscope/query/StringTable.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace npuscope::query {

// Who waits for whom in a step, on every rank (docs/metrics.md, "Dependency graph, critical path and what-if"): each
// rank's device tasks (kernels, and its communication ops from comm_op) in a lane, each task following the task of its
// lane that ended last before it started (its predecessor: stream order, whichever stream it was on), and the
// communication ops of one instance (query::CollectiveInstances) joined: a collective completes once its last member
// has arrived, a receive once its send moves the data (a send waits for its receiver only where the receiver's arrival
// explains the send's wait). Times are aligned across hosts by the instances' clock offsets. The same graph gives the
// critical path (query::CriticalPath) and the what-if replay (replay below).

enum class DepKind : uint8_t { Compute, Communication };

// How a communication task's moment of moving data depends on the other members of its instance.
enum class DepBinding : uint8_t {
    None, // a communication task with no instance (an HCCL kernel of a rank without comm_op rows): its own times
    Collective, // every member moves when the last has arrived (also a send that waited for its receiver)
    EagerSend, // a send that moves on its own
    Receive, // a receive: moves once its own wait is over and its send moves
};

// One member of an instance as the binding rule reads it: aligned ns; absent members (no start time, or not in the
// step's lanes) take no part.
struct MemberTimes {
    bool present = true;
    int64_t arrival = 0; // start
    int64_t moving = 0; // the moment it moved data: start + wait
};

// How one member waits for the others, and what reproduces its measured moment of moving (DepTask's fields).
struct MemberBinding {
    DepBinding binding = DepBinding::None;
    int64_t ownWaitNs = 0, residualNs = 0;
};

// The one rule of who waits for whom in an instance, shared by the graph (DependencyGraphBuilder), the critical path
// (CriticalPath::walk follows waitedFor) and Blame (the last arriver it follows back is lastArriver's).
namespace binding {
// The members' bindings from their measured times: a send and its receive (pair) unless the send waited for its
// receiver (then, as every collective, all members move when the last has arrived plus the least wait).
std::vector<MemberBinding> bind(bool pair, const std::vector<MemberTimes>& members);
// An instance's members as bind reads them (aligned start, start + wait; a member without a start time is absent).
std::vector<MemberTimes> timesOf(const CollectiveInstance& inst);
// The member whose arrival `member`'s moment of moving waited for, or −1 when it moved on its own account (it arrived
// last itself, an eager send, a receive whose own wait ended after its send moved). ready[m] = arrival + ownWaitNs of
// member m (as measured or replayed), sendMoving = the moment member 0 (a receive's send) moved.
int32_t waitedFor(
    const std::vector<MemberBinding>& bound, const std::vector<int64_t>& ready, int64_t sendMoving, size_t member);
// The member the instance waited for, measured (CollectiveInstance::lastArriver): a send and its receive bound as eager
// (bind): the send when the receive waited for it (waitedFor), else the receive; members that move together (a
// collective, a send that waited for its receiver): the one that waited least (the latest aligned start on ties), the
// member whose arrival plus the least wait is the latest when the clock offsets are right, read from its own clock.
size_t lastArriver(const CollectiveInstance& inst);
} // namespace binding

struct DepTask {
    int64_t start = 0, end = 0; // aligned ns (the rank's clock minus its host's estimated offset)
    int32_t name = -1; // DependencyGraph::strings: kernel Name, or the comm op's key
    int32_t type = -1; // DependencyGraph::strings: kernel Type, or the comm op's type
    DepKind kind = DepKind::Compute;
    DepBinding binding = DepBinding::None;
    int32_t pred = -1; // index in the lane of the task it followed; −1: the step's start
    int32_t instance = -1; // index into DependencyGraph::set.instances (communication ops from comm_op)
    int32_t member = -1; // index into that instance's members
    // Communication: the wait it would have had had it arrived last (collective: the instance's least wait; a receive
    // bound by its send: the least of its and the send's wait; otherwise its own wait), the residual that makes the
    // measured moment of moving reproduce exactly (clock residuals, unexplained waits; ns), the data transfer (ns) and
    // the time from the moment of moving to the end (transit and idle, ns).
    int64_t ownWaitNs = 0, residualNs = 0, transitNs = 0, postNs = 0;
    int64_t movingNs = 0; // aligned moment the data moved: start + wait
};

struct DepLane {
    int64_t rank = 0;
    int64_t offsetNs = 0; // the rank's host clock offset: written time = aligned time + offsetNs
    int64_t stepStart = 0; // aligned: the first task's start − Preparing (the step's start on the host)
    int64_t stepEnd = 0; // aligned: the latest task end
    int64_t preparingNs = 0; // step_trace Preparing (0 when not written)
    bool kernels = false; // the rank's kernels are known; else the lane holds its communication ops only
    std::vector<DepTask> tasks; // by start, then end
    int64_t wallNs() const { return stepEnd - stepStart; }
};

struct DepStep {
    int64_t step = 0;
    std::vector<DepLane> lanes; // ascending rank
    // Per instance of this step (index into DependencyGraph::set.instances minus firstInstance), per member: its lane
    // and task index (−1, −1 when the member's rank is not in the step).
    size_t firstInstance = 0, instanceCount = 0;
    std::vector<std::vector<std::pair<int32_t, int32_t>>> memberAt;
};

struct DependencyGraph {
    CollectiveSet set;
    StringTable strings;
    std::vector<DepStep> steps; // ascending step
    const DepStep* stepOf(int64_t step) const;
};

// Times of one step's tasks: measured (DependencyGraph as built) or replayed with changes.
struct StepTiming {
    std::vector<std::vector<int64_t>> start, end, moving; // [lane][task], aligned ns
    std::vector<int64_t> stepStart, stepEnd; // [lane]
    int64_t wallNs(size_t lane) const { return stepEnd[lane] - stepStart[lane]; }
    size_t slowestLane() const;
    static StepTiming measured(const DepStep& step);
};

// What a replay changes (query::WhatIf builds it from the user's changes): per task a duration factor (compute) or a
// transit factor (communication), per lane whether its host gaps shrink to the ideal gap.
struct ReplayChanges {
    std::vector<std::vector<double>> durFactor; // [lane][task]; empty: 1 everywhere
    std::vector<std::vector<double>> transitFactor; // [lane][task]; empty: 1 everywhere
    std::vector<double> gapFactor; // [lane]: gaps of lanes without kernels (their compute) scale by this; empty: 1
    std::vector<bool> idealHost; // [lane]: gaps between tasks (not the leading Preparing) at most idealGapNs
    int64_t idealGapNs = 0;
};

class DependencyGraphBuilder {
public:
    // The graph of every step (or of one). Reads comm_op through CollectiveInstances, the kernel rows (kernel, or
    // step_kernel for ranks whose kernel files are not imported: load::Loader::loadStepKernels) and step_trace's
    // Preparing. Takes db.lock() for its SQL; any thread.
    static DependencyGraph build(model::Database& db, std::optional<int64_t> step = {});
    static DependencyGraph build(model::Database& db, CollectiveSet set, std::optional<int64_t> step = {});

    // The steps a graph can have: those of step_trace rows and of comm_op rows, ascending. Takes db.lock().
    static std::vector<int64_t> steps(model::Database& db);

    // The step replayed on its graph: every task starts when its predecessor ends plus its gap (changed as asked),
    // communication moves when its instance allows and ends its post time (transit changed as asked) later. With no
    // changes the measured times come back (up to ns rounding). When the graph has a cycle (ranks that ran two
    // instances in opposite orders) the tasks left are replayed in measured order; cycles counts them.
    static StepTiming replay(const DepStep& step, const ReplayChanges& changes, int64_t* cycles = nullptr);

    // The median gap between a task and its predecessor over the lanes with kernels, the ideal gap of a host=ideal
    // change (0 without any).
    static int64_t medianGapNs(const DepStep& step);
};

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/RankTimeline.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query::advice {

// A time span [begin, end) in ns.
struct Span {
    int64_t begin = 0, end = 0;
    int64_t length() const { return end - begin; }
};

// One slice of a timeline with its name.
struct TimelineTask {
    int64_t begin = 0, end = 0;
    int64_t id = 0; // slice.id
    std::string name;
    int track = -1;
};

// The host side that launched a device task: the latest-ending source of its HostToDevice / async_npu flows.
struct TaskLaunch {
    TimelineTask event; // the host launch event (CANN API or aten op)
    // The Python thread's slice (async_npu source) when there is one: the host thread whose idle time counts.
    std::optional<TimelineTask> hostOp;
};

// One rank's loaded timeline sorted into what the timeline advice rules read (docs/metrics.md, "Advice rules",
// "Timeline rules"): device tasks, HCCL ops, the device's busy time and the launch flows. Internal to the advice
// rules; built under the database lock, then read-only.
class TimelineDigest {
public:
    // The ranks whose timeline is imported, with their timelines (TimelineQuery::loadRank). Caller holds the lock.
    static std::vector<TimelineDigest> loadAll(model::Database& db);

    int64_t rank() const { return m_tl->rank; }
    const RankTimeline& timeline() const { return *m_tl; }
    // Depth-0 slices of the Ascend Hardware streams, by start.
    const std::vector<TimelineTask>& deviceTasks() const { return m_deviceTasks; }
    // Depth-0 slices of the HCCL op threads (Group N Communication), by start.
    const std::vector<TimelineTask>& hcclOps() const { return m_hcclOps; }
    // The union of compute and communication, by start: the Overlap Analysis Computing and Communication threads
    // when the timeline has them (busyFromOverlap), else every device task and HCCL op.
    const std::vector<Span>& busy() const { return m_busy; }
    bool busyFromOverlap() const { return m_busyFromOverlap; }
    // Starts of the host's step markers (slices named ProfilerStep#N), ascending.
    const std::vector<int64_t>& stepStarts() const { return m_stepStarts; }
    // True when a step marker starts in (from, to]: the gap holds a step's Preparing.
    bool holdsStepStart(int64_t from, int64_t to) const;
    // The device task or HCCL op starting at t (within 1 µs), the earliest such.
    const TimelineTask* taskStartingAt(int64_t t) const;
    // The last device task or HCCL op ending at or before t, nullptr when none.
    const TimelineTask* taskEndingBefore(int64_t t) const;
    // The host launch of a task from its flows, nullopt without a HostToDevice / async_npu flow into it.
    std::optional<TaskLaunch> launchOf(const TimelineTask& task) const;
    // How long [from, to) is covered by slices of the track (any depth) that do not span all of [from, gapEnd): the
    // enclosing step and loop markers say nothing about whether the host was busy.
    int64_t hostCoverage(int track, int64_t from, int64_t to, int64_t gapEnd) const;
    // Busy time within [from, to).
    int64_t busyWithin(int64_t from, int64_t to) const;
    // The longest stretch of [from, to) between two busy spans (the idle time before the first busy span, a step's
    // Preparing, does not count); length 0 when none.
    Span longestIdleWithin(int64_t from, int64_t to) const;
    // Where the device began working in the step holding t: the first busy time after the latest step marker start
    // at or before t (after the step's Preparing), else the first busy time; t when none is before it.
    int64_t stepWorkStart(int64_t t) const;
    // Σ overlap of device tasks with [from, to), at most to − from.
    int64_t deviceWorkWithin(int64_t from, int64_t to) const;

private:
    RankTimelinePtr m_tl;
    std::vector<TimelineTask> m_deviceTasks, m_hcclOps;
    std::vector<Span> m_busy;
    std::vector<int64_t> m_stepStarts;
    bool m_busyFromOverlap = false;
};

} // namespace npuscope::query::advice

// SPDX-License-Identifier: Apache-2.0
// What the two halves of KinetoTraceImporter share: the events it keeps from a Kineto trace (Event, Step, FlowPoint,
// MemorySample), the JSON helpers both read with, and the import itself (Import), which KinetoTraceImporter.cpp runs
// and fills from the trace's events and KinetoTraceRows.cpp writes to the model. Private to src/io/kineto.
#pragma once

#include "npuscope/io/parse/FlowTracker.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/model/Rows.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace npuscope::io::kineto_detail {

using Json = nlohmann::json;

enum class Kind : uint8_t { CpuOp, Runtime, Kernel, Memcpy, Memset, Other };

struct Event {
    int64_t pid = 0, tid = 0, ts = 0, dur = 0;
    Kind kind = Kind::Other;
    std::string name, cat, args;
    int64_t correlation = -1; // args.correlation of runtime calls and GPU activities
    std::optional<int64_t> device, stream;
    std::optional<std::string> collective, group; // NCCL kernels of newer traces: Collective name, Process Group Name
    int64_t ordinal = 0; // 1-based position among the file's events
    int64_t depth = 0;
    int32_t parent = -1; // index into the events of the same track, by SliceTracker
    int64_t sliceId = 0;
};

struct Step {
    int64_t number = 0, ts = 0, end = 0;
};

// One point of a flow written as Chrome trace flow events (ph s / t / f), e.g. cat fwdbwd: forward op -> its
// backward op. The launch flows (ac2g, async_cpu_to_gpu) are not kept: they are rebuilt from correlation ids.
struct FlowPoint {
    std::string cat, name, id;
    FlowTracker::Phase phase = FlowTracker::Phase::Start;
    int64_t pid = 0, tid = 0, ts = 0;
    int64_t ordinal = 0;
};

// A "[memory]" instant event of the caching allocator (profile_memory=True): totals after an allocation (Bytes > 0)
// or a free (Bytes < 0) on one device.
struct MemorySample {
    int64_t ts = 0;
    int64_t deviceType = 0, deviceId = -1;
    std::optional<int64_t> allocated, reserved; // bytes
    int64_t ordinal = 0;
};

// JSON helpers (KinetoTraceImporter.cpp).
std::optional<int64_t> intOf(const Json& v);
std::optional<std::string> textOf(const Json& object, const char* key);
std::vector<int64_t> groupRanksOf(const Json& v);

class Import {
public:
    explicit Import(ImportContext& ctx)
        : m_ctx(ctx)
        , m_w(ctx.writer())
    {
    }

    bool run();

private:
    // Reading the trace's events (KinetoTraceImporter.cpp).
    void take(Json& e, int64_t ordinal);
    void takeFlowPoint(const Json& e, const std::string& ph, std::optional<int64_t> pid, std::optional<int64_t> tid,
        std::optional<int64_t> ts, int64_t ordinal);
    void takeInstant(const Json& e, std::optional<int64_t> ts, int64_t ordinal);
    void takeMetadata(const Json& e, std::optional<int64_t> pid, std::optional<int64_t> tid);

    // Writing the model's rows (KinetoTraceRows.cpp).
    void writeSlices();
    std::optional<int64_t> sliceAt(int64_t pid, int64_t tid, int64_t ts) const;
    void writeFlowPoints();
    void writeMemory();
    std::optional<int64_t> stepAt(int64_t ts) const;
    void write(const Json& top);
    std::optional<std::string> launchingOp(const Event& runtime) const;
    void writeCommOp(const Event& ev, std::optional<int64_t> step);
    void writeRank(const Json& top);

    ImportContext& m_ctx;
    model::ModelWriter& m_w;
    std::vector<Event> m_events;
    std::vector<Step> m_steps;
    struct ProcessGroup {
        std::optional<std::string> desc; // pg_desc / Process Group Description
        std::vector<int64_t> ranks; // global ranks, ascending
    };
    std::map<std::string, ProcessGroup> m_groups; // by pg_name / Process Group Name
    std::map<int64_t, model::ProcessRow> m_processes;
    std::map<std::pair<int64_t, int64_t>, model::ThreadRow> m_threads;
    int64_t m_skipped = 0;
    std::map<std::pair<int64_t, int64_t>, std::vector<int32_t>> m_tracks; // (pid, tid) -> events by start
    std::vector<FlowPoint> m_flowPoints;
    int64_t m_skippedFlowPoints = 0;
    std::vector<MemorySample> m_memory;
    int64_t m_skippedMemory = 0;
};

} // namespace npuscope::io::kineto_detail

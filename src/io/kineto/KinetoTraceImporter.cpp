// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/kineto/KinetoTraceImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/GroupHash.h"
#include "npuscope/io/kineto/GzipStreamBuf.h"
#include "npuscope/io/kineto/KinetoKernelClass.h"
#include "npuscope/io/parse/FlowTracker.h"
#include "npuscope/io/parse/MemoryPeakTracker.h"
#include "npuscope/io/parse/SliceTracker.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <istream>
#include <map>
#include <numeric>
#include <unordered_map>

namespace npuscope::io {

namespace {

using Json = nlohmann::json;

// Builds one DOM per element of the top-level "traceEvents" array and hands it to onEvent, so memory stays one
// event deep; every other top-level key is kept whole in top (a few KB: device properties, distributed info).
// "ts" and "dur" of an event keep their number text when it has a fraction, so µs -> ns never goes through a double.
class EventReader : public nlohmann::json_sax<Json> {
public:
    std::function<bool(Json&)> onEvent;
    Json top = Json::object();
    std::string error;

    bool null() override { return add(Json()); }
    bool boolean(bool v) override { return add(Json(v)); }
    bool number_integer(number_integer_t v) override { return add(Json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return add(Json(v)); }
    bool number_float(number_float_t v, const string_t& text) override
    {
        if (m_stack.size() == 3 && m_stack.back() == &m_event && (m_key == "ts" || m_key == "dur"))
            return add(Json(text));
        return add(Json(v));
    }
    bool string(string_t& v) override { return add(Json(std::move(v))); }
    bool binary(binary_t&) override { return add(Json()); }
    bool start_object(std::size_t) override
    {
        if (m_stack.empty()) {
            m_stack.push_back(&top);
            return true;
        }
        if (m_stack.size() == 2 && m_stack.back() == nullptr) {
            m_event = Json::object();
            m_stack.push_back(&m_event);
            return true;
        }
        return open(Json::object());
    }
    bool key(string_t& k) override
    {
        m_key = k;
        return true;
    }
    bool end_object() override
    {
        const Json* closed = m_stack.back();
        m_stack.pop_back();
        if (closed == &m_event && m_stack.size() == 2 && m_stack.back() == nullptr)
            return onEvent(m_event);
        return true;
    }
    bool start_array(std::size_t) override
    {
        if (m_stack.size() == 1 && m_key == "traceEvents") {
            m_stack.push_back(nullptr); // the events: delivered one by one, not kept
            return true;
        }
        return open(Json::array());
    }
    bool end_array() override
    {
        m_stack.pop_back();
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override
    {
        error = "JSON syntax error near decompressed byte " + std::to_string(position) + ": " + e.what();
        return false;
    }

private:
    // Adds v to the innermost open container; returns where it went (nullptr inside the events array).
    Json* insert(Json&& v)
    {
        if (m_stack.empty() || m_stack.back() == nullptr)
            return nullptr;
        Json& parent = *m_stack.back();
        if (parent.is_object())
            return &(parent[m_key] = std::move(v));
        parent.push_back(std::move(v));
        return &parent.back();
    }
    bool add(Json&& v)
    {
        insert(std::move(v));
        return true;
    }
    bool open(Json&& container)
    {
        m_stack.push_back(insert(std::move(container)));
        if (m_stack.back() == nullptr)
            m_stack.back() = &m_scratch; // a container directly in the events array: not an event, dropped
        return true;
    }

    std::vector<Json*> m_stack;
    std::string m_key;
    Json m_event;
    Json m_scratch = Json::array();
};

// Watches the start of a file for Kineto's top-level keys and distributedInfo.rank / world_size.
class HeaderSniffer : public nlohmann::json_sax<Json> {
public:
    bool kineto = false;
    KinetoTraceImporter::Header header;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t v) override { return number(static_cast<int64_t>(v)); }
    bool number_unsigned(number_unsigned_t v) override { return number(static_cast<int64_t>(v)); }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override
    {
        if (m_depth == 0)
            m_topObject = true;
        if (m_depth == 1)
            m_inDistributed = m_key == "distributedInfo";
        ++m_depth;
        return true;
    }
    bool key(string_t& k) override
    {
        m_key = k;
        if (m_depth == 1 && m_topObject) {
            if (k == "schemaVersion" || k == "deviceProperties" || k == "distributedInfo")
                kineto = true;
            if (k == "traceEvents")
                return false; // Kineto writes its header keys first: enough seen
        }
        return true;
    }
    bool end_object() override
    {
        --m_depth;
        if (m_depth == 1)
            m_inDistributed = false;
        return true;
    }
    bool start_array(std::size_t) override
    {
        if (m_depth == 0)
            return false; // a bare event array (trace_view.json style), not Kineto
        ++m_depth;
        return true;
    }
    bool end_array() override
    {
        --m_depth;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    bool number(int64_t v)
    {
        if (m_depth == 2 && m_inDistributed) {
            if (m_key == "rank")
                header.rank = v;
            else if (m_key == "world_size")
                header.worldSize = v;
        }
        return true;
    }

    int m_depth = 0;
    bool m_topObject = false;
    bool m_inDistributed = false;
    std::string m_key;
};

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

constexpr double kBytesPerMb = 1024.0 * 1024.0; // memory_record's MB, as torch_npu's memory_record.csv

std::optional<int64_t> intOf(const Json& v)
{
    if (v.is_number_integer())
        return v.get<int64_t>();
    return std::nullopt;
}

// A ts / dur value: an integer µs count, or the decimal text EventReader kept.
std::optional<int64_t> usOf(const Json& v)
{
    if (v.is_number_integer())
        return v.get<int64_t>() * 1000;
    if (v.is_string())
        return usToNs(v.get_ref<const std::string&>());
    if (v.is_number_float())
        return doubleToNs(v.get<double>(), 1000.0);
    return std::nullopt;
}

std::optional<std::string> textOf(const Json& object, const char* key)
{
    auto it = object.find(key);
    if (it == object.end())
        return std::nullopt;
    if (it->is_string())
        return it->get<std::string>();
    if (it->is_number_integer())
        return std::to_string(it->get<int64_t>());
    return std::nullopt;
}

// A process group's ranks as the NCCL kernels' "Process Group Ranks" arg writes them ("[0, 1]"), or pg_config's
// "ranks" array: the integers, ascending.
std::vector<int64_t> groupRanksOf(const Json& v)
{
    std::vector<int64_t> out;
    if (v.is_array()) {
        for (const auto& r : v) {
            if (auto n = intOf(r))
                out.push_back(*n);
        }
    } else if (v.is_string()) {
        const std::string& text = v.get_ref<const std::string&>();
        std::size_t i = 0;
        while (i < text.size()) {
            if (std::isdigit(static_cast<unsigned char>(text[i]))) {
                std::size_t j = i;
                while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
                    ++j;
                if (auto n = parseInt(std::string_view(text).substr(i, j - i)))
                    out.push_back(*n);
                i = j;
            } else {
                ++i;
            }
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

Kind kindOf(const std::string& cat)
{
    if (cat == "cpu_op")
        return Kind::CpuOp;
    if (cat == "cuda_runtime" || cat == "cuda_driver")
        return Kind::Runtime;
    if (cat == "kernel")
        return Kind::Kernel;
    if (cat == "gpu_memcpy")
        return Kind::Memcpy;
    if (cat == "gpu_memset")
        return Kind::Memset;
    return Kind::Other;
}

bool isGpu(Kind k) { return k == Kind::Kernel || k == Kind::Memcpy || k == Kind::Memset; }

// "ncclKernel_AllReduce_RING_LL_Sum_float" / "ncclDevKernel_SendRecv(...)" -> "AllReduce" / "SendRecv"; the
// record_param_comms "Collective name" (all_reduce, _allgather_base) when the trace has it.
std::string ncclOpOf(const Event& e)
{
    if (e.collective && !e.collective->empty())
        return *e.collective;
    const auto us = e.name.find('_');
    if (us == std::string::npos)
        return e.name;
    const auto end = e.name.find_first_of("_(<", us + 1);
    return e.name.substr(us + 1, end == std::string::npos ? std::string::npos : end - us - 1);
}

// allReduce, sendRecv, ...: the lower-camel form of Ascend's hcom_<type> op types.
std::string opTypeOf(std::string op)
{
    std::string out;
    bool upper = false;
    for (char c : op) {
        if (c == '_') {
            upper = !out.empty();
            continue;
        }
        out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    if (!out.empty())
        out[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[0])));
    return out;
}

bool isP2p(const std::string& opType)
{
    std::string lower = opType;
    std::transform(
        lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower.find("send") != std::string::npos || lower.find("recv") != std::string::npos;
}

// Total length of the union of [ts, ts + dur) intervals.
int64_t unionLength(std::vector<std::pair<int64_t, int64_t>> spans)
{
    std::sort(spans.begin(), spans.end());
    int64_t total = 0, start = 0, end = 0;
    bool open = false;
    for (const auto& [s, e] : spans) {
        if (!open || s > end) {
            if (open)
                total += end - start;
            start = s;
            end = e;
            open = true;
        } else {
            end = std::max(end, e);
        }
    }
    if (open)
        total += end - start;
    return total;
}

class Import {
public:
    explicit Import(ImportContext& ctx)
        : m_ctx(ctx)
        , m_w(ctx.writer())
    {
    }

    bool run()
    {
        GzipStreamBuf buf(m_ctx.file());
        if (!buf.isOpen()) {
            m_ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot open the file")));
            m_ctx.finish();
            return false;
        }
        std::istream in(&buf);
        EventReader reader;
        int64_t ordinal = 0;
        bool cancelled = false;
        reader.onEvent = [&](Json& e) {
            if ((++ordinal & 0xfff) == 0 && m_ctx.cancelled()) {
                cancelled = true;
                return false;
            }
            take(e, ordinal);
            return true;
        };
        const bool parsed = Json::sax_parse(in, &reader, Json::input_format_t::json, false);
        bool ok = true;
        if (cancelled) {
            m_ctx.warning(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "import cancelled")));
            ok = false;
        } else if (!buf.error().empty()) {
            m_ctx.error(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "cannot decompress the file after %1 bytes (%2); the events read before are kept"),
                    { std::to_string(buf.consumed()), buf.error() }));
            ok = false;
        } else if (!parsed) {
            m_ctx.error(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1; the events read before are kept"),
                    { reader.error.empty() ? issueText(QT_TRANSLATE_NOOP("ParseIssue", "JSON parse stopped"))
                                           : TrText(reader.error) }));
            ok = false;
        }
        if (!cancelled)
            write(reader.top);
        m_ctx.finish();
        return ok;
    }

private:
    void take(Json& e, int64_t ordinal)
    {
        if (!e.is_object())
            return;
        const auto ph = textOf(e, "ph");
        auto pidIt = e.find("pid");
        auto tidIt = e.find("tid");
        const auto pid = pidIt != e.end() ? intOf(*pidIt) : std::nullopt;
        const auto tid = tidIt != e.end() ? intOf(*tidIt) : std::nullopt;
        if (ph == "M") {
            takeMetadata(e, pid, tid);
            return;
        }
        std::optional<int64_t> ts;
        if (auto tsIt = e.find("ts"); tsIt != e.end())
            ts = usOf(*tsIt);
        if (ph == "s" || ph == "t" || ph == "f") {
            takeFlowPoint(e, *ph, pid, tid, ts, ordinal);
            return;
        }
        if (ph == "i" || ph == "I") {
            takeInstant(e, ts, ordinal);
            return;
        }
        if (ph != "X")
            return; // counters and others are not in Kineto GPU traces
        if (!pid || !tid || !ts) {
            ++m_skipped; // the profiler's own "Spans" / "Traces" markers have text pids
            return;
        }
        Event ev;
        ev.pid = *pid;
        ev.tid = *tid;
        ev.ts = *ts;
        auto durIt = e.find("dur");
        ev.dur = std::max<int64_t>(0, durIt != e.end() ? usOf(*durIt).value_or(0) : 0);
        ev.name = textOf(e, "name").value_or(std::string());
        ev.cat = textOf(e, "cat").value_or(std::string());
        ev.kind = kindOf(ev.cat);
        ev.ordinal = ordinal;
        if (auto argsIt = e.find("args"); argsIt != e.end() && argsIt->is_object()) {
            const Json& a = *argsIt;
            if (auto c = a.find("correlation"); c != a.end() && c->is_number_integer())
                ev.correlation = c->get<int64_t>();
            if (auto d = a.find("device"); d != a.end())
                ev.device = intOf(*d);
            if (auto s = a.find("stream"); s != a.end())
                ev.stream = intOf(*s);
            ev.collective = textOf(a, "Collective name");
            ev.group = textOf(a, "Process Group Name");
            if (ev.group && !m_groups.count(*ev.group)) {
                // The kernel's group membership, for traces without distributedInfo.pg_config.
                ProcessGroup g;
                g.desc = textOf(a, "Process Group Description");
                if (auto r = a.find("Process Group Ranks"); r != a.end())
                    g.ranks = groupRanksOf(*r);
                m_groups.emplace(*ev.group, std::move(g));
            }
            ev.args = a.dump();
        }
        if (ev.kind == Kind::Other && ev.cat == "user_annotation" && ev.name.rfind("ProfilerStep#", 0) == 0) {
            if (auto n = parseInt(std::string_view(ev.name).substr(13)))
                m_steps.push_back({ *n, ev.ts, ev.ts + ev.dur });
        }
        m_events.push_back(std::move(ev));
    }

    void takeFlowPoint(const Json& e, const std::string& ph, std::optional<int64_t> pid, std::optional<int64_t> tid,
        std::optional<int64_t> ts, int64_t ordinal)
    {
        FlowPoint p;
        p.cat = textOf(e, "cat").value_or(std::string());
        if (p.cat == "ac2g" || p.cat == "async_cpu_to_gpu")
            return; // launch -> GPU activity: rebuilt from the correlation ids (every activity, with its slice)
        const auto id = textOf(e, "id");
        if (!pid || !tid || !ts || !id) {
            ++m_skippedFlowPoints;
            return;
        }
        p.name = textOf(e, "name").value_or(p.cat);
        p.id = *id;
        p.phase = ph == "s" ? FlowTracker::Phase::Start
            : ph == "t"     ? FlowTracker::Phase::Step
                            : FlowTracker::Phase::End;
        p.pid = *pid;
        p.tid = *tid;
        p.ts = *ts;
        p.ordinal = ordinal;
        m_flowPoints.push_back(std::move(p));
    }

    void takeInstant(const Json& e, std::optional<int64_t> ts, int64_t ordinal)
    {
        if (textOf(e, "name") != "[memory]")
            return;
        auto argsIt = e.find("args");
        if (!ts || argsIt == e.end() || !argsIt->is_object()) {
            ++m_skippedMemory;
            return;
        }
        const Json& a = *argsIt;
        auto intArg = [&a](const char* key) -> std::optional<int64_t> {
            auto it = a.find(key);
            return it == a.end() ? std::nullopt : intOf(*it);
        };
        MemorySample m;
        m.ts = *ts;
        m.deviceType = intArg("Device Type").value_or(0);
        m.deviceId = intArg("Device Id").value_or(-1);
        m.allocated = intArg("Total Allocated");
        m.reserved = intArg("Total Reserved");
        m.ordinal = ordinal;
        m_memory.push_back(m);
    }

    void takeMetadata(const Json& e, std::optional<int64_t> pid, std::optional<int64_t> tid)
    {
        if (!pid)
            return;
        const auto name = textOf(e, "name").value_or(std::string());
        auto argsIt = e.find("args");
        if (argsIt == e.end() || !argsIt->is_object())
            return;
        const Json& a = *argsIt;
        if (name == "process_name" || name == "process_labels" || name == "process_sort_index") {
            auto& p = m_processes[*pid];
            p.rankId = m_ctx.rankId();
            p.pid = *pid;
            if (name == "process_name")
                p.name = textOf(a, "name");
            else if (name == "process_labels")
                p.label = textOf(a, "labels");
            else if (auto it = a.find("sort_index"); it != a.end())
                p.sortIndex = intOf(*it);
        } else if ((name == "thread_name" || name == "thread_sort_index") && tid) {
            auto& t = m_threads[{ *pid, *tid }];
            t.rankId = m_ctx.rankId();
            t.pid = *pid;
            t.tid = *tid;
            if (name == "thread_name")
                t.name = textOf(a, "name");
            else if (auto it = a.find("sort_index"); it != a.end())
                t.sortIndex = intOf(*it);
        }
    }

    // Nesting per (pid, tid) track and the slice rows; fills each event's depth, parent and slice id.
    void writeSlices()
    {
        std::map<std::pair<int64_t, int64_t>, std::vector<int32_t>> tracks;
        for (int32_t i = 0; i < static_cast<int32_t>(m_events.size()); ++i)
            tracks[{ m_events[i].pid, m_events[i].tid }].push_back(i);
        SliceTracker tracker;
        std::vector<model::SliceRow> rows;
        std::vector<int32_t> order;
        for (auto& [track, list] : tracks) {
            std::stable_sort(list.begin(), list.end(), [&](int32_t a, int32_t b) {
                return SliceTracker::before(m_events[a].ts, m_events[a].dur, m_events[b].ts, m_events[b].dur);
            });
            tracker.reset();
            for (int32_t i : list) {
                Event& ev = m_events[i];
                const auto placed = tracker.place(ev.ts, ev.dur);
                ev.depth = placed.depth;
                ev.parent = placed.parent < 0 ? -1 : list[placed.parent];
                model::SliceRow r;
                r.rankId = m_ctx.rankId();
                r.pid = ev.pid;
                r.tid = ev.tid;
                r.ts = ev.ts;
                r.dur = ev.dur;
                r.depth = ev.depth;
                r.nameId = m_w.intern(ev.name);
                if (!ev.cat.empty())
                    r.catId = m_w.intern(ev.cat);
                if (!ev.args.empty())
                    r.args = ev.args;
                rows.push_back(std::move(r));
                order.push_back(i);
            }
            if (!m_threads.count(track)) {
                auto& t = m_threads[track];
                t.rankId = m_ctx.rankId();
                t.pid = track.first;
                t.tid = track.second;
            }
            if (!m_processes.count(track.first)) {
                auto& p = m_processes[track.first];
                p.rankId = m_ctx.rankId();
                p.pid = track.first;
            }
        }
        for (const auto& [pid, p] : m_processes)
            m_w.upsertProcess(p);
        for (const auto& [key, t] : m_threads)
            m_w.upsertThread(t);
        std::vector<int64_t> ids(rows.size());
        m_w.addSlices(rows.data(), rows.size(), ids.data());
        for (std::size_t k = 0; k < order.size(); ++k)
            m_events[order[k]].sliceId = ids[k];
        m_tracks = std::move(tracks);
    }

    // The innermost slice of the track (pid, tid) holding ts (a zero-length slice holds its own ts), as the timeline
    // importers bind a flow point; nullopt when none does.
    std::optional<int64_t> sliceAt(int64_t pid, int64_t tid, int64_t ts) const
    {
        const auto track = m_tracks.find({ pid, tid });
        if (track == m_tracks.end())
            return std::nullopt;
        const auto& list = track->second;
        auto it = std::upper_bound(
            list.begin(), list.end(), ts, [this](int64_t t, int32_t i) { return t < m_events[i].ts; });
        if (it == list.begin())
            return std::nullopt;
        for (int32_t i = *(it - 1); i >= 0; i = m_events[i].parent) {
            const Event& ev = m_events[i];
            if (ts < ev.ts + ev.dur || (ev.dur == 0 && ts == ev.ts))
                return ev.sliceId;
        }
        return std::nullopt;
    }

    // The flow events of the trace (fwdbwd, ...), paired by io::FlowTracker per category and id.
    void writeFlowPoints()
    {
        std::stable_sort(m_flowPoints.begin(), m_flowPoints.end(), [](const FlowPoint& a, const FlowPoint& b) {
            if (a.cat != b.cat)
                return a.cat < b.cat;
            if (a.id != b.id)
                return a.id < b.id;
            if (a.ts != b.ts)
                return a.ts < b.ts;
            return a.ordinal < b.ordinal;
        });
        FlowTracker pairing;
        std::vector<FlowTracker::Phase> phases;
        std::vector<model::FlowRow> rows;
        for (std::size_t begin = 0; begin < m_flowPoints.size();) {
            std::size_t end = begin + 1;
            while (end < m_flowPoints.size() && m_flowPoints[end].cat == m_flowPoints[begin].cat
                && m_flowPoints[end].id == m_flowPoints[begin].id)
                ++end;
            phases.clear();
            for (std::size_t k = begin; k < end; ++k)
                phases.push_back(m_flowPoints[k].phase);
            for (const FlowTracker::Arrow& a : pairing.pair(phases, FlowTracker::Unpaired::Keep)) {
                const FlowPoint& any = m_flowPoints[begin + static_cast<std::size_t>(a.src >= 0 ? a.src : a.dst)];
                model::FlowRow f;
                f.rankId = m_ctx.rankId();
                f.cat = any.cat;
                f.name = any.name;
                f.flowId = any.id;
                if (a.src >= 0) {
                    const FlowPoint& p = m_flowPoints[begin + static_cast<std::size_t>(a.src)];
                    f.srcPid = p.pid;
                    f.srcTid = p.tid;
                    f.srcTs = p.ts;
                    f.srcSliceId = sliceAt(p.pid, p.tid, p.ts);
                }
                if (a.dst >= 0) {
                    const FlowPoint& p = m_flowPoints[begin + static_cast<std::size_t>(a.dst)];
                    f.dstPid = p.pid;
                    f.dstTid = p.tid;
                    f.dstTs = p.ts;
                    f.dstSliceId = sliceAt(p.pid, p.tid, p.ts);
                }
                rows.push_back(std::move(f));
            }
            begin = end;
        }
        m_w.addFlows(rows.data(), rows.size());
        if (m_skippedFlowPoints > 0)
            m_ctx.warning(std::nullopt,
                issueText(
                    QT_TRANSLATE_NOOP("ParseIssue",
                        "%1 flow events (ph s / t / f) without an integer pid / tid, a ts or an id are not imported"),
                    { std::to_string(m_skippedFlowPoints) }));
    }

    // "[memory]" samples of the GPUs -> memory_record (component PTA: PyTorch's caching allocator, the layer
    // torch_npu's PTA rows describe; docs/schema.md) and their memory_peak rows. CPU samples (Device Type 0) are
    // counted, not imported.
    void writeMemory()
    {
        std::stable_sort(
            m_memory.begin(), m_memory.end(), [](const MemorySample& a, const MemorySample& b) { return a.ts < b.ts; });
        MemoryPeakTracker peaks;
        int64_t cpu = 0;
        for (const MemorySample& m : m_memory) {
            if (m.deviceType == 0 || m.deviceId < 0) {
                ++cpu;
                continue;
            }
            model::MemoryRecordRow r;
            r.rankId = m_ctx.rankId();
            r.component = "PTA";
            r.ts = m.ts;
            if (m.allocated)
                r.allocatedMb = static_cast<double>(*m.allocated) / kBytesPerMb;
            if (m.reserved)
                r.reservedMb = static_cast<double>(*m.reserved) / kBytesPerMb;
            r.device = "GPU:" + std::to_string(m.deviceId);
            m_w.addMemoryRecord(r);
            peaks.add(r);
        }
        if (static_cast<int64_t>(m_memory.size()) > cpu)
            peaks.write(m_w, m_ctx.rankId());
        if (cpu > 0)
            m_ctx.info(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "%1 [memory] events of the CPU (Device Type 0) are not imported; the GPU's are "
                              "memory_record rows"),
                    { std::to_string(cpu) }));
        if (m_skippedMemory > 0)
            m_ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 [memory] events without a ts or args are not imported"),
                    { std::to_string(m_skippedMemory) }));
    }

    // The step whose ProfilerStep range holds ts; nullopt outside every range.
    std::optional<int64_t> stepAt(int64_t ts) const
    {
        auto it
            = std::upper_bound(m_steps.begin(), m_steps.end(), ts, [](int64_t t, const Step& s) { return t < s.ts; });
        while (it != m_steps.begin()) {
            --it;
            if (ts < it->end || (it->end == it->ts && ts == it->ts))
                return it->number;
            if (it->end <= ts)
                break;
        }
        return std::nullopt;
    }

    void write(const Json& top)
    {
        std::sort(m_steps.begin(), m_steps.end(), [](const Step& a, const Step& b) { return a.ts < b.ts; });
        writeRank(top);
        writeSlices();
        writeFlowPoints();
        writeMemory();

        std::unordered_map<int64_t, int32_t> launches; // correlation -> runtime event
        for (int32_t i = 0; i < static_cast<int32_t>(m_events.size()); ++i) {
            if (m_events[i].kind == Kind::Runtime && m_events[i].correlation >= 0)
                launches.emplace(m_events[i].correlation, i);
        }
        const bool hasSteps = !m_steps.empty();
        struct Busy {
            std::vector<std::pair<int64_t, int64_t>> compute, comm;
            int64_t start = INT64_MAX, end = INT64_MIN;
        };
        std::map<std::optional<int64_t>, Busy> perStep;
        for (const auto& s : m_steps)
            perStep[s.number];
        if (!hasSteps)
            perStep[std::nullopt];
        std::vector<model::FlowRow> flows;
        int64_t outside = 0, unlaunched = 0;
        for (const Event& ev : m_events) {
            if (!isGpu(ev.kind))
                continue;
            const auto launch = launches.find(ev.correlation);
            const Event* runtime = launch == launches.end() ? nullptr : &m_events[launch->second];
            std::optional<int64_t> step;
            if (hasSteps) {
                step = runtime ? stepAt(runtime->ts) : std::nullopt;
                if (!step)
                    ++(runtime ? outside : unlaunched);
            }
            const std::string_view core = ev.kind == Kind::Memcpy ? KinetoKernelClass::kMemcpy
                : ev.kind == Kind::Memset                         ? KinetoKernelClass::kMemset
                                                                  : KinetoKernelClass::ofKernel(ev.name);
            model::KernelRow k;
            k.rankId = m_ctx.rankId();
            k.deviceId = ev.device;
            k.step = step;
            k.streamId = ev.stream;
            k.name = ev.name;
            k.type = runtime ? launchingOp(*runtime) : std::nullopt;
            k.acceleratorCore = std::string(core);
            k.ts = ev.ts;
            k.dur = ev.dur;
            k.sourceLine = ev.ordinal;
            m_w.addKernel(k);
            const bool nccl = core == KinetoKernelClass::kNccl;
            if (nccl)
                writeCommOp(ev, step);
            if (!hasSteps || step) {
                Busy& b = perStep[step];
                (nccl ? b.comm : b.compute).emplace_back(ev.ts, ev.ts + ev.dur);
                b.start = std::min(b.start, ev.ts);
                b.end = std::max(b.end, ev.ts + ev.dur);
            }
            if (runtime) {
                model::FlowRow f;
                f.rankId = m_ctx.rankId();
                f.cat = "ac2g";
                f.name = "ac2g";
                f.flowId = std::to_string(ev.correlation);
                f.srcPid = runtime->pid;
                f.srcTid = runtime->tid;
                f.srcTs = runtime->ts;
                f.srcSliceId = runtime->sliceId;
                f.dstPid = ev.pid;
                f.dstTid = ev.tid;
                f.dstTs = ev.ts;
                f.dstSliceId = ev.sliceId;
                flows.push_back(std::move(f));
            }
        }
        m_w.addFlows(flows.data(), flows.size());
        int64_t line = 0;
        for (auto& [step, b] : perStep) {
            const int64_t computing = unionLength(b.compute);
            const int64_t communication = unionLength(b.comm);
            auto all = b.compute;
            all.insert(all.end(), b.comm.begin(), b.comm.end());
            const int64_t busy = unionLength(std::move(all));
            const int64_t window = b.end >= b.start ? b.end - b.start : 0;
            model::StepTraceRow r;
            r.rankId = m_ctx.rankId();
            r.step = step;
            r.computing = computing;
            r.overlapped = computing + communication - busy;
            r.communication = communication;
            r.communicationNotOverlapped = communication - *r.overlapped;
            r.free = window - busy;
            r.sourceLine = ++line;
            m_w.addStepTrace(r);
        }
        if (outside > 0)
            m_ctx.info(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "%1 GPU activities were launched outside every ProfilerStep range; they are kernels "
                              "without a step and in no step's breakdown"),
                    { std::to_string(outside) }));
        if (unlaunched > 0)
            m_ctx.info(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "%1 GPU activities have no runtime call with their correlation id in the trace; they are "
                              "kernels without a step and in no step's breakdown"),
                    { std::to_string(unlaunched) }));
        if (m_skipped > 0)
            m_ctx.info(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "%1 complete events without an integer pid / tid or a ts (the profiler's own Spans / "
                              "Traces markers) are not on the timeline"),
                    { std::to_string(m_skipped) }));
    }

    // The innermost cpu_op around a runtime call on its thread (aten::mm for a GEMM launch).
    std::optional<std::string> launchingOp(const Event& runtime) const
    {
        for (int32_t p = runtime.parent; p >= 0; p = m_events[p].parent) {
            if (m_events[p].kind == Kind::CpuOp)
                return m_events[p].name;
        }
        return std::nullopt;
    }

    void writeCommOp(const Event& ev, std::optional<int64_t> step)
    {
        const std::string op = ncclOpOf(ev);
        model::CommOpRow c;
        c.rankId = m_ctx.rankId();
        c.step = step;
        c.opType = opTypeOf(op);
        c.kind = isP2p(*c.opType) ? "p2p" : "collective";
        c.opName = "nccl_" + *c.opType + "_" + std::to_string(ev.correlation);
        // The group is named as Ascend ops name theirs: the double hash of the raw group name (here the process
        // group's pg_name), so that its membership (parallel_group rows, written with the rank) resolves to it.
        if (ev.group)
            c.groupHash = groupDoubleHashText(*ev.group);
        c.opKey = c.groupHash ? c.opName + "@" + *c.groupHash : c.opName;
        c.startNs = ev.ts;
        c.elapseNs = ev.dur;
        m_w.addCommOp(c);
    }

    void writeRank(const Json& top)
    {
        model::RankRow row;
        row.rankId = m_ctx.rankId();
        row.framework = "pytorch_gpu";
        std::optional<int64_t> device;
        for (const auto& ev : m_events) {
            if (isGpu(ev.kind) && ev.device) {
                device = ev.device;
                break;
            }
        }
        row.deviceId = device;
        if (auto d = top.find("distributedInfo"); d != top.end() && d->is_object()) {
            if (auto ws = d->find("world_size"); ws != d->end())
                row.worldSize = intOf(*ws);
            if (auto v = textOf(*d, "backend"))
                m_w.addRankInfo(m_ctx.rankId(), "kineto.backend", *v);
            if (auto v = textOf(*d, "nccl_version"))
                m_w.addRankInfo(m_ctx.rankId(), "kineto.nccl_version", *v);
            // Process groups (newer PyTorch): pg_name, pg_desc and the global ranks; they win over the kernels' args.
            if (auto pgs = d->find("pg_config"); pgs != d->end() && pgs->is_array()) {
                for (const auto& pg : *pgs) {
                    if (!pg.is_object())
                        continue;
                    const auto name = textOf(pg, "pg_name");
                    if (!name)
                        continue;
                    ProcessGroup g;
                    g.desc = textOf(pg, "pg_desc");
                    if (auto r = pg.find("ranks"); r != pg.end())
                        g.ranks = groupRanksOf(*r);
                    m_groups[*name] = std::move(g);
                }
            }
        }
        for (const auto& [name, g] : m_groups) {
            model::ParallelGroupRow pg;
            pg.rankId = m_ctx.rankId();
            pg.rawName = name;
            // "undefined" is what PyTorch writes for a group created without a description.
            if (g.desc && !g.desc->empty() && *g.desc != "undefined")
                pg.name = g.desc;
            pg.globalRanks = g.ranks;
            m_w.addParallelGroup(pg);
        }
        if (auto v = textOf(top, "schemaVersion"))
            m_w.addRankInfo(m_ctx.rankId(), "kineto.schema_version", *v);
        if (auto props = top.find("deviceProperties"); props != top.end() && props->is_array()) {
            for (const auto& p : *props) {
                if (!p.is_object())
                    continue;
                const auto id = p.find("id") != p.end() ? intOf(p["id"]) : std::nullopt;
                if (id == device || (!device && id == 0)) {
                    if (auto v = textOf(p, "name"))
                        m_w.addRankInfo(m_ctx.rankId(), "kineto.device_name", *v);
                    if (auto v = textOf(p, "totalGlobalMem"))
                        m_w.addRankInfo(m_ctx.rankId(), "kineto.device_memory_bytes", *v);
                }
            }
        }
        m_w.updateRank(row);
    }

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

} // namespace

std::optional<KinetoTraceImporter::Header> KinetoTraceImporter::sniff(const std::string& path, std::size_t prefixBytes)
{
    GzipStreamBuf buf(path);
    if (!buf.isOpen())
        return std::nullopt;
    std::string prefix(prefixBytes, '\0');
    std::istream in(&buf);
    in.read(prefix.data(), static_cast<std::streamsize>(prefixBytes));
    prefix.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
    HeaderSniffer sniffer;
    Json::sax_parse(prefix.begin(), prefix.end(), &sniffer, Json::input_format_t::json, false);
    if (!sniffer.kineto)
        return std::nullopt;
    return sniffer.header;
}

bool KinetoTraceImporter::run(ImportContext& ctx) { return Import(ctx).run(); }

} // namespace npuscope::io

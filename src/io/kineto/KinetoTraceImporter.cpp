// SPDX-License-Identifier: Apache-2.0
// KinetoTraceImporter's reading half: sniff (HeaderSniffer: Kineto's top-level keys and distributedInfo in the first
// bytes), and Import::run, which streams the decompressed trace through EventReader one event at a time and keeps
// what the model needs (complete events, flow points, [memory] samples, process / thread metadata, ProfilerStep
// ranges, process groups). What the kept events become is in KinetoTraceRows.cpp.
#include "npuscope/io/kineto/KinetoTraceImporter.h"

#include "KinetoParts.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/kineto/GzipStreamBuf.h"
#include "npuscope/io/parse/PeekSax.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <istream>

namespace npuscope::io {

namespace kineto_detail {

namespace {

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
class HeaderSniffer : public PeekSax {
public:
    bool kineto = false;
    KinetoTraceImporter::Header header;

    bool number_integer(number_integer_t v) override { return number(static_cast<int64_t>(v)); }
    bool number_unsigned(number_unsigned_t v) override { return number(static_cast<int64_t>(v)); }
    bool start_object(std::size_t n) override
    {
        if (depth() == 0)
            m_topObject = true;
        if (depth() == 1)
            m_inDistributed = m_key == "distributedInfo";
        return PeekSax::start_object(n);
    }
    bool key(string_t& k) override
    {
        m_key = k;
        if (depth() == 1 && m_topObject) {
            if (k == "schemaVersion" || k == "deviceProperties" || k == "distributedInfo")
                kineto = true;
            if (k == "traceEvents")
                return false; // Kineto writes its header keys first: enough seen
        }
        return true;
    }
    bool end_object() override
    {
        PeekSax::end_object();
        if (depth() == 1)
            m_inDistributed = false;
        return true;
    }
    bool start_array(std::size_t n) override
    {
        if (depth() == 0)
            return false; // a bare event array (trace_view.json style), not Kineto
        return PeekSax::start_array(n);
    }

private:
    bool number(int64_t v)
    {
        if (depth() == 2 && m_inDistributed) {
            if (m_key == "rank")
                header.rank = v;
            else if (m_key == "world_size")
                header.worldSize = v;
        }
        return true;
    }

    bool m_topObject = false;
    bool m_inDistributed = false;
    std::string m_key;
};

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

} // namespace

std::optional<int64_t> intOf(const Json& v)
{
    if (v.is_number_integer())
        return v.get<int64_t>();
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

bool Import::run()
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

void Import::take(Json& e, int64_t ordinal)
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

void Import::takeFlowPoint(const Json& e, const std::string& ph, std::optional<int64_t> pid, std::optional<int64_t> tid,
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
    p.phase = ph == "s" ? FlowTracker::Phase::Start : ph == "t" ? FlowTracker::Phase::Step : FlowTracker::Phase::End;
    p.pid = *pid;
    p.tid = *tid;
    p.ts = *ts;
    p.ordinal = ordinal;
    m_flowPoints.push_back(std::move(p));
}

void Import::takeInstant(const Json& e, std::optional<int64_t> ts, int64_t ordinal)
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

void Import::takeMetadata(const Json& e, std::optional<int64_t> pid, std::optional<int64_t> tid)
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

} // namespace kineto_detail

using namespace kineto_detail;

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

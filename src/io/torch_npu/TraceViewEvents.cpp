// SPDX-License-Identifier: Apache-2.0
// What each kind of trace event adds to a block's result: the value conversions (decimal µs to ns exactly, ids,
// scalar text), BlockBuilder::endEvent() dispatching on ph, and the handlers of slices (X), counters (C), flow points
// (s, t, f) and metadata (M), with the warnings for the events they skip.
#include "TraceViewParts.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/EnumNames.h"
#include "npuscope/core/TranslationMarker.h"

#include <charconv>

namespace npuscope::io::trace_view {

namespace {

std::string_view kindName(Kind k)
{
    static constexpr EnumName<Kind> kNames[] { { Kind::None, "missing" }, { Kind::Int, "number" },
        { Kind::Uint, "number" }, { Kind::Float, "number" }, { Kind::String, "string" }, { Kind::Bool, "boolean" },
        { Kind::Null, "null" }, { Kind::Compound, "object/array" } };
    return nameOf(kNames, k, "missing");
}

// kindName as an import problem's word ("missing", "number", ...), translated in the GUI.
TrText kindText(Kind k)
{
    switch (k) {
    case Kind::None:
        return issueText(QT_TRANSLATE_NOOP("ParseIssue", "missing"));
    case Kind::Int:
    case Kind::Uint:
    case Kind::Float:
        return issueText(QT_TRANSLATE_NOOP("ParseIssue", "number"));
    case Kind::String:
        return issueText(QT_TRANSLATE_NOOP("ParseIssue", "string"));
    case Kind::Bool:
        return issueText(QT_TRANSLATE_NOOP("ParseIssue", "boolean"));
    case Kind::Null:
        return issueText(QT_TRANSLATE_NOOP("ParseIssue", "null"));
    case Kind::Compound:
        return issueText(QT_TRANSLATE_NOOP("ParseIssue", "object/array"));
    }
    return TrText(std::string(kindName(k)));
}

// The common shape of trace times, "1736408883688177.930" or 145.57: up to 16 integer digits and
// up to 3 decimals, converted without the general parser. Anything else (signs, exponents, more
// decimals, spaces) returns nullopt and goes to parseScaled, which gives the same value for these.
std::optional<int64_t> plainUsToNs(std::string_view t)
{
    const std::size_t dot = t.size() > 4 && t[t.size() - 4] == '.' ? t.size() - 4
        : t.size() > 3 && t[t.size() - 3] == '.'                   ? t.size() - 3
        : t.size() > 2 && t[t.size() - 2] == '.'                   ? t.size() - 2
                                                                   : t.size();
    if (dot == 0 || dot > 16)
        return std::nullopt;
    int64_t v = 0;
    for (std::size_t i = 0; i < dot; ++i) {
        const unsigned d = static_cast<unsigned char>(t[i]) - '0';
        if (d > 9)
            return std::nullopt;
        v = v * 10 + d;
    }
    if (v >= std::numeric_limits<int64_t>::max() / 1000)
        return std::nullopt; // near overflow: leave it to parseScaled
    std::size_t decimals = 0;
    for (std::size_t i = dot + 1; i < t.size(); ++i, ++decimals) {
        const unsigned d = static_cast<unsigned char>(t[i]) - '0';
        if (d > 9)
            return std::nullopt;
        v = v * 10 + d;
    }
    for (; decimals < 3; ++decimals)
        v *= 10;
    return v;
}

// Decimal µs (number or string) -> ns, exactly.
std::optional<int64_t> toNs(const RawValue& v)
{
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 1000;
    switch (v.kind) {
    case Kind::Int:
        if (v.i > kMax || v.i < -kMax)
            return std::nullopt;
        return v.i * 1000;
    case Kind::Uint:
        if (v.u > static_cast<uint64_t>(kMax))
            return std::nullopt;
        return static_cast<int64_t>(v.u) * 1000;
    case Kind::Float:
    case Kind::String:
        if (auto ns = plainUsToNs(v.text))
            return ns;
        return parseScaled(v.text, 3);
    default:
        return std::nullopt;
    }
}

std::optional<int64_t> toInt(const RawValue& v)
{
    switch (v.kind) {
    case Kind::Int:
        return v.i;
    case Kind::Uint:
        if (v.u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
            return std::nullopt;
        return static_cast<int64_t>(v.u);
    case Kind::Float:
    case Kind::String:
        return parseInt(v.text);
    default:
        return std::nullopt;
    }
}

void appendInt(std::string& out, int64_t v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

void appendUint(std::string& out, uint64_t v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

// The value as text (ids, string thread ids). false for non-scalars.
bool scalarText(const RawValue& v, std::string& out)
{
    out.clear();
    switch (v.kind) {
    case Kind::Int:
        appendInt(out, v.i);
        return true;
    case Kind::Uint:
        appendUint(out, v.u);
        return true;
    case Kind::Float:
    case Kind::String:
        out = v.text;
        return true;
    default:
        return false;
    }
}

// Stable 62-bit id for non-numeric pid/tid text, kept apart from real (small or synthetic) ids.
int64_t hashId(std::string_view s)
{
    uint64_t h = 1469598103934665603ull;
    for (char c : s) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    return static_cast<int64_t>((h & 0x3fffffffffffffffull) | 0x4000000000000000ull);
}

} // namespace

void BlockBuilder::warn(TrText what)
{
    if (m_r.warnings.size() >= static_cast<std::size_t>(ImportContext::kMaxIssuesPerFile)) {
        ++m_r.moreWarnings;
        return;
    }
    m_r.warnings.push_back(issueText(
        QT_TRANSLATE_NOOP("ParseIssue", "event at byte %1: %2"), { std::to_string(m_eventOffset), std::move(what) }));
}

void BlockBuilder::warnField(const char* ph, const char* field, const RawValue& v)
{
    const bool shown = v.kind == Kind::String || v.kind == Kind::Float;
    warn(issueText(QT_TRANSLATE_NOOP("ParseIssue", "ph %1 event with %2 %3%4, skipped"),
        { ph, kindText(v.kind), field, shown ? TrText(nullptr, " \"%1\"", { v.text.substr(0, 40) }) : TrText() }));
}

std::optional<int64_t> BlockBuilder::idValue(const RawValue& v, bool& ok)
{
    ok = true;
    if (v.kind == Kind::None)
        return 0;
    if (auto i = toInt(v))
        return i;
    if (v.kind == Kind::String && !v.text.empty())
        return hashId(v.text);
    ok = false;
    return std::nullopt;
}

uint32_t BlockBuilder::trackIndex(int64_t pid, int64_t tid)
{
    if (m_lastTrack != std::numeric_limits<uint32_t>::max() && pid == m_lastPid && tid == m_lastTid)
        return m_lastTrack;
    auto [it, inserted] = m_trackIndex.try_emplace({ pid, tid }, static_cast<uint32_t>(m_r.tracks.size()));
    if (inserted) {
        Track t;
        t.pid = pid;
        t.tid = tid;
        m_r.tracks.push_back(std::move(t));
        touchProcess(pid);
    }
    m_lastPid = pid;
    m_lastTid = tid;
    m_lastTrack = it->second;
    return m_lastTrack;
}

void BlockBuilder::endEvent()
{
    ++m_events;
    if ((m_events & 4095) == 0 && m_ctx.cancelled())
        throw Cancelled {};
    const RawValue& ph = m_fields[FPh];
    const char phase = (ph.kind == Kind::String && ph.text.size() == 1) ? ph.text[0] : '\0';
    if (m_argsSkipped && phase != 'X')
        rereadSkippedArgs();
    switch (phase) {
    case 'X':
        onSlice();
        break;
    case 'C':
        onCounter();
        break;
    case 's':
    case 'f':
    case 't':
        onFlow(phase);
        break;
    case 'M':
        onMetadata();
        break;
    default: {
        std::string kind;
        if (ph.kind == Kind::String)
            kind = ph.text.substr(0, 16);
        else
            kind = "(" + std::string(kindName(ph.kind)) + ")";
        auto it = std::find_if(m_r.ignored.begin(), m_r.ignored.end(), [&](const auto& p) { return p.first == kind; });
        if (it == m_r.ignored.end())
            m_r.ignored.emplace_back(std::move(kind), 1);
        else
            ++it->second;
        break;
    }
    }
}

void BlockBuilder::onSlice()
{
    const auto ts = toNs(m_fields[FTs]);
    if (!ts)
        return warnField("X", "ts", m_fields[FTs]);
    const auto dur = toNs(m_fields[FDur]);
    if (!dur || *dur < 0)
        return warnField("X", "dur", m_fields[FDur]);
    bool okPid = false, okTid = false;
    const auto pid = idValue(m_fields[FPid], okPid);
    const auto tid = idValue(m_fields[FTid], okTid);
    if (!okPid)
        return warnField("X", "pid", m_fields[FPid]);
    if (!okTid)
        return warnField("X", "tid", m_fields[FTid]);
    const uint32_t track = trackIndex(*pid, *tid);
    if (m_fields[FTid].kind == Kind::String && !m_r.tracks[track].textTid && !parseInt(m_fields[FTid].text))
        m_r.tracks[track].textTid = m_fields[FTid].text;

    Slice s;
    s.ts = *ts + m_options.tsOffsetNs;
    s.dur = *dur;
    const RawValue& name = m_fields[FName];
    if (name.kind == Kind::String)
        s.name = m_r.strings.get(name.text);
    else if (scalarText(name, m_scratch))
        s.name = m_r.strings.get(m_scratch);
    else
        s.name = m_r.strings.get("");
    const RawValue& cat = m_fields[FCat];
    if (cat.kind == Kind::String)
        s.cat = m_r.strings.get(cat.text);
    if (m_hasArgs && m_argsLen > 0) {
        if (m_argsLen > Slice::kMaxArgsLen || m_argsOffset > Slice::kMaxArgsOffset) {
            warn(issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "args object larger than 16 MiB (or beyond 1 TiB into the file) dropped")));
        } else {
            s.argsOffset = m_argsOffset;
            s.argsLen = m_argsLen;
            ++m_r.slicesWithArgs;
        }
    }
    m_r.tracks[track].slices.push_back(s);
}

void BlockBuilder::onCounter()
{
    const auto ts = toNs(m_fields[FTs]);
    if (!ts)
        return warnField("C", "ts", m_fields[FTs]);
    bool okPid = false;
    const auto pid = idValue(m_fields[FPid], okPid);
    if (!okPid)
        return warnField("C", "pid", m_fields[FPid]);
    touchProcess(*pid);
    const RawValue& name = m_fields[FName];
    std::string_view nameText = name.kind == Kind::String ? std::string_view(name.text) : std::string_view();
    if (name.kind != Kind::String && scalarText(name, m_scratch))
        nameText = m_scratch;
    for (std::size_t i = 0; i < m_argCount; ++i) {
        const auto& [key, value] = m_argList[i];
        if (!value.isNumber())
            continue;
        m_r.counters.push_back(
            { *pid, *ts + m_options.tsOffsetNs, value.number(), static_cast<uint32_t>(m_r.counterText.size()),
                static_cast<uint32_t>(nameText.size()), static_cast<uint32_t>(key.size()) });
        m_r.counterText.append(nameText);
        m_r.counterText.append(key);
    }
}

void BlockBuilder::onFlow(char phase)
{
    const char ph[2] = { phase, '\0' };
    const auto ts = toNs(m_fields[FTs]);
    if (!ts)
        return warnField(ph, "ts", m_fields[FTs]);
    if (!scalarText(m_fields[FId], m_scratch) || m_scratch.empty())
        return warnField(ph, "id", m_fields[FId]);
    bool okPid = false, okTid = false;
    const auto pid = idValue(m_fields[FPid], okPid);
    const auto tid = idValue(m_fields[FTid], okTid);
    if (!okPid)
        return warnField(ph, "pid", m_fields[FPid]);
    if (!okTid)
        return warnField(ph, "tid", m_fields[FTid]);
    FlowPoint p;
    p.ts = *ts + m_options.tsOffsetNs;
    p.id = m_r.arena.store(m_scratch);
    p.phase = phase;
    p.track = trackIndex(*pid, *tid);
    p.seq = static_cast<uint32_t>(m_r.flows.size());
    const RawValue& cat = m_fields[FCat];
    p.cat = m_r.strings.get(cat.kind == Kind::String ? std::string_view(cat.text) : std::string_view());
    const RawValue& name = m_fields[FName];
    const std::string_view nameText = name.kind == Kind::String ? std::string_view(name.text) : std::string_view();
    const std::string& catText = m_r.strings.text(p.cat);
    if (!catText.empty() && nameText.size() == catText.size() + p.id.size() && nameText.starts_with(catText)
        && nameText.ends_with(p.id))
        p.name = FlowPoint::kNameIsCatId;
    else
        p.name = m_r.strings.get(nameText);
    m_r.flows.push_back(p);
}

void BlockBuilder::onMetadata()
{
    const RawValue& name = m_fields[FName];
    if (name.kind != Kind::String)
        return warnField("M", "name", name);
    bool okPid = false;
    const auto pid = idValue(m_fields[FPid], okPid);
    if (!okPid)
        return warnField("M", "pid", m_fields[FPid]);
    const std::string& what = name.text;
    auto textArg = [&](std::string_view key) -> model::OptText {
        const RawValue* v = arg(key);
        if (v && scalarText(*v, m_scratch))
            return m_scratch;
        return std::nullopt;
    };
    auto intArg = [&](std::string_view key) -> model::OptInt {
        const RawValue* v = arg(key);
        return v ? toInt(*v) : std::nullopt;
    };
    if (what.starts_with("process_")) {
        touchProcess(*pid);
        auto& p = m_r.processes[*pid];
        if (what == "process_name") {
            if (auto v = textArg("name"))
                p.name = std::move(v);
        } else if (what == "process_labels") {
            if (auto v = textArg("labels"))
                p.label = std::move(v);
        } else if (what == "process_sort_index") {
            if (auto v = intArg("sort_index"))
                p.sortIndex = v;
        }
        return;
    }
    if (what.starts_with("thread_")) {
        bool okTid = false;
        const auto tid = idValue(m_fields[FTid], okTid);
        if (!okTid)
            return warnField("M", "tid", m_fields[FTid]);
        auto& t = m_r.tracks[trackIndex(*pid, *tid)];
        if (what == "thread_name") {
            if (auto v = textArg("name"))
                t.name = std::move(v);
        } else if (what == "thread_sort_index") {
            if (auto v = intArg("sort_index"))
                t.sortIndex = v;
        }
    }
}

} // namespace npuscope::io::trace_view

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/TraceViewImporter.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/parse/FlowTracker.h"
#include "npuscope/io/parse/JsonScanner.h"
#include "npuscope/io/parse/SliceTracker.h"
#include "npuscope/io/parse/SourceFile.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <unistd.h>

namespace npuscope::io {

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

// ---------------------------------------------------------------------------------------------
// Small helpers.

struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view> {}(s); }
};

// Local string table in front of ModelWriter::intern: lookups by string_view without allocating,
// and strings only reach the model's `string` table when a row references them (flow names never do).
class StringTable {
public:
    uint32_t get(std::string_view s)
    {
        // Categories and many names repeat from event to event: a small direct-mapped cache keyed by
        // length and end bytes answers those with one compare instead of hashing the whole text.
        const std::size_t slot = s.empty()
            ? 0
            : (s.size() * 31 + static_cast<unsigned char>(s.front()) * 7 + static_cast<unsigned char>(s.back()))
                % kCacheSlots;
        if (const uint32_t cached = m_cache[slot]; cached != kNone && *m_text[cached] == s)
            return cached;
        uint32_t index;
        if (auto it = m_map.find(s); it != m_map.end()) {
            index = it->second;
        } else {
            index = static_cast<uint32_t>(m_text.size());
            auto [added, inserted] = m_map.emplace(std::string(s), index);
            m_text.push_back(&added->first);
            m_dbId.push_back(0);
        }
        m_cache[slot] = index;
        return index;
    }
    const std::string& text(uint32_t index) const { return *m_text[index]; }
    int64_t dbId(uint32_t index, model::ModelWriter& writer)
    {
        auto& id = m_dbId[index];
        if (id == 0)
            id = writer.intern(*m_text[index]);
        return id;
    }

private:
    static constexpr std::size_t kCacheSlots = 509;
    static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> m_cache = std::vector<uint32_t>(kCacheSlots, kNone);
    std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> m_map;
    std::vector<const std::string*> m_text;
    std::vector<int64_t> m_dbId;
};

// Append-only byte storage for flow ids; blocks never move, so views stay valid.
class Arena {
public:
    std::string_view store(std::string_view s)
    {
        if (s.empty())
            return { "", 0 };
        if (m_blocks.empty() || m_used + s.size() > m_blockSize) {
            m_blockSize = std::max(kBlockBytes, s.size());
            m_blocks.emplace_back(new char[m_blockSize]);
            m_used = 0;
        }
        char* dst = m_blocks.back().get() + m_used;
        std::memcpy(dst, s.data(), s.size());
        m_used += s.size();
        return { dst, s.size() };
    }

private:
    static constexpr std::size_t kBlockBytes = std::size_t(16) << 20;
    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_used = 0;
    std::size_t m_blockSize = 0;
};

enum class Kind : uint8_t { None, Int, Uint, Float, String, Bool, Null, Compound };

// One scalar JSON value as read (readValue gives nlohmann's number kinds). Float keeps the raw token
// text so that times convert exactly.
struct RawValue {
    Kind kind = Kind::None;
    int64_t i = 0;
    uint64_t u = 0;
    double d = 0;
    std::string text;

    bool isNumber() const { return kind == Kind::Int || kind == Kind::Uint || kind == Kind::Float; }
    double number() const
    {
        return kind == Kind::Int ? static_cast<double>(i) : kind == Kind::Uint ? static_cast<double>(u) : d;
    }
};

std::string_view kindName(Kind k)
{
    switch (k) {
    case Kind::None:
        return "missing";
    case Kind::Int:
    case Kind::Uint:
    case Kind::Float:
        return "number";
    case Kind::String:
        return "string";
    case Kind::Bool:
        return "boolean";
    case Kind::Null:
        return "null";
    case Kind::Compound:
        return "object/array";
    }
    return "missing";
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

// ---------------------------------------------------------------------------------------------
// Collected data.

struct Slice {
    int64_t ts = 0;
    int64_t dur = 0;
    // The args object's byte range in the file; argsLen 0: no args (an object is at least "{}").
    // Bit fields keep a Slice at 32 bytes: it is held for every slice until the end of the file.
    uint64_t argsOffset : 40 = 0;
    uint64_t argsLen : 24 = 0;
    uint32_t name = 0; // StringTable index
    uint32_t cat = kNoCat;

    static constexpr uint32_t kNoCat = std::numeric_limits<uint32_t>::max();
    static constexpr uint64_t kMaxArgsOffset = (uint64_t(1) << 40) - 1;
    static constexpr uint64_t kMaxArgsLen = (uint64_t(1) << 24) - 1;
};
static_assert(sizeof(Slice) == 32);

struct Track {
    int64_t pid = 0;
    int64_t tid = 0;
    model::OptText name;
    model::OptInt sortIndex;
    model::OptText textTid; // the original text of a non-numeric tid
    std::vector<Slice> slices; // while parsing; freed once inserted
    // After insertion, only what binding flow points needs, in sorted order (20 bytes a slice
    // instead of a 32-byte Slice and an 8-byte id): start, end, index of the enclosing slice.
    std::vector<int64_t> starts, ends;
    std::vector<int32_t> parents;
    int64_t firstId = 0; // ids are firstId + index unless sliceIds is filled
    std::vector<int64_t> sliceIds; // only when the ids SQLite gave were not consecutive
};

struct TrackKeyHash {
    std::size_t operator()(const std::pair<int64_t, int64_t>& k) const noexcept
    {
        const auto a = static_cast<uint64_t>(k.first);
        const auto b = static_cast<uint64_t>(k.second);
        return std::hash<uint64_t> {}(a * 0x9e3779b97f4a7c15ull ^ b);
    }
};

struct ProcessInfo {
    model::OptText name, label;
    model::OptInt sortIndex;
};

struct FlowPoint {
    int64_t ts = 0;
    std::string_view id; // in the arena
    uint32_t cat = 0;
    uint32_t name = 0; // StringTable index, or kNameIsCatId
    uint32_t track = 0;
    uint32_t seq = 0;
    char phase = 's'; // s, t or f

    // torch_npu names every HostToDevice flow "HostToDevice<id>": a distinct name per flow. Those are
    // rebuilt from cat and id instead of filling the string table with one entry each.
    static constexpr uint32_t kNameIsCatId = std::numeric_limits<uint32_t>::max();
};

enum Field : uint8_t { FPh, FName, FCat, FPid, FTid, FTs, FDur, FId, FBp, FArgs, FUnknown, FieldCount = FUnknown };

Field fieldOf(std::string_view k)
{
    // Called for every key of every event: compare characters, not strings.
    const char* c = k.data();
    switch (k.size()) {
    case 2:
        if (c[0] == 'p' && c[1] == 'h')
            return FPh;
        if (c[0] == 't' && c[1] == 's')
            return FTs;
        if (c[0] == 'i' && c[1] == 'd')
            return FId;
        if (c[0] == 'b' && c[1] == 'p')
            return FBp;
        break;
    case 3:
        if (c[1] == 'i' && c[2] == 'd')
            return c[0] == 'p' ? FPid : c[0] == 't' ? FTid : FUnknown;
        if (c[0] == 'c' && c[1] == 'a' && c[2] == 't')
            return FCat;
        if (c[0] == 'd' && c[1] == 'u' && c[2] == 'r')
            return FDur;
        break;
    case 4:
        if (std::memcmp(c, "name", 4) == 0)
            return FName;
        if (std::memcmp(c, "args", 4) == 0)
            return FArgs;
        break;
    default:
        break;
    }
    return FUnknown;
}

// ---------------------------------------------------------------------------------------------
// Counter rows go to SQLite on a second thread while the parse continues: counters are often half
// of the events, and their inserts are independent of everything else. The parse thread never
// touches the writer until close() has joined the worker, so the connection still has one user at
// a time. Falls back to inserting inline when no thread can be started.

class CounterSink {
public:
    CounterSink(model::ModelWriter& writer, int64_t rankId)
        : m_writer(writer)
    {
        m_row.rankId = rankId;
        try {
            m_thread = std::thread([this] { work(); });
        } catch (const std::system_error&) {
            m_inline = true;
        }
    }
    ~CounterSink()
    {
        try {
            close();
        } catch (...) {
            // Only reached while another exception unwinds; that one is reported.
        }
    }
    CounterSink(const CounterSink&) = delete;
    CounterSink& operator=(const CounterSink&) = delete;

    void add(int64_t pid, int64_t ts, std::string_view name, std::string_view series, double value)
    {
        if (m_inline) {
            insert(pid, ts, name, series, value);
            return;
        }
        Record r { pid, ts, value, static_cast<uint32_t>(m_filling.text.size()), static_cast<uint32_t>(name.size()),
            static_cast<uint32_t>(series.size()) };
        m_filling.text.append(name);
        m_filling.text.append(series);
        m_filling.records.push_back(r);
        if (m_filling.records.size() >= kBatchRecords || m_filling.text.size() >= kBatchText)
            flush();
    }

    // Hands over the last batch and waits for the worker; rethrows an error it hit.
    void close()
    {
        if (!m_inline && m_thread.joinable()) {
            flush();
            {
                std::lock_guard lock(m_mutex);
                m_done = true;
            }
            m_cv.notify_all();
            m_thread.join();
        }
        if (m_error) {
            auto e = std::exchange(m_error, nullptr);
            std::rethrow_exception(e);
        }
    }

private:
    struct Record {
        int64_t pid, ts;
        double value;
        uint32_t textOffset, nameLen, seriesLen;
    };
    struct Batch {
        std::vector<Record> records;
        std::string text;
    };
    static constexpr std::size_t kBatchRecords = 8192;
    static constexpr std::size_t kBatchText = std::size_t(1) << 20;
    static constexpr std::size_t kMaxQueued = 4;

    void flush()
    {
        if (m_filling.records.empty())
            return;
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return m_queue.size() < kMaxQueued; });
        m_queue.push_back(std::move(m_filling));
        m_filling = {};
        if (!m_spare.empty()) {
            m_filling = std::move(m_spare.back());
            m_spare.pop_back();
        }
        lock.unlock();
        m_cv.notify_all();
    }

    void work()
    {
        for (;;) {
            Batch batch;
            {
                std::unique_lock lock(m_mutex);
                m_cv.wait(lock, [this] { return !m_queue.empty() || m_done; });
                if (m_queue.empty())
                    return;
                batch = std::move(m_queue.front());
                m_queue.pop_front();
            }
            m_cv.notify_all();
            if (!m_error) {
                try {
                    for (const Record& r : batch.records) {
                        const std::string_view text(batch.text.data() + r.textOffset, r.nameLen + r.seriesLen);
                        insert(r.pid, r.ts, text.substr(0, r.nameLen), text.substr(r.nameLen), r.value);
                    }
                } catch (...) {
                    m_error = std::current_exception();
                }
            }
            batch.records.clear();
            batch.text.clear();
            std::lock_guard lock(m_mutex);
            if (m_spare.size() < kMaxQueued)
                m_spare.push_back(std::move(batch));
        }
    }

    void insert(int64_t pid, int64_t ts, std::string_view name, std::string_view series, double value)
    {
        if (name != m_lastName || m_lastNameId == 0) {
            m_lastName.assign(name);
            m_lastNameId = m_writer.intern(name);
        }
        m_row.pid = pid;
        m_row.ts = ts;
        m_row.nameId = m_lastNameId;
        m_row.series.assign(series);
        m_row.value = value;
        m_writer.addCounter(m_row);
    }

    model::ModelWriter& m_writer;
    model::CounterRow m_row; // worker thread only (or the parse thread when inline)
    std::string m_lastName;
    int64_t m_lastNameId = 0;
    Batch m_filling; // parse thread only
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<Batch> m_queue;
    std::vector<Batch> m_spare;
    bool m_done = false;
    bool m_inline = false;
    std::exception_ptr m_error; // written by the worker, read after join
    std::thread m_thread;
};

// ---------------------------------------------------------------------------------------------
// The importer: walks the document with a JsonScanner (parseDocument), fills the fields of the
// current event and records the byte range of its args object in the file (args are kept by
// reference, never copied); a finished event is dispatched by endEvent(), and finish() writes what
// was collected.

class Importer {
public:
    Importer(ImportContext& ctx, std::FILE* file, const TraceViewImporter::Options& options)
        : m_ctx(ctx)
        , m_options(options)
        , m_writer(ctx.writer())
        , m_file(file)
        , m_counters(ctx.writer(), ctx.rankId())
    {
    }

    // Walks the whole document with the scanner. False on a syntax error (the scanner has it) or
    // when cancelled.
    bool parseDocument(JsonScanner& sc);

    // --- after parsing ---
    bool cancelled() const { return m_cancelled; }
    bool sawEvents() const { return m_eventsDone || m_inEvents; }

    // Waits for the counter thread and records the deferred warnings. Call before anything else
    // touches the writer after parsing.
    void endParse()
    {
        m_counters.close();
        for (auto& w : m_warnings)
            m_ctx.warning(std::nullopt, std::move(w));
        m_warnings.clear();
        // Beyond the listing limit ImportContext only counts; keep its count right.
        for (; m_moreWarnings > 0; --m_moreWarnings)
            m_ctx.warning(std::nullopt, std::string());
    }

    // Writes processes, threads, slices (with depth) and flows. Returns false when cancelled.
    // stamp: the file's size and mtime when it was opened; slice args point into the file only when
    // it is still the same after parsing (else they are dropped with a warning).
    bool finish(const std::optional<FileStamp>& stamp, const std::optional<FileStamp>& stampAfter);

private:
    using Arg = std::pair<std::string, RawValue>;

    bool parseEvents(JsonScanner& sc);
    bool parseEvent(JsonScanner& sc);
    bool readArgs(JsonScanner& sc);
    bool readArgsObject(JsonScanner& sc);
    bool readValue(JsonScanner& sc, RawValue& v, bool wantDouble);
    bool phaseIsX() const
    {
        const RawValue& ph = m_fields[FPh];
        return ph.kind == Kind::String && ph.text.size() == 1 && ph.text[0] == 'X';
    }
    void rereadSkippedArgs();

    bool endEvent();
    void onSlice();
    void onCounter();
    void onFlow(char phase);
    void onMetadata();

    // Warnings wait until the counter thread is done with the writer (see endParse()).
    void warn(const char* what)
    {
        if (m_warnings.size() >= static_cast<std::size_t>(ImportContext::kMaxIssuesPerFile)) {
            ++m_moreWarnings;
            return;
        }
        std::string msg = "event at byte ";
        msg += std::to_string(m_eventOffset);
        msg += ": ";
        msg += what;
        m_warnings.push_back(std::move(msg));
    }
    void warnField(const char* ph, const char* field, const RawValue& v)
    {
        std::string msg = std::string("ph ") + ph + " event with " + std::string(kindName(v.kind)) + " " + field;
        if (v.kind == Kind::String || v.kind == Kind::Float)
            msg += " \"" + v.text.substr(0, 40) + "\"";
        msg += ", skipped";
        warn(msg.c_str());
    }

    std::optional<int64_t> idValue(const RawValue& v, bool& ok)
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

    uint32_t trackIndex(int64_t pid, int64_t tid);
    void touchProcess(int64_t pid)
    {
        if (pid != m_lastProcess || !m_haveLastProcess) {
            m_processes.try_emplace(pid);
            m_lastProcess = pid;
            m_haveLastProcess = true;
        }
    }
    const RawValue* arg(std::string_view key) const
    {
        for (std::size_t i = 0; i < m_argCount; ++i)
            if (m_argList[i].first == key)
                return &m_argList[i].second;
        return nullptr;
    }

    int64_t bindPoint(const Track& track, int64_t point) const;

    ImportContext& m_ctx;
    const TraceViewImporter::Options& m_options;
    model::ModelWriter& m_writer;
    std::FILE* m_file; // the input, to read skipped args back (rereadSkippedArgs)

    // Document position.
    bool m_inEvents = false; // inside the events array
    bool m_eventsDone = false; // the events array was read to its end

    // Current event.
    RawValue m_fields[FieldCount];
    bool m_hasArgs = false;
    uint64_t m_argsOffset = 0; // of the current event's args '{'
    uint64_t m_argsLen = 0; // '{' to '}' inclusive
    std::vector<Arg> m_argList;
    std::size_t m_argCount = 0;
    uint64_t m_eventOffset = 0;
    bool m_argsSkipped = false; // the args object was only validated (ph was "X" when it was read)
    std::string m_scratch;
    std::string m_key;
    std::string m_reread;

    // Collected.
    StringTable m_strings;
    Arena m_arena;
    std::vector<Track> m_tracks;
    std::unordered_map<std::pair<int64_t, int64_t>, uint32_t, TrackKeyHash> m_trackIndex;
    int64_t m_lastPid = 0, m_lastTid = 0;
    uint32_t m_lastTrack = std::numeric_limits<uint32_t>::max();
    std::map<int64_t, ProcessInfo> m_processes;
    int64_t m_lastProcess = 0;
    bool m_haveLastProcess = false;
    std::vector<FlowPoint> m_flows;
    std::vector<std::pair<std::string, uint64_t>> m_ignored; // ph -> count
    uint64_t m_events = 0;
    uint64_t m_slicesWithArgs = 0;
    uint64_t m_nonObjectEvents = 0;
    CounterSink m_counters;
    std::vector<std::string> m_warnings;
    uint64_t m_moreWarnings = 0;

    // Outcome.
    bool m_cancelled = false;
};

uint32_t Importer::trackIndex(int64_t pid, int64_t tid)
{
    if (m_lastTrack != std::numeric_limits<uint32_t>::max() && pid == m_lastPid && tid == m_lastTid)
        return m_lastTrack;
    auto [it, inserted] = m_trackIndex.try_emplace({ pid, tid }, static_cast<uint32_t>(m_tracks.size()));
    if (inserted) {
        Track t;
        t.pid = pid;
        t.tid = tid;
        m_tracks.push_back(std::move(t));
        touchProcess(pid);
    }
    m_lastPid = pid;
    m_lastTid = tid;
    m_lastTrack = it->second;
    return m_lastTrack;
}

// ---------------------------------------------------------------------------------------------
// The document walk. Accepted shapes as before: a bare array of events, or an object whose first
// "traceEvents" member is an array. Every byte is validated by the scanner; only the fields an
// event needs are materialised. The args of an "X" event are only skipped (validated, their byte
// range kept): they are most of a trace's bytes, and a slice keeps them by reference.

bool Importer::parseDocument(JsonScanner& sc)
{
    if (!sc.skipBom())
        return false;
    int c = sc.peek();
    if (c == '[') {
        sc.advance();
        if (!parseEvents(sc))
            return false;
    } else if (c == '{') {
        sc.advance();
        c = sc.peek();
        if (c == '}') {
            sc.advance();
        } else {
            for (;;) {
                if (c != '"')
                    return sc.unexpected("string literal");
                if (!sc.readString(m_key) || !sc.colon())
                    return false;
                if (m_key == "traceEvents" && !m_eventsDone && sc.peek() == '[') {
                    sc.advance();
                    if (!parseEvents(sc))
                        return false;
                } else if (!sc.skipValue()) {
                    return false;
                }
                const auto next = sc.afterItem('}');
                if (next == JsonScanner::Next::Error)
                    return false;
                if (next == JsonScanner::Next::End)
                    break;
                c = sc.peek();
            }
        }
    } else if (!sc.skipValue()) {
        return false;
    }
    return sc.expectEnd();
}

bool Importer::parseEvents(JsonScanner& sc)
{
    m_inEvents = true;
    int c = sc.peek();
    if (c == ']') {
        sc.advance();
    } else {
        for (;;) {
            if (c == '{') {
                if (!parseEvent(sc))
                    return false;
            } else if (c == '[') {
                if (!sc.skipValue())
                    return false;
            } else {
                if (!sc.skipValue())
                    return false;
                ++m_nonObjectEvents;
            }
            const auto next = sc.afterItem(']');
            if (next == JsonScanner::Next::Error)
                return false;
            if (next == JsonScanner::Next::End)
                break;
            c = sc.peek();
        }
    }
    m_inEvents = false;
    m_eventsDone = true;
    return true;
}

bool Importer::parseEvent(JsonScanner& sc)
{
    sc.advance();
    m_eventOffset = sc.offset();
    for (auto& f : m_fields)
        f.kind = Kind::None;
    m_hasArgs = false;
    m_argsSkipped = false;
    m_argCount = 0;
    int c = sc.peek();
    if (c == '}') {
        sc.advance();
        return endEvent();
    }
    for (;;) {
        if (c != '"')
            return sc.unexpected("string literal");
        std::string_view key;
        if (!sc.readStringView(key, m_key))
            return false;
        const Field field = fieldOf(key); // before colon(): a refill there can move the bytes key points to
        if (!sc.colon())
            return false;
        if (field == FArgs) {
            if (!readArgs(sc))
                return false;
        } else if (field == FUnknown) {
            if (!sc.skipValue())
                return false;
        } else if (!readValue(sc, m_fields[field], false)) {
            return false;
        }
        const auto next = sc.afterItem('}');
        if (next == JsonScanner::Next::Error)
            return false;
        if (next == JsonScanner::Next::End)
            break;
        c = sc.peek();
    }
    return endEvent();
}

bool Importer::readArgs(JsonScanner& sc)
{
    if (sc.peek() != '{')
        return sc.skipValue(); // not an object: ignored, an earlier args object stays
    const uint64_t start = sc.offset();
    m_hasArgs = true;
    m_argCount = 0;
    m_argsSkipped = phaseIsX();
    if (!(m_argsSkipped ? sc.skipValue() : readArgsObject(sc)))
        return false;
    m_argsOffset = start;
    m_argsLen = sc.offset() - start;
    return true;
}

// The top-level members of an args object (at its '{'): key and scalar value; nested values are
// only marked Compound.
bool Importer::readArgsObject(JsonScanner& sc)
{
    sc.advance();
    int c = sc.peek();
    if (c == '}') {
        sc.advance();
        return true;
    }
    for (;;) {
        if (c != '"')
            return sc.unexpected("string literal");
        if (m_argCount == m_argList.size())
            m_argList.emplace_back();
        auto& a = m_argList[m_argCount++];
        a.second.kind = Kind::None;
        if (!sc.readString(a.first) || !sc.colon() || !readValue(sc, a.second, true))
            return false;
        const auto next = sc.afterItem('}');
        if (next != JsonScanner::Next::Item)
            return next == JsonScanner::Next::End;
        c = sc.peek();
    }
}

// One value into v, as nlohmann delivers it: integers that fit int64 (negative) or uint64
// (otherwise) are Int/Uint, every other number is Float with its exact text.
bool Importer::readValue(JsonScanner& sc, RawValue& v, bool wantDouble)
{
    const int c = sc.peek();
    switch (c) {
    case '"':
        v.kind = Kind::String;
        return sc.readString(v.text);
    case '{':
    case '[':
        v.kind = Kind::Compound;
        return sc.skipValue();
    case 't':
    case 'f':
    case 'n': {
        bool ignored = false;
        if (!sc.readLiteral(ignored))
            return false;
        v.kind = c == 'n' ? Kind::Null : Kind::Bool;
        return true;
    }
    default:
        break;
    }
    if (c != '-' && (c < '0' || c > '9'))
        return sc.unexpected("'[', '{', or a literal");
    bool integral = false;
    if (!sc.readNumber(v.text, integral))
        return false;
    const char* begin = v.text.data();
    const char* end = begin + v.text.size();
    if (integral && v.text.size() <= 19 && *begin != '-') {
        // Up to 19 digits always fit uint64: no overflow check needed (JSON has no leading zeros).
        uint64_t u = 0;
        for (const char* p = begin; p < end; ++p)
            u = u * 10 + static_cast<uint64_t>(*p - '0');
        v.kind = Kind::Uint;
        v.u = u;
        return true;
    }
    if (integral) {
        if (*begin == '-') {
            const auto r = std::from_chars(begin, end, v.i);
            if (r.ec == std::errc() && r.ptr == end) {
                v.kind = Kind::Int;
                return true;
            }
        } else {
            const auto r = std::from_chars(begin, end, v.u);
            if (r.ec == std::errc() && r.ptr == end) {
                v.kind = Kind::Uint;
                return true;
            }
        }
    }
    v.kind = Kind::Float;
    v.d = 0;
    if (wantDouble && std::from_chars(begin, end, v.d).ec != std::errc())
        v.d = *begin == '-' ? -0.0 : 0.0; // out of range here is underflow (overflow is a syntax error)
    return true;
}

// An event whose args were skipped because ph was "X" turned out otherwise (a later duplicate "ph"):
// read its args back from the file.
void Importer::rereadSkippedArgs()
{
    m_argsSkipped = false;
    m_argCount = 0;
    if (!m_file || m_argsLen == 0)
        return;
    m_reread.resize(static_cast<std::size_t>(m_argsLen));
    const auto n = ::pread(::fileno(m_file), m_reread.data(), m_reread.size(), static_cast<off_t>(m_argsOffset));
    if (n != static_cast<ssize_t>(m_reread.size()))
        return;
    JsonScanner mem(m_reread.data(), m_reread.size(), m_argsOffset);
    if (!readArgsObject(mem))
        m_argCount = 0;
}

bool Importer::endEvent()
{
    ++m_events;
    if ((m_events & 4095) == 0 && m_ctx.cancelled()) {
        m_cancelled = true;
        return false;
    }
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
        auto it = std::find_if(m_ignored.begin(), m_ignored.end(), [&](const auto& p) { return p.first == kind; });
        if (it == m_ignored.end())
            m_ignored.emplace_back(std::move(kind), 1);
        else
            ++it->second;
        break;
    }
    }
    return true;
}

void Importer::onSlice()
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
    if (m_fields[FTid].kind == Kind::String && !m_tracks[track].textTid && !parseInt(m_fields[FTid].text))
        m_tracks[track].textTid = m_fields[FTid].text;

    Slice s;
    s.ts = *ts + m_options.tsOffsetNs;
    s.dur = *dur;
    const RawValue& name = m_fields[FName];
    if (name.kind == Kind::String)
        s.name = m_strings.get(name.text);
    else if (scalarText(name, m_scratch))
        s.name = m_strings.get(m_scratch);
    else
        s.name = m_strings.get("");
    const RawValue& cat = m_fields[FCat];
    if (cat.kind == Kind::String)
        s.cat = m_strings.get(cat.text);
    if (m_hasArgs && m_argsLen > 0) {
        if (m_argsLen > Slice::kMaxArgsLen || m_argsOffset > Slice::kMaxArgsOffset) {
            warn("args object larger than 16 MiB (or beyond 1 TiB into the file) dropped");
        } else {
            s.argsOffset = m_argsOffset;
            s.argsLen = m_argsLen;
            ++m_slicesWithArgs;
        }
    }
    m_tracks[track].slices.push_back(s);
}

void Importer::onCounter()
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
        if (value.isNumber())
            m_counters.add(*pid, *ts + m_options.tsOffsetNs, nameText, key, value.number());
    }
}

void Importer::onFlow(char phase)
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
    p.id = m_arena.store(m_scratch);
    p.phase = phase;
    p.track = trackIndex(*pid, *tid);
    p.seq = static_cast<uint32_t>(m_flows.size());
    const RawValue& cat = m_fields[FCat];
    p.cat = m_strings.get(cat.kind == Kind::String ? std::string_view(cat.text) : std::string_view());
    const RawValue& name = m_fields[FName];
    const std::string_view nameText = name.kind == Kind::String ? std::string_view(name.text) : std::string_view();
    const std::string& catText = m_strings.text(p.cat);
    if (!catText.empty() && nameText.size() == catText.size() + p.id.size() && nameText.starts_with(catText)
        && nameText.ends_with(p.id))
        p.name = FlowPoint::kNameIsCatId;
    else
        p.name = m_strings.get(nameText);
    m_flows.push_back(p);
}

void Importer::onMetadata()
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
        auto& p = m_processes[*pid];
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
        auto& t = m_tracks[trackIndex(*pid, *tid)];
        if (what == "thread_name") {
            if (auto v = textArg("name"))
                t.name = std::move(v);
        } else if (what == "thread_sort_index") {
            if (auto v = intArg("sort_index"))
                t.sortIndex = v;
        }
    }
}

// The deepest slice of the track with ts <= point < ts + dur (or point == ts for zero-length
// slices). Slices are sorted by (ts, dur desc), so the last one starting at or before the point is
// the deepest candidate; if it ended already, one of its ancestors may still enclose the point.
int64_t Importer::bindPoint(const Track& track, int64_t point) const
{
    const auto& starts = track.starts;
    auto i = static_cast<int32_t>(std::upper_bound(starts.begin(), starts.end(), point) - starts.begin()) - 1;
    while (i >= 0) {
        const auto k = static_cast<std::size_t>(i);
        if (point < track.ends[k] || (track.ends[k] == starts[k] && point == starts[k]))
            return track.sliceIds.empty() ? track.firstId + i : track.sliceIds[k];
        i = track.parents[k];
    }
    return 0;
}

bool Importer::finish(const std::optional<FileStamp>& stamp, const std::optional<FileStamp>& stampAfter)
{
    model::OptInt argsFile;
    if (stamp && stampAfter && *stamp == *stampAfter) {
        std::error_code ec;
        const auto path = std::filesystem::absolute(m_ctx.file(), ec);
        argsFile = m_writer.addSourceFile(
            m_ctx.rankId(), ec ? m_ctx.file() : path.string(), stamp->sizeBytes, stamp->mtimeNs);
    } else if (m_slicesWithArgs > 0) {
        m_ctx.warning(std::nullopt,
            "file changed while it was imported (or is not a regular file): the args of "
                + std::to_string(m_slicesWithArgs) + " slices are not kept");
    }

    for (const auto& [pid, p] : m_processes) {
        model::ProcessRow row;
        row.rankId = m_ctx.rankId();
        row.pid = pid;
        row.name = p.name;
        if (!row.name && m_options.processName)
            row.name = m_options.processName(pid);
        row.label = p.label;
        row.sortIndex = p.sortIndex;
        m_writer.upsertProcess(row);
    }

    // Flows: group by (cat, id), each group in time order. Sorting them needs nothing the slice
    // inserts produce, so it runs on a second thread while the slices go to SQLite.
    // The sort compares the first 16 bytes of the ids as two big-endian integers (zero padded: an
    // order consistent with comparing the text) and the whole id only when those are equal.
    struct FlowKey {
        uint64_t k0, k1;
        uint32_t cat, index; // index into m_flows, which is also the point's seq
    };
    std::vector<FlowKey> keys(m_flows.size());
    auto sortFlows = [this, &keys] {
        for (uint32_t i = 0; i < keys.size(); ++i) {
            const FlowPoint& p = m_flows[i];
            unsigned char bytes[16] = {};
            std::memcpy(bytes, p.id.data(), std::min<std::size_t>(p.id.size(), 16));
            uint64_t k0 = 0, k1 = 0;
            for (int b = 0; b < 8; ++b) {
                k0 = (k0 << 8) | bytes[b];
                k1 = (k1 << 8) | bytes[8 + b];
            }
            keys[i] = { k0, k1, p.cat, i };
        }
        std::sort(keys.begin(), keys.end(), [this](const FlowKey& x, const FlowKey& y) {
            if (x.cat != y.cat)
                return x.cat < y.cat;
            if (x.k0 != y.k0)
                return x.k0 < y.k0;
            if (x.k1 != y.k1)
                return x.k1 < y.k1;
            const FlowPoint& a = m_flows[x.index];
            const FlowPoint& b = m_flows[y.index];
            if (a.id != b.id)
                return a.id < b.id;
            if (a.ts != b.ts)
                return a.ts < b.ts;
            return a.seq < b.seq;
        });
    };
    std::vector<uint32_t> order(m_tracks.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return std::pair(m_tracks[a].pid, m_tracks[a].tid) < std::pair(m_tracks[b].pid, m_tracks[b].tid);
    });

    std::thread flowSorter;
    try {
        flowSorter = std::thread(sortFlows);
    } catch (const std::system_error&) {
        sortFlows();
    }
    struct Joiner {
        std::thread& t;
        ~Joiner()
        {
            if (t.joinable())
                t.join();
        }
    } joiner { flowSorter };

    model::ThreadRow threadRow;
    threadRow.rankId = m_ctx.rankId();
    constexpr std::size_t kRowsPerBatch = 4096;
    std::vector<model::SliceRow> rows(kRowsPerBatch);
    std::vector<int64_t> ids(kRowsPerBatch);
    for (auto& row : rows)
        row.rankId = m_ctx.rankId();
    SliceTracker nesting;
    for (uint32_t index : order) {
        Track& t = m_tracks[index];
        threadRow.pid = t.pid;
        threadRow.tid = t.tid;
        threadRow.name = t.name ? t.name : t.textTid;
        if (!threadRow.name && m_options.threadName)
            threadRow.name = m_options.threadName(t.pid, t.tid);
        threadRow.sortIndex = t.sortIndex;
        m_writer.upsertThread(threadRow);

        auto& s = t.slices;
        SliceTracker::sort(s.begin(), s.end());
        t.starts.resize(s.size());
        t.ends.resize(s.size());
        t.parents.resize(s.size());
        nesting.reset();
        for (std::size_t begin = 0; begin < s.size(); begin += kRowsPerBatch) {
            if (begin > 0 && m_ctx.cancelled()) {
                m_cancelled = true;
                return false;
            }
            const std::size_t n = std::min(kRowsPerBatch, s.size() - begin);
            for (std::size_t k = 0; k < n; ++k) {
                const std::size_t i = begin + k;
                Slice& x = s[i];
                const SliceTracker::Placement placed = nesting.place(x.ts, x.dur);
                model::SliceRow& row = rows[k];
                row.pid = t.pid;
                row.tid = t.tid;
                row.ts = x.ts;
                row.dur = x.dur;
                row.depth = placed.depth;
                row.nameId = m_strings.dbId(x.name, m_writer);
                if (x.cat != Slice::kNoCat)
                    row.catId = m_strings.dbId(x.cat, m_writer);
                else
                    row.catId.reset();
                if (x.argsLen > 0 && argsFile) {
                    row.argsFileId = argsFile;
                    row.argsOffset = static_cast<int64_t>(x.argsOffset);
                    row.argsLen = static_cast<int64_t>(x.argsLen);
                } else {
                    row.argsFileId.reset();
                    row.argsOffset.reset();
                    row.argsLen.reset();
                }
                t.starts[i] = x.ts;
                t.ends[i] = x.ts + x.dur;
                t.parents[i] = placed.parent;
            }
            m_writer.addSlices(rows.data(), n, ids.data());
            for (std::size_t k = 0; k < n; ++k) {
                const std::size_t i = begin + k;
                const int64_t id = ids[k];
                if (i == 0)
                    t.firstId = id;
                if (t.sliceIds.empty() && id != t.firstId + static_cast<int64_t>(i)) {
                    t.sliceIds.resize(s.size());
                    for (std::size_t j = 0; j < i; ++j)
                        t.sliceIds[j] = t.firstId + static_cast<int64_t>(j);
                }
                if (!t.sliceIds.empty())
                    t.sliceIds[i] = id;
            }
        }
        std::vector<Slice>().swap(s);
    }

    if (flowSorter.joinable())
        flowSorter.join();
    std::vector<uint32_t> fo(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        fo[i] = keys[i].index;
    auto sameGroup = [&](std::size_t a, std::size_t b) {
        const FlowKey& x = keys[a];
        const FlowKey& y = keys[b];
        return x.cat == y.cat && x.k0 == y.k0 && x.k1 == y.k1 && m_flows[x.index].id == m_flows[y.index].id;
    };
    model::FlowRow flow;
    flow.rankId = m_ctx.rankId();
    std::vector<model::FlowRow> flowRows(1024); // filled rows are swapped in, their strings reused
    for (auto& r : flowRows)
        r.rankId = m_ctx.rankId();
    std::size_t flowCount = 0;
    auto setEnd
        = [&](const FlowPoint* p, model::OptInt& pid, model::OptInt& tid, model::OptInt& ts, model::OptInt& slice) {
              if (!p) {
                  pid.reset();
                  tid.reset();
                  ts.reset();
                  slice.reset();
                  return;
              }
              const Track& t = m_tracks[p->track];
              pid = t.pid;
              tid = t.tid;
              ts = p->ts;
              if (const int64_t id = bindPoint(t, p->ts))
                  slice = id;
              else
                  slice.reset();
          };
    auto emit = [&](const FlowPoint* src, const FlowPoint* dst) {
        const FlowPoint& any = src ? *src : *dst;
        flow.cat = m_strings.text(any.cat);
        if (any.name == FlowPoint::kNameIsCatId) {
            flow.name = m_strings.text(any.cat);
            flow.name->append(any.id);
        } else if (const std::string& name = m_strings.text(any.name); name.empty()) {
            flow.name.reset();
        } else {
            flow.name = name;
        }
        flow.flowId.assign(any.id);
        setEnd(src, flow.srcPid, flow.srcTid, flow.srcTs, flow.srcSliceId);
        setEnd(dst, flow.dstPid, flow.dstTid, flow.dstTs, flow.dstSliceId);
        if (flowCount == flowRows.size()) {
            m_writer.addFlows(flowRows.data(), flowCount);
            flowCount = 0;
        }
        std::swap(flowRows[flowCount++], flow);
    };

    FlowTracker pairing;
    std::vector<FlowTracker::Phase> phases;
    for (std::size_t begin = 0; begin < fo.size();) {
        if (m_ctx.cancelled()) {
            m_cancelled = true;
            return false;
        }
        std::size_t end = begin + 1;
        while (end < fo.size() && sameGroup(begin, end))
            ++end;
        phases.clear();
        for (std::size_t k = begin; k < end; ++k) {
            const char ph = m_flows[fo[k]].phase;
            phases.push_back(ph == 's' ? FlowTracker::Phase::Start
                    : ph == 't'        ? FlowTracker::Phase::Step
                                       : FlowTracker::Phase::End);
        }
        auto point = [&](int32_t k) { return k == FlowTracker::kNone ? nullptr : &m_flows[fo[begin + k]]; };
        for (const FlowTracker::Arrow& a : pairing.pair(phases, FlowTracker::Unpaired::Keep))
            emit(point(a.src), point(a.dst));
        begin = end;
    }
    m_writer.addFlows(flowRows.data(), flowCount);

    for (const auto& [kind, count] : m_ignored)
        m_ctx.info(std::nullopt,
            std::to_string(count) + " events with ph \"" + kind + "\" are not imported (only X, C, M, s, t, f are)");
    if (m_nonObjectEvents)
        m_ctx.warning(std::nullopt, std::to_string(m_nonObjectEvents) + " entries of the event array are not objects");
    return true;
}

std::string errnoText(int err) { return err ? std::string(std::strerror(err)) : std::string("unknown error"); }

bool runImpl(ImportContext& ctx, const TraceViewImporter::Options& options)
{
    errno = 0;
    FilePtr file(std::fopen(ctx.file().c_str(), "rb"));
    if (!file) {
        ctx.error(std::nullopt, "cannot open trace file: " + errnoText(errno));
        return false;
    }
    const auto stamp = SourceFile::stamp(file.get());
    auto onChunk = [&ctx](uint64_t bytes) {
        if (ctx.onBytes)
            ctx.onBytes(bytes);
        return !ctx.cancelled();
    };
    Importer importer(ctx, file.get(), options);
    JsonScanner scanner(file.get(), TraceViewImporter::kChunkBytes);
    scanner.onChunk = onChunk;
    const bool parsed = importer.parseDocument(scanner);
    importer.endParse();

    if (scanner.stopped() || importer.cancelled()) {
        ctx.info(std::nullopt, "import cancelled");
        return false;
    }
    bool ok = true;
    if (scanner.readError()) {
        ctx.error(std::nullopt,
            "read error at byte " + std::to_string(scanner.totalRead()) + ": " + errnoText(scanner.readErrno()));
        ok = false;
    } else if (scanner.totalRead() == 0) {
        ctx.error(std::nullopt, "file is empty");
        return false;
    } else if (!parsed) {
        // As nlohmann::json words it: the byte offset, then line and column (1-based, the failing byte
        // counted).
        const auto [line, column] = scanner.errorLineColumn();
        std::string message = scanner.errorMessage();
        if (line)
            message
                = "parse error at line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message;
        if (message.size() > 300)
            message = message.substr(0, 300) + "...";
        ctx.error(std::nullopt,
            "syntax error at byte " + std::to_string(scanner.errorOffset()) + ": " + message
                + " (events before this point were imported)");
        ok = false;
    } else if (!importer.sawEvents()) {
        ctx.error(std::nullopt, "no trace events: expected a JSON array of events or {\"traceEvents\": [...]}");
        ok = false;
    }
    if (!importer.finish(stamp, SourceFile::stamp(file.get()))) {
        ctx.info(std::nullopt, "import cancelled");
        return false;
    }
    return ok;
}

} // namespace

bool TraceViewImporter::run(ImportContext& ctx) { return run(ctx, Options()); }

bool TraceViewImporter::run(ImportContext& ctx, const Options& options)
{
    bool ok = false;
    try {
        ok = runImpl(ctx, options);
    } catch (...) {
        // Every failure is a parse issue of this file; only a failing model itself cannot record one.
        std::string what = "unknown error";
        try {
            throw;
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        try {
            ctx.error(std::nullopt, "import failed: " + what);
        } catch (...) {
            // The model itself is failing; nothing more can be recorded.
        }
        ok = false;
    }
    try {
        ctx.finish();
    } catch (...) {
        ok = false;
    }
    return ok;
}

std::optional<uint64_t> TraceViewImporter::parseOnly(const std::string& path)
{
    FilePtr file(std::fopen(path.c_str(), "rb"));
    if (!file)
        return std::nullopt;
    JsonScanner scanner(file.get(), kChunkBytes);
    if (!scanner.skipBom() || !scanner.skipValue() || !scanner.expectEnd() || scanner.readError())
        return std::nullopt;
    return scanner.totalRead();
}

} // namespace npuscope::io

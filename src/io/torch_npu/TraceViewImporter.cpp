// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/ThreadPriority.h"
#include "npuscope/io/torch_npu/TraceViewImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/RunOnThreads.h"
#include "npuscope/io/parse/FlowTracker.h"
#include "npuscope/io/parse/SimdjsonSupport.h"
#include "npuscope/io/parse/SliceTracker.h"
#include "npuscope/io/parse/SourceFile.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
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

#include <sys/stat.h>
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
    uint32_t size() const { return static_cast<uint32_t>(m_text.size()); }
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
            m_thread = std::thread([this] {
                enterBackground();
                work();
            });
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
// ---------------------------------------------------------------------------------------------
// One block of the events array, parsed on a worker thread with simdjson On Demand. Everything it
// produces uses block-local string and track indices; Importer::merge() maps them to the file's, in
// file order, so the merged result is what one pass over the whole file would give.

struct CounterRecord {
    int64_t pid, ts;
    double value;
    uint32_t textOffset, nameLen, seriesLen;
};

struct BlockResult {
    StringTable strings;
    Arena arena; // flow ids
    std::vector<Track> tracks;
    std::map<int64_t, ProcessInfo> processes;
    std::vector<FlowPoint> flows;
    std::vector<CounterRecord> counters;
    std::string counterText;
    std::vector<std::pair<std::string, uint64_t>> ignored; // ph -> count
    std::vector<TrText> warnings;
    uint64_t moreWarnings = 0;
    uint64_t slicesWithArgs = 0;
    uint64_t nonObjectEvents = 0;
    bool sawEvents = false;
};

// Why a block parse stopped early.
enum class BlockStop { None, Syntax, Cancelled };

namespace od = simdjson::ondemand;

class BlockBuilder {
public:
    // Thrown out of the walk when the import is cancelled.
    struct Cancelled { };

    BlockBuilder(BlockResult& out, ImportContext& ctx, const TraceViewImporter::Options& options, od::document& doc,
        const char* base, int64_t delta)
        : m_r(out)
        , m_ctx(ctx)
        , m_options(options)
        , m_doc(doc)
        , m_base(base)
        , m_delta(delta)
    {
    }

    // Walks the whole document (a bare array of events, or an object whose first "traceEvents" array
    // member holds them); throws simdjson_error on a syntax error, Cancelled when cancelled.
    void walkDocument();

private:
    using Arg = std::pair<std::string, RawValue>;

    void events(od::array array);
    void event(od::value v);
    void readArgs(od::value v);
    void readArgsObject(od::object object);
    static void readValue(od::value v, RawValue& out, bool wantDouble);
    bool phaseIsX() const
    {
        const RawValue& ph = m_fields[FPh];
        return ph.kind == Kind::String && ph.text.size() == 1 && ph.text[0] == 'X';
    }
    uint64_t fileOffset(const char* p) const { return static_cast<uint64_t>(p - m_base + m_delta); }
    void rereadSkippedArgs();

    void endEvent();
    void onSlice();
    void onCounter();
    void onFlow(char phase);
    void onMetadata();

    void warn(TrText what)
    {
        if (m_r.warnings.size() >= static_cast<std::size_t>(ImportContext::kMaxIssuesPerFile)) {
            ++m_r.moreWarnings;
            return;
        }
        m_r.warnings.push_back(issueText(QT_TRANSLATE_NOOP("ParseIssue", "event at byte %1: %2"),
            { std::to_string(m_eventOffset), std::move(what) }));
    }
    void warnField(const char* ph, const char* field, const RawValue& v)
    {
        const bool shown = v.kind == Kind::String || v.kind == Kind::Float;
        warn(issueText(QT_TRANSLATE_NOOP("ParseIssue", "ph %1 event with %2 %3%4, skipped"),
            { ph, kindText(v.kind), field, shown ? TrText(nullptr, " \"%1\"", { v.text.substr(0, 40) }) : TrText() }));
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
            m_r.processes.try_emplace(pid);
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

    BlockResult& m_r;
    ImportContext& m_ctx;
    const TraceViewImporter::Options& m_options;
    od::document& m_doc;
    const char* m_base; // the parsed buffer
    int64_t m_delta; // file offset = buffer offset + m_delta

    bool m_eventsDone = false;
    RawValue m_fields[FieldCount];
    bool m_hasArgs = false;
    uint64_t m_argsOffset = 0; // of the current event's args '{'
    uint64_t m_argsLen = 0; // '{' to '}' inclusive
    const char* m_argsText = nullptr;
    std::vector<Arg> m_argList;
    std::size_t m_argCount = 0;
    uint64_t m_eventOffset = 0;
    bool m_argsSkipped = false; // the args object was only validated (ph was "X" when it was read)
    uint64_t m_events = 0;
    std::string m_scratch;

    std::unordered_map<std::pair<int64_t, int64_t>, uint32_t, TrackKeyHash> m_trackIndex;
    int64_t m_lastPid = 0, m_lastTid = 0;
    uint32_t m_lastTrack = std::numeric_limits<uint32_t>::max();
    int64_t m_lastProcess = 0;
    bool m_haveLastProcess = false;
};

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

void BlockBuilder::walkDocument()
{
    const od::json_type type = m_doc.type();
    if (type == od::json_type::array) {
        events(m_doc.get_array());
    } else if (type == od::json_type::object) {
        for (auto field : m_doc.get_object()) {
            std::string_view key = field.unescaped_key();
            od::value v = field.value();
            if (key == "traceEvents" && !m_eventsDone && v.type().value() == od::json_type::array)
                events(v.get_array());
            else
                validateValue(v);
        }
    } else {
        validateDocument(m_doc);
        return;
    }
    requireEnd(m_doc);
}

void BlockBuilder::events(od::array array)
{
    m_r.sawEvents = true;
    for (auto element : array) {
        od::value v = element.value();
        const od::json_type type = v.type();
        if (type == od::json_type::object) {
            event(v);
        } else {
            if (type != od::json_type::array)
                ++m_r.nonObjectEvents;
            validateValue(v);
        }
    }
    m_eventsDone = true;
}

void BlockBuilder::event(od::value v)
{
    m_eventOffset = fileOffset(v.current_location().value()) + 1;
    for (auto& f : m_fields)
        f.kind = Kind::None;
    m_hasArgs = false;
    m_argsSkipped = false;
    m_argCount = 0;
    for (auto field : v.get_object()) {
        std::string_view key = field.unescaped_key();
        const Field f = fieldOf(key);
        od::value value = field.value();
        if (f == FArgs)
            readArgs(value);
        else if (f == FUnknown)
            validateValue(value);
        else
            readValue(value, m_fields[f], false);
    }
    endEvent();
}

void BlockBuilder::readArgs(od::value v)
{
    if (v.type().value() != od::json_type::object)
        return validateValue(v); // not an object: ignored, an earlier args object stays
    const char* start = v.current_location();
    m_hasArgs = true;
    m_argCount = 0;
    m_argsSkipped = phaseIsX();
    if (m_argsSkipped)
        validateValue(v);
    else
        readArgsObject(v.get_object());
    // The document's iterator now stands at the token after the closing '}'.
    const char* end = m_doc.current_location().value();
    while (end > start && end[-1] != '}')
        --end;
    m_argsText = start;
    m_argsOffset = fileOffset(start);
    m_argsLen = static_cast<uint64_t>(end - start);
}

// The top-level members of an args object: key and scalar value; nested values are only marked Compound.
void BlockBuilder::readArgsObject(od::object object)
{
    for (auto field : object) {
        if (m_argCount == m_argList.size())
            m_argList.emplace_back();
        auto& a = m_argList[m_argCount++];
        a.second.kind = Kind::None;
        std::string_view key = field.unescaped_key();
        a.first.assign(key);
        readValue(field.value(), a.second, true);
    }
}

// One value into out, as nlohmann delivers it: integers that fit int64 (negative) or uint64
// (otherwise) are Int/Uint, every other number is Float with its exact text.
void BlockBuilder::readValue(od::value v, RawValue& out, bool wantDouble)
{
    switch (v.type().value()) {
    case od::json_type::string: {
        std::string_view s = v.get_string();
        out.kind = Kind::String;
        out.text.assign(s);
        return;
    }
    case od::json_type::object:
    case od::json_type::array:
        out.kind = Kind::Compound;
        return validateValue(v);
    case od::json_type::boolean: {
        bool b = v.get_bool();
        (void)b;
        out.kind = Kind::Bool;
        return;
    }
    case od::json_type::null:
        if (!v.is_null().value())
            throw simdjson::simdjson_error(simdjson::N_ATOM_ERROR);
        out.kind = Kind::Null;
        return;
    case od::json_type::number:
        break;
    }
    const std::string_view text = trimToken(v.raw_json_token());
    bool integral = false, exponent = false;
    if (!isJsonNumber(text, integral, exponent))
        throw simdjson::simdjson_error(simdjson::NUMBER_ERROR);
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (integral && text.size() <= 19 && *begin != '-') {
        // Up to 19 digits always fit uint64: no overflow check needed (JSON has no leading zeros).
        uint64_t u = 0;
        for (const char* p = begin; p < end; ++p)
            u = u * 10 + static_cast<uint64_t>(*p - '0');
        out.kind = Kind::Uint;
        out.u = u;
        return;
    }
    if (integral) {
        if (*begin == '-') {
            const auto r = std::from_chars(begin, end, out.i);
            if (r.ec == std::errc() && r.ptr == end) {
                out.kind = Kind::Int;
                return;
            }
        } else {
            const auto r = std::from_chars(begin, end, out.u);
            if (r.ec == std::errc() && r.ptr == end) {
                out.kind = Kind::Uint;
                return;
            }
        }
    }
    out.kind = Kind::Float;
    out.text.assign(text);
    out.d = 0;
    // A value beyond a double's range is a syntax error (as nlohmann has it); only an exponent or
    // more than 308 integer digits can get there. Underflow reads as zero.
    if (wantDouble || exponent || text.size() > 308) {
        if (std::from_chars(begin, end, out.d).ec != std::errc()) {
            if (std::isinf(std::strtod(out.text.c_str(), nullptr)))
                throw simdjson::simdjson_error(simdjson::NUMBER_ERROR);
            out.d = *begin == '-' ? -0.0 : 0.0;
        }
    }
}

// An event whose args were skipped because ph was "X" turned out otherwise (a later duplicate "ph"):
// read its args back from the block.
void BlockBuilder::rereadSkippedArgs()
{
    m_argsSkipped = false;
    m_argCount = 0;
    if (!m_argsText || m_argsLen == 0)
        return;
    const simdjson::padded_string text(m_argsText, static_cast<std::size_t>(m_argsLen));
    od::parser parser;
    od::document doc = parser.iterate(text);
    readArgsObject(doc.get_object());
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

// ---------------------------------------------------------------------------------------------
// The file's collected data: blocks are merged into it in file order (merge()), and finish()
// writes it.

class Importer {
public:
    Importer(ImportContext& ctx, const TraceViewImporter::Options& options)
        : m_ctx(ctx)
        , m_options(options)
        , m_writer(ctx.writer())
        , m_counters(ctx.writer(), ctx.rankId())
    {
    }

    // Adds one block's events after those of the blocks merged before it. Callers serialise calls.
    void merge(BlockResult& block);

    bool sawEvents() const { return m_sawEvents; }

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
            m_ctx.warning(std::nullopt, TrText());
    }

    // Writes processes, threads, slices (with depth) and flows. Returns false when cancelled.
    // stamp: the file's size and mtime when it was opened; slice args point into the file only when
    // it is still the same after parsing (else they are dropped with a warning).
    bool finish(const std::optional<FileStamp>& stamp, const std::optional<FileStamp>& stampAfter);

private:
    uint32_t trackIndex(int64_t pid, int64_t tid)
    {
        auto [it, inserted] = m_trackIndex.try_emplace({ pid, tid }, static_cast<uint32_t>(m_tracks.size()));
        if (inserted) {
            Track t;
            t.pid = pid;
            t.tid = tid;
            m_tracks.push_back(std::move(t));
        }
        return it->second;
    }
    int64_t bindPoint(const Track& track, int64_t point) const;

    ImportContext& m_ctx;
    const TraceViewImporter::Options& m_options;
    model::ModelWriter& m_writer;

    StringTable m_strings;
    std::vector<Arena> m_arenas;
    std::vector<Track> m_tracks;
    std::unordered_map<std::pair<int64_t, int64_t>, uint32_t, TrackKeyHash> m_trackIndex;
    std::map<int64_t, ProcessInfo> m_processes;
    std::vector<FlowPoint> m_flows;
    std::vector<std::pair<std::string, uint64_t>> m_ignored; // ph -> count
    uint64_t m_slicesWithArgs = 0;
    uint64_t m_nonObjectEvents = 0;
    bool m_sawEvents = false;
    CounterSink m_counters;
    std::vector<TrText> m_warnings;
    uint64_t m_moreWarnings = 0;
    std::vector<uint32_t> m_stringMap, m_trackMap; // block index -> file index, reused

    bool m_cancelled = false;
};

namespace {

// Room for extra more elements, growing geometrically: reserve(size() + extra) on every block reallocated and
// copied the whole vector each time (flows of a 506 MB trace: 9 % of the import in the copies and their page
// faults).
template <typename T> void reserveMore(std::vector<T>& v, size_t extra)
{
    if (v.capacity() - v.size() < extra)
        v.reserve(std::max(v.size() + extra, 2 * v.capacity()));
}

} // namespace

void Importer::merge(BlockResult& block)
{
    m_sawEvents = m_sawEvents || block.sawEvents;
    // Block strings in their first-appearance order: the file's table gets the order one pass would give.
    m_stringMap.resize(block.strings.size());
    for (uint32_t i = 0; i < m_stringMap.size(); ++i)
        m_stringMap[i] = m_strings.get(block.strings.text(i));
    for (auto& [pid, p] : block.processes) {
        auto& to = m_processes[pid];
        if (p.name)
            to.name = std::move(p.name);
        if (p.label)
            to.label = std::move(p.label);
        if (p.sortIndex)
            to.sortIndex = p.sortIndex;
    }
    m_trackMap.resize(block.tracks.size());
    for (uint32_t i = 0; i < m_trackMap.size(); ++i) {
        Track& from = block.tracks[i];
        const uint32_t index = trackIndex(from.pid, from.tid);
        m_trackMap[i] = index;
        Track& to = m_tracks[index];
        if (from.name)
            to.name = std::move(from.name);
        if (from.sortIndex)
            to.sortIndex = from.sortIndex;
        if (from.textTid && !to.textTid)
            to.textTid = std::move(from.textTid);
        if (to.slices.empty()) {
            to.slices = std::move(from.slices);
            for (Slice& s : to.slices) {
                s.name = m_stringMap[s.name];
                if (s.cat != Slice::kNoCat)
                    s.cat = m_stringMap[s.cat];
            }
        } else {
            reserveMore(to.slices, from.slices.size());
            for (Slice s : from.slices) {
                s.name = m_stringMap[s.name];
                if (s.cat != Slice::kNoCat)
                    s.cat = m_stringMap[s.cat];
                to.slices.push_back(s);
            }
        }
    }
    reserveMore(m_flows, block.flows.size());
    for (FlowPoint p : block.flows) {
        p.seq = static_cast<uint32_t>(m_flows.size());
        p.track = m_trackMap[p.track];
        p.cat = m_stringMap[p.cat];
        if (p.name != FlowPoint::kNameIsCatId)
            p.name = m_stringMap[p.name];
        m_flows.push_back(p);
    }
    m_arenas.push_back(std::move(block.arena)); // the flow ids stay where they are
    for (const CounterRecord& c : block.counters) {
        const std::string_view text(block.counterText.data() + c.textOffset, c.nameLen + c.seriesLen);
        m_counters.add(c.pid, c.ts, text.substr(0, c.nameLen), text.substr(c.nameLen), c.value);
    }
    // Not a structured binding: clang 14 (the sanitizer build) cannot capture one in a lambda.
    for (auto& entry : block.ignored) {
        const std::string& kind = entry.first;
        auto it = std::find_if(m_ignored.begin(), m_ignored.end(), [&](const auto& p) { return p.first == kind; });
        if (it == m_ignored.end())
            m_ignored.emplace_back(std::move(entry.first), entry.second);
        else
            it->second += entry.second;
    }
    for (auto& w : block.warnings) {
        if (m_warnings.size() < static_cast<std::size_t>(ImportContext::kMaxIssuesPerFile))
            m_warnings.push_back(std::move(w));
        else
            ++m_moreWarnings;
    }
    m_moreWarnings += block.moreWarnings;
    m_slicesWithArgs += block.slicesWithArgs;
    m_nonObjectEvents += block.nonObjectEvents;
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
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "file changed while it was imported (or is not a regular file): the args of %1 slices are "
                          "not kept"),
                { std::to_string(m_slicesWithArgs) }));
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
        flowSorter = std::thread([&sortFlows] {
            enterBackground();
            sortFlows();
        });
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
            issueText(QT_TRANSLATE_NOOP(
                          "ParseIssue", "%1 events with ph \"%2\" are not imported (only X, C, M, s, t, f are)"),
                { std::to_string(count), kind }));
    if (m_nonObjectEvents)
        m_ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 entries of the event array are not objects"),
                { std::to_string(m_nonObjectEvents) }));
    return true;
}

std::string errnoText(int err) { return err ? std::string(std::strerror(err)) : std::string("unknown error"); }

// ---------------------------------------------------------------------------------------------
// Splitting the file. The events array is cut into blocks of about kBlockBytes at element
// boundaries; each block is parsed as a document of its own: the first block is the file's start
// closed with "]" (or "]}"), a middle block is "[" + its elements + "]", the last one is "[" (or
// {"traceEvents":[) + the file's end. A cut is guessed from the text ('}' , '{'), without the state
// before it; a wrong guess (inside a string or a nested object) makes the block before it fail to
// parse, and the two blocks are then parsed as one. A block that parses is complete elements, so
// the next cut is a true boundary.

struct Layout {
    uint64_t size = 0;
    uint64_t bom = 0; // 3 when the file starts with a UTF-8 BOM (simdjson wants it left out)
    uint64_t eventsStart = 0; // first byte after the events array's '['
    std::string open = "[", close; // text that opens / closes the events of a cut block
    bool splittable = false;
};

struct Span {
    uint64_t begin = 0, end = 0; // file bytes of the block
};

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Reads len bytes at offset; false with errno set on a read error or a short file.
bool readAt(int fd, uint64_t offset, char* dst, std::size_t len)
{
    while (len > 0) {
        const ssize_t n = ::pread(fd, dst, len, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return false;
        }
        dst += n;
        offset += static_cast<uint64_t>(n);
        len -= static_cast<std::size_t>(n);
    }
    return true;
}

// Recognises the two shapes that can be split: [ events ] and {"traceEvents": [ events ] ...}.
Layout detectLayout(int fd, uint64_t size)
{
    Layout l;
    l.size = size;
    std::string head(static_cast<std::size_t>(std::min<uint64_t>(size, 4096)), '\0');
    if (!readAt(fd, 0, head.data(), head.size()))
        return l;
    std::size_t i = 0;
    if (head.starts_with("\xef\xbb\xbf"))
        i = l.bom = 3;
    auto skipSpace = [&] {
        while (i < head.size() && isSpace(head[i]))
            ++i;
    };
    skipSpace();
    if (i < head.size() && head[i] == '[') {
        l.eventsStart = i + 1;
        l.close = "]";
        l.splittable = true;
        return l;
    }
    if (i >= head.size() || head[i] != '{')
        return l;
    ++i;
    skipSpace();
    constexpr std::string_view kKey = "\"traceEvents\"";
    if (head.compare(i, kKey.size(), kKey) != 0)
        return l;
    i += kKey.size();
    skipSpace();
    if (i >= head.size() || head[i] != ':')
        return l;
    ++i;
    skipSpace();
    if (i >= head.size() || head[i] != '[')
        return l;
    l.eventsStart = i + 1;
    l.open = "{\"traceEvents\":[";
    l.close = "]}";
    l.splittable = true;
    return l;
}

// Block spans: one for the whole file unless it is large and splittable.
std::vector<Span> splitBlocks(int fd, const Layout& l, std::size_t blockBytes)
{
    std::vector<Span> spans { { l.bom, l.size } };
    if (!l.splittable)
        return spans;
    constexpr std::size_t kWindow = 1 << 16;
    std::string window(kWindow, '\0');
    blockBytes = std::max<std::size_t>(blockBytes, 64);
    for (uint64_t nominal = l.eventsStart + blockBytes; nominal + blockBytes / 4 < l.size; nominal += blockBytes) {
        if (nominal <= spans.back().begin)
            continue;
        const auto len = static_cast<std::size_t>(std::min<uint64_t>(kWindow, l.size - nominal));
        if (!readAt(fd, nominal, window.data(), len))
            break; // the parse reports the read error
        for (std::size_t i = 0; i < len; ++i) {
            if (window[i] != '}')
                continue;
            std::size_t j = i + 1;
            while (j < len && isSpace(window[j]))
                ++j;
            if (j >= len || window[j] != ',')
                continue;
            ++j;
            while (j < len && isSpace(window[j]))
                ++j;
            if (j >= len || window[j] != '{')
                continue;
            spans.back().end = nominal + i + 1;
            spans.push_back({ nominal + j, l.size });
            break;
        }
    }
    return spans;
}

// One block's text in a padded buffer, ready for simdjson.
class BlockText {
public:
    // Loads block k of spans; false with errno set on a read error. cut: parse only the block's bytes
    // before this file offset (and close the events there).
    bool load(int fd, const Layout& l, const std::vector<Span>& spans, std::size_t k,
        std::optional<uint64_t> cut = std::nullopt)
    {
        const Span& s = spans[k];
        const bool last = k + 1 == spans.size() && !cut;
        const std::string_view prefix = k == 0 ? std::string_view() : last ? std::string_view(l.open) : "[";
        const std::string_view suffix = last ? std::string_view() : k == 0 ? std::string_view(l.close) : "]";
        const uint64_t end = cut ? *cut : s.end;
        const auto bytes = static_cast<std::size_t>(end - s.begin);
        m_size = prefix.size() + bytes + suffix.size();
        if (m_capacity < m_size + simdjson::SIMDJSON_PADDING) {
            m_capacity = m_size + simdjson::SIMDJSON_PADDING;
            m_buffer.reset(new char[m_capacity]);
        }
        // An empty prefix or suffix is a view with no data (nullptr): memcpy from a null pointer is undefined even
        // for 0 bytes (UBSan, fuzz target trace_view).
        if (!prefix.empty())
            std::memcpy(m_buffer.get(), prefix.data(), prefix.size());
        if (!readAt(fd, s.begin, m_buffer.get() + prefix.size(), bytes))
            return false;
        if (!suffix.empty())
            std::memcpy(m_buffer.get() + prefix.size() + bytes, suffix.data(), suffix.size());
        std::memset(m_buffer.get() + m_size, 0, simdjson::SIMDJSON_PADDING);
        m_delta = static_cast<int64_t>(s.begin) - static_cast<int64_t>(prefix.size());
        m_realEnd = prefix.size() + bytes;
        return true;
    }
    const char* data() const { return m_buffer.get(); }
    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_capacity; }
    int64_t delta() const { return m_delta; } // file offset = text offset + delta
    std::size_t realEnd() const { return m_realEnd; } // text offset where the synthetic close starts

private:
    std::unique_ptr<char[]> m_buffer;
    std::size_t m_capacity = 0, m_size = 0, m_realEnd = 0;
    int64_t m_delta = 0;
};

struct BlockOutcome {
    BlockResult result;
    BlockStop stop = BlockStop::None;
    bool readError = false;
    int readErrno = 0;
    simdjson::error_code code = simdjson::SUCCESS;
    std::optional<uint64_t> errorOffset; // where simdjson stopped, when it knows
};

// Parses text into out.result.
void parseText(od::parser& parser, const BlockText& text, ImportContext& ctx, const TraceViewImporter::Options& options,
    BlockOutcome& out)
{
    od::document doc;
    try {
        if (const auto error = parser.iterate(text.data(), text.size(), text.capacity()).get(doc)) {
            out.stop = BlockStop::Syntax;
            out.code = error;
            return;
        }
        BlockBuilder builder(out.result, ctx, options, doc, text.data(), text.delta());
        builder.walkDocument();
    } catch (const simdjson::simdjson_error& e) {
        out.stop = BlockStop::Syntax;
        out.code = e.error();
        const char* at = nullptr;
        if (!doc.current_location().get(at) && at >= text.data() && at <= text.data() + text.size())
            out.errorOffset = static_cast<uint64_t>(at - text.data() + text.delta());
    } catch (const BlockBuilder::Cancelled&) {
        out.stop = BlockStop::Cancelled;
    }
}

// nlohmann's verdict on a text, for exact error offsets and wording: the parser the project always
// reported errors with.
struct NlohmannError {
    uint64_t offset = 0; // in the text
    std::string message;
};

std::optional<NlohmannError> nlohmannError(const char* data, std::size_t size)
{
    struct Capture : AcceptAllSax {
        std::optional<NlohmannError> error;
        bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override
        {
            std::string what = e.what();
            // "[json.exception.parse_error.101] parse error at line 1, column 5: <message>": the line
            // and column are the text's, not the file's; they are computed again from the offset.
            if (const auto column = what.find(", column "); column != std::string::npos)
                if (const auto colon = what.find(": ", column); colon != std::string::npos)
                    what = what.substr(colon + 2);
            error = NlohmannError { position > 0 ? position - 1 : 0, std::move(what) };
            return false;
        }
    } capture;
    nlohmann::json::sax_parse(data, data + size, &capture);
    return capture.error;
}

// 1-based line and column of a file offset (the byte at offset counted, as nlohmann counts).
std::pair<uint64_t, uint64_t> lineColumn(int fd, uint64_t offset)
{
    uint64_t line = 1, lineStart = 0;
    std::vector<char> chunk(std::size_t(1) << 20);
    for (uint64_t at = 0; at < offset;) {
        const auto n = static_cast<std::size_t>(std::min<uint64_t>(chunk.size(), offset - at));
        if (!readAt(fd, at, chunk.data(), n))
            return { 0, 0 };
        for (std::size_t i = 0; i < n; ++i) {
            if (chunk[i] == '\n') {
                ++line;
                lineStart = at + i + 1;
            }
        }
        at += n;
    }
    return { line, offset - lineStart + 1 };
}

// Parses spans [from, end) on every core and merges them into importer in file order. Returns the
// index of the first block that did not parse (its outcome in failed), or spans.size().
std::size_t parseBlocks(int fd, const Layout& layout, const std::vector<Span>& spans, std::size_t from,
    ImportContext& ctx, const TraceViewImporter::Options& options, Importer& importer, BlockOutcome& failed)
{
    const std::size_t count = spans.size() - from;
    std::vector<std::unique_ptr<BlockOutcome>> done(count);
    std::mutex mutex;
    std::size_t nextMerge = 0;
    std::size_t stoppedAt = spans.size();
    std::atomic<std::size_t> next { 0 };
    std::atomic<bool> stop { false };
    runOnThreads(std::min(count, options.threads ? options.threads : hardwareThreads()), [&](std::size_t) {
        od::parser parser;
        BlockText text;
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= count || stop.load())
                return;
            auto outcome = std::make_unique<BlockOutcome>();
            if (!text.load(fd, layout, spans, from + i)) {
                outcome->readError = true;
                outcome->readErrno = errno;
                outcome->errorOffset = spans[from + i].begin;
            } else if (ctx.cancelled()) {
                outcome->stop = BlockStop::Cancelled;
            } else {
                parseText(parser, text, ctx, options, *outcome);
            }
            std::lock_guard lock(mutex);
            done[i] = std::move(outcome);
            while (nextMerge < count && done[nextMerge] && stoppedAt == spans.size()) {
                BlockOutcome& o = *done[nextMerge];
                if (o.readError || o.stop != BlockStop::None) {
                    if (o.stop == BlockStop::Cancelled && ctx.onBytes)
                        ctx.onBytes(spans[from + nextMerge].end); // read, as a progress bar expects
                    stoppedAt = from + nextMerge;
                    failed = std::move(o);
                    stop = true;
                    break;
                }
                importer.merge(o.result);
                done[nextMerge].reset();
                if (ctx.onBytes)
                    ctx.onBytes(spans[from + nextMerge].end);
                ++nextMerge;
            }
        }
    });
    return stoppedAt;
}

bool runImpl(ImportContext& ctx, const TraceViewImporter::Options& options)
{
    errno = 0;
    FilePtr file(std::fopen(ctx.file().c_str(), "rb"));
    if (!file) {
        ctx.error(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot open trace file: %1"), { errnoText(errno) }));
        return false;
    }
    const int fd = ::fileno(file.get());
    const auto stamp = SourceFile::stamp(file.get());
    struct stat st { };
    if (::fstat(fd, &st) != 0) {
        ctx.error(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot read trace file: %1"), { errnoText(errno) }));
        return false;
    }
    const auto size = static_cast<uint64_t>(st.st_size);
    if (size == 0) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "file is empty")));
        return false;
    }
    const Layout layout = detectLayout(fd, size);
    std::vector<Span> spans = splitBlocks(fd, layout, options.blockBytes);

    Importer importer(ctx, options);
    bool ok = true;
    bool cancelled = false;
    for (std::size_t from = 0;;) {
        BlockOutcome failed;
        const std::size_t f = parseBlocks(fd, layout, spans, from, ctx, options, importer, failed);
        if (f == spans.size())
            break;
        if (failed.stop == BlockStop::Cancelled) {
            cancelled = true;
            break;
        }
        ok = false;
        if (failed.readError) {
            ctx.error(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "read error at byte %1: %2"),
                    { std::to_string(failed.errorOffset.value_or(0)), errnoText(failed.readErrno) }));
            break;
        }
        // A syntax error, or a wrong cut. nlohmann over the block tells them apart and words the error.
        BlockText text;
        if (!text.load(fd, layout, spans, f)) {
            ctx.error(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "read error at byte %1: %2"),
                    { std::to_string(spans[f].begin), errnoText(errno) }));
            break;
        }
        const bool last = f + 1 == spans.size();
        const auto located = nlohmannError(text.data(), text.size());
        if (!located || (!last && located->offset >= text.realEnd())) {
            if (!last) {
                spans[f].end = spans[f + 1].end;
                spans.erase(spans.begin() + static_cast<std::ptrdiff_t>(f) + 1);
                from = f;
                ok = true;
                continue;
            }
        }
        uint64_t offset = failed.errorOffset.value_or(spans[f].begin);
        std::string message = std::string("simdjson: ") + simdjson::error_message(failed.code);
        if (located) {
            offset = static_cast<uint64_t>(static_cast<int64_t>(located->offset) + text.delta());
            message = located->message;
        }
        // The events before the error are kept: the block is parsed again up to the last element that
        // ends before it ('}' then ','; a guess that does not parse tries the one before).
        const auto before = static_cast<std::size_t>(
            std::clamp<int64_t>(static_cast<int64_t>(offset) - text.delta(), 0, static_cast<int64_t>(text.realEnd())));
        const std::string_view head(text.data(), before);
        od::parser parser;
        BlockText part;
        int tries = 0;
        for (std::size_t at = head.size(); at > 0 && tries < 64; --at) {
            if (head[at - 1] != '}')
                continue;
            std::size_t j = at;
            while (j < head.size() && isSpace(head[j]))
                ++j;
            if (j >= head.size() || head[j] != ',')
                continue;
            const auto cut = static_cast<uint64_t>(static_cast<int64_t>(at) + text.delta());
            if (cut <= spans[f].begin)
                break;
            ++tries;
            BlockOutcome outcome;
            if (!part.load(fd, layout, spans, f, cut))
                break;
            parseText(parser, part, ctx, options, outcome);
            if (outcome.stop == BlockStop::None) {
                importer.merge(outcome.result);
                break;
            }
        }
        const auto [line, column] = lineColumn(fd, offset);
        if (line)
            message
                = "parse error at line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message;
        if (message.size() > 300)
            message = message.substr(0, 300) + "...";
        ctx.error(std::nullopt,
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "syntax error at byte %1: %2 (events before this point were imported)"),
                { std::to_string(offset), message }));
        break;
    }
    importer.endParse();
    if (cancelled) {
        ctx.info(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "import cancelled")));
        return false;
    }
    if (ok && !importer.sawEvents()) {
        ctx.error(std::nullopt,
            issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "no trace events: expected a JSON array of events or {\"traceEvents\": [...]}")));
        ok = false;
    }
    if (!importer.finish(stamp, SourceFile::stamp(file.get()))) {
        ctx.info(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "import cancelled")));
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
            ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "import failed: %1"), { what }));
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

namespace {

// Every key and value visited as its raw token; the sum of a byte of each keeps the walk from being optimised away.
template <class V> void walkRaw(V& v, uint64_t& touched)
{
    switch (v.type().value()) {
    case od::json_type::object:
        for (auto field : v.get_object()) {
            touched += static_cast<unsigned char>(field.key().value().raw()[0]);
            od::value inner = field.value();
            walkRaw(inner, touched);
        }
        break;
    case od::json_type::array:
        for (auto element : v.get_array()) {
            od::value inner = element.value();
            walkRaw(inner, touched);
        }
        break;
    default: {
        const std::string_view token = v.raw_json_token();
        touched += token.size();
        break;
    }
    }
}

// The benchmark floors: the file read whole, the BOM left out (the padding after the text stays), one On Demand
// walk of the document; the bytes read, or nullopt when the file cannot be read or the walk fails.
template <typename Walk> std::optional<uint64_t> walkWholeFile(const std::string& path, Walk walk)
{
    simdjson::padded_string text;
    if (simdjson::padded_string::load(path).get(text))
        return std::nullopt;
    std::string_view body(text.data(), text.size());
    if (body.starts_with("\xef\xbb\xbf"))
        body.remove_prefix(3);
    od::parser parser;
    try {
        od::document doc = parser.iterate(body.data(), body.size(), body.size() + simdjson::SIMDJSON_PADDING);
        walk(doc);
    } catch (const simdjson::simdjson_error&) {
        return std::nullopt;
    }
    return text.size();
}

} // namespace

std::optional<uint64_t> TraceViewImporter::walkRawOnly(const std::string& path)
{
    uint64_t touched = 0;
    const auto bytes = walkWholeFile(path, [&touched](od::document& doc) {
        walkRaw(doc, touched);
        requireEnd(doc);
    });
    const volatile uint64_t keep = touched; // the walk's result is used
    static_cast<void>(keep);
    return bytes;
}

std::optional<uint64_t> TraceViewImporter::parseOnly(const std::string& path)
{
    return walkWholeFile(path, [](od::document& doc) { validateDocument(doc); });
}

} // namespace npuscope::io

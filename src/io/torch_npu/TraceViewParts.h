// SPDX-License-Identifier: Apache-2.0
// What the parts of the trace_view.json import share (TraceViewImporter.cpp: the run and the error handling around
// it; TraceViewBlocks.cpp: cutting the file into blocks and parsing them on every core; TraceViewScan.cpp: the
// simdjson walk of one block; TraceViewEvents.cpp: what each kind of event adds to a block's result;
// TraceViewCounterSink.cpp: the counter inserts on a second thread; TraceViewMerge.cpp: blocks merged in file order;
// TraceViewWrite.cpp and TraceViewFlows.cpp: the processes, threads, slices and flows written at the end;
// TraceViewErrors.cpp: syntax errors located and worded). Private to src/io/torch_npu.
#pragma once

#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/io/parse/SourceFile.h"
#include "npuscope/io/torch_npu/TraceViewImporter.h"

#include <simdjson.h>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace npuscope::io::trace_view {

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

// ---------------------------------------------------------------------------------------------
// Counter rows go to SQLite on a second thread while the parse continues: counters are often half
// of the events, and their inserts are independent of everything else. The parse thread never
// touches the writer until close() has joined the worker, so the connection still has one user at
// a time. Falls back to inserting inline when no thread can be started. (TraceViewCounterSink.cpp)

class CounterSink {
public:
    CounterSink(model::ModelWriter& writer, int64_t rankId);
    ~CounterSink();
    CounterSink(const CounterSink&) = delete;
    CounterSink& operator=(const CounterSink&) = delete;

    void add(int64_t pid, int64_t ts, std::string_view name, std::string_view series, double value);

    // Hands over the last batch and waits for the worker; rethrows an error it hit.
    void close();

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

    void flush();
    void work();
    void insert(int64_t pid, int64_t ts, std::string_view name, std::string_view series, double value);

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

    void warn(TrText what);
    void warnField(const char* ph, const char* field, const RawValue& v);

    std::optional<int64_t> idValue(const RawValue& v, bool& ok);

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

    // The parts of finish() (TraceViewWrite.cpp, TraceViewFlows.cpp).
    // The flow sort compares the first 16 bytes of the ids as two big-endian integers (zero padded: an
    // order consistent with comparing the text) and the whole id only when those are equal.
    struct FlowKey {
        uint64_t k0, k1;
        uint32_t cat, index; // index into m_flows, which is also the point's seq
    };
    void writeProcesses();
    void sortFlowKeys(std::vector<FlowKey>& keys) const;
    bool writeSlices(const std::vector<uint32_t>& order, const model::OptInt& argsFile);
    bool writeFlows(const std::vector<FlowKey>& keys);
    void reportSkippedEvents();

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

// One block's text in a padded buffer, ready for simdjson.
class BlockText {
public:
    // Loads block k of spans; false with errno set on a read error. cut: parse only the block's bytes
    // before this file offset (and close the events there).
    bool load(int fd, const Layout& l, const std::vector<Span>& spans, std::size_t k,
        std::optional<uint64_t> cut = std::nullopt);
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

// TraceViewBlocks.cpp: the file's layout, its blocks, and their parallel parse.
bool isSpace(char c);
bool readAt(int fd, uint64_t offset, char* dst, std::size_t len);
Layout detectLayout(int fd, uint64_t size);
std::vector<Span> splitBlocks(int fd, const Layout& l, std::size_t blockBytes);
std::size_t parseBlocks(int fd, const Layout& layout, const std::vector<Span>& spans, std::size_t from,
    ImportContext& ctx, const TraceViewImporter::Options& options, Importer& importer, BlockOutcome& failed);

// TraceViewScan.cpp: one block's text walked into out.result.
void parseText(od::parser& parser, const BlockText& text, ImportContext& ctx, const TraceViewImporter::Options& options,
    BlockOutcome& out);

// TraceViewErrors.cpp: error texts, and a block that did not parse.
std::string errnoText(int err);
bool joinWrongCutOrReport(int fd, const Layout& layout, std::vector<Span>& spans, std::size_t f,
    const BlockOutcome& failed, ImportContext& ctx, const TraceViewImporter::Options& options, Importer& importer);

} // namespace npuscope::io::trace_view

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/db/DbTimelineImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/io/db/DbSliceArgs.h"
#include "npuscope/io/db/SqliteExport.h"
#include "npuscope/io/parse/FlowTracker.h"
#include "npuscope/io/parse/SliceTracker.h"
#include "npuscope/io/parse/SourceFile.h"
#include "npuscope/model/ModelWriter.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace npuscope::io {

namespace {

// Synthetic pids. The Ascend Hardware process of device d is kDevicePidBase + d; the other device processes
// (HCCL, counters, Overlap Analysis) are kDevicePidBase + sort index * 1000 + d. The Python and MsTx processes are
// kept apart from the CANN process, which uses the real pid of globalTid (Linux pids stay below 2^22).
constexpr int64_t kDevicePidBase = 1'000'000;
constexpr int64_t kPythonPidBase = 10'000'000;
constexpr int64_t kMstxPidBase = 20'000'000;

// Bytes -> the units the text exports write (msprof and torch_npu divide by 1024: 1522532352 B = 1452.0 MB).
constexpr double kBytesPerKb = 1024.0;
constexpr double kBytesPerMb = 1024.0 * 1024.0;

// Device processes as the text trace_view.json names and sorts them.
struct DeviceProcess {
    const char* name;
    int64_t sortIndex;
};
constexpr DeviceProcess kHardware { "Ascend Hardware", 13 };
constexpr DeviceProcess kAiCoreFreq { "AI Core Freq", 14 };
constexpr DeviceProcess kHccl { "HCCL", 15 };
constexpr DeviceProcess kHbm { "HBM", 17 };
constexpr DeviceProcess kLlc { "LLC", 18 };
constexpr DeviceProcess kNpuMem { "NPU MEM", 19 };
constexpr DeviceProcess kSocInfo { "Stars Soc Info", 20 };
constexpr DeviceProcess kAccPmu { "Acc PMU", 21 };
constexpr DeviceProcess kOverlap { "Overlap Analysis", 23 };
// Not in the text trace (the text export has these only as CSV files): MEMORY_RECORD and NPU_MODULE_MEM.
constexpr DeviceProcess kMemory { "Memory", 24 };
constexpr DeviceProcess kModuleMem { "NPU Module Mem", 25 };

// HCCL threads: group g's ops on tid g * kGroupTidStride ("Group g Communication"), its planes after it.
constexpr int64_t kGroupTidStride = 100;

enum class Source : uint8_t { Task, CommTask, Cann, Python, CommOp, Mstx, Overlap };

struct Slice {
    int64_t ts = 0, dur = 0;
    int64_t nameId = 0;
    std::optional<int64_t> catId;
    std::optional<int64_t> connectionId; // PYTORCH_API: the CONNECTION_IDS key
    int64_t rowid = -1; // row of the export the args come from, -1 for none
    Source source = Source::Task;
};

struct Track {
    std::string name;
    std::optional<int64_t> sortIndex;
    std::vector<Slice> slices;
};

struct Endpoint {
    int64_t pid = 0, tid = 0, ts = 0, sliceId = 0;
};

// startNs / endNs are TEXT in PYTORCH_API (values beyond what some writers keep in INTEGER); NUMERIC timestamps.
std::optional<int64_t> intOf(const model::Statement& st, int col)
{
    if (st.isNull(col))
        return std::nullopt;
    const auto text = st.optText(col);
    if (!text)
        return std::nullopt;
    int64_t v = 0;
    const char* b = text->data();
    const char* e = b + text->size();
    while (b < e && *b == ' ')
        ++b;
    const auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p == b)
        return std::nullopt;
    if (p != e && (*p == '.' || *p == 'e' || *p == 'E')) {
        const double r = st.real(col); // a REAL timestamp; NaN or beyond int64 is not a time
        if (!(r > -9.2e18 && r < 9.2e18))
            return std::nullopt;
        return static_cast<int64_t>(r);
    }
    return v;
}

// "read" -> "Read", "app" -> "APP" (the text trace's spelling).
std::string titled(std::string s)
{
    if (s == "app")
        return "APP";
    if (!s.empty())
        s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

// The text trace names CANN slices "<level>@<api>" (AscendCL@aclrtMemcpyAsync, Node@launch, Hccl@...); the db
// keeps the bare API name and the level in ENUM_API_TYPE.
std::string cannPrefix(const std::optional<std::string>& level)
{
    static const std::map<std::string, std::string> kPrefixes { { "acl", "AscendCL@" }, { "node", "Node@" },
        { "hccl", "Hccl@" }, { "runtime", "Runtime@" }, { "model", "Model@" } };
    const auto it = level ? kPrefixes.find(*level) : kPrefixes.end();
    return it == kPrefixes.end() ? std::string() : it->second;
}

class Importer {
public:
    explicit Importer(ImportContext& ctx)
        : m_ctx(ctx)
        , m_writer(ctx.writer())
        , m_db(ctx.file())
    {
    }

    bool run()
    {
        // Args stay in the .db: slices point at their row (see DbSliceArgs), checked against this stamp on read.
        if (const auto stamp = SourceFile::stamp(m_ctx.file()))
            m_fileId = m_writer.addSourceFile(m_ctx.rankId(), m_ctx.file(), stamp->sizeBytes, stamp->mtimeNs);
        m_device = firstDevice();
        readCommunicationOps();
        readTasks();
        readApi(m_db.firstTable({ "CANN_API", "API" }), Source::Cann);
        readApi("PYTORCH_API", Source::Python);
        readMstx();
        readOverlap();
        readCounters();
        if (m_ctx.cancelled())
            return false;
        return write();
    }

private:
    int64_t nameId(const std::string& name)
    {
        const auto it = m_names.find(name);
        if (it != m_names.end())
            return it->second;
        const int64_t id = m_writer.intern(name);
        m_names.emplace(name, id);
        return id;
    }

    void process(int64_t pid, const char* name, const char* label, int64_t sortIndex)
    {
        if (m_processes.count(pid))
            return;
        model::ProcessRow row;
        row.rankId = m_ctx.rankId();
        row.pid = pid;
        row.name = name;
        row.label = label;
        row.sortIndex = sortIndex;
        m_processes.emplace(pid, row);
    }

    int64_t devicePid(const DeviceProcess& p, int64_t device)
    {
        const int64_t pid = &p == &kHardware ? kDevicePidBase + device : kDevicePidBase + p.sortIndex * 1000 + device;
        process(pid, p.name, "NPU", p.sortIndex);
        return pid;
    }

    Track& track(int64_t pid, int64_t tid, const std::string& name, std::optional<int64_t> sortIndex)
    {
        auto [it, inserted] = m_tracks.try_emplace({ pid, tid });
        if (inserted) {
            it->second.name = name;
            it->second.sortIndex = sortIndex;
        }
        return it->second;
    }

    bool tick() { return (++m_rows & 4095) != 0 || !m_ctx.cancelled(); }

    int64_t firstDevice()
    {
        const std::string col = m_db.column("TASK", { "deviceId", "device_id" });
        if (col.empty())
            return 0;
        return m_db.db()
            .prepare("SELECT " + col + " FROM TASK WHERE " + col + " IS NOT NULL LIMIT 1")
            .scalarInt()
            .value_or(0);
    }

    int64_t groupIndex(const std::optional<std::string>& group)
    {
        const std::string key = group.value_or(std::string());
        const auto it = m_groups.find(key);
        if (it != m_groups.end())
            return it->second;
        const auto g = static_cast<int64_t>(m_groups.size());
        m_groups.emplace(key, g);
        return g;
    }

    // COMMUNICATION_OP: one slice per op on the HCCL process, one thread per group (ordered by first op).
    void readCommunicationOps()
    {
        const std::string t = "COMMUNICATION_OP";
        const std::string start = m_db.column(t, { "startNs", "start_ns" });
        const std::string end = m_db.column(t, { "endNs", "end_ns" });
        if (start.empty() || end.empty())
            return;
        auto st = m_db.db().prepare("SELECT rowid, " + start + ", " + end + ", " + m_db.columnOrNull(t, { "opName" })
            + ", " + m_db.columnOrNull(t, { "groupName" }) + ", "
            + m_db.columnOrNull(t, { "connectionId", "connection_id" }) + " FROM " + t + " ORDER BY " + start);
        while (st.step() && tick()) {
            const auto ts = intOf(st, 1);
            const auto te = intOf(st, 2);
            if (!ts || !te)
                continue;
            const int64_t g = groupIndex(m_db.string(st.optInt(4)));
            const int64_t pid = devicePid(kHccl, m_device);
            Slice s;
            s.ts = *ts;
            s.dur = std::max<int64_t>(0, *te - *ts);
            s.nameId = nameId(m_db.string(st.optInt(3)).value_or("communication op"));
            s.connectionId = st.optInt(5);
            s.rowid = st.int64(0);
            s.source = Source::CommOp;
            if (s.connectionId)
                m_commOpConnections.insert(*s.connectionId);
            track(pid, g * kGroupTidStride, "Group " + std::to_string(g) + " Communication", g * kGroupTidStride)
                .slices.push_back(s);
        }
    }

    struct CommTask {
        int64_t nameId = 0;
        int64_t group = 0;
        std::optional<int64_t> plane; // nullopt: the export does not know it (planeId 4294967295, Level0)
    };

    // COMMUNICATION_OP connection ids (readCommunicationOps): a TASK with one of them and no task info is the op.
    std::unordered_set<int64_t> m_commOpConnections;

    std::unordered_map<int64_t, CommTask> readCommunicationTasks()
    {
        std::unordered_map<int64_t, CommTask> tasks;
        const std::string t = "COMMUNICATION_TASK_INFO";
        const std::string id = m_db.column(t, { "globalTaskId", "global_task_id" });
        if (id.empty())
            return tasks;
        auto st = m_db.db().prepare("SELECT " + id + ", " + m_db.columnOrNull(t, { "taskType", "task_type" }) + ", "
            + m_db.columnOrNull(t, { "groupName", "group_name" }) + ", "
            + m_db.columnOrNull(t, { "planeId", "plane_id" }) + " FROM " + t);
        while (st.step()) {
            if (st.isNull(0))
                continue;
            CommTask c;
            c.nameId = nameId(m_db.string(st.optInt(1)).value_or("communication task"));
            c.group = groupIndex(m_db.string(st.optInt(2)));
            // planeId 4294967295 (UINT32_MAX) means "unknown" (Level0 exports, task type "N/A"): such a task gets no
            // plane row: the Level0 text trace shows only "Group 0 Communication" on HCCL, no plane rows.
            // A missing planeId (older schema) is plane 0, as before.
            if (const auto plane = st.optInt(3).value_or(0); plane >= 0 && plane < 0xFFFFFFFFLL)
                c.plane = std::min<int64_t>(plane, kGroupTidStride - 2);
            tasks.emplace(st.int64(0), c);
        }
        return tasks;
    }

    // TASK rows: one thread per stream on Ascend Hardware, named from COMPUTE_TASK_INFO, else the task type.
    // Communication tasks (COMMUNICATION_TASK_INFO) are also drawn on their HCCL plane, as the text trace does.
    void readTasks()
    {
        const std::string t = "TASK";
        if (!m_db.hasTable(t))
            return;
        const std::string start = m_db.column(t, { "startNs", "start_ns" });
        const std::string end = m_db.column(t, { "endNs", "end_ns" });
        if (start.empty() || end.empty())
            return;
        std::unordered_map<int64_t, std::string> names;
        if (m_db.hasTable("COMPUTE_TASK_INFO")) {
            const std::string id = m_db.column("COMPUTE_TASK_INFO", { "globalTaskId", "global_task_id" });
            const std::string name = m_db.column("COMPUTE_TASK_INFO", { "name", "opName", "op_name" });
            if (!id.empty() && !name.empty()) {
                auto st = m_db.db().prepare("SELECT " + id + ", " + name + " FROM COMPUTE_TASK_INFO");
                while (st.step()) {
                    if (st.isNull(0))
                        continue;
                    if (auto n = m_db.string(st.optInt(1)))
                        names.emplace(st.int64(0), *n);
                }
            }
        }
        const auto commTasks = readCommunicationTasks();
        const std::string typeCol = m_db.column(t, { "taskType", "task_type" });
        auto st = m_db.db().prepare("SELECT " + start + ", " + end + ", "
            + m_db.columnOrNull(t, { "deviceId", "device_id" }) + ", "
            + m_db.columnOrNull(t, { "streamId", "stream_id" }) + ", "
            + m_db.columnOrNull(t, { "connectionId", "connection_id" }) + ", "
            + m_db.columnOrNull(t, { "globalTaskId", "global_task_id" }) + ", " + (typeCol.empty() ? "NULL" : typeCol)
            + ", rowid FROM TASK");
        std::unordered_map<int64_t, std::string> typeNames;
        int64_t opEnvelopes = 0;
        while (st.step() && tick()) {
            const auto ts = intOf(st, 0);
            const auto te = intOf(st, 1);
            if (!ts || !te)
                continue;
            const auto g = st.optInt(5);
            const auto connection = st.optInt(4);
            if ((!g || (!names.count(*g) && !commTasks.count(*g))) && connection
                && m_commOpConnections.count(*connection)) {
                // A task without COMPUTE_TASK_INFO / COMMUNICATION_TASK_INFO carrying a communication op's connection
                // id spans that op (type AI_CORE in the export); the text trace has no such task on its stream and
                // shows the op on HCCL "Group <g> Communication", which the COMMUNICATION_OP row already fills.
                ++opEnvelopes;
                continue;
            }
            const int64_t device = st.optInt(2).value_or(0);
            const int64_t stream = st.optInt(3).value_or(0);
            const int64_t pid = devicePid(kHardware, device);
            Slice s;
            s.ts = *ts;
            s.dur = std::max<int64_t>(0, *te - *ts);
            s.connectionId = st.optInt(4);
            s.rowid = st.int64(7);
            s.source = Source::Task;
            std::string name;
            if (g && names.count(*g)) {
                name = names.at(*g);
            } else if (!st.isNull(6)) {
                // taskType: a STRING_IDS id (torch_npu), else text, else a bare number.
                const auto type = st.optInt(6);
                const auto text = st.optText(6);
                if (type && text && *text == std::to_string(*type)) {
                    auto it = typeNames.find(*type);
                    if (it == typeNames.end()) {
                        std::string n = m_db.string(type).value_or(std::string());
                        if (n.empty())
                            n = m_db.enumName("ENUM_HWTS_TASK_TYPE", type).value_or("task type " + *text);
                        it = typeNames.emplace(*type, n).first;
                    }
                    name = it->second;
                } else {
                    name = text.value_or(std::string());
                }
            }
            if (name.empty())
                name = "task";
            s.nameId = nameId(name);
            track(pid, stream, "Stream " + std::to_string(stream), stream).slices.push_back(s);

            if (const auto comm = g ? commTasks.find(*g) : commTasks.end();
                comm != commTasks.end() && comm->second.plane) {
                Slice c = s;
                c.nameId = comm->second.nameId;
                c.connectionId.reset();
                c.source = Source::CommTask;
                const int64_t tid = comm->second.group * kGroupTidStride + 1 + *comm->second.plane;
                const std::string prefix
                    = comm->second.group ? "Group " + std::to_string(comm->second.group) + " " : std::string();
                track(devicePid(kHccl, device), tid, prefix + "Plane " + std::to_string(*comm->second.plane), tid)
                    .slices.push_back(c);
            }
        }
        if (opEnvelopes > 0)
            m_ctx.info(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "%1 TASK rows without task info span a communication op (same connectionId as a "
                              "COMMUNICATION_OP row); not drawn on their stream: the op is on HCCL \"Group <g> "
                              "Communication\", as in the text trace"),
                    { std::to_string(opEnvelopes) }));
    }

    void readApi(const std::string& t, Source source)
    {
        if (t.empty() || !m_db.hasTable(t) || m_ctx.cancelled())
            return;
        const std::string start = m_db.column(t, { "startNs", "start_ns" });
        const std::string end = m_db.column(t, { "endNs", "end_ns" });
        const std::string tidCol = m_db.column(t, { "globalTid", "global_tid" });
        if (start.empty() || end.empty() || tidCol.empty())
            return;
        auto st = m_db.db().prepare("SELECT " + start + ", " + end + ", " + tidCol + ", "
            + m_db.columnOrNull(t, { "name" }) + ", " + m_db.columnOrNull(t, { "connectionId", "connection_id" }) + ", "
            + m_db.columnOrNull(t, { "type" }) + ", rowid FROM " + t);
        std::unordered_map<int64_t, std::optional<int64_t>> cats; // API type -> string id of its name
        std::unordered_map<int64_t, std::string> prefixes; // API type -> the text trace's CANN name prefix
        while (st.step() && tick()) {
            const auto ts = intOf(st, 0);
            const auto te = intOf(st, 1);
            const auto gtid = st.optInt(2);
            if (!ts || !te || !gtid)
                continue;
            const int64_t realPid = static_cast<int64_t>(static_cast<uint64_t>(*gtid) >> 32);
            const int64_t tid = static_cast<int64_t>(static_cast<uint64_t>(*gtid) & 0xffffffffu);
            int64_t pid = realPid;
            if (source == Source::Cann) {
                process(pid, "CANN", "CPU", 10);
            } else {
                pid = kPythonPidBase + realPid;
                process(pid, "Python", "CPU", 1);
            }
            Slice s;
            s.ts = *ts;
            s.dur = std::max<int64_t>(0, *te - *ts);
            s.source = source;
            s.connectionId = st.optInt(4);
            s.rowid = st.int64(6);
            std::string name;
            if (const auto type = st.optInt(5)) {
                auto it = cats.find(*type);
                if (it == cats.end()) {
                    const auto label = m_db.enumName("ENUM_API_TYPE", type);
                    it = cats.emplace(*type, label ? std::optional<int64_t>(nameId(*label)) : std::nullopt).first;
                    prefixes.emplace(*type, source == Source::Cann ? cannPrefix(label) : std::string());
                }
                s.catId = it->second;
                name = prefixes.at(*type);
            }
            if (const auto id = st.optInt(3))
                name += m_db.string(id).value_or(std::to_string(*id));
            else
                name += st.optText(3).value_or(std::string());
            s.nameId = nameId(name.empty() ? t : name);
            track(pid, tid, "Thread " + std::to_string(tid), std::nullopt).slices.push_back(s);
        }
    }

    // MSTX_EVENTS (CANN msprof): ranges and markers of the mstx API on a MsTx process per host process.
    void readMstx()
    {
        const std::string t = "MSTX_EVENTS";
        const std::string start = m_db.column(t, { "startNs", "start_ns" });
        const std::string tidCol = m_db.column(t, { "globalTid", "global_tid" });
        if (start.empty() || tidCol.empty())
            return;
        auto st = m_db.db().prepare("SELECT " + start + ", " + m_db.columnOrNull(t, { "endNs", "end_ns" }) + ", "
            + tidCol + ", " + m_db.columnOrNull(t, { "message" }) + ", rowid FROM " + t);
        const int64_t cat = nameId("mstx");
        while (st.step() && tick()) {
            const auto ts = intOf(st, 0);
            const auto gtid = st.optInt(2);
            if (!ts || !gtid)
                continue;
            const int64_t te = intOf(st, 1).value_or(*ts); // markers have no end
            const int64_t pid = kMstxPidBase + static_cast<int64_t>(static_cast<uint64_t>(*gtid) >> 32);
            const int64_t tid = static_cast<int64_t>(static_cast<uint64_t>(*gtid) & 0xffffffffu);
            process(pid, "MsTx", "CPU", 2);
            Slice s;
            s.ts = *ts;
            s.dur = std::max<int64_t>(0, te - *ts);
            s.catId = cat;
            s.rowid = st.int64(4);
            s.source = Source::Mstx;
            s.nameId = nameId(m_db.string(st.optInt(3)).value_or("mstx"));
            track(pid, tid, "Thread " + std::to_string(tid), std::nullopt).slices.push_back(s);
        }
    }

    // OVERLAP_ANALYSIS (re-parsed torch_npu exports, msprof): the text trace's Overlap Analysis process.
    void readOverlap()
    {
        static const char* const kTypes[] = { "Computing", "Communication", "Communication(Not Overlapped)", "Free" };
        const std::string t = "OVERLAP_ANALYSIS";
        const std::string start = m_db.column(t, { "startNs" });
        const std::string end = m_db.column(t, { "endNs" });
        const std::string type = m_db.column(t, { "type" });
        if (start.empty() || end.empty() || type.empty())
            return;
        auto st = m_db.db().prepare(
            "SELECT " + start + ", " + end + ", " + type + ", " + m_db.columnOrNull(t, { "deviceId" }) + " FROM " + t);
        while (st.step() && tick()) {
            const auto ts = intOf(st, 0);
            const auto te = intOf(st, 1);
            const auto k = st.optInt(2);
            if (!ts || !te || !k || *k < 0 || *k > 3)
                continue;
            Slice s;
            s.ts = *ts;
            s.dur = std::max<int64_t>(0, *te - *ts);
            s.nameId = nameId(kTypes[*k]);
            s.source = Source::Overlap;
            track(devicePid(kOverlap, st.optInt(3).value_or(m_device)), *k, kTypes[*k], *k).slices.push_back(s);
        }
    }

    // A counter sample; none for a NULL value (a cell or a whole column missing).
    void counter(int64_t pid, const std::string& name, const char* series, int64_t ts, std::optional<double> value)
    {
        if (!value)
            return;
        model::CounterRow row;
        row.rankId = m_ctx.rankId();
        row.pid = pid;
        row.nameId = nameId(name);
        row.series = series;
        row.ts = ts;
        row.value = value;
        m_writer.addCounter(row);
    }

    // Calls f(statement, ts, device) for each row of table with a timestamp. columns: the timestamp, the device,
    // then the values; a column the table lacks reads as NULL (the timestamp column is required).
    template <typename F> void eachRow(const std::string& table, std::initializer_list<std::string_view> columns, F&& f)
    {
        if (!m_db.hasTable(table) || m_ctx.cancelled() || m_db.column(table, { *columns.begin() }).empty())
            return;
        std::string sql = "SELECT ";
        for (auto c : columns) {
            const std::string col = m_db.column(table, { c });
            sql += (sql.size() > 7 ? ", " : "") + (col.empty() ? std::string("NULL") : col);
        }
        auto st = m_db.db().prepare(sql + " FROM " + table + " ORDER BY rowid");
        while (st.step() && tick()) {
            const auto ts = intOf(st, 0);
            if (!ts)
                continue;
            f(st, *ts, st.optInt(1).value_or(m_device));
        }
    }

    std::string text(const char* enumTable, std::optional<int64_t> id)
    {
        if (auto s = m_db.label(enumTable, id))
            return *s;
        return id ? std::to_string(*id) : std::string("?");
    }

    // Hardware counters as the text trace_view.json names them: counter name, args key (series, with the unit)
    // and the unit the text writes (bytes -> KB for NPU MEM, B/s -> MB/s for HBM and LLC, LLC hit rate as the
    // fraction the text writes under "Hit Rate(%)").
    void readCounters()
    {
        eachRow("AICORE_FREQ", { "timestampNs", "deviceId", "freq" }, [&](auto& st, int64_t ts, int64_t dev) {
            counter(devicePid(kAiCoreFreq, dev), "AI Core Freq", "MHz", ts, SqliteExport::real(st, 2));
        });
        eachRow("NPU_MEM", { "timestampNs", "deviceId", "type", "ddr", "hbm" }, [&](auto& st, int64_t ts, int64_t dev) {
            const std::string who = titled(text("ENUM_NPU_MEM_TYPE", st.optInt(2)));
            const auto ddr = SqliteExport::real(st, 3);
            const auto hbm = SqliteExport::real(st, 4);
            const int64_t pid = devicePid(kNpuMem, dev);
            if (ddr)
                counter(pid, who + "/DDR", "KB", ts, *ddr / kBytesPerKb);
            if (hbm)
                counter(pid, who + "/HBM", "KB", ts, *hbm / kBytesPerKb);
            if (ddr || hbm)
                counter(pid, who + "/Memory", "KB", ts, (ddr.value_or(0) + hbm.value_or(0)) / kBytesPerKb);
        });
        eachRow(
            "HBM", { "timestampNs", "deviceId", "hbmId", "type", "bandwidth" }, [&](auto& st, int64_t ts, int64_t dev) {
                const std::string dir = titled(text("ENUM_HBM_TYPE", st.optInt(3)));
                const std::string series = dir + "(MB/s)";
                const auto bw = SqliteExport::real(st, 4);
                if (bw && !st.isNull(3))
                    counter(devicePid(kHbm, dev), "HBM " + std::to_string(st.optInt(2).value_or(0)) + "/" + dir,
                        series.c_str(), ts, *bw / kBytesPerMb);
            });
        eachRow("LLC", { "timestampNs", "deviceId", "llcId", "mode", "hitRate", "throughput" },
            [&](auto& st, int64_t ts, int64_t dev) {
                const std::string prefix = "LLC " + std::to_string(st.optInt(2).value_or(0)) + " "
                    + titled(text("ENUM_LLC_MODE", st.optInt(3))) + "/";
                const int64_t pid = devicePid(kLlc, dev);
                if (const auto hit = SqliteExport::real(st, 4))
                    counter(pid, prefix + "Hit Rate", "Hit Rate(%)", ts, *hit / 100.0);
                if (const auto tp = SqliteExport::real(st, 5))
                    counter(pid, prefix + "Throughput", "Throughput(MB/s)", ts, *tp / kBytesPerMb);
            });
        eachRow("SOC_BANDWIDTH_LEVEL", { "timestampNs", "deviceId", "l2BufferBwLevel", "mataBwLevel" },
            [&](auto& st, int64_t ts, int64_t dev) {
                const int64_t pid = devicePid(kSocInfo, dev);
                counter(pid, "L2 Buffer Bw Level", "L2 Buffer Bw Level", ts, SqliteExport::real(st, 2));
                counter(pid, "Mata Bw Level", "Mata Bw Level", ts, SqliteExport::real(st, 3));
            });
        eachRow("ACC_PMU",
            { "timestampNs", "deviceId", "accId", "readBwLevel", "writeBwLevel", "readOstLevel", "writeOstLevel" },
            [&](auto& st, int64_t ts, int64_t dev) {
                static const char* const kNames[] = { "read_bandwidth", "write_band_width", "read_ost", "write_ost" };
                const int64_t pid = devicePid(kAccPmu, dev);
                for (int i = 0; i < 4; ++i) {
                    // The text trace writes {"value", "acc_id"} per event; both become series there too.
                    counter(pid, kNames[i], "value", ts, SqliteExport::real(st, 3 + i));
                    counter(pid, kNames[i], "acc_id", ts, SqliteExport::real(st, 2));
                }
            });
        eachRow("MEMORY_RECORD",
            { "timestamp", "deviceId", "component", "totalAllocated", "totalReserved", "totalActive" },
            [&](auto& st, int64_t ts, int64_t dev) {
                const std::string component = m_db.string(st.optInt(2)).value_or("memory");
                const int64_t pid = devicePid(kMemory, dev);
                static const char* const kSeries[] = { "Allocated(MB)", "Reserved(MB)", "Active(MB)" };
                for (int i = 0; i < 3; ++i) {
                    if (const auto v = SqliteExport::real(st, 3 + i))
                        counter(pid, component, kSeries[i], ts, *v / kBytesPerMb);
                }
            });
        readModuleMemory();
    }

    // NPU_MODULE_MEM: one counter per CANN module; modules that stay at 0 the whole run are left out (most of
    // the ~80 modules, which would otherwise bury the few that hold memory).
    void readModuleMemory()
    {
        struct Sample {
            int64_t ts, dev;
            double mb;
        };
        std::map<std::string, std::vector<Sample>> modules;
        eachRow("NPU_MODULE_MEM", { "timestampNs", "deviceId", "moduleId", "totalReserved" },
            [&](auto& st, int64_t ts, int64_t dev) {
                const auto bytes = SqliteExport::real(st, 3);
                if (!bytes)
                    return;
                modules[text("ENUM_MODULE", st.optInt(2))].push_back({ ts, dev, *bytes / kBytesPerMb });
            });
        for (const auto& [module, samples] : modules) {
            if (std::none_of(samples.begin(), samples.end(), [](const Sample& s) { return s.mb != 0.0; }))
                continue;
            for (const Sample& s : samples)
                counter(devicePid(kModuleMem, s.dev), module, "Reserved(MB)", s.ts, s.mb);
        }
    }

    // PYTORCH_API.connectionId -> the connection ids CONNECTION_IDS lists for it.
    std::unordered_map<int64_t, std::vector<int64_t>> readConnectionIds()
    {
        std::unordered_map<int64_t, std::vector<int64_t>> ids;
        if (m_db.column("CONNECTION_IDS", { "id" }).empty()
            || m_db.column("CONNECTION_IDS", { "connectionId" }).empty())
            return ids;
        auto st = m_db.db().prepare("SELECT id, connectionId FROM CONNECTION_IDS ORDER BY rowid");
        while (st.step()) {
            if (!st.isNull(0) && !st.isNull(1))
                ids[st.int64(0)].push_back(st.int64(1));
        }
        return ids;
    }

    // connectionCats (re-parsed exports): the flow categories of each connection id.
    std::unordered_map<int64_t, std::set<std::string>> readConnectionCats()
    {
        std::unordered_map<int64_t, std::set<std::string>> cats;
        const std::string t = m_db.firstTable({ "connectionCats", "CONNECTION_CATS" });
        if (t.empty() || m_db.column(t, { "connectionId" }).empty() || m_db.column(t, { "cat" }).empty())
            return cats;
        auto st = m_db.db().prepare("SELECT connectionId, cat FROM " + t);
        while (st.step()) {
            if (!st.isNull(0) && !st.isNull(1))
                cats[st.int64(0)].insert(st.text(1));
        }
        return cats;
    }

    struct Ends {
        std::vector<Endpoint> cann, task, commOp, python;
        std::vector<std::optional<int64_t>> pythonCats; // category string ids of the python ends, same order
    };

    // The arrows of one connection id: src ends are its starts, dst ends its ends, paired by FlowTracker's rule
    // in time order (one start: an arrow to every end). Half arrows are left out: a db connection id without
    // both ends is one no arrow was drawn for.
    void addFlows(const std::string& cat, const std::string& name, int64_t conn, const std::vector<Endpoint>& src,
        const std::vector<Endpoint>& dst)
    {
        m_flowPoints.clear();
        for (const auto& e : src)
            m_flowPoints.push_back({ &e, FlowTracker::Phase::Start });
        for (const auto& e : dst)
            m_flowPoints.push_back({ &e, FlowTracker::Phase::End });
        std::stable_sort(m_flowPoints.begin(), m_flowPoints.end(),
            [](const FlowPoint& a, const FlowPoint& b) { return a.end->ts < b.end->ts; });
        m_flowPhases.clear();
        for (const auto& p : m_flowPoints)
            m_flowPhases.push_back(p.phase);
        model::FlowRow flow;
        flow.rankId = m_ctx.rankId();
        flow.cat = cat;
        flow.name = name;
        flow.flowId = std::to_string(conn);
        for (const FlowTracker::Arrow& a : m_flowPairing.pair(m_flowPhases, FlowTracker::Unpaired::Drop)) {
            const Endpoint& h = *m_flowPoints[static_cast<std::size_t>(a.src)].end;
            const Endpoint& d = *m_flowPoints[static_cast<std::size_t>(a.dst)].end;
            flow.srcPid = h.pid;
            flow.srcTid = h.tid;
            flow.srcTs = h.ts;
            flow.srcSliceId = h.sliceId;
            flow.dstPid = d.pid;
            flow.dstTid = d.tid;
            flow.dstTs = d.ts;
            flow.dstSliceId = d.sliceId;
            m_writer.addFlow(flow);
        }
    }

    // Flows by connection id, as the text trace draws them: HostToDevice (CANN_API -> its TASK rows, or its
    // COMMUNICATION_OP when the id is a communication op's), async_npu (PYTORCH_API -> the same device ends),
    // and the host-only pairs async_task_queue (enqueue -> dequeue) and fwdbwd (forward -> backward op), earlier
    // end first. connectionCats (re-parsed exports) says which categories an id has; without it they are
    // inferred from which tables hold the id.
    void writeFlows(std::map<int64_t, Ends>& ends)
    {
        const auto cats = readConnectionCats();
        // Enqueue / Dequeue@<op> rows are PYTORCH_API type "queue" (ENUM_API_TYPE 50002).
        const auto queueIt = m_names.find("queue");
        const int64_t queue = queueIt == m_names.end() ? -1 : queueIt->second;
        for (auto& [conn, e] : ends) {
            if (m_ctx.cancelled())
                return;
            const auto& device = e.commOp.empty() ? e.task : e.commOp;
            // With connectionCats, only what it lists (ids it lacks are ids no arrow was drawn for).
            const auto c = cats.find(conn);
            if (!cats.empty() && c == cats.end())
                continue;
            const auto has = [&](const char* cat) { return c == cats.end() || c->second.count(cat) > 0; };
            if (!device.empty()) {
                if (!e.cann.empty() && has("HostToDevice"))
                    addFlows("HostToDevice", "HostToDevice" + std::to_string(conn), conn, e.cann, device);
                if (!e.python.empty() && has("async_npu"))
                    addFlows("async_npu", "torch_to_npu", conn, e.python, device);
                continue;
            }
            if (e.python.size() < 2)
                continue;
            std::string cat;
            if (c != cats.end()) {
                cat = c->second.count("async_task_queue") ? "async_task_queue"
                    : c->second.count("fwdbwd")           ? "fwdbwd"
                                                          : "";
            } else {
                const bool queued = std::any_of(e.pythonCats.begin(), e.pythonCats.end(),
                    [&](const std::optional<int64_t>& id) { return id && *id == queue; });
                cat = queued ? "async_task_queue" : "fwdbwd";
            }
            if (cat.empty())
                continue;
            std::vector<Endpoint> sorted = e.python;
            std::stable_sort(
                sorted.begin(), sorted.end(), [](const Endpoint& a, const Endpoint& b) { return a.ts < b.ts; });
            const std::vector<Endpoint> src { sorted.front() };
            const std::vector<Endpoint> dst(sorted.begin() + 1, sorted.end());
            addFlows(cat, cat == "fwdbwd" ? "fwdbwd" : "enqueue_to_dequeue", conn, src, dst);
        }
    }

    bool write()
    {
        for (const auto& [pid, row] : m_processes)
            m_writer.upsertProcess(row);
        const auto connectionIds = readConnectionIds();
        model::ThreadRow thread;
        thread.rankId = m_ctx.rankId();
        model::SliceRow row;
        row.rankId = m_ctx.rankId();
        std::map<int64_t, Ends> ends; // by connection id
        SliceTracker nesting;
        for (auto& [key, track] : m_tracks) {
            if (m_ctx.cancelled())
                return false;
            const auto [pid, tid] = key;
            thread.pid = pid;
            thread.tid = tid;
            thread.name = track.name;
            thread.sortIndex = track.sortIndex;
            m_writer.upsertThread(thread);

            auto& s = track.slices;
            SliceTracker::sort(s.begin(), s.end());
            row.pid = pid;
            row.tid = tid;
            nesting.reset();
            for (const Slice& x : s) {
                row.ts = x.ts;
                row.dur = x.dur;
                row.depth = nesting.place(x.ts, x.dur).depth;
                row.nameId = x.nameId;
                row.catId = x.catId;
                const bool ref = m_fileId && x.rowid >= 0;
                row.argsFileId = ref ? m_fileId : std::nullopt;
                row.argsOffset = ref ? std::optional<int64_t>(x.rowid) : std::nullopt;
                row.argsLen = ref ? std::optional<int64_t>(DbSliceArgs::encodeLength(kindOf(x.source))) : std::nullopt;
                const int64_t id = m_writer.addSlice(row);
                if (x.connectionId) {
                    const Endpoint ep { pid, tid, x.ts, id };
                    switch (x.source) {
                    case Source::Task:
                        ends[*x.connectionId].task.push_back(ep);
                        break;
                    case Source::Cann:
                        ends[*x.connectionId].cann.push_back(ep);
                        break;
                    case Source::CommOp:
                        ends[*x.connectionId].commOp.push_back(ep);
                        break;
                    case Source::Python:
                        if (const auto it = connectionIds.find(*x.connectionId); it != connectionIds.end()) {
                            for (int64_t conn : it->second) {
                                ends[conn].python.push_back(ep);
                                ends[conn].pythonCats.push_back(x.catId);
                            }
                        }
                        break;
                    default:
                        break;
                    }
                }
            }
            std::vector<Slice>().swap(s);
        }
        writeFlows(ends);
        return !m_ctx.cancelled();
    }

    static DbRowKind kindOf(Source s)
    {
        switch (s) {
        case Source::Cann:
            return DbRowKind::CannApi;
        case Source::Python:
            return DbRowKind::PytorchApi;
        case Source::CommOp:
            return DbRowKind::CommunicationOp;
        case Source::Mstx:
            return DbRowKind::Mstx;
        default:
            return DbRowKind::Task;
        }
    }

    ImportContext& m_ctx;
    model::ModelWriter& m_writer;
    SqliteExport m_db;
    std::optional<int64_t> m_fileId;
    int64_t m_device = 0;
    std::map<std::pair<int64_t, int64_t>, Track> m_tracks; // (pid, tid)
    std::map<int64_t, model::ProcessRow> m_processes;
    std::unordered_map<std::string, int64_t> m_names;
    std::map<std::string, int64_t> m_groups; // HCCL group name -> index
    uint64_t m_rows = 0;
    // addFlows' scratch, kept across connection ids.
    struct FlowPoint {
        const Endpoint* end;
        FlowTracker::Phase phase;
    };
    FlowTracker m_flowPairing;
    std::vector<FlowPoint> m_flowPoints;
    std::vector<FlowTracker::Phase> m_flowPhases;
};

} // namespace

bool DbTimelineImporter::run(ImportContext& ctx)
{
    try {
        Importer importer(ctx);
        return importer.run();
    } catch (const model::DbError& e) {
        ctx.error(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "reading the export's timeline failed: %1"), { e.what() }));
        return false;
    }
}

} // namespace npuscope::io

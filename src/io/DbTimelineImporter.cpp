// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/DbTimelineImporter.h"

#include "npuscope/io/SqliteExport.h"
#include "npuscope/model/ModelWriter.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace npuscope::io {

namespace {

// Synthetic pids: the device's hardware process, and the Python process (kept apart from the CANN process,
// which uses the real pid of globalTid; Linux pids stay below 2^22).
constexpr int64_t kDevicePidBase = 1'000'000;
constexpr int64_t kPythonPidBase = 10'000'000;

enum class Source { Task, Cann, Python };

struct Slice {
    int64_t ts = 0, dur = 0;
    int64_t nameId = 0;
    std::optional<int64_t> connectionId;
    Source source = Source::Task;
};

struct Track {
    std::vector<Slice> slices;
};

struct Endpoint {
    int64_t pid = 0, tid = 0, ts = 0, sliceId = 0;
};

// startNs / endNs are TEXT in PYTORCH_API (values beyond what some writers keep in INTEGER).
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
    return v;
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
        readTasks();
        readApi("CANN_API", Source::Cann);
        readApi("PYTORCH_API", Source::Python);
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

    void readTasks()
    {
        const std::string t = "TASK";
        if (!m_db.hasTable(t))
            return;
        const std::string start = m_db.column(t, { "startNs", "start_ns" });
        const std::string end = m_db.column(t, { "endNs", "end_ns" });
        if (start.empty() || end.empty())
            return;
        // Kernel names by globalTaskId.
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
        const std::string typeCol = m_db.column(t, { "taskType", "task_type" });
        auto st = m_db.db().prepare("SELECT " + start + ", " + end + ", "
            + m_db.columnOrNull(t, { "deviceId", "device_id" }) + ", "
            + m_db.columnOrNull(t, { "streamId", "stream_id" }) + ", "
            + m_db.columnOrNull(t, { "connectionId", "connection_id" }) + ", "
            + m_db.columnOrNull(t, { "globalTaskId", "global_task_id" }) + ", " + (typeCol.empty() ? "NULL" : typeCol)
            + " FROM TASK");
        std::unordered_map<int64_t, std::string> typeNames;
        while (st.step()) {
            if ((++m_rows & 4095) == 0 && m_ctx.cancelled())
                return;
            const auto ts = intOf(st, 0);
            const auto te = intOf(st, 1);
            if (!ts || !te)
                continue;
            const int64_t device = st.optInt(2).value_or(0);
            const int64_t stream = st.optInt(3).value_or(0);
            const int64_t pid = kDevicePidBase + device;
            process(pid, "Ascend Hardware", "NPU", 13);
            Slice s;
            s.ts = *ts;
            s.dur = std::max<int64_t>(0, *te - *ts);
            s.connectionId = st.optInt(4);
            s.source = Source::Task;
            std::string name;
            if (const auto g = st.optInt(5); g && names.count(*g)) {
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
            m_tracks[{ pid, stream }].slices.push_back(s);
        }
    }

    void readApi(const std::string& t, Source source)
    {
        if (!m_db.hasTable(t) || m_ctx.cancelled())
            return;
        const std::string start = m_db.column(t, { "startNs", "start_ns" });
        const std::string end = m_db.column(t, { "endNs", "end_ns" });
        const std::string tidCol = m_db.column(t, { "globalTid", "global_tid" });
        if (start.empty() || end.empty() || tidCol.empty())
            return;
        auto st = m_db.db().prepare("SELECT " + start + ", " + end + ", " + tidCol + ", "
            + m_db.columnOrNull(t, { "name" }) + ", " + m_db.columnOrNull(t, { "connectionId", "connection_id" })
            + " FROM " + t);
        while (st.step()) {
            if ((++m_rows & 4095) == 0 && m_ctx.cancelled())
                return;
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
            if (source == Source::Cann)
                s.connectionId = st.optInt(4);
            std::string name;
            if (const auto id = st.optInt(3))
                name = m_db.string(id).value_or(std::to_string(*id));
            else
                name = st.optText(3).value_or(std::string());
            s.nameId = nameId(name.empty() ? t : name);
            m_tracks[{ pid, tid }].slices.push_back(s);
        }
    }

    bool write()
    {
        for (const auto& [pid, row] : m_processes)
            m_writer.upsertProcess(row);
        model::ThreadRow thread;
        thread.rankId = m_ctx.rankId();
        model::SliceRow row;
        row.rankId = m_ctx.rankId();
        std::unordered_map<int64_t, std::vector<Endpoint>> hostEnds, deviceEnds; // by connectionId
        std::vector<std::pair<int64_t, int32_t>> stack; // (end, index) of the open slices
        for (auto& [key, track] : m_tracks) {
            if (m_ctx.cancelled())
                return false;
            const auto [pid, tid] = key;
            thread.pid = pid;
            thread.tid = tid;
            const bool device = pid >= kDevicePidBase && pid < kPythonPidBase && m_processes.count(pid)
                && *m_processes.at(pid).label == "NPU";
            thread.name = device ? "Stream " + std::to_string(tid) : "Thread " + std::to_string(tid);
            thread.sortIndex = device ? std::optional<int64_t>(tid) : std::nullopt;
            m_writer.upsertThread(thread);

            auto& s = track.slices;
            std::stable_sort(s.begin(), s.end(),
                [](const Slice& a, const Slice& b) { return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur; });
            row.pid = pid;
            row.tid = tid;
            stack.clear();
            for (std::size_t i = 0; i < s.size(); ++i) {
                const Slice& x = s[i];
                while (!stack.empty() && stack.back().first <= x.ts)
                    stack.pop_back();
                row.ts = x.ts;
                row.dur = x.dur;
                row.depth = static_cast<int64_t>(stack.size());
                row.nameId = x.nameId;
                const int64_t id = m_writer.addSlice(row);
                if (x.connectionId && x.source != Source::Python)
                    (x.source == Source::Cann ? hostEnds : deviceEnds)[*x.connectionId].push_back({ pid, tid, x.ts, id });
                stack.emplace_back(x.ts + x.dur, static_cast<int32_t>(i));
            }
            std::vector<Slice>().swap(s);
        }

        // HostToDevice: every CANN_API row to every TASK row of its connectionId (one launch, several tasks).
        std::vector<int64_t> ids;
        for (const auto& [conn, ends] : hostEnds) {
            if (deviceEnds.count(conn))
                ids.push_back(conn);
        }
        std::sort(ids.begin(), ids.end());
        model::FlowRow flow;
        flow.rankId = m_ctx.rankId();
        flow.cat = "HostToDevice";
        flow.name = "HostToDevice";
        for (int64_t conn : ids) {
            flow.flowId = std::to_string(conn);
            for (const auto& h : hostEnds.at(conn)) {
                for (const auto& d : deviceEnds.at(conn)) {
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
        }
        return true;
    }

    ImportContext& m_ctx;
    model::ModelWriter& m_writer;
    SqliteExport m_db;
    std::map<std::pair<int64_t, int64_t>, Track> m_tracks; // (pid, tid)
    std::map<int64_t, model::ProcessRow> m_processes;
    std::unordered_map<std::string, int64_t> m_names;
    uint64_t m_rows = 0;
};

} // namespace

bool DbTimelineImporter::run(ImportContext& ctx)
{
    Importer importer(ctx);
    return importer.run();
}

} // namespace npuscope::io

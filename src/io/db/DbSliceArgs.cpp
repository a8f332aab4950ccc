// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/db/DbSliceArgs.h"

#include "npuscope/io/db/SqliteExport.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

namespace npuscope::io {

namespace {

using Json = nlohmann::ordered_json;

enum class How {
    Raw, // the value as stored
    String, // STRING_IDS id
    Label, // ENUM_* id (or a STRING_IDS id in versions without the enum table)
    Tid, // globalTid -> its low 32 bits (the thread id)
};

struct Field {
    const char* key; // key in the args object (the text trace's key where it has one)
    std::vector<const char*> columns; // candidate column names, first present wins
    How how = How::Raw;
    const char* enumTable = "";
};

constexpr int64_t kNone32 = 4294967295; // "none" in contextId / rangeId / category

// ENUM_MSTX_EVENT_TYPE as torch_npu writes it, for msprof exports that have MSTX_EVENTS but not the enum table.
const char* mstxType(const Field& f, std::optional<int64_t> id)
{
    static const char* const kNames[] = { "marker", "push/pop", "start/end", "marker_ex" };
    if (std::string_view(f.enumTable) != "ENUM_MSTX_EVENT_TYPE" || !id || *id < 0 || *id > 3)
        return nullptr;
    return kNames[*id];
}

class Reader {
public:
    explicit Reader(const std::string& path)
        : m_db(path)
    {
    }

    // Appends the fields of the row of `table` where `where` = value; false when there is no such row.
    bool addRow(
        Json& out, const std::string& table, const std::string& where, int64_t value, const std::vector<Field>& fields)
    {
        if (!m_db.hasTable(table) || where.empty())
            return false;
        std::vector<const Field*> present;
        std::string sql = "SELECT ";
        for (const Field& f : fields) {
            std::string col;
            for (const char* c : f.columns) {
                col = m_db.column(table, { c });
                if (!col.empty())
                    break;
            }
            if (col.empty())
                continue;
            sql += (present.empty() ? "\"" : ", \"") + col + "\"";
            present.push_back(&f);
        }
        if (present.empty())
            return false;
        sql += " FROM \"" + table + "\" WHERE " + where + " = ?1 LIMIT 1";
        auto st = m_db.db().prepare(sql);
        st.bind(1, value);
        if (!st.step())
            return false;
        for (size_t i = 0; i < present.size(); ++i)
            put(out, *present[i], st, static_cast<int>(i));
        return true;
    }

    SqliteExport& db() { return m_db; }

    void put(Json& out, const Field& f, const model::Statement& st, int col)
    {
        if (st.isNull(col))
            return;
        switch (f.how) {
        case How::Raw: {
            const auto text = st.optText(col).value_or(std::string());
            const auto i = st.optInt(col);
            char* end = nullptr;
            const double d = std::strtod(text.c_str(), &end);
            if (i && text == std::to_string(*i))
                out[f.key] = *i;
            else if (!text.empty() && end == text.c_str() + text.size())
                out[f.key] = d;
            else
                out[f.key] = text;
            return;
        }
        case How::String:
            if (auto s = m_db.stringAt(st.optInt(col)))
                out[f.key] = *s;
            return;
        case How::Label:
            if (auto s = m_db.enumName(f.enumTable, st.optInt(col)))
                out[f.key] = *s;
            else if (auto m = mstxType(f, st.optInt(col)))
                out[f.key] = m;
            else if (auto t = m_db.stringAt(st.optInt(col)))
                out[f.key] = *t;
            else
                out[f.key] = st.int64(col);
            return;
        case How::Tid:
            out[f.key] = static_cast<int64_t>(static_cast<uint64_t>(st.int64(col)) & 0xffffffffu);
            return;
        }
    }

private:
    SqliteExport m_db;
};

const std::vector<Field>& taskFields()
{
    static const std::vector<Field> f {
        { "Device Id", { "deviceId", "device_id" } },
        { "Stream Id", { "streamId", "stream_id" } },
        { "Task Id", { "taskId", "task_id" } },
        { "Context Id", { "contextId", "context_id" } },
        { "Model Id", { "modelId", "model_id" } },
        { "Task Type", { "taskType", "task_type" }, How::Label, "ENUM_HWTS_TASK_TYPE" },
        { "connection_id", { "connectionId", "connection_id" } },
        { "Global Task Id", { "globalTaskId", "global_task_id" } },
    };
    return f;
}

// kernel_details.csv column names.
const std::vector<Field>& computeFields()
{
    static const std::vector<Field> f {
        { "Name", { "name", "opName", "op_name" }, How::String },
        { "Type", { "opType", "op_type" }, How::String },
        { "Accelerator Core", { "taskType", "task_type" }, How::String },
        { "Block Dim", { "blockDim", "block_dim" } },
        { "Mix Block Dim", { "mixBlockDim", "mix_block_dim" } },
        { "Input Shapes", { "inputShapes", "input_shapes" }, How::String },
        { "Input Data Types", { "inputDataTypes", "input_data_types" }, How::String },
        { "Input Formats", { "inputFormats", "input_formats" }, How::String },
        { "Output Shapes", { "outputShapes", "output_shapes" }, How::String },
        { "Output Data Types", { "outputDataTypes", "output_data_types" }, How::String },
        { "Output Formats", { "outputFormats", "output_formats" }, How::String },
        { "Attr Info", { "attrInfo", "attr_info" }, How::String },
        { "Wait Time(ns)", { "waitNs", "wait_ns" } },
    };
    return f;
}

// The text trace's HCCL task args.
const std::vector<Field>& communicationTaskFields()
{
    static const std::vector<Field> f {
        { "op name", { "name", "opName" }, How::String },
        { "task type", { "taskType", "task_type" }, How::String },
        { "plane id", { "planeId", "plane_id" } },
        { "group name", { "groupName", "group_name" }, How::String },
        { "notify_id", { "notifyId", "notify_id" } },
        { "rdma type", { "rdmaType", "rdma_type" }, How::Label, "ENUM_HCCL_RDMA_TYPE" },
        { "src rank", { "srcRank", "src_rank" } },
        { "dst rank", { "dstRank", "dst_rank" } },
        { "transport type", { "transportType", "transport_type" }, How::Label, "ENUM_HCCL_TRANSPORT_TYPE" },
        { "size(Byte)", { "size" } },
        { "data type", { "dataType", "data_type" }, How::Label, "ENUM_HCCL_DATA_TYPE" },
        { "link type", { "linkType", "link_type" }, How::Label, "ENUM_HCCL_LINK_TYPE" },
        { "op id", { "opId", "op_id" } },
    };
    return f;
}

const std::vector<Field>& pytorchFields()
{
    static const std::vector<Field> f {
        { "Sequence number", { "sequenceNumber" } },
        { "Fwd thread id", { "fwdThreadId" } },
        { "Input Dims", { "inputShapes" }, How::String },
        { "Input type", { "inputDtypes" }, How::String },
        { "Type", { "type" }, How::Label, "ENUM_API_TYPE" },
        { "Thread Id", { "globalTid" }, How::Tid },
    };
    return f;
}

const std::vector<Field>& cannFields()
{
    static const std::vector<Field> f {
        { "Thread Id", { "globalTid", "global_tid" }, How::Tid },
        { "level", { "type" }, How::Label, "ENUM_API_TYPE" },
        { "connection_id", { "connectionId", "connection_id" } },
        { "Global Task Id", { "globalTaskId" } },
    };
    return f;
}

const std::vector<Field>& communicationOpFields()
{
    static const std::vector<Field> f {
        { "op type", { "opType", "op_type" }, How::String },
        { "group name", { "groupName", "group_name" }, How::String },
        { "data_type", { "dataType", "data_type" }, How::Label, "ENUM_HCCL_DATA_TYPE" },
        { "alg_type", { "algType", "alg_type" }, How::String },
        { "count", { "count" } },
        { "relay", { "relay" } },
        { "retry", { "retry" } },
        { "wait(ns)", { "waitNs", "wait_ns" } },
        { "connection_id", { "connectionId", "connection_id" } },
        { "op id", { "opId", "op_id" } },
        { "op connection id", { "opConnectionId" } },
    };
    return f;
}

const std::vector<Field>& mstxFields()
{
    static const std::vector<Field> f {
        { "message", { "message" }, How::String },
        { "event type", { "eventType" }, How::Label, "ENUM_MSTX_EVENT_TYPE" },
        { "range id", { "rangeId" } },
        { "category", { "category" }, How::String },
        { "domain", { "domainId" }, How::String },
        { "Thread Id", { "globalTid" }, How::Tid },
        { "End Thread Id", { "endGlobalTid" }, How::Tid },
        { "connection_id", { "connectionId" } },
    };
    return f;
}

void readTask(Reader& r, Json& out, int64_t rowid)
{
    if (!r.addRow(out, "TASK", "rowid", rowid, taskFields()))
        return;
    if (out.contains("Context Id") && out["Context Id"] == kNone32)
        out.erase("Context Id");
    const auto gid = out.find("Global Task Id");
    if (gid == out.end() || !gid->is_number_integer())
        return;
    const int64_t id = gid->get<int64_t>();
    auto& db = r.db();
    const auto idColumn = [&](const char* table) { return db.column(table, { "globalTaskId", "global_task_id" }); };
    if (!r.addRow(out, "COMPUTE_TASK_INFO", idColumn("COMPUTE_TASK_INFO"), id, computeFields()))
        r.addRow(out, "COMMUNICATION_TASK_INFO", idColumn("COMMUNICATION_TASK_INFO"), id, communicationTaskFields());
    const std::string pmuId = idColumn("TASK_PMU_INFO");
    if (!pmuId.empty() && !db.column("TASK_PMU_INFO", { "name" }).empty()
        && !db.column("TASK_PMU_INFO", { "value" }).empty()) {
        auto st = db.db().prepare("SELECT name, value FROM TASK_PMU_INFO WHERE " + pmuId + " = ?1 ORDER BY rowid");
        st.bind(1, id);
        while (st.step()) {
            const auto key = db.stringAt(st.optInt(0));
            const auto value = SqliteExport::real(st, 1);
            if (key && value)
                out[*key] = *value;
        }
    }
}

void readPytorch(Reader& r, Json& out, int64_t rowid)
{
    if (!r.addRow(out, "PYTORCH_API", "rowid", rowid, pytorchFields()))
        return;
    auto& db = r.db();
    auto st = db.db().prepare("SELECT " + db.columnOrNull("PYTORCH_API", { "connectionId" }) + ", "
        + db.columnOrNull("PYTORCH_API", { "callchainId" }) + " FROM PYTORCH_API WHERE rowid = ?1");
    st.bind(1, rowid);
    if (!st.step())
        return;
    // connectionId is a key into CONNECTION_IDS, which lists the connection ids of the op (flows).
    if (const auto conn = st.optInt(0); conn && db.hasTable("CONNECTION_IDS")) {
        auto c = db.db().prepare("SELECT connectionId FROM CONNECTION_IDS WHERE id = ?1 ORDER BY rowid");
        c.bind(1, *conn);
        Json ids = Json::array();
        while (c.step()) {
            if (!c.isNull(0))
                ids.push_back(c.int64(0));
        }
        if (!ids.empty())
            out["connection_id"] = ids.size() == 1 ? ids[0] : ids;
    }
    if (const auto chain = st.optInt(1); chain && db.hasTable("PYTORCH_CALLCHAINS")) {
        auto c = db.db().prepare("SELECT " + db.columnOrNull("PYTORCH_CALLCHAINS", { "stack" })
            + " FROM PYTORCH_CALLCHAINS WHERE id = ?1 ORDER BY "
            + db.columnOrNull("PYTORCH_CALLCHAINS", { "stackDepth" }) + ", rowid");
        c.bind(1, *chain);
        std::string stack;
        while (c.step()) {
            if (auto frame = db.stringAt(c.optInt(0))) {
                if (!stack.empty())
                    stack += ";\n";
                stack += *frame;
            }
        }
        if (!stack.empty())
            out["Call stack"] = stack;
    }
}

} // namespace

std::optional<DbRowKind> DbSliceArgs::decodeLength(int64_t argsLen)
{
    if (argsLen >= 0 || argsLen < -static_cast<int64_t>(DbRowKind::Mstx))
        return std::nullopt;
    return static_cast<DbRowKind>(-argsLen);
}

std::optional<std::string> DbSliceArgs::read(const std::string& path, DbRowKind kind, int64_t rowid)
{
    try {
        Reader r(path);
        Json out = Json::object();
        switch (kind) {
        case DbRowKind::Task:
            readTask(r, out, rowid);
            break;
        case DbRowKind::CannApi:
            r.addRow(out, r.db().firstTable({ "CANN_API", "API" }), "rowid", rowid, cannFields());
            break;
        case DbRowKind::PytorchApi:
            readPytorch(r, out, rowid);
            break;
        case DbRowKind::CommunicationOp:
            r.addRow(out, "COMMUNICATION_OP", "rowid", rowid, communicationOpFields());
            break;
        case DbRowKind::Mstx:
            r.addRow(out, "MSTX_EVENTS", "rowid", rowid, mstxFields());
            for (const char* key : { "range id", "category" }) {
                if (out.contains(key) && out[key] == kNone32)
                    out.erase(key);
            }
            break;
        }
        if (out.empty())
            return std::nullopt;
        return out.dump(-1, ' ', false, Json::error_handler_t::replace);
    } catch (const model::DbError&) {
        return std::nullopt;
    }
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
// analysis.db of a generated rank (--analysis-db): the db form of the same step trace and communication data,
// written through a small SQLite wrapper from the rank's step_trace_time.csv, communication.json and
// communication_matrix.json text.
#include "ClusterGeneratorParts.h"

#include "npuscope/model/Database.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <sstream>
#include <variant>

namespace npuscope::testgen::detail {

namespace {

using Json = nlohmann::ordered_json;

// One writable SQLite file, closed on destruction. Only the generator writes files (into its own output folder).
class SqliteOut {
public:
    explicit SqliteOut(const fs::path& path)
    {
        model::Database::configureSqlite();
        if (sqlite3_open_v2(path.string().c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr)
            != SQLITE_OK)
            fail("open");
    }
    ~SqliteOut()
    {
        for (auto* st : m_statements)
            sqlite3_finalize(st);
        sqlite3_close_v2(m_db);
    }
    SqliteOut(const SqliteOut&) = delete;
    SqliteOut& operator=(const SqliteOut&) = delete;

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }

    void exec(const char* sql)
    {
        if (ok() && sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
            fail(sql);
    }
    sqlite3_stmt* prepare(const char* sql)
    {
        sqlite3_stmt* st = nullptr;
        if (ok() && sqlite3_prepare_v2(m_db, sql, -1, &st, nullptr) != SQLITE_OK)
            fail(sql);
        if (st)
            m_statements.push_back(st);
        return st;
    }
    // Binds the values (text, double or int64 per the variant index) and runs one INSERT.
    using Value = std::variant<std::string, double, int64_t>;
    void insert(sqlite3_stmt* st, const std::vector<Value>& values)
    {
        if (!ok() || !st)
            return;
        sqlite3_reset(st);
        for (size_t i = 0; i < values.size(); ++i) {
            const int at = static_cast<int>(i) + 1;
            if (const auto* t = std::get_if<std::string>(&values[i]))
                sqlite3_bind_text(st, at, t->c_str(), static_cast<int>(t->size()), SQLITE_TRANSIENT);
            else if (const auto* d = std::get_if<double>(&values[i]))
                sqlite3_bind_double(st, at, *d);
            else
                sqlite3_bind_int64(st, at, std::get<int64_t>(values[i]));
        }
        if (sqlite3_step(st) != SQLITE_DONE)
            fail("insert");
    }

private:
    void fail(const std::string& what)
    {
        if (m_error.empty())
            m_error = what + ": " + (m_db ? sqlite3_errmsg(m_db) : "cannot open");
    }

    sqlite3* m_db = nullptr;
    std::vector<sqlite3_stmt*> m_statements;
    std::string m_error;
};

std::vector<std::string> splitCsvLine(const std::string& line)
{
    std::vector<std::string> out(1);
    for (char ch : line) {
        if (ch == ',')
            out.emplace_back();
        else
            out.back() += ch;
    }
    return out;
}

} // namespace

// Writes ASCEND_PROFILER_OUTPUT/analysis.db as torch_npu's db export lays it out (FORMATS.md §10; tables and
// column types as in the real level1 sample): StepTraceTime (µs), CommAnalyzerTime (start µs, times ms),
// CommAnalyzerBandwidth (one row per op, transport and packet size, the transport figures repeated; a transport
// with no packets gets one 0/0/0 row; transports with no traffic are left out), CommAnalyzerMatrix (local ranks as
// text, op_name per slot). Everything is read back from the text exports written for the same rank, so both forms
// carry the same values (numbers pass through double, as they do in the real export).
bool writeAnalysisDb(const fs::path& path, const std::string& stepCsv, const std::string& commJson,
    const std::string& matrixJson, std::string& error)
{
    std::error_code ec;
    fs::remove(path, ec);
    SqliteOut db(path);
    db.exec("PRAGMA journal_mode=OFF");
    db.exec("CREATE TABLE StepTraceTime (step TEXT, computing NUMERIC, communication_not_overlapped NUMERIC, "
            "overlapped NUMERIC, communication NUMERIC, free NUMERIC, stage NUMERIC, bubble NUMERIC, "
            "communication_not_overlapped_and_exclude_receive NUMERIC, preparing NUMERIC)");
    db.exec("CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, "
            "elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, "
            "idle_time NUMERIC, step TEXT, type TEXT)");
    db.exec("CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, transport_type TEXT, "
            "transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, large_packet_ratio NUMERIC, "
            "package_size NUMERIC, count NUMERIC, total_duration NUMERIC, step TEXT, type TEXT)");
    db.exec("CREATE TABLE CommAnalyzerMatrix (hccl_op_name TEXT, group_name TEXT, src_rank TEXT, dst_rank TEXT, "
            "transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, step TEXT, "
            "type TEXT, op_name TEXT)");
    db.exec("BEGIN");
    auto* stepSt = db.prepare("INSERT INTO StepTraceTime VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)");
    std::istringstream lines(stepCsv);
    std::string line;
    std::getline(lines, line); // header
    while (std::getline(lines, line)) {
        const auto cells = splitCsvLine(line);
        if (cells.size() < 10)
            continue;
        std::vector<SqliteOut::Value> v { cells[0] };
        for (size_t i = 1; i < 10; ++i)
            v.emplace_back(std::stod(cells[i]));
        db.insert(stepSt, v);
    }

    auto* timeSt = db.prepare("INSERT INTO CommAnalyzerTime VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)");
    auto* bwSt = db.prepare("INSERT INTO CommAnalyzerBandwidth VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)");
    auto split = [](const std::string& key) {
        const auto at = key.rfind('@');
        return at == std::string::npos ? std::pair { key, std::string() }
                                       : std::pair { key.substr(0, at), key.substr(at + 1) };
    };
    const auto comm = Json::parse(commJson);
    for (const auto& [step, kinds] : comm.items()) {
        for (const auto& [kind, ops] : kinds.items()) {
            for (const auto& [key, info] : ops.items()) {
                if (key == "Total Op Info")
                    continue; // the real db export has per-op rows only
                const auto [name, group] = split(key);
                const auto& t = info["Communication Time Info"];
                db.insert(timeSt,
                    { name, group, t["Start Timestamp(us)"].get<double>(), t["Elapse Time(ms)"].get<double>(),
                        t["Transit Time(ms)"].get<double>(), t["Wait Time(ms)"].get<double>(),
                        t["Synchronization Time(ms)"].get<double>(), t["Idle Time(ms)"].get<double>(), step, kind });
                for (const auto& [transport, b] : info["Communication Bandwidth Info"].items()) {
                    const double size = b["Transit Size(MB)"].get<double>();
                    const double time = b["Transit Time(ms)"].get<double>();
                    const auto& dist = b["Size Distribution"];
                    if (size == 0 && time == 0 && dist.empty())
                        continue;
                    std::vector<SqliteOut::Value> v { name, group, transport, size, time,
                        b["Bandwidth(GB/s)"].get<double>(), b["Large Packet Ratio"].get<double>() };
                    if (dist.empty()) {
                        auto row = v;
                        row.insert(row.end(), { 0.0, int64_t { 0 }, 0.0, step, kind });
                        db.insert(bwSt, row);
                    }
                    for (const auto& [packet, countAndMs] : dist.items()) {
                        auto row = v;
                        row.insert(row.end(),
                            { std::stod(packet), countAndMs[0].get<int64_t>(), countAndMs[1].get<double>(), step,
                                kind });
                        db.insert(bwSt, row);
                    }
                }
            }
        }
    }

    auto* matrixSt = db.prepare("INSERT INTO CommAnalyzerMatrix VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)");
    const auto matrix = Json::parse(matrixJson);
    for (const auto& [step, kinds] : matrix.items()) {
        for (const auto& [kind, ops] : kinds.items()) {
            for (const auto& [key, links] : ops.items()) {
                const auto [name, group] = split(key);
                for (const auto& [link, l] : links.items()) {
                    const auto dash = link.find('-');
                    db.insert(matrixSt,
                        { name, group, link.substr(0, dash), link.substr(dash + 1),
                            l["Transport Type"].get<std::string>(), l["Transit Size(MB)"].get<double>(),
                            l["Transit Time(ms)"].get<double>(), l["Bandwidth(GB/s)"].get<double>(), step, kind,
                            l.contains("Op Name") ? l["Op Name"].get<std::string>() : std::string() });
                }
            }
        }
    }
    db.exec("COMMIT");
    if (!db.ok()) {
        error = "cannot write " + path.string() + ": " + db.error();
        return false;
    }
    return true;
}

} // namespace npuscope::testgen::detail

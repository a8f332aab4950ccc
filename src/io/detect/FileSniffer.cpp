// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/detect/FileSniffer.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/db/SqliteExport.h"
#include "npuscope/io/kineto/KinetoTraceImporter.h"
#include "npuscope/io/parse/PeekSax.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <fstream>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace npuscope::io {

namespace {

constexpr std::array<char, 16> kSqliteHeader { 'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f', 'o', 'r', 'm', 'a', 't', ' ',
    '3', '\0' };

// Reads up to n bytes from the start of file.
std::string readPrefix(const fs::path& file, std::size_t n)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return {};
    std::string out(n, '\0');
    in.read(out.data(), static_cast<std::streamsize>(n));
    out.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
    return out;
}

bool endsWith(const std::string& s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Watches the SAX events of a JSON prefix for the two Chrome trace shapes: a top-level array whose first element
// is an event object ("ph", "pid", "name" keys), or a top-level object with a "traceEvents" key. Stops as soon as
// the answer is known; the prefix usually ends mid-document, so the final parse error is expected.
class TraceShape : public PeekSax {
public:
    bool isTrace() const
    {
        return m_traceEvents || (m_keys.count("ph") && m_keys.count("pid") && m_keys.count("name"));
    }
    bool isArray() const { return m_topArray; }

    bool start_object(std::size_t n) override
    {
        if (depth() == 0)
            m_topObject = true;
        else if (depth() == 1 && m_topArray)
            m_inFirst = true;
        return PeekSax::start_object(n);
    }
    bool key(string_t& k) override
    {
        if (depth() == 1 && m_topObject && k == "traceEvents") {
            m_traceEvents = true;
            return false;
        }
        if (depth() == 2 && m_inFirst)
            m_keys.insert(k);
        return true;
    }
    bool end_object() override
    {
        PeekSax::end_object();
        return !(depth() == 1 && m_inFirst); // the first event is complete: enough seen
    }
    bool start_array(std::size_t n) override
    {
        if (depth() == 0)
            m_topArray = true;
        else if (depth() == 1 && m_topArray)
            return false; // the first element is not an event object
        return PeekSax::start_array(n);
    }

private:
    // A scalar as the first element of a top-level array: not a trace.
    bool value() override { return !(depth() == 1 && m_topArray); }

    bool m_topArray = false;
    bool m_topObject = false;
    bool m_inFirst = false;
    bool m_traceEvents = false;
    std::set<std::string> m_keys;
};

std::optional<FileSniffer::Result> sniffSqlite(const fs::path& file, std::vector<PlanIssue>& issues)
{
    const std::string path = fs::absolute(file).lexically_normal().string();
    try {
        SqliteExport db(path); // reads sqlite_master and PRAGMA table_info only
        // Cluster tables first: a cluster db also holds per-rank-looking names in other versions.
        for (const char* t : { "ClusterStepTraceTime", "ClusterCommAnalyzerTime" }) {
            if (db.hasTable(t))
                return FileSniffer::Result { FileKind::ClusterAnalysisDb, std::string("SQLite file with ") + t,
                    std::nullopt };
        }
        for (const char* t : { "StepTraceTime", "CommAnalyzerTime", "CommAnalyzerBandwidth", "CommAnalyzerMatrix" }) {
            if (db.hasTable(t))
                return FileSniffer::Result { FileKind::AnalysisDb, std::string("SQLite file with ") + t, std::nullopt };
        }
        for (const char* t : { "TASK", "STRING_IDS", "CANN_API", "API" }) {
            if (db.hasTable(t))
                return FileSniffer::Result { FileKind::ProfilerDb, std::string("SQLite file with ") + t, std::nullopt };
        }
        issues.push_back({ "info", path,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                "SQLite file with none of the tables npuscope imports (StepTraceTime, CommAnalyzer*, TASK, STRING_IDS, "
                "CANN_API, API, ClusterStepTraceTime); ignored")) });
    } catch (const model::DbError& e) {
        issues.push_back({ "warning", path,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "starts with the SQLite header but is not a readable SQLite database (truncated or "
                          "damaged?); ignored: %1"),
                { e.what() }) });
    }
    return std::nullopt;
}

// A kind of text file and the db tables that give the same data: held when, for some entry of anyOf, every table
// has rows (the importer joins them).
struct HeldRule {
    FileKind db;
    FileKind text;
    std::vector<std::vector<std::string>> anyOf;
};

const std::vector<HeldRule>& heldRules()
{
    static const std::vector<HeldRule> rules {
        { FileKind::ProfilerDb, FileKind::KernelDetails, { { "TASK", "COMPUTE_TASK_INFO" }, { "COMMUNICATION_OP" } } },
        { FileKind::ProfilerDb, FileKind::OpSummary, { { "TASK", "COMPUTE_TASK_INFO" }, { "COMMUNICATION_OP" } } },
        { FileKind::ProfilerDb, FileKind::MemoryRecord, { { "MEMORY_RECORD" }, { "NPU_MEM" } } },
        { FileKind::ProfilerDb, FileKind::OperatorMemory, { { "OP_MEMORY" } } },
        { FileKind::ProfilerDb, FileKind::NpuModuleMem, { { "NPU_MODULE_MEM" } } },
        { FileKind::ProfilerDb, FileKind::TraceView,
            { { "TASK" }, { "CANN_API" }, { "API" }, { "PYTORCH_API" }, { "COMMUNICATION_OP" }, { "MSTX_EVENTS" } } },
        { FileKind::AnalysisDb, FileKind::StepTraceTime, { { "StepTraceTime" } } },
        { FileKind::AnalysisDb, FileKind::Communication, { { "CommAnalyzerTime" } } },
        { FileKind::AnalysisDb, FileKind::CommunicationMatrix, { { "CommAnalyzerMatrix" } } },
    };
    return rules;
}

} // namespace

std::vector<FileKind> FileSniffer::heldTextKinds(
    const std::string& path, FileKind dbKind, std::vector<PlanIssue>& issues)
{
    std::vector<FileKind> out;
    try {
        SqliteExport db(path);
        std::map<std::string, bool> hasRows; // per table, asked once
        const auto rows = [&](const std::string& table) {
            auto [it, added] = hasRows.emplace(table, false);
            if (added && db.hasTable(table)) {
                auto st = db.db().prepare("SELECT EXISTS (SELECT 1 FROM \"" + table + "\")");
                it->second = st.step() && st.int64(0) != 0;
            }
            return it->second;
        };
        for (const auto& rule : heldRules()) {
            if (rule.db != dbKind)
                continue;
            if (std::any_of(rule.anyOf.begin(), rule.anyOf.end(),
                    [&](const auto& tables) { return std::all_of(tables.begin(), tables.end(), rows); }))
                out.push_back(rule.text);
        }
    } catch (const model::DbError& e) {
        issues.push_back({ "warning", path,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "cannot read the tables of this db export, so the text files beside it are used: %1"),
                { e.what() }) });
        out.clear();
    }
    return out;
}

bool FileSniffer::hasSqliteHeader(const fs::path& file)
{
    const std::string head = readPrefix(file, kSqliteHeader.size());
    return head.size() == kSqliteHeader.size() && std::memcmp(head.data(), kSqliteHeader.data(), head.size()) == 0;
}

std::optional<FileSniffer::Result> FileSniffer::sniff(const fs::path& file, std::vector<PlanIssue>& issues)
{
    const std::string name = file.filename().string();
    // SQLite's own side files (WAL, shared memory, rollback journal) are never data.
    if (endsWith(name, "-wal") || endsWith(name, "-shm") || endsWith(name, "-journal"))
        return std::nullopt;
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    if (ec || size == 0)
        return std::nullopt;
    const std::string head = readPrefix(file, kSqliteHeader.size());
    if (head.size() == kSqliteHeader.size() && std::memcmp(head.data(), kSqliteHeader.data(), head.size()) == 0)
        return sniffSqlite(file, issues);
    // Shorter than the header but exactly its beginning: a cut-off SQLite file, worth a word.
    if (head.size() >= 6 && head.size() < kSqliteHeader.size()
        && std::memcmp(head.data(), kSqliteHeader.data(), head.size()) == 0) {
        issues.push_back({ "warning", fs::absolute(file).lexically_normal().string(),
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "holds only %1 bytes of the 16-byte SQLite header (truncated SQLite file?); ignored"),
                { std::to_string(head.size()) }) });
        return std::nullopt;
    }
    // PyTorch profiler (Kineto) traces, often gzipped: a JSON object with Kineto's header keys.
    if (endsWith(name, ".json") || endsWith(name, ".json.gz")) {
        const std::string path = fs::absolute(file).lexically_normal().string();
        if (auto header = KinetoTraceImporter::sniff(path, kJsonPrefixBytes))
            return Result { FileKind::KinetoTrace,
                "PyTorch profiler (Kineto) trace: a JSON object with schemaVersion / deviceProperties / "
                "distributedInfo",
                header->rank };
    }
    if (file.extension() != ".json")
        return std::nullopt;
    const std::string prefix = readPrefix(file, kJsonPrefixBytes);
    TraceShape shape;
    nlohmann::json::sax_parse(prefix.begin(), prefix.end(), &shape, nlohmann::json::input_format_t::json, false);
    if (!shape.isTrace())
        return std::nullopt;
    return Result { FileKind::TraceView,
        shape.isArray() ? "Chrome trace JSON (an array of events with ph, pid, name)"
                        : "Chrome trace JSON (an object with traceEvents)",
        std::nullopt };
}

std::vector<int64_t> FileSniffer::analysisDbDevices(const std::string& path)
{
    std::vector<int64_t> out;
    try {
        // Runs for every analysis.db of a cluster: one table's columns only, not the whole table list.
        auto db = model::Database::openReadOnly(path);
        std::string col;
        {
            auto info = db->prepare("PRAGMA table_info(StepTraceTime)");
            while (info.step()) {
                const std::string name = info.text(1);
                std::string lower = name;
                std::transform(lower.begin(), lower.end(), lower.begin(),
                    [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
                if (lower == "deviceid" || lower == "device_id")
                    col = name; // as SqliteExport::column matches it for the importer
            }
        }
        if (col.empty())
            return out;
        auto st = db->prepare(
            "SELECT DISTINCT \"" + col + "\" FROM StepTraceTime WHERE \"" + col + "\" IS NOT NULL ORDER BY 1");
        while (st.step()) {
            if (auto d = st.optInt(0))
                out.push_back(*d);
        }
    } catch (const model::DbError&) {
        out.clear(); // the importer reports an unreadable file with its own words
    }
    return out;
}

} // namespace npuscope::io

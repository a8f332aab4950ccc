// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/RankImport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/FolderRules.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/model/Database.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace fs = std::filesystem;

namespace npuscope::load {

namespace {

constexpr const char* kTool = "npuscope-cli import";

// Modification time in ns since the Unix epoch (the file clock's epoch is not portable); 0 when unknown.
int64_t mtimeNs(const std::string& path)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0)
        return 0;
    return static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

// The facts a rank file and a group file both say about themselves (format, schema, importer version, tool, rank)
// and the one that is theirs alone (extraKey = extraValue), as key/value rows of table.
void writeFacts(
    model::Database& db, const char* table, int64_t rank, const char* extraKey, const std::string& extraValue)
{
    auto meta = db.prepare(std::string("INSERT INTO ") + table + " VALUES (?1, ?2)");
    const std::map<std::string, std::string> facts { { "format", std::to_string(RankImport::kFormat) },
        { "schema", ParseCache::schemaHash() }, { "importer_version", std::to_string(ParseCache::importerVersion()) },
        { "tool", kTool }, { "rank", std::to_string(rank) }, { extraKey, extraValue } };
    for (const auto& [k, v] : facts) {
        meta.bind(1, k).bind(2, v).run();
        meta.reset();
    }
}

void describe(model::Database& db, const io::PlannedRank& rank, const std::string& rankDir,
    const std::vector<io::PlanIssue>& issues)
{
    db.exec("CREATE TABLE npuscope_import(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE npuscope_import_input(path TEXT NOT NULL, kind TEXT NOT NULL, size INTEGER, "
            "mtime_ns INTEGER);"
            "CREATE TABLE npuscope_import_issue(severity TEXT NOT NULL, path TEXT, message TEXT NOT NULL);");
    db.exec("BEGIN");
    writeFacts(db, "npuscope_import", rank.rank, "rank_dir", rankDir);
    auto input = db.prepare("INSERT INTO npuscope_import_input VALUES (?1, ?2, ?3, ?4)");
    for (const auto& f : rank.files) {
        std::error_code ec;
        const auto size = fs::file_size(f.path, ec);
        input.bind(1, f.path).bind(2, io::fileKindName(f.kind)).bind(3, static_cast<int64_t>(ec ? 0 : size));
        input.bind(4, mtimeNs(f.path)).run();
        input.reset();
    }
    auto issue = db.prepare("INSERT INTO npuscope_import_issue VALUES (?1, ?2, ?3)");
    for (const auto& i : issues) {
        issue.bind(1, i.severity).bind(2, i.path).bind(3, i.message).run();
        issue.reset();
    }
    db.exec("COMMIT");
}

// Leaves the model's tables without rows out of a rank file (format 2): opening a folder of rank files parses each
// file's schema, which costs per table, and most of the model's tables (the deferred groups') are empty there. The
// description tables stay.
void dropEmptyTables(model::Database& db)
{
    std::vector<std::string> tables;
    {
        auto st = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                             "AND name NOT LIKE 'npuscope_import%'");
        while (st.step())
            tables.push_back(st.text(0));
    }
    for (const auto& t : tables) {
        if (!db.prepare("SELECT 1 FROM \"" + t + "\" LIMIT 1").step())
            db.exec("DROP TABLE \"" + t + "\"");
    }
}

// The joined model's seal (RankImport::checkJoinedSeal): where it sits in the SQLite header (user_version at 60,
// application_id at 68, both big-endian) and the bytes it covers (everything after the header).
constexpr off_t kHeaderBytes = 100;
constexpr off_t kUserVersionAt = 60;
constexpr off_t kApplicationIdAt = 68;

// A 64-bit hash of fd's bytes from kHeaderBytes on, four multiply-xor lanes over 8-byte words (several GB/s); nullopt
// when the file cannot be read.
std::optional<uint64_t> contentHash(int fd)
{
    constexpr uint64_t kPrime = 0x9e3779b97f4a7c15ull;
    std::array<uint64_t, 4> lanes { 1, 2, 3, 4 };
    std::vector<unsigned char> buffer(4u << 20);
    off_t at = kHeaderBytes;
    uint64_t total = 0;
    for (;;) {
        const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), at);
        if (n < 0)
            return std::nullopt;
        if (n == 0)
            break;
        const size_t count = static_cast<size_t>(n);
        size_t i = 0;
        for (; i + 32 <= count; i += 32) {
            for (size_t l = 0; l < 4; ++l) {
                uint64_t word;
                std::memcpy(&word, buffer.data() + i + 8 * l, 8);
                lanes[l] = (lanes[l] ^ word) * kPrime;
                lanes[l] ^= lanes[l] >> 29;
            }
        }
        for (; i < count; ++i)
            lanes[0] = (lanes[0] ^ buffer[i]) * kPrime;
        at += n;
        total += count;
    }
    uint64_t h = total;
    for (const uint64_t lane : lanes)
        h = ((h ^ lane) * kPrime) ^ (h >> 31);
    return h;
}

void putBigEndian32(unsigned char* out, uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        out[i] = static_cast<unsigned char>(value >> (24 - 8 * i));
}

uint32_t bigEndian32(const unsigned char* in)
{
    return (uint32_t(in[0]) << 24) | (uint32_t(in[1]) << 16) | (uint32_t(in[2]) << 8) | uint32_t(in[3]);
}

// Writes the seal into the SQLite file at path (not yet renamed into place); the error, or "".
std::string seal(const fs::path& path)
{
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return "cannot open " + path.string() + " to seal it";
    std::string error;
    if (const auto hash = contentHash(fd)) {
        unsigned char word[4];
        putBigEndian32(word, static_cast<uint32_t>(*hash));
        bool ok = ::pwrite(fd, word, 4, kUserVersionAt) == 4;
        putBigEndian32(word, static_cast<uint32_t>(*hash >> 32));
        ok = ok && ::pwrite(fd, word, 4, kApplicationIdAt) == 4;
        if (!ok)
            error = "cannot seal " + path.string();
    } else {
        error = "cannot read " + path.string() + " to seal it";
    }
    ::close(fd);
    return error;
}

// Writes model to dir/name through a temporary file in dir and a rename (atomic within one file system); sealed
// (seal) before the rename when asked.
std::string writeAtomically(model::Database& model, const fs::path& dir, const std::string& name, bool sealed = false)
{
    static std::atomic<uint64_t> counter { 0 };
    const fs::path target = dir / name;
    const fs::path temp
        = dir / ("." + name + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1)));
    std::error_code ec;
    try {
        model.saveTo(temp.string());
    } catch (const model::DbError& e) {
        fs::remove(temp, ec);
        return std::string("cannot write ") + temp.string() + ": " + e.what();
    }
    if (sealed) {
        if (auto error = seal(temp); !error.empty()) {
            fs::remove(temp, ec);
            return error;
        }
    }
    fs::rename(temp, target, ec);
    if (ec) {
        const std::string message = "cannot rename " + temp.string() + " to " + target.string() + ": " + ec.message();
        fs::remove(temp, ec);
        return message;
    }
    return {};
}

// The description of a group file: what it is and exactly which input files it was parsed from (the plan's sizes,
// which the rank file's rank_file rows hold too).
void describeGroup(
    model::Database& db, int64_t rank, const std::string& scope, const std::vector<io::PlannedFile>& files)
{
    db.exec("CREATE TABLE npuscope_import_group(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE npuscope_import_input(path TEXT NOT NULL, kind TEXT NOT NULL, size INTEGER, "
            "mtime_ns INTEGER);");
    db.exec("BEGIN");
    writeFacts(db, "npuscope_import_group", rank, "scope", scope);
    auto input = db.prepare("INSERT INTO npuscope_import_input VALUES (?1, ?2, ?3, ?4)");
    for (const auto& f : files) {
        input.bind(1, f.path).bind(2, io::fileKindName(f.kind)).bind(3, static_cast<int64_t>(f.size));
        input.bind(4, mtimeNs(f.path)).run();
        input.reset();
    }
    db.exec("COMMIT");
}

std::vector<std::tuple<std::string, std::string, int64_t>> fileKeys(const std::vector<io::PlannedFile>& files)
{
    std::vector<std::tuple<std::string, std::string, int64_t>> keys;
    for (const auto& f : files)
        keys.emplace_back(f.path, io::fileKindName(f.kind), static_cast<int64_t>(f.size));
    std::sort(keys.begin(), keys.end());
    return keys;
}

// Writes the group files of one rank into out (before its rank file) and removes those of an earlier import this one
// does not write; the scopes written into written.groups, their bytes added. The first error, or "".
std::string writeGroups(const io::PlannedRank& rank, const fs::path& out, bool withGroups,
    const RankImport::Options& options, RankImport::Written& written, const std::atomic<bool>* cancel)
{
    std::vector<std::string> scopes;
    for (const io::DeferredGroup group : { io::kTimelineGroup, io::kKernelsGroup, io::kMemoryGroup })
        scopes.push_back(io::deferredGroupName(group));
    scopes.push_back(RankImport::kKernelTotalsScope);
    for (const auto& scope : scopes) {
        if (cancel && cancel->load())
            return {};
        std::vector<io::PlannedFile> files;
        io::DeferredGroup group = io::kKernelsGroup; // the kernel totals' files
        for (const io::DeferredGroup g : { io::kTimelineGroup, io::kKernelsGroup, io::kMemoryGroup })
            group = scope == io::deferredGroupName(g) ? g : group;
        for (const auto& f : rank.files) {
            if (io::deferredGroupOf(f.kind) == group)
                files.push_back(f);
        }
        std::unique_ptr<model::Database> model;
        const fs::path target = out / RankImport::groupFileName(rank.rank, scope);
        if (scope == RankImport::kKernelTotalsScope)
            model = files.empty() ? nullptr : Loader::importRankKernelTotals(rank, cancel);
        else if (withGroups && (options.groups & group) != 0 && !files.empty())
            model = Loader::importRankGroup(rank, group, cancel);
        if (!model) {
            std::error_code ec;
            fs::remove(target, ec); // an earlier import's: it would no longer match this rank file's import
            continue;
        }
        if (cancel && cancel->load())
            return {};
        dropEmptyTables(*model); // merged as a partial model too (Loader: mergeImportedGroup)
        describeGroup(*model, rank.rank, scope, files);
        if (auto error = writeAtomically(*model, out, target.filename().string()); !error.empty())
            return error;
        std::error_code ec;
        written.bytes += fs::file_size(target, ec);
        written.groups.push_back(scope);
    }
    return {};
}

} // namespace

std::string RankImport::groupFileName(int64_t rank, const std::string& scope)
{
    return "rank_" + std::to_string(rank) + "." + scope + ".npgroup";
}

std::optional<std::string> RankImport::groupFileFor(
    const std::string& rankFile, int64_t rank, const std::string& scope, const std::vector<io::PlannedFile>& files)
{
    const fs::path path = fs::path(rankFile).parent_path() / groupFileName(rank, scope);
    std::error_code ec;
    if (files.empty() || !fs::is_regular_file(path, ec))
        return std::nullopt;
    try {
        auto db = model::Database::openReadOnly(path.string());
        std::map<std::string, std::string> facts;
        auto st = db->prepare("SELECT key, value FROM npuscope_import_group");
        while (st.step())
            facts[st.text(0)] = st.text(1);
        if (facts["format"] != std::to_string(kFormat) || facts["schema"] != ParseCache::schemaHash()
            || facts["rank"] != std::to_string(rank) || facts["scope"] != scope)
            return std::nullopt;
        std::vector<std::tuple<std::string, std::string, int64_t>> recorded;
        auto inputs = db->prepare("SELECT path, kind, size FROM npuscope_import_input");
        while (inputs.step())
            recorded.emplace_back(inputs.text(0), inputs.text(1), inputs.int64(2));
        std::sort(recorded.begin(), recorded.end());
        if (recorded != fileKeys(files))
            return std::nullopt;
    } catch (const model::DbError&) {
        return std::nullopt; // not a group file this build reads: the original files are read instead
    }
    return path.string();
}

RankImport::Result RankImport::importRanks(const std::vector<std::string>& rankDirs, const std::string& outDir,
    const LogFn& log, const std::atomic<bool>* cancel)
{
    return importRanks(rankDirs, outDir, log, cancel, Options {});
}

RankImport::Result RankImport::importRanks(const std::vector<std::string>& rankDirs, const std::string& outDir,
    const LogFn& log, const std::atomic<bool>* cancel, const Options& options)
{
    Result result;
    const fs::path out = resolvedPath(outDir);
    for (const auto& d : rankDirs) {
        if (isInsideFolder(out, resolvedPath(d))) {
            result.errors.push_back("refusing to write into an input folder: " + out.string() + " is inside " + d);
            return result;
        }
    }
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec || !fs::is_directory(out)) {
        result.errors.push_back("cannot create " + out.string() + ": " + ec.message());
        return result;
    }
    for (const auto& dir : rankDirs) {
        if (cancel && cancel->load())
            break;
        const auto plan = io::Detector::detect({ dir });
        if (plan.ranks.empty()) {
            std::string why;
            for (const auto& i : plan.issues)
                why += (why.empty() ? "" : "; ") + i.message;
            result.errors.push_back(dir + ": nothing to import" + (why.empty() ? "" : " (" + why + ")"));
            continue;
        }
        for (const auto& rank : plan.ranks) {
            // Detection issues go with the rank whose folder they name; the others with every rank of the input.
            std::vector<io::PlanIssue> issues;
            for (const auto& i : plan.issues) {
                bool other = false;
                for (const auto& r : plan.ranks)
                    other = other || (&r != &rank && isInsideFolder(fs::path(i.path), fs::path(r.path)));
                if (!other)
                    issues.push_back(i);
            }
            try {
                auto model = model::Database::createModel();
                Loader::importRankSummary(*model, rank, cancel);
                if (cancel && cancel->load())
                    break;
                describe(*model, rank, fs::absolute(dir).lexically_normal().string(), issues);
                dropEmptyTables(*model);
                const std::string name = io::importedRankFileName(rank.rank);
                Written w { rank.rank, dir, (out / name).string(), 0, {} };
                const bool withGroups = !options.groupRanks || options.groupRanks->count(rank.rank) != 0;
                auto error = writeGroups(rank, out, withGroups, options, w, cancel);
                if (cancel && cancel->load())
                    break;
                if (error.empty())
                    error = writeAtomically(*model, out, name);
                if (!error.empty()) {
                    result.errors.push_back(dir + ": rank " + std::to_string(rank.rank) + ": " + error);
                    continue;
                }
                w.bytes += fs::file_size(w.path, ec);
                result.written.push_back(w);
                if (log)
                    log(w);
            } catch (const model::DbError& e) {
                result.errors.push_back(dir + ": rank " + std::to_string(rank.rank) + ": " + e.what());
            }
        }
    }
    return result;
}

namespace {

// Name, size and mtime of each imported rank file of a plan, sorted; nullopt unless every rank is one such file of one
// folder (that folder in dir).
std::optional<std::vector<std::tuple<std::string, int64_t, int64_t>>> rankFilesOf(
    const io::LoadPlan& plan, fs::path& dir)
{
    std::vector<std::tuple<std::string, int64_t, int64_t>> files;
    for (const auto& r : plan.ranks) {
        if (r.files.size() != 1 || r.files.front().kind != io::FileKind::ImportedRank)
            return std::nullopt;
        const fs::path p(r.files.front().path);
        if (files.empty())
            dir = p.parent_path();
        else if (p.parent_path() != dir)
            return std::nullopt;
        std::error_code ec;
        const auto size = fs::file_size(p, ec);
        files.emplace_back(p.filename().string(), ec ? -1 : static_cast<int64_t>(size), mtimeNs(p.string()));
    }
    if (files.empty())
        return std::nullopt;
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

std::string RankImport::join(const std::string& dir)
{
    auto plan = io::Detector::detect({ dir });
    fs::path folder;
    const auto files = rankFilesOf(plan, folder);
    if (!files)
        return dir + " is not a folder of imported rank files only";
    // Detection's issues are added by every open; the joined model holds what the files hold.
    plan.issues.clear();
    LoadOptions options;
    options.loadTimelines = false;
    options.useJoined = false;
    auto db = Loader::load(plan, options);
    if (!db)
        return "cancelled";
    db->exec("CREATE TABLE npuscope_join(name TEXT NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL)");
    db->exec("BEGIN");
    auto insert = db->prepare("INSERT INTO npuscope_join VALUES (?1, ?2, ?3)");
    for (const auto& [name, size, mtime] : *files) {
        insert.bind(1, name).bind(2, size).bind(3, mtime).run();
        insert.reset();
    }
    db->exec("COMMIT");
    return writeAtomically(*db, folder, kJoinedName, true);
}

std::optional<std::string> RankImport::joinIfWhole(const std::string& outDir, const Result& result)
{
    std::set<std::string> written;
    for (const auto& w : result.written)
        written.insert(fs::path(w.path).filename().string());
    std::set<std::string> present;
    std::error_code ec;
    for (fs::directory_iterator it(outDir, ec), end; !ec && it != end; it.increment(ec)) {
        if (io::importedRankOf(it->path().filename().string()))
            present.insert(it->path().filename().string());
    }
    if (ec || written.empty() || present != written)
        return std::nullopt;
    return join(outDir);
}

std::optional<std::string> RankImport::joinedFor(const io::LoadPlan& plan)
{
    fs::path dir;
    const auto files = rankFilesOf(plan, dir);
    if (!files)
        return std::nullopt;
    const fs::path joined = dir / kJoinedName;
    std::error_code ec;
    if (!fs::is_regular_file(joined, ec))
        return std::nullopt;
    try {
        auto db = model::Database::openReadOnly(joined.string());
        std::vector<std::tuple<std::string, int64_t, int64_t>> recorded;
        auto st = db->prepare("SELECT name, size, mtime_ns FROM npuscope_join ORDER BY name");
        while (st.step())
            recorded.emplace_back(st.text(0), st.int64(1), st.int64(2));
        std::sort(recorded.begin(), recorded.end());
        if (recorded != *files)
            return std::nullopt;
    } catch (const model::DbError&) {
        return std::nullopt; // not a joined model this build reads: the rank files are merged instead
    }
    return joined.string();
}

void RankImport::checkJoinedSeal(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw model::DbError("cannot open it");
    unsigned char header[kHeaderBytes];
    const bool headerRead = ::pread(fd, header, sizeof header, 0) == static_cast<ssize_t>(sizeof header);
    const auto hash = contentHash(fd);
    ::close(fd);
    if (!headerRead || !hash)
        throw model::DbError("cannot read it");
    const uint64_t sealed
        = (uint64_t(bigEndian32(header + kApplicationIdAt)) << 32) | bigEndian32(header + kUserVersionAt);
    if (sealed != *hash)
        throw model::DbError("its checksum differs (damaged, edited, or joined by an older build): run npuscope-cli "
                             "import --join again");
}

RankImport::Inspection RankImport::inspect(const std::string& path)
{
    try {
        auto db = model::Database::openReadOnly(path);
        return inspectAttached(*db, "main");
    } catch (const model::DbError& e) {
        Inspection result;
        result.problem = std::string("imported rank file unreadable: ") + e.what();
        return result;
    }
}

RankImport::Inspection RankImport::inspectAttached(model::Database& db, const std::string& schema)
{
    Inspection result;
    try {
        if (!db.scalarInt("SELECT count(*) FROM " + schema + ".sqlite_master WHERE name = 'npuscope_import'")
                 .value_or(0)) {
            result.problem = "not a file of npuscope-cli import (no npuscope_import table)";
            return result;
        }
        std::map<std::string, std::string> facts;
        auto st = db.prepare("SELECT key, value FROM " + schema + ".npuscope_import");
        while (st.step())
            facts[st.text(0)] = st.text(1);
        const std::string version = "import format " + facts["format"] + ", schema " + facts["schema"]
            + ", importer version " + facts["importer_version"];
        const std::string ours = "this build: import format " + std::to_string(kFormat) + ", schema "
            + ParseCache::schemaHash() + ", importer version " + std::to_string(ParseCache::importerVersion());
        const bool knownFormat = facts["format"] == std::to_string(kFormat) || facts["format"] == "1";
        if (!knownFormat || facts["schema"] != ParseCache::schemaHash()) {
            result.problem = "made by another npuscope version (" + version + "; " + ours
                + "); not read: run npuscope-cli import on " + facts["rank_dir"] + " again with this build";
            return result;
        }
        if (facts["importer_version"] != std::to_string(ParseCache::importerVersion()))
            result.problem = "made by another npuscope version (" + version + "; " + ours
                + "); read as it is, but a new import of " + facts["rank_dir"] + " may give other rows";
        auto issues
            = db.prepare("SELECT severity, path, message FROM " + schema + ".npuscope_import_issue ORDER BY rowid");
        while (issues.step())
            result.issues.push_back({ issues.text(0), issues.optText(1).value_or(""), issues.text(2) });
        result.usable = true;
    } catch (const model::DbError& e) {
        result.problem = std::string("imported rank file unreadable: ") + e.what();
    }
    return result;
}

} // namespace npuscope::load

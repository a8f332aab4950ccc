// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/model/Database.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npuscope::load {

// Per-rank model files made where the profiles are (`npuscope-cli import`) and opened anywhere: each file
// (io::importedRankFileName, "rank_<id>.nprank") is the SQLite model a load's worker writes for one rank (rank row,
// summary rows, the memory peaks, rank_file rows naming the original files, parse issues), before group resolution,
// plus three tables describing itself:
//   npuscope_import(key, value): format, schema (ParseCache::schemaHash), importer_version, tool, rank, rank_dir
//   npuscope_import_input(path, kind, size, mtime_ns): every input file as it was when imported
//   npuscope_import_issue(severity, path, message): what detection said about the rank folder
// A folder of such files is an input of its own (io::Detector); Loader merges them instead of parsing.
// The deferred groups (io::DeferredGroup: timeline, kernels, memory) are not merged at open; a rank file's group rows
// travel beside it, in "rank_<id>.<scope>.npgroup" (groupFileName), when the import was asked for them
// (Options::groups, Options::groupRanks), and the kernel totals of the FLOPs heatmap (scope "kernel-totals",
// Loader::loadKernelTotals) always: each is the model a deferred load would merge (its parse cache entry's content)
// plus npuscope_import_group(key, value) (format, schema, importer_version, rank, scope) and npuscope_import_input
// (the group's input files). Loader reads a group from there when its files match the rank's rank_file rows, else
// from the original files the rank_file rows name.
class RankImport {
public:
    // 2: tables without rows are left out of the rank files (an open parses the schema of each file; 1 had all).
    // Files of format 1 are read as well.
    static constexpr int kFormat = 2;

    struct Written {
        int64_t rank = 0;
        std::string input; // the rank folder given
        std::string path; // the file written
        uint64_t bytes = 0; // the rank file and its group files
        std::vector<std::string> groups; // scopes of the group files written
    };
    struct Options {
        io::DeferredGroups groups = io::kNoGroup; // deferred groups written beside the rank files
        std::optional<std::set<int64_t>> groupRanks; // ranks whose groups are written; nullopt = every rank
    };
    struct Result {
        std::vector<Written> written;
        std::vector<std::string> errors; // one line per input or rank that could not be imported
    };
    using LogFn = std::function<void(const Written&)>;

    // Detects each of rankDirs on its own (one process per rank folder or per host needs nothing from the others)
    // and writes one file per rank it plans into outDir (created when missing). Each file is written to a temporary
    // name in outDir and renamed, so a reader never sees half a file and processes writing other ranks into the same
    // outDir never collide; a rank imported twice keeps the last file. Refuses an outDir inside (or equal to) an
    // input folder, and never writes anywhere else. log is called once per file written (from the calling thread).
    // Any thread.
    // Each file is written completely before the rank file, and a group file of an earlier import of the rank that
    // this one does not write is removed.
    static Result importRanks(const std::vector<std::string>& rankDirs, const std::string& outDir,
        const LogFn& log, const std::atomic<bool>* cancel, const Options& options);
    // The same without group files (Options{}).
    static Result importRanks(const std::vector<std::string>& rankDirs, const std::string& outDir,
        const LogFn& log = {}, const std::atomic<bool>* cancel = nullptr);

    // "rank_<id>.<scope>.npgroup", scope a deferred group's name (io::deferredGroupName) or "kernel-totals".
    static std::string groupFileName(int64_t rank, const std::string& scope);
    static constexpr const char* kKernelTotalsScope = "kernel-totals";
    // The group file beside the imported rank file rankFile for scope, when it was written by this build's import
    // format and schema for exactly files (kind, path, size: the rank's rank_file rows of the group); else nullopt.
    // Never throws. Any thread.
    static std::optional<std::string> groupFileFor(
        const std::string& rankFile, int64_t rank, const std::string& scope, const std::vector<io::PlannedFile>& files);

    // The joined model of an imported folder: the summary model of all its rank files, written once after every
    // rank is imported (`npuscope-cli import --join DIR`, e.g. a job depending on the import array job), so opening
    // the folder reads one file instead of merging them. Described by table npuscope_join(name, size, mtime_ns): the
    // rank files it was made from; used only while they are exactly those.
    static constexpr const char* kJoinedName = "cluster.npjoined";
    // Writes dir/kJoinedName (temporary file + rename); the error, or "" on success. Any thread.
    static std::string join(const std::string& dir);
    // After importRanks wrote result into outDir: joins outDir (join) when its rank files are exactly those result
    // wrote, i.e. this call imported the whole folder (one `npuscope-cli import` over every rank folder), so the
    // folder's first open reads one file. nullopt when the folder holds other rank files (processes importing into
    // it side by side: run `import --join` once they are all done) or nothing was written; else join's answer.
    // Any thread.
    static std::optional<std::string> joinIfWhole(const std::string& outDir, const Result& result);
    // The joined model matching a plan whose ranks are all imported files of one folder, else nullopt. Any thread.
    static std::optional<std::string> joinedFor(const io::LoadPlan& plan);
    // Throws model::DbError unless the joined model at path is byte for byte what join wrote: join seals the file
    // with a 64-bit hash of its bytes after the 100-byte SQLite header, kept in that header's user_version and
    // application_id fields. Reading the file once for the hash costs a fraction of SQLite's quick_check (which a
    // parse cache entry gets) and also catches damage to the rows that quick_check cannot see. Any thread.
    static void checkJoinedSeal(const std::string& path);

    struct Inspection {
        bool usable = false; // this build can merge the file
        std::string problem; // why not, or (when usable) a warning such as another importer version
        std::vector<io::PlanIssue> issues; // the import's detection issues
    };
    // Reads a file's description (not its rows). Never throws. Any thread.
    static Inspection inspect(const std::string& path);
    // The same for a file attached to db as schema (e.g. "w" during a merge). Never throws. db's thread.
    static Inspection inspectAttached(model::Database& db, const std::string& schema);
};

} // namespace npuscope::load

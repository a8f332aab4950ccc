// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/Loader.h"

#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/parse/IssueText.h"

#include "LoaderParts.h"
#include "npuscope/core/RunOnThreads.h"
#include "npuscope/io/detect/FileKinds.h"
#include "npuscope/io/parse/SourceFile.h"
#include "npuscope/io/torch_npu/KernelDetailsImporter.h"
#include "npuscope/load/DeferredSniff.h"
#include "npuscope/load/MemoryGuard.h"
#include "npuscope/load/ModelMerger.h"
#include "npuscope/load/PostLoad.h"
#include "npuscope/load/RankImport.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/model/RankFileTable.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>

namespace npuscope::load {

using namespace io;
using namespace model;

namespace detail {

ImporterFn importerFor(FileKind kind)
{
    const auto* spec = FileKinds::find(kind);
    return spec ? spec->importer : nullptr;
}

int importOrder(FileKind k)
{
    const auto* spec = FileKinds::find(k);
    return spec ? spec->importOrder : 2;
}

RankFileStatus loadedOrFailed(bool ok) { return ok ? RankFileStatus::Loaded : RankFileStatus::Failed; }

model::Severity severityOf(const std::string& s)
{
    if (s == "error")
        return model::Severity::Error;
    if (s == "info")
        return model::Severity::Info;
    return model::Severity::Warning;
}

double secondsBetween(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

// Unique names for the workers' shared in-memory models.
std::string workerModelName()
{
    static std::atomic<uint64_t> counter { 0 };
    return "npuscope_worker_" + std::to_string(::getpid()) + "_" + std::to_string(counter.fetch_add(1));
}

// Stores model in the cache under key. A cache that cannot be written (read-only, full, not a folder) never fails
// the load: the model the user sees gets an info issue saying why, and the files are parsed again next time.
void storeInCache(const ParseCache& cache, model::Database& model, const std::string& key)
{
    if (cache.store(model, key))
        return;
    model::ModelWriter writer(model);
    writer.begin();
    writer.addIssue({ model::Severity::Info, std::nullopt, cache.dir(), std::nullopt,
        io::issueText(QT_TRANSLATE_NOOP("ParseIssue",
            "parse cache not written (the folder cannot be written: read-only, full or not a folder); loaded without "
            "it, so these files are parsed again next time")) });
    writer.commit();
}

// Imports one file with the right importer; one bad file never takes the others down. Sets the
// file's rank_file status when setStatus (its row exists); returns whether it loaded.
bool importFile(model::ModelWriter& writer, int64_t rank, const PlannedFile& file, ProgressSink& progress,
    const std::atomic<bool>* cancel, const std::shared_ptr<RankState>& state, bool setStatus,
    const ImporterOverride& importerOverride)
{
    const auto before = SourceFile::stamp(file.path);
    progress.bytes(0, file.path);
    progress.parsed(file.path);
    ImportContext ctx(writer, rank, file.path, cancel);
    if (state)
        ctx.setRankState(state);
    uint64_t reported = 0;
    ctx.onBytes = [&](uint64_t bytes) {
        if (bytes > reported) {
            progress.bytes(bytes - reported, file.path);
            reported = bytes;
        }
    };
    bool ok = false;
    try {
        const ImporterFn importer = importerFor(file.kind);
        if (importerOverride)
            ok = importerOverride(ctx);
        else if (importer)
            ok = importer(ctx);
        else
            ctx.warning(std::nullopt,
                io::issueText(
                    QT_TRANSLATE_NOOP("ParseIssue", "no importer for this file kind in this build; skipped")));
    } catch (const std::exception& e) {
        ctx.error(std::nullopt, io::issueText(QT_TRANSLATE_NOOP("ParseIssue", "import failed: %1"), { e.what() }));
        spdlog::error("import of {} failed: {}", file.path, e.what());
    }
    // A file rewritten while it was read (a job still writing its profile) gives rows of two versions: said, so
    // the user reopens the folder once the job is done (the parse cache keys on size and mtime, so that reparses).
    if (const auto after = SourceFile::stamp(file.path); before && after && *after != *before)
        ctx.warning(std::nullopt,
            io::issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "the file changed while it was read (%1 -> %2 bytes%3); what was read may mix two "
                              "versions: reopen the folder to read it again"),
                { std::to_string(before->sizeBytes), std::to_string(after->sizeBytes),
                    after->mtimeNs != before->mtimeNs ? io::issueText(QT_TRANSLATE_NOOP("ParseIssue", ", modified"))
                                                      : TrText() }));
    ctx.finish();
    if (setStatus)
        writer.setRankFileStatus(rank, fileKindName(file.kind), file.path, loadedOrFailed(ok));
    if (file.size > reported)
        progress.bytes(file.size - reported, file.path);
    return ok;
}

// Imports one rank's summary files (deferred ones only as their cheap summary pass) and writes its rank row and
// rank_file rows; the writer's transaction is open.
void importRankFiles(model::ModelWriter& writer, const PlannedRank& rank, ProgressSink& progress,
    const std::atomic<bool>* cancel, const std::atomic<bool>* lean)
{
    model::RankRow row;
    row.rankId = rank.rank;
    row.path = rank.path;
    row.rankSource = rank.rankSource;
    writer.addRank(row);
    // Deferred files are imported after the summary (Loader::load) or on demand (loadTimeline).
    std::vector<RankFileStatus> status(rank.files.size(), RankFileStatus::Skipped);
    std::vector<size_t> files;
    for (size_t f = 0; f < rank.files.size(); ++f) {
        if (isReadAtSummary(rank.files[f].kind))
            files.push_back(f);
    }
    std::stable_sort(files.begin(), files.end(),
        [&](size_t a, size_t b) { return importOrder(rank.files[a].kind) < importOrder(rank.files[b].kind); });
    const auto state = std::make_shared<RankState>();
    state->summaryReplaced = rank.summaryReplaced;
    for (const size_t f : files) {
        if (cancel && cancel->load())
            return;
        const auto& file = rank.files[f];
        const auto* spec = FileKinds::find(file.kind);
        if (isDeferredKind(file.kind)) {
            // Its summary pass now (memory_record.csv: its memory_peak rows), its rows with its group; stays
            // "skipped".
            if (spec && spec->summaryPass)
                importFile(writer, rank.rank, file, progress, cancel, state, false, spec->summaryPass);
            continue;
        }
        // Lean mode (MemoryGuard::Watch): the kind's lean importer (the matrix without the per-op slots its total
        // slot aggregates).
        const bool leanPass = lean && lean->load() && spec && spec->leanImporter;
        status[f] = loadedOrFailed(importFile(writer, rank.rank, file, progress, cancel, state, false,
            leanPass ? ImporterOverride(spec->leanImporter) : ImporterOverride()));
    }
    // A deferred file that is plainly not its kind (garbage named trace_view.json) is an error now, not when a view
    // first loads it; it stays unread ("failed").
    for (size_t f = 0; f < rank.files.size(); ++f) {
        if (status[f] != RankFileStatus::Skipped)
            continue;
        if (auto problem = DeferredSniff::problem(rank.files[f])) {
            writer.addIssue(
                { model::Severity::Error, rank.rank, rank.files[f].path, std::nullopt, std::move(*problem) });
            status[f] = RankFileStatus::Failed;
        } else if (auto cut = DeferredSniff::truncation(rank.files[f])) {
            // Still loadable up to the cut: a warning now, so a half timeline never looks like a whole one.
            writer.addIssue({ model::Severity::Warning, rank.rank, rank.files[f].path, std::nullopt, std::move(*cut) });
        }
    }
    // The rank's rank_file rows once, with their final status: an UPDATE per file would scan
    // every row written so far (rank_file has no index while loading).
    for (size_t f = 0; f < rank.files.size(); ++f) {
        const auto& file = rank.files[f];
        writer.addRankFile(
            { rank.rank, fileKindName(file.kind), file.path, static_cast<int64_t>(file.size), status[f] });
    }
}

// A rank planned from an `npuscope-cli import` file: the file's model is merged as it is (it holds the rank row,
// its original files' rank_file rows and parse issues). A file this build cannot read leaves the rank with its row
// and an error saying why. The writer's transaction is open and open again on return (a merge ATTACHes outside it).
void mergeImportedRank(model::Database& db, model::ModelWriter& writer, const PlannedRank& rank, ProgressSink& progress)
{
    const PlannedFile& file = rank.files.front();
    progress.parsed(file.path);
    writer.commit();
    // One open of the file: its description is read while it is attached for the merge.
    RankImport::Inspection inspection;
    bool inspected = false;
    try {
        load::ModelMerger::mergeFile(
            db, file.path,
            [&](model::Database& main) {
                inspection = RankImport::inspectAttached(main, "w");
                inspected = true;
                if (!inspection.usable)
                    throw model::DbError(inspection.problem);
            },
            true);
    } catch (const model::DbError& e) {
        if (!inspected || inspection.usable) {
            inspection.usable = false;
            inspection.problem = std::string("imported rank file unreadable: ") + e.what();
        }
    }
    writer.begin();
    if (!inspection.usable) {
        model::RankRow row;
        row.rankId = rank.rank;
        row.path = file.path;
        row.rankSource = rank.rankSource;
        writer.addRank(row);
        writer.addRankFile(
            { rank.rank, fileKindName(file.kind), file.path, static_cast<int64_t>(file.size), RankFileStatus::Failed });
    }
    if (!inspection.problem.empty())
        writer.addIssue({ inspection.usable ? model::Severity::Warning : model::Severity::Error, rank.rank, file.path,
            std::nullopt, inspection.problem });
    for (const auto& issue : inspection.issues)
        writer.addIssue({ severityOf(issue.severity), std::nullopt, issue.path, std::nullopt, issue.text });
    progress.bytes(file.size, file.path);
}

bool isImportedRank(const PlannedRank& rank)
{
    return rank.files.size() == 1 && rank.files.front().kind == FileKind::ImportedRank;
}

// Bytes of a rank's files read at summary time.
uint64_t summaryBytes(const PlannedRank& rank)
{
    uint64_t bytes = 0;
    for (const auto& f : rank.files)
        bytes += isReadAtSummary(f.kind) ? f.size : 0;
    return bytes;
}

// How many bytes a batch reads before it is handed over: batchBytes, less towards the end of the load. What is
// handed over last is merged after every parser stopped, alone on one core; so a batch is at most a quarter of
// each thread's share of what is left (never below a 4 MB floor, nor above batchBytes). remaining[i]: summary bytes
// of ranks i.. of the plan (one more entry, 0, at the end).
struct BatchSizer {
    uint64_t batchBytes = 0;
    size_t threads = 1;
    std::vector<uint64_t> remaining;

    uint64_t limit(size_t nextRank) const
    {
        constexpr uint64_t kFloor = 4ull << 20;
        const uint64_t left = remaining[std::min(nextRank, remaining.size() - 1)];
        const uint64_t share = left / (4 * std::max<size_t>(1, threads));
        return std::min(batchBytes, std::max(kFloor, share));
    }
};

// Imports whole ranks into its own model; ranks are taken from a shared counter. Stops taking ranks once it read
// sizer.limit() bytes of files: true when it stopped so (ranks are left), false when none are left or on cancel.
bool runWorker(model::Database& db, const LoadPlan& plan, std::atomic<size_t>& next, ProgressSink& progress,
    const std::atomic<bool>* cancel, const BatchSizer& sizer, MemoryGuard::Watch& watch)
{
    model::ModelWriter writer(db);
    writer.begin();
    uint64_t read = 0;
    for (size_t i = next.fetch_add(1); i < plan.ranks.size(); i = next.fetch_add(1)) {
        if (cancel && cancel->load())
            return false;
        if (watch.stop.load()) {
            // Memory ran short even in lean mode: the rank is listed, its files are not read (Loader::load says so).
            model::RankRow row;
            row.rankId = plan.ranks[i].rank;
            row.path = plan.ranks[i].path;
            row.rankSource = plan.ranks[i].rankSource;
            writer.addRank(row);
            ++watch.ranksLeftOut;
            progress.rankDone();
            continue;
        }
        if (isImportedRank(plan.ranks[i]))
            mergeImportedRank(db, writer, plan.ranks[i], progress);
        else
            importRankFiles(writer, plan.ranks[i], progress, cancel, &watch.lean);
        watch.afterRank();
        progress.rankDone();
        read += summaryBytes(plan.ranks[i]);
        if (read >= sizer.limit(next.load())) {
            writer.commit();
            return next.load() < plan.ranks.size();
        }
    }
    writer.commit();
    return false;
}

// The ranks of db that came from imported rank files (npuscope-cli import) and those files: a table of db's
// connection only (TEMP: never saved with the model or into the parse cache), filled by Loader::load from the plan,
// so deferred loads find the group files beside them (RankImport::groupFileFor).
void noteImportedRanks(model::Database& db, const LoadPlan& plan)
{
    db.exec("CREATE TEMP TABLE IF NOT EXISTS imported_rank_file(rank_id INTEGER PRIMARY KEY, path TEXT NOT NULL)");
    auto insert = db.prepare("INSERT OR REPLACE INTO temp.imported_rank_file VALUES (?1, ?2)");
    for (const auto& r : plan.ranks) {
        if (r.files.size() == 1 && r.files.front().kind == FileKind::ImportedRank) {
            insert.bind(1, r.rank).bind(2, r.files.front().path).run();
            insert.reset();
        }
    }
}

// True when the load reads imported ranks (their group files are merged, which needs a transaction of its own).
bool hasImportedRanks(model::Database& db)
{
    auto lock = db.lock();
    // noteImportedRanks creates the table for every load: its rows say whether any rank is an imported one.
    if (!db.scalarInt("SELECT count(*) FROM sqlite_temp_master WHERE name = 'imported_rank_file'").value_or(0))
        return false;
    return db.scalarInt("SELECT EXISTS (SELECT 1 FROM temp.imported_rank_file)").value_or(0) > 0;
}

// Parses every rank's summary files on several threads and merges them into db. Returns what group
// resolution needs to know about the merged links (collected on the worker threads).
load::GroupFacts loadSummary(model::Database& db, const LoadPlan& plan, int threads, ProgressSink& progress,
    const std::atomic<bool>* cancel, const LoadOptions& options, MemoryGuard::Watch& watch)
{
    LoadReport* report = options.report;
    const auto t0 = std::chrono::steady_clock::now();
    // A folder of imported rank files only: nothing to parse, every file is one copy in SQL, straight into db on this
    // thread. Workers would copy each row twice (file -> worker model -> db), and their shared-cache models copy
    // slower than db's private one; with two cores that took longer than the single copy.
    if (!plan.ranks.empty() && std::all_of(plan.ranks.begin(), plan.ranks.end(), isImportedRank)) {
        {
            model::ModelWriter writer(db);
            writer.begin();
            for (const auto& rank : plan.ranks) {
                if (cancel && cancel->load())
                    break;
                mergeImportedRank(db, writer, rank, progress);
                progress.rankDone();
            }
            writer.commit();
        }
        if (cancel && cancel->load())
            return {};
        auto facts = load::PostLoad::collectGroupFacts(db);
        if (report) {
            report->parseSeconds = secondsBetween(t0, std::chrono::steady_clock::now());
            report->mergeSeconds = report->parseSeconds;
        }
        return facts;
    }
    // Thread 0 imports ranks straight into db; every other thread parses whole ranks into a model of its own (own
    // connection, no lock contention) and hands it over after every batch of files (LoadOptions::summaryBatchBytes),
    // then starts a new one. Thread 0 merges the models handed over between its own batches (db has one writer at a
    // time, and a merge ATTACHes outside any transaction), so the rows of its own share are written once instead of
    // being copied from a model of their own: 10 of the 28 s of a flat 1,024-way all-to-all cluster went to such
    // copies. At most kQueued models wait, so the load never holds much more than a batch per thread twice (a model and
    // its copy in db). db is not used by anyone else until the load returns.
    BatchSizer sizer;
    sizer.batchBytes = std::max<uint64_t>(1, options.summaryBatchBytes);
    sizer.threads = static_cast<size_t>(threads);
    sizer.remaining.assign(plan.ranks.size() + 1, 0);
    for (size_t i = plan.ranks.size(); i-- > 0;)
        sizer.remaining[i] = sizer.remaining[i + 1] + summaryBytes(plan.ranks[i]);
    constexpr size_t kQueued = 2;
    struct Handed {
        std::unique_ptr<model::Database> model;
        std::string name;
        load::GroupFacts facts;
    };
    std::mutex queueMutex;
    std::condition_variable queueChanged;
    std::deque<Handed> queue;
    size_t workersLeft = static_cast<size_t>(threads) - 1;
    bool mergerGone = false; // thread 0 stopped (error or cancel): nobody takes models any more
    std::vector<load::GroupFacts> facts; // per batch, in the order the rows entered db (thread 0 only)
    std::atomic<size_t> next { 0 };
    double mergeSeconds = 0;
    auto cancelled = [&] { return cancel && cancel->load(); };
    // Merges the models handed over so far; with wait, also waits for those still to come until every worker is done.
    auto mergeHanded = [&](bool wait) {
        for (;;) {
            std::optional<Handed> h;
            {
                std::unique_lock lock(queueMutex);
                while (wait && queue.empty() && workersLeft > 0 && !cancelled())
                    queueChanged.wait_for(lock, kClaimPoll);
                if (queue.empty())
                    return;
                h.emplace(std::move(queue.front()));
                queue.pop_front();
            }
            queueChanged.notify_all();
            if (cancelled())
                continue; // drop it: the load is abandoned
            const auto m0 = std::chrono::steady_clock::now();
            load::ModelMerger::merge(db, h->name);
            facts.push_back(std::move(h->facts));
            mergeSeconds += secondsBetween(m0, std::chrono::steady_clock::now());
        }
    };
    runOnThreads(static_cast<size_t>(threads), [&](size_t thread) {
        if (thread == 0) {
            try {
                for (bool more = true; more && !cancelled();) {
                    const auto after = model::CommGroupSources::lastIds(db);
                    more = runWorker(db, plan, next, progress, cancel, sizer, watch);
                    if (cancelled())
                        break;
                    facts.push_back(load::PostLoad::collectGroupFacts(db, after));
                    mergeHanded(false);
                }
                mergeHanded(true);
            } catch (...) {
                std::lock_guard lock(queueMutex);
                mergerGone = true;
                queueChanged.notify_all();
                throw;
            }
            std::lock_guard lock(queueMutex);
            mergerGone = true;
            queueChanged.notify_all();
            return;
        }
        // The worker is counted out however it ends (an exception included), so thread 0 stops waiting for it.
        struct Done {
            std::mutex& m;
            std::condition_variable& cv;
            size_t& left;
            ~Done()
            {
                {
                    std::lock_guard lock(m);
                    --left;
                }
                cv.notify_all();
            }
        } done { queueMutex, queueChanged, workersLeft };
        for (bool more = true; more;) {
            Handed h;
            h.name = workerModelName();
            h.model = model::Database::createModel(h.name);
            const int64_t idBase = load::ModelMerger::reserveIds(*h.model); // the merge then copies ids as they are
            more = runWorker(*h.model, plan, next, progress, cancel, sizer, watch);
            load::ModelMerger::releaseIds(*h.model, idBase);
            if (cancelled())
                return;
            h.facts = load::PostLoad::collectGroupFacts(*h.model);
            std::unique_lock lock(queueMutex);
            while (queue.size() >= kQueued && !mergerGone && !cancelled())
                queueChanged.wait_for(lock, kClaimPoll);
            if (mergerGone)
                return;
            queue.push_back(std::move(h));
            queueChanged.notify_all();
        }
    });
    if (cancel && cancel->load())
        return {};
    load::GroupFacts all;
    for (const auto& f : facts)
        all.append(f);
    const auto t1 = std::chrono::steady_clock::now();
    if (report) {
        // Merges overlap parsing now: parse time is the whole, merge time the part spent merging batches.
        report->parseSeconds = secondsBetween(t0, t1);
        report->mergeSeconds = mergeSeconds;
    }
    return all;
}

// The summary cache key covers every non-deferred input and the plan's rank assignment.
std::string summaryKey(const ParseCache& cache, const LoadPlan& plan)
{
    std::vector<PlannedFile> files;
    std::string scope = "summary";
    for (const auto& r : plan.ranks) {
        scope += ";" + std::to_string(r.rank) + "=" + r.path + "@" + r.rankSource;
        for (const auto& f : r.files) {
            if (isReadAtSummary(f.kind))
                files.push_back(f);
            else
                scope += "+" + f.path; // the rank_file rows of deferred files are part of the summary
        }
    }
    // Keys stay short: the scope text goes through the same hash as the files.
    const std::string full = cache.keyFor(scope, files);
    return "summary-" + full.substr(full.rfind('-') + 1);
}

// The whole model after every file (timelines included) was imported.
std::string fullKey(const ParseCache& cache, const LoadPlan& plan)
{
    std::vector<PlannedFile> files;
    std::string scope = "full";
    for (const auto& r : plan.ranks) {
        scope += ";" + std::to_string(r.rank) + "=" + r.path + "@" + r.rankSource;
        files.insert(files.end(), r.files.begin(), r.files.end());
    }
    const std::string full = cache.keyFor(scope, files);
    return "full-" + full.substr(full.rfind('-') + 1);
}

// Every table's name and definition, to compare a cached model with this build's schema.
std::string tableSchema(model::Database& db)
{
    auto st = db.prepare("SELECT group_concat(name || ':' || sql, ';') FROM (SELECT name, sql FROM sqlite_master "
                         "WHERE type = 'table' ORDER BY name)");
    return st.step() ? st.text(0) : std::string();
}

// A cached model copied into memory, checked before it is trusted; throws DbError when damaged or when its tables
// are not this build's (an entry written by another version or edited: the key alone cannot tell). extraTable, when
// given, is a description table the file may carry besides the model's (dropped before the comparison).
// sealed: the file was checked otherwise (RankImport::checkJoinedSeal), SQLite's quick_check is skipped.
std::unique_ptr<model::Database> readCachedModel(
    const std::string& path, const LoadPlan& plan, const char* extraTable = nullptr, bool sealed = false)
{
    auto db = model::Database::createModelFromFile(path);
    if (!sealed)
        db->quickCheck();
    if (extraTable)
        db->exec(std::string("DROP TABLE IF EXISTS ") + extraTable);
    if (tableSchema(*db) != tableSchema(*model::Database::createModel()))
        throw model::DbError("its tables differ from this version's schema");
    if (db->rankCount() != static_cast<int64_t>(plan.ranks.size()))
        throw model::DbError("rank count differs from the plan");
    return db;
}

} // namespace detail

using namespace detail;

namespace {

// The bytes the progress counts: the summary files, and the deferred ones a load with timelines reads.
uint64_t plannedBytes(const LoadPlan& plan, const LoadOptions& options)
{
    uint64_t total = 0;
    for (const auto& r : plan.ranks) {
        for (const auto& f : r.files) {
            if (isReadAtSummary(f.kind))
                total += f.size;
            if (options.loadTimelines && (deferredGroupOf(f.kind) & options.deferredGroups) != 0)
                total += f.size;
        }
    }
    return total;
}

int loadThreads(const LoadPlan& plan, const LoadOptions& options)
{
    int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
    threads = std::clamp(threads, 1, 16);
    return std::min<int>(threads, std::max<int>(1, static_cast<int>(plan.ranks.size())));
}

// The model of a parse cache entry (never trusted when damaged: it must pass SQLite's check and hold every planned
// rank); nullptr, the entry removed and why in rejected, when it is unusable.
std::unique_ptr<model::Database> readCacheEntry(const ParseCache& cache, const std::string& key,
    const std::string& path, const LoadPlan& plan, ProgressSink& progress, std::optional<TrText>& rejected)
{
    progress.message("reading the parse cache");
    try {
        return readCachedModel(path, plan);
    } catch (const model::DbError& e) {
        spdlog::warn("parse cache entry {} unusable ({}); parsing again", path, e.what());
        cache.remove(key);
        rejected = io::issueText(
            QT_TRANSLATE_NOOP("ParseIssue", "parse cache entry %1 unusable (%2); removed it and parsed again"),
            { path, e.what() });
        progress.cacheRejected();
        return nullptr;
    }
}

// An imported folder joined on the cluster (npuscope-cli import --join): its whole summary model in one file.
std::unique_ptr<model::Database> readJoined(const std::string& joined, const LoadPlan& plan, ProgressSink& progress,
    uint64_t totalBytes, std::optional<TrText>& rejected)
{
    progress.message("reading the joined imported ranks");
    try {
        // npuscope_join is the file's description; merges copy every table of the model, so it goes. The seal (a
        // hash of the file's bytes) stands for SQLite's quick_check, which costs more than the copy.
        RankImport::checkJoinedSeal(joined);
        auto db = readCachedModel(joined, plan, "npuscope_join", true);
        progress.bytes(totalBytes, joined);
        return db;
    } catch (const model::DbError& e) {
        rejected = io::issueText(
            QT_TRANSLATE_NOOP("ParseIssue", "joined model %1 unusable (%2); merged the rank files instead"),
            { joined, e.what() });
        return nullptr;
    }
}

// Step 1 without a cache entry: every rank's summary files parsed and merged, the groups resolved, the indexes built
// and the model stored under key (unless lean). nullptr when cancelled.
std::unique_ptr<model::Database> parseSummary(const LoadPlan& plan, int threads, ProgressSink& progress,
    const std::atomic<bool>* cancel, const LoadOptions& options, MemoryGuard::Watch& watch, const std::string& key)
{
    auto db = model::Database::createModel();
    const auto facts = loadSummary(*db, plan, threads, progress, cancel, options, watch);
    if (cancel && cancel->load())
        return nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    {
        model::ModelWriter writer(*db);
        writer.begin();
        progress.message("resolving communication groups");
        load::PostLoad::resolveGroups(*db, writer, facts);
        load::PostLoad::fillDevices(*db);
        load::PostLoad::strategyGraphFallback(*db, writer, plan);
        writer.commit();
    }
    if (options.beforeIndexes)
        options.beforeIndexes(*db);
    const auto t1 = std::chrono::steady_clock::now();
    progress.message("building the indexes");
    db->createIndexes(threads - 1);
    if (options.report) {
        options.report->postLoadSeconds = secondsBetween(t0, t1);
        options.report->indexSeconds = secondsBetween(t1, std::chrono::steady_clock::now());
    }
    // A lean model is not the model of these files: never cached.
    if (options.cache && !watch.lean.load()) {
        progress.message("writing the parse cache");
        storeInCache(*options.cache, *db, key);
        progress.cacheMiss();
    }
    return db;
}

// Step 2: the deferred files (timelines, kernel details), several ranks at a time; one rank at a time straight into
// the model when there is one thread (no second copy in memory).
void loadDeferredFiles(model::Database& db, const LoadPlan& plan, int threads, ProgressSink& progress,
    const std::atomic<bool>* cancel, const LoadOptions& options)
{
    if (threads == 1 && plan.ranks.size() > 1 && !hasImportedRanks(db)) {
        // Several ranks on one thread: one writer and transaction for every rank (a writer per rank would read the
        // model's whole string table each time, quadratic over a cluster's ranks). Straight into the model, without
        // per-rank cache entries (their merges cost more than parsing the small per-rank files of a cluster again;
        // npuscope-cli diff loads this way). One rank keeps the path below, which reuses its cache entries.
        model::ModelWriter writer(db);
        writer.begin();
        for (const auto& r : plan.ranks) {
            if (cancel && cancel->load())
                break;
            importDeferred(db, r.rank, options.deferredGroups, options.cache, progress, cancel, true, &writer);
        }
        writer.commit();
        return;
    }
    const bool direct = threads == 1;
    std::atomic<size_t> next { 0 };
    runOnThreads(static_cast<size_t>(threads), [&](size_t) {
        for (size_t r = next.fetch_add(1); r < plan.ranks.size(); r = next.fetch_add(1))
            importDeferred(db, plan.ranks[r].rank, options.deferredGroups, options.cache, progress, cancel, direct);
    });
}

// Step 3: what detection found, a rejected cache entry and the memory guard's decisions are part of this opening,
// not of the cached parse.
void addOpeningIssues(model::Database& db, const LoadPlan& plan, const std::optional<TrText>& rejected,
    const MemoryGuard::Check& memory, const MemoryGuard::Watch& watch)
{
    model::ModelWriter writer(db);
    writer.begin();
    for (const auto& issue : plan.issues)
        writer.addIssue({ severityOf(issue.severity), std::nullopt, issue.path, std::nullopt, issue.text });
    if (rejected)
        writer.addIssue({ model::Severity::Warning, std::nullopt, std::nullopt, std::nullopt, *rejected });
    if (memory.tooHigh())
        writer.addIssue({ model::Severity::Warning, std::nullopt, std::nullopt, std::nullopt, memory.message() });
    else if (watch.switchedDuringLoad.load())
        writer.addIssue({ model::Severity::Warning, std::nullopt, std::nullopt, std::nullopt,
            io::issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "memory: the load grew to %1 % of the memory it may use (%2); the ranks read after "
                              "that in lean mode: %3"),
                { std::to_string(static_cast<int>(MemoryGuard::kLeanFraction * 100)), memory.availableSource,
                    MemoryGuard::leanText() }) });
    if (watch.ranksLeftOut.load() > 0)
        writer.addIssue({ model::Severity::Error, std::nullopt, std::nullopt, std::nullopt,
            io::issueText(
                QT_TRANSLATE_NOOP("ParseIssue",
                    "memory: the load used all the memory it may use (%1) even in lean mode; %2 of %3 ranks were "
                    "left out (listed, files not read) so the process is not killed: open fewer ranks"),
                { memory.availableSource, std::to_string(watch.ranksLeftOut.load()),
                    std::to_string(plan.ranks.size()) }) });
    writer.commit();
}

} // namespace

std::unique_ptr<model::Database> Loader::load(
    const LoadPlan& plan, const LoadOptions& options, const ProgressFn& progressFn, const std::atomic<bool>* cancel)
{
    const uint64_t totalBytes = plannedBytes(plan, options);
    ProgressSink progress(progressFn, totalBytes, static_cast<int>(plan.ranks.size()), options.report);
    const int threads = loadThreads(plan, options);

    // Memory guard (docs/robustness.md): a load expected to need more memory than the process may use runs in lean
    // mode from the start (no per-op matrix slots, no deferred files); one that grows to kLeanFraction of it while
    // parsing switches then; one that grows to all of it even so leaves its remaining ranks out. Never killed.
    const auto memory = MemoryGuard::check(plan, options.loadTimelines, options.deferredGroups);
    MemoryGuard::Watch watch;
    watch.budget = memory.availableBytes;
    watch.start = memory.start;
    watch.addressSpace = memory.addressSpace();
    watch.lean = memory.tooHigh();

    std::unique_ptr<model::Database> db;
    std::optional<TrText> rejected; // a damaged entry, reported once the model exists
    // 0. Everything at once: the whole model of an earlier open with timelines, when nothing changed.
    const bool everything = options.loadTimelines && options.deferredGroups == kAllGroups;
    const std::string full = options.cache && everything ? fullKey(*options.cache, plan) : std::string();
    if (const auto cached = full.empty() ? std::nullopt : options.cache->lookup(full)) {
        db = readCacheEntry(*options.cache, full, *cached, plan, progress, rejected);
        if (db) {
            progress.bytes(totalBytes, *cached);
            progress.cacheHit();
        }
    }
    const bool fromFullEntry = db != nullptr;

    // 1. Summary files of every rank: from the cache when nothing changed, else parsed.
    const std::string key = options.cache ? summaryKey(*options.cache, plan) : std::string();
    if (const auto cached = db || !options.cache ? std::nullopt : options.cache->lookup(key)) {
        db = readCacheEntry(*options.cache, key, *cached, plan, progress, rejected);
        if (db) {
            for (const auto& r : plan.ranks) {
                for (const auto& f : r.files) {
                    if (isReadAtSummary(f.kind))
                        progress.bytes(f.size, f.path);
                }
                progress.rankDone();
            }
            progress.cacheHit();
        }
    }
    if (const auto joined = db || !options.useJoined ? std::nullopt : RankImport::joinedFor(plan))
        db = readJoined(*joined, plan, progress, totalBytes, rejected);
    if (!db) {
        db = parseSummary(plan, threads, progress, cancel, options, watch, key);
        if (!db)
            return nullptr;
    }
    const bool lean = watch.lean.load();

    noteImportedRanks(*db, plan);

    // 2. Deferred files when asked for.
    if (options.loadTimelines && !fromFullEntry && !lean)
        loadDeferredFiles(*db, plan, threads, progress, cancel, options);
    if (cancel && cancel->load())
        return nullptr;
    if (!full.empty() && !fromFullEntry && !lean) {
        storeInCache(*options.cache, *db, full);
        progress.cacheMiss();
    }

    // 3. What this opening found.
    addOpeningIssues(*db, plan, rejected, memory, watch);
    progress.message("");
    return db;
}

} // namespace npuscope::load

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/Loader.h"

#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/parse/IssueText.h"

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

namespace {

// An importer that is not a file kind's own (an aggregate or step-scoped pass); empty = the kind's importer.
using ImporterOverride = std::function<bool(ImportContext&)>;

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

// Serialises progress reports from several threads and turns bytes into a fraction.
class ProgressSink {
public:
    ProgressSink(const Loader::ProgressFn& fn, uint64_t totalBytes, int ranks, LoadReport* report = nullptr)
        : m_fn(fn)
        , m_total(totalBytes)
        , m_report(report)
    {
        m_state.ranksTotal = ranks;
    }
    void parsed(const std::string& file)
    {
        if (!m_report)
            return;
        std::lock_guard lock(m_mutex);
        m_report->parsedFiles.push_back(file);
    }
    void cacheHit() { count(&LoadReport::cacheHits); }
    void cacheMiss() { count(&LoadReport::cacheMisses); }
    void cacheRejected() { count(&LoadReport::cacheRejected); }
    void bytes(uint64_t delta, const std::string& file)
    {
        std::lock_guard lock(m_mutex);
        m_done += delta;
        publish(file);
    }
    void rankDone()
    {
        std::lock_guard lock(m_mutex);
        ++m_state.ranksDone;
        publish(m_state.currentFile);
    }
    void message(const std::string& text)
    {
        std::lock_guard lock(m_mutex);
        publish(text);
    }

private:
    void publish(const std::string& file)
    {
        if (!m_fn)
            return;
        m_state.fraction = m_total ? std::min(1.0, static_cast<double>(m_done) / static_cast<double>(m_total)) : 1.0;
        m_state.currentFile = file;
        m_fn(m_state);
    }
    void count(int LoadReport::*field)
    {
        if (!m_report)
            return;
        std::lock_guard lock(m_mutex);
        ++(m_report->*field);
    }
    const Loader::ProgressFn& m_fn;
    std::mutex m_mutex;
    uint64_t m_total = 0;
    LoadReport* m_report = nullptr;
    uint64_t m_done = 0;
    LoadProgress m_state;
};

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
    const std::atomic<bool>* cancel, const std::shared_ptr<RankState>& state = nullptr, bool setStatus = true,
    const ImporterOverride& importerOverride = {})
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
    const std::atomic<bool>* cancel, const std::atomic<bool>* lean = nullptr)
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

// A rank's deferred files of these groups with this status (the row's kind, not the file name: a db export is
// planned twice, summary and timeline). Caller holds db.lock().
std::vector<PlannedFile> deferredFiles(model::Database& db, int64_t rank, DeferredGroups groups, RankFileStatus status)
{
    std::vector<PlannedFile> files;
    for (auto& row : model::RankFileTable(db).withStatus(rank, status)) {
        FileKind kind;
        if (fileKindFromName(row.kind, kind) && (deferredGroupOf(kind) & groups) != 0)
            files.push_back({ kind, std::move(row.path), static_cast<uint64_t>(row.sizeBytes.value_or(0)) });
    }
    return files;
}

// How long a caller sleeps between looks while another thread imports the files it asked for.
constexpr auto kClaimPoll = std::chrono::milliseconds(10);

// Waits while another thread imports (status "loading") a file of these groups of the rank. True when it waited,
// i.e. the data arrived meanwhile; false at once when nothing was being imported, or on cancel.
bool waitForOtherImports(model::Database& db, int64_t rank, DeferredGroups groups, const std::atomic<bool>* cancel)
{
    bool waited = false;
    for (;;) {
        {
            auto lock = db.lock();
            if (deferredFiles(db, rank, groups, RankFileStatus::Loading).empty())
                return waited;
        }
        if (cancel && cancel->load())
            return false;
        waited = true;
        std::this_thread::sleep_for(kClaimPoll);
    }
}

// Before a file's rows are merged: drop the parse issues a cheap earlier pass over the same file reported (the
// summary's memory peaks, the kernel totals); the full import reports each of them again. Caller holds db.lock().
void dropEarlierPassIssues(model::Database& db, int64_t rank, const std::vector<PlannedFile>& files)
{
    auto st = db.prepare("DELETE FROM parse_issue WHERE rank_id = ?1 AND file = ?2");
    for (const auto& f : files) {
        if (f.kind == FileKind::MemoryRecord || deferredGroupOf(f.kind) == kKernelsGroup)
            st.bind(1, rank).bind(2, f.path).run();
    }
}

// The rows a group's import makes redundant: kernel_total, step_kernel and kernel_sum of a rank whose kernel table is
// now imported (FlopsQuery and MareyQuery read one or the other). Caller holds db.lock().
void dropSuperseded(model::Database& db, int64_t rank, DeferredGroup group)
{
    if (group == kKernelsGroup) {
        db.prepare("DELETE FROM kernel_total WHERE rank_id = ?1").bind(1, rank).run();
        db.prepare("DELETE FROM step_kernel WHERE rank_id = ?1").bind(1, rank).run(); // MareyQuery: same rule
        db.prepare("DELETE FROM kernel_sum WHERE rank_id = ?1").bind(1, rank).run(); // RunComparison: same rule
    }
}

// After a merge brought the files' rank_file rows with their final status: the claimed row (the older one, in plan
// order) takes that status and the merged copy goes, so the rank's file list keeps its order however it was loaded.
// Caller holds db.lock().
void settleClaimed(model::Database& db, int64_t rank, const std::vector<PlannedFile>& files)
{
    auto rows = db.prepare("SELECT rowid, status FROM rank_file WHERE rank_id = ?1 AND kind = ?2 AND path = ?3 "
                           "ORDER BY rowid");
    auto set = db.prepare("UPDATE rank_file SET status = ?2 WHERE rowid = ?1");
    auto drop = db.prepare("DELETE FROM rank_file WHERE rowid = ?1");
    for (const auto& f : files) {
        rows.bind(1, rank).bind(2, fileKindName(f.kind)).bind(3, f.path);
        std::vector<std::pair<int64_t, std::string>> found;
        while (rows.step())
            found.emplace_back(rows.int64(0), rows.text(1));
        rows.reset();
        if (found.size() < 2)
            continue;
        set.bind(1, found.front().first).bind(2, found.back().second).run();
        for (size_t i = 1; i < found.size(); ++i)
            drop.bind(1, found[i].first).run();
    }
}

// Releases claimed files ("loading" -> "skipped") after a cancel. Caller holds db.lock().
void unclaim(model::Database& db, int64_t rank, const std::vector<PlannedFile>& files)
{
    model::RankFileTable table(db);
    for (const auto& f : files)
        table.setStatus(rank, fileKindName(f.kind), f.path, RankFileStatus::Skipped);
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

// The group file (scope: a deferred group's name or the kernel totals) an imported rank carries for exactly files,
// else nullopt. Caller holds db.lock().
std::optional<std::string> importedGroupFile(
    model::Database& db, int64_t rank, const std::string& scope, const std::vector<PlannedFile>& files)
{
    if (!db.scalarInt("SELECT count(*) FROM sqlite_temp_master WHERE name = 'imported_rank_file'").value_or(0))
        return std::nullopt;
    auto st = db.prepare("SELECT path FROM temp.imported_rank_file WHERE rank_id = ?1");
    if (!st.bind(1, rank).step())
        return std::nullopt;
    return RankImport::groupFileFor(st.text(0), rank, scope, files);
}

// Merges an imported rank's group file into db (the caller holds db.lock()), after before() ran; false (and a
// warning) when it cannot be read, then the caller reads the original files.
bool mergeImportedGroup(model::Database& db, int64_t rank, const std::string& path,
    const std::vector<PlannedFile>& files, ProgressSink& progress, const std::function<void()>& before)
{
    try {
        before();
        load::ModelMerger::mergeFile(db, path, {}, true); // its tables without rows are left out
    } catch (const model::DbError& e) {
        model::ModelWriter writer(db);
        writer.addIssue({ model::Severity::Warning, rank, path, std::nullopt,
            io::issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "imported group file unusable (%1); read the original files instead"),
                { e.what() }) });
        return false;
    }
    for (const auto& f : files)
        progress.bytes(f.size, f.path);
    return true;
}

// Merges the cached per-rank entry at path into db (the caller holds db.lock()), after before() ran. A damaged entry
// is never trusted: the merge rolled back; it is removed, a warning says so, and false tells the caller to parse.
bool mergeCached(model::Database& db, model::OptInt rank, const ParseCache& cache, const std::string& key,
    const std::string& path, const std::vector<PlannedFile>& files, ProgressSink& progress,
    const std::function<void()>& before)
{
    try {
        before();
        load::ModelMerger::mergeFile(db, path);
        for (const auto& f : files)
            progress.bytes(f.size, f.path);
        progress.cacheHit();
        return true;
    } catch (const model::DbError& e) {
        cache.remove(key);
        model::ModelWriter writer(db);
        writer.addIssue({ model::Severity::Warning, rank, path, std::nullopt,
            io::issueText(QT_TRANSLATE_NOOP(
                              "ParseIssue", "parse cache entry unusable (%1); removed it and parsed the files again"),
                { e.what() }) });
        progress.cacheRejected();
        return false;
    }
}

// Parses files of one rank into a new worker model named name (merged by the caller) and, unless cancelled, stores
// it in the cache under key. importer: empty = each file's own importer, with its rank_file row (a group import);
// else that importer and no rank_file row (an aggregate pass such as the kernel totals).
std::unique_ptr<model::Database> parseIntoWorker(const std::string& name, int64_t rank,
    const std::vector<PlannedFile>& files, const ParseCache* cache, const std::string& key, ProgressSink& progress,
    const std::atomic<bool>* cancel, const ImporterOverride& importer)
{
    auto worker = model::Database::createModel(name);
    const int64_t idBase = load::ModelMerger::reserveIds(*worker);
    {
        model::ModelWriter writer(*worker);
        writer.begin();
        for (const auto& f : files) {
            if (cancel && cancel->load())
                break;
            if (!importer)
                writer.addRankFile(
                    { rank, fileKindName(f.kind), f.path, static_cast<int64_t>(f.size), RankFileStatus::Planned });
            importFile(writer, rank, f, progress, cancel, nullptr, !importer, importer);
        }
        writer.commit();
    }
    load::ModelMerger::releaseIds(*worker, idBase);
    if (cache && !(cancel && cancel->load())) {
        storeInCache(*cache, *worker, key);
        progress.cacheMiss();
    }
    return worker;
}

// Imports the claimed files of one group, through the cache entry of (rank, group) when given. Returns false when
// cancelled (the files are released again).
bool importGroup(model::Database& db, int64_t rank, DeferredGroup group, const std::vector<PlannedFile>& files,
    const ParseCache* cache, ProgressSink& progress, const std::atomic<bool>* cancel, bool direct,
    model::ModelWriter* shared = nullptr)
{
    if (direct && shared) {
        // The caller's writer and transaction (a load importing every rank in one pass): no cache lookup, whose merge
        // would open a transaction of its own; direct imports store no cache entry either.
        dropEarlierPassIssues(db, rank, files);
        dropSuperseded(db, rank, group);
        for (const auto& f : files)
            importFile(*shared, rank, f, progress, cancel); // updates the claimed row's status
        return !(cancel && cancel->load());
    }
    const auto beforeMerge = [&] {
        dropEarlierPassIssues(db, rank, files);
        dropSuperseded(db, rank, group);
    };
    // An imported rank's group file: the rows as its import parsed them where the data was.
    std::optional<std::string> imported;
    {
        auto lock = db.lock();
        imported = importedGroupFile(db, rank, deferredGroupName(group), files);
        if (imported && mergeImportedGroup(db, rank, *imported, files, progress, beforeMerge)) {
            settleClaimed(db, rank, files); // the file's own rank_file rows carry the final status
            return true;
        }
    }
    const std::string key = cache
        ? cache->keyFor("rank" + std::to_string(rank) + "-deferred-" + deferredGroupName(group), files)
        : std::string();
    if (const auto cached = cache ? cache->lookup(key) : std::nullopt) {
        auto lock = db.lock();
        const bool merged = mergeCached(db, rank, *cache, key, *cached, files, progress, beforeMerge);
        if (merged) {
            settleClaimed(db, rank, files); // the entry's own rank_file rows carry the final status
            return true;
        }
    }
    if (direct) {
        {
            auto lock = db.lock();
            dropEarlierPassIssues(db, rank, files);
            dropSuperseded(db, rank, group);
        }
        model::ModelWriter writer(db);
        writer.begin();
        std::vector<PlannedFile> left = files;
        for (const auto& f : files) {
            if (cancel && cancel->load())
                break;
            importFile(writer, rank, f, progress, cancel); // updates the claimed row's status
            left.erase(left.begin());
        }
        const bool cancelled = cancel && cancel->load();
        if (cancelled)
            unclaim(db, rank, left);
        writer.commit();
        return !cancelled;
    }
    const std::string name = workerModelName();
    auto worker = parseIntoWorker(name, rank, files, cache, key, progress, cancel, {});
    const bool cancelled = cancel && cancel->load();
    auto lock = db.lock();
    if (cancelled) {
        unclaim(db, rank, files);
        return false;
    }
    dropEarlierPassIssues(db, rank, files);
    dropSuperseded(db, rank, group);
    load::ModelMerger::merge(db, name);
    settleClaimed(db, rank, files);
    return true;
}

// Imports a rank's deferred files of these groups ("skipped" rank_file rows) into db, one group (and one cache
// entry) at a time. Files another thread is importing are waited for, so the data is there when this returns true.
// direct: import straight into db (the caller is its only user, e.g. a one-rank open), which avoids holding a
// second copy of a large timeline; no per-rank cache entry is written then.
// shared (with direct): the writer of the caller's open transaction, used for every rank of a load, so the
// model's strings are read into a writer once rather than once per rank.
bool importDeferred(model::Database& db, int64_t rank, DeferredGroups groups, const ParseCache* cache,
    ProgressSink& progress, const std::atomic<bool>* cancel, bool direct = false, model::ModelWriter* shared = nullptr)
{
    std::vector<PlannedFile> files;
    {
        auto lock = db.lock();
        files = deferredFiles(db, rank, groups, RankFileStatus::Skipped);
        // Claim them so a second request does not import them twice (it waits for them instead).
        model::RankFileTable table(db);
        for (const auto& f : files)
            table.setStatus(rank, fileKindName(f.kind), f.path, RankFileStatus::Loading);
    }
    bool imported = false;
    for (const DeferredGroup group : { kTimelineGroup, kKernelsGroup, kMemoryGroup }) {
        std::vector<PlannedFile> part;
        for (const auto& f : files) {
            if (deferredGroupOf(f.kind) == group)
                part.push_back(f);
        }
        if (part.empty())
            continue;
        if (cancel && cancel->load()) {
            auto lock = db.lock();
            unclaim(db, rank, part);
            continue;
        }
        imported = importGroup(db, rank, group, part, cache, progress, cancel, direct, shared) || imported;
    }
    if (cancel && cancel->load())
        return false;
    // Files another caller claimed first: their rows are there once it finishes (or back to "skipped" if it was
    // cancelled, then imported here).
    if (waitForOtherImports(db, rank, groups, cancel)) {
        imported = true;
        bool again = false;
        {
            auto lock = db.lock();
            again = !deferredFiles(db, rank, groups, RankFileStatus::Skipped).empty();
        }
        if (again)
            return importDeferred(db, rank, groups, cache, progress, cancel, direct, shared) || imported;
    }
    return imported && !(cancel && cancel->load());
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

} // namespace

std::unique_ptr<model::Database> Loader::load(
    const LoadPlan& plan, const LoadOptions& options, const ProgressFn& progressFn, const std::atomic<bool>* cancel)
{
    uint64_t totalBytes = 0;
    for (const auto& r : plan.ranks) {
        for (const auto& f : r.files) {
            if (isReadAtSummary(f.kind))
                totalBytes += f.size;
            if (options.loadTimelines && (deferredGroupOf(f.kind) & options.deferredGroups) != 0)
                totalBytes += f.size;
        }
    }
    ProgressSink progress(progressFn, totalBytes, static_cast<int>(plan.ranks.size()), options.report);
    int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
    threads = std::clamp(threads, 1, 16);
    threads = std::min<int>(threads, std::max<int>(1, static_cast<int>(plan.ranks.size())));

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
        progress.message("reading the parse cache");
        try {
            db = readCachedModel(*cached, plan);
            progress.bytes(totalBytes, *cached);
            progress.cacheHit();
        } catch (const model::DbError& e) {
            spdlog::warn("parse cache entry {} unusable ({}); parsing again", *cached, e.what());
            options.cache->remove(full);
            rejected = io::issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "parse cache entry %1 unusable (%2); removed it and parsed again"),
                { *cached, e.what() });
            progress.cacheRejected();
            db.reset();
        }
    }
    const bool fromFullEntry = db != nullptr;

    // 1. Summary files of every rank: from the cache when nothing changed, else parsed.
    const std::string key = options.cache ? summaryKey(*options.cache, plan) : std::string();
    if (const auto cached = db || !options.cache ? std::nullopt : options.cache->lookup(key)) {
        progress.message("reading the parse cache");
        try {
            // Never trust a damaged entry: it must pass SQLite's check and hold every planned rank.
            db = readCachedModel(*cached, plan);
            for (const auto& r : plan.ranks) {
                for (const auto& f : r.files) {
                    if (isReadAtSummary(f.kind))
                        progress.bytes(f.size, f.path);
                }
                progress.rankDone();
            }
            progress.cacheHit();
        } catch (const model::DbError& e) {
            spdlog::warn("parse cache entry {} unusable ({}); parsing again", *cached, e.what());
            options.cache->remove(key);
            rejected = io::issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "parse cache entry %1 unusable (%2); removed it and parsed again"),
                { *cached, e.what() });
            progress.cacheRejected();
            db.reset();
        }
    }
    // An imported folder joined on the cluster (npuscope-cli import --join): its whole summary model in one file.
    if (const auto joined = db || !options.useJoined ? std::nullopt : RankImport::joinedFor(plan)) {
        progress.message("reading the joined imported ranks");
        try {
            // npuscope_join is the file's description; merges copy every table of the model, so it goes. The seal
            // (a hash of the file's bytes) stands for SQLite's quick_check, which costs more than the copy.
            RankImport::checkJoinedSeal(*joined);
            db = readCachedModel(*joined, plan, "npuscope_join", true);
            progress.bytes(totalBytes, *joined);
        } catch (const model::DbError& e) {
            rejected = io::issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "joined model %1 unusable (%2); merged the rank files instead"),
                { *joined, e.what() });
            db.reset();
        }
    }
    if (!db) {
        db = model::Database::createModel();
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
            writer.commit();
        }
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
    }
    const bool lean = watch.lean.load();

    noteImportedRanks(*db, plan);

    // 2. Deferred files (timelines, kernel details) when asked for, several ranks at a time; one
    // rank at a time straight into the model when there is one thread (no second copy in memory).
    if (options.loadTimelines && !fromFullEntry && !lean && threads == 1 && plan.ranks.size() > 1
        && !hasImportedRanks(*db)) {
        // Several ranks on one thread: one writer and transaction for every rank (a writer per rank would read the
        // model's whole string table each time, quadratic over a cluster's ranks). Straight into the model, without
        // per-rank cache entries (their merges cost more than parsing the small per-rank files of a cluster again;
        // npuscope-cli diff loads this way). One rank keeps the path below, which reuses its cache entries.
        model::ModelWriter writer(*db);
        writer.begin();
        for (const auto& r : plan.ranks) {
            if (cancel && cancel->load())
                break;
            importDeferred(*db, r.rank, options.deferredGroups, options.cache, progress, cancel, true, &writer);
        }
        writer.commit();
    } else if (options.loadTimelines && !fromFullEntry && !lean) {
        const bool direct = threads == 1;
        std::atomic<size_t> next { 0 };
        runOnThreads(static_cast<size_t>(threads), [&](size_t) {
            for (size_t r = next.fetch_add(1); r < plan.ranks.size(); r = next.fetch_add(1))
                importDeferred(
                    *db, plan.ranks[r].rank, options.deferredGroups, options.cache, progress, cancel, direct);
        });
    }
    if (cancel && cancel->load())
        return nullptr;
    if (!full.empty() && !fromFullEntry && !lean) {
        storeInCache(*options.cache, *db, full);
        progress.cacheMiss();
    }

    // 3. What detection found is part of this opening, not of the cached parse.
    {
        model::ModelWriter writer(*db);
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
    progress.message("");
    return db;
}

void Loader::importRankSummary(model::Database& target, const io::PlannedRank& rank, const std::atomic<bool>* cancel)
{
    const ProgressFn none;
    ProgressSink progress(none, 0, 1);
    model::ModelWriter writer(target);
    writer.begin();
    importRankFiles(writer, rank, progress, cancel);
    writer.commit();
}

namespace {

std::vector<PlannedFile> groupFiles(const PlannedRank& rank, DeferredGroup group)
{
    std::vector<PlannedFile> files;
    for (const auto& f : rank.files) {
        if (deferredGroupOf(f.kind) == group)
            files.push_back(f);
    }
    return files;
}

} // namespace

std::unique_ptr<model::Database> Loader::importRankGroup(
    const io::PlannedRank& rank, io::DeferredGroup group, const std::atomic<bool>* cancel)
{
    const auto files = groupFiles(rank, group);
    if (files.empty())
        return nullptr;
    const ProgressFn none;
    ProgressSink progress(none, 0, 1);
    auto model = parseIntoWorker(workerModelName(), rank.rank, files, nullptr, {}, progress, cancel, {});
    return cancel && cancel->load() ? nullptr : std::move(model);
}

std::unique_ptr<model::Database> Loader::importRankKernelTotals(
    const io::PlannedRank& rank, const std::atomic<bool>* cancel)
{
    const auto files = groupFiles(rank, kKernelsGroup);
    if (files.empty())
        return nullptr;
    const ProgressFn none;
    ProgressSink progress(none, 0, 1);
    auto model = parseIntoWorker(
        workerModelName(), rank.rank, files, nullptr, {}, progress, cancel, &KernelDetailsImporter::runTotals);
    return cancel && cancel->load() ? nullptr : std::move(model);
}

bool Loader::loadTimeline(model::Database& db, int64_t rank, const ProgressFn& progressFn,
    const std::atomic<bool>* cancel, const ParseCache* cache, LoadReport* report)
{
    return loadDeferred(db, rank, kAllGroups, progressFn, cancel, cache, report);
}

bool Loader::loadDeferred(model::Database& db, int64_t rank, DeferredGroups groups, const ProgressFn& progressFn,
    const std::atomic<bool>* cancel, const ParseCache* cache, LoadReport* report)
{
    uint64_t totalBytes = 0;
    {
        auto lock = db.lock();
        for (const auto& f : deferredFiles(db, rank, groups, RankFileStatus::Skipped))
            totalBytes += f.size;
    }
    ProgressSink progress(progressFn, totalBytes, 1, report);
    return importDeferred(db, rank, groups, cache, progress, cancel);
}

bool Loader::loadKernelTotals(model::Database& db, int64_t rank, const ProgressFn& progressFn,
    const std::atomic<bool>* cancel, const ParseCache* cache, LoadReport* report)
{
    std::vector<PlannedFile> files;
    auto present
        = [&] { return db.prepare("SELECT 1 FROM kernel_total WHERE rank_id = ?1 LIMIT 1").bind(1, rank).step(); };
    {
        auto lock = db.lock();
        // Kernel files being imported or imported: the kernel table has (or will have) the rows.
        files = deferredFiles(db, rank, kKernelsGroup, RankFileStatus::Skipped);
        if (files.empty() || present())
            return false;
    }
    uint64_t totalBytes = 0;
    for (const auto& f : files)
        totalBytes += f.size;
    ProgressSink progress(progressFn, totalBytes, 1, report);
    // A merge only while the rank's kernel files are still not imported and nobody else merged totals meanwhile.
    auto stillWanted = [&] {
        return !present() && deferredFiles(db, rank, kKernelsGroup, RankFileStatus::Skipped).size() == files.size();
    };
    {
        auto lock = db.lock();
        const auto imported = importedGroupFile(db, rank, RankImport::kKernelTotalsScope, files);
        if (imported && stillWanted() && mergeImportedGroup(db, rank, *imported, files, progress, [&] {
                dropEarlierPassIssues(db, rank, files);
            }))
            return true;
    }
    const std::string key
        = cache ? cache->keyFor("rank" + std::to_string(rank) + "-kernel-totals", files) : std::string();
    if (const auto cached = cache ? cache->lookup(key) : std::nullopt) {
        auto lock = db.lock();
        if (!stillWanted())
            return false;
        if (mergeCached(
                db, rank, *cache, key, *cached, files, progress, [&] { dropEarlierPassIssues(db, rank, files); }))
            return true;
    }
    const std::string name = workerModelName();
    auto worker = parseIntoWorker(name, rank, files, cache, key, progress, cancel, &KernelDetailsImporter::runTotals);
    if (cancel && cancel->load())
        return false;
    auto lock = db.lock();
    if (!stillWanted())
        return false;
    dropEarlierPassIssues(db, rank, files);
    load::ModelMerger::merge(db, name);
    return true;
}

namespace {

// The rows one scan of the Kernels group files writes into table (step_kernel of one step, or kernel_sum: step
// nullopt) for each of ranks whose kernel files are not imported: Loader::loadStepKernels and loadKernelSums.
// keyPrefix names the one parse cache entry of the set of ranks (and step).
bool scanKernelFiles(model::Database& db, const std::vector<int64_t>& ranks, std::optional<int64_t> step,
    const std::string& table, const std::string& keyPrefix, const ImporterOverride& scan,
    const Loader::ProgressFn& progressFn, const std::atomic<bool>* cancel, const ParseCache* cache, LoadReport* report,
    int threads)
{
    struct Wanted {
        int64_t rank;
        std::vector<PlannedFile> files;
    };
    // Imported ranks carrying their kernels group file: that group is merged (a cheap copy; the Marey view then reads
    // their kernel table), as their original kernel files may not be here.
    std::vector<int64_t> carried;
    {
        auto lock = db.lock();
        for (const int64_t rank : ranks) {
            const auto files = deferredFiles(db, rank, kKernelsGroup, RankFileStatus::Skipped);
            if (!files.empty() && importedGroupFile(db, rank, deferredGroupName(kKernelsGroup), files))
                carried.push_back(rank);
        }
    }
    for (const int64_t rank : carried) {
        ProgressSink carriedProgress(progressFn, 0, 1, report);
        importDeferred(db, rank, kKernelsGroup, cache, carriedProgress, cancel);
    }
    std::vector<Wanted> wanted;
    {
        auto lock = db.lock();
        auto present
            = db.prepare("SELECT 1 FROM " + table + " WHERE rank_id = ?1 AND (?2 IS NULL OR step = ?2) LIMIT 1");
        for (const int64_t rank : ranks) {
            // Kernel files being imported or imported: the kernel table has (or will have) the rows.
            auto files = deferredFiles(db, rank, kKernelsGroup, RankFileStatus::Skipped);
            present.reset();
            if (!files.empty() && !present.bind(1, rank).bind(2, step).step())
                wanted.push_back({ rank, std::move(files) });
        }
    }
    if (wanted.empty())
        return !carried.empty() && !(cancel && cancel->load());
    uint64_t totalBytes = 0;
    std::vector<PlannedFile> allFiles;
    std::string scope = keyPrefix + (step ? std::to_string(*step) : std::string("all"));
    for (const auto& w : wanted) {
        scope += ";" + std::to_string(w.rank);
        for (const auto& f : w.files) {
            totalBytes += f.size;
            allFiles.push_back(f);
            scope += "+" + f.path;
        }
    }
    ProgressSink progress(progressFn, totalBytes, static_cast<int>(wanted.size()), report);
    // One entry for the whole set: the key covers every rank's kernel files and the step (hashed, so it stays short).
    const std::string key = cache ? [&] {
        const std::string full = cache->keyFor(scope, allFiles);
        return keyPrefix + "-" + full.substr(full.rfind('-') + 1);
    }()
                                  : std::string();
    // Replace, never add: rows of these ranks and step another caller merged meanwhile, and the parse issues of the
    // files (the scan reports every record's problems again). Caller holds db.lock().
    auto before = [&] {
        auto drop = db.prepare("DELETE FROM " + table + " WHERE rank_id = ?1 AND (?2 IS NULL OR step = ?2)");
        for (const auto& w : wanted) {
            drop.bind(1, w.rank).bind(2, step).run();
            dropEarlierPassIssues(db, w.rank, w.files);
        }
    };
    // A rank whose Kernels group was imported (or claimed) meanwhile reads the kernel table: its rows go again.
    // Caller holds db.lock().
    auto after = [&] {
        auto drop = db.prepare("DELETE FROM " + table + " WHERE rank_id = ?1");
        for (const auto& w : wanted) {
            if (deferredFiles(db, w.rank, kKernelsGroup, RankFileStatus::Skipped).size() != w.files.size())
                drop.bind(1, w.rank).run();
        }
    };
    if (const auto cached = cache ? cache->lookup(key) : std::nullopt) {
        auto lock = db.lock();
        if (mergeCached(db, std::nullopt, *cache, key, *cached, allFiles, progress, before)) {
            after();
            return true;
        }
    }
    // Several ranks at a time, each thread into its own model; the models are then merged into the first one (the
    // cache entry) and that into db.
    int count = threads > 0 ? threads : static_cast<int>(std::thread::hardware_concurrency());
    count = std::clamp(count, 1, 16);
    count = std::min<int>(count, static_cast<int>(wanted.size()));
    std::vector<std::string> names(static_cast<size_t>(count));
    std::vector<std::unique_ptr<model::Database>> models(static_cast<size_t>(count));
    std::vector<int64_t> idBases(static_cast<size_t>(count));
    for (size_t i = 0; i < names.size(); ++i) {
        names[i] = workerModelName();
        models[i] = model::Database::createModel(names[i]);
        idBases[i] = load::ModelMerger::reserveIds(*models[i]);
    }
    std::atomic<size_t> next { 0 };
    runOnThreads(names.size(), [&](size_t i) {
        model::ModelWriter writer(*models[i]);
        writer.begin();
        for (size_t r = next.fetch_add(1); r < wanted.size(); r = next.fetch_add(1)) {
            for (const auto& f : wanted[r].files) {
                if (cancel && cancel->load())
                    break;
                importFile(writer, wanted[r].rank, f, progress, cancel, nullptr, false, scan);
            }
            progress.rankDone();
        }
        writer.commit();
        load::ModelMerger::releaseIds(*models[i], idBases[i]);
    });
    if (cancel && cancel->load())
        return false;
    progress.message("merging ranks");
    for (size_t i = 1; i < names.size(); ++i) {
        load::ModelMerger::merge(*models[0], names[i]);
        models[i].reset();
    }
    if (cache) {
        storeInCache(*cache, *models[0], key);
        progress.cacheMiss();
    }
    auto lock = db.lock();
    before();
    load::ModelMerger::merge(db, names[0]);
    after();
    return true;
}

} // namespace

bool Loader::loadStepKernels(model::Database& db, const std::vector<int64_t>& ranks, std::optional<int64_t> step,
    const ProgressFn& progressFn, const std::atomic<bool>* cancel, const ParseCache* cache, LoadReport* report,
    int threads)
{
    const ImporterOverride scan = [step](ImportContext& ctx) { return KernelDetailsImporter::runStep(ctx, step); };
    return scanKernelFiles(
        db, ranks, step, "step_kernel", "step-kernels", scan, progressFn, cancel, cache, report, threads);
}

bool Loader::loadOperatorMemory(model::Database& db, const std::vector<int64_t>& ranks, const ProgressFn& progressFn,
    const std::atomic<bool>* cancel)
{
    // Claimed as importDeferred claims a group's files, but of the Memory group only operator_memory.csv.
    std::map<int64_t, std::vector<PlannedFile>> claimed;
    uint64_t totalBytes = 0;
    {
        auto lock = db.lock();
        model::RankFileTable table(db);
        for (int64_t rank : ranks) {
            for (auto& f : deferredFiles(db, rank, kMemoryGroup, RankFileStatus::Skipped)) {
                if (f.kind != FileKind::OperatorMemory)
                    continue;
                table.setStatus(rank, fileKindName(f.kind), f.path, RankFileStatus::Loading);
                totalBytes += f.size;
                claimed[rank].push_back(std::move(f));
            }
        }
    }
    ProgressSink progress(progressFn, totalBytes, static_cast<int>(ranks.size()));
    bool imported = false;
    {
        model::ModelWriter writer(db);
        writer.begin();
        for (auto& [rank, files] : claimed) {
            if (cancel && cancel->load()) {
                auto lock = db.lock();
                unclaim(db, rank, files);
                continue;
            }
            imported = importGroup(db, rank, kMemoryGroup, files, nullptr, progress, cancel, true, &writer) || imported;
        }
        writer.commit();
    }
    return imported && !(cancel && cancel->load());
}

bool Loader::loadKernelSums(model::Database& db, const std::vector<int64_t>& ranks, const ProgressFn& progressFn,
    const std::atomic<bool>* cancel, const ParseCache* cache, LoadReport* report, int threads)
{
    return scanKernelFiles(db, ranks, std::nullopt, "kernel_sum", "kernel-sums", &KernelDetailsImporter::runSums,
        progressFn, cancel, cache, report, threads);
}

} // namespace npuscope::load

// SPDX-License-Identifier: Apache-2.0
// The loader's per-rank work after the open: a rank's deferred files (timeline, kernels, memory rows) imported when a
// view needs them, claimed so two threads never import the same file, through the parse cache; a rank's summary or
// one group on its own; and the kernel scans across ranks (one step's kernels, kernel sums, operator memory).
#include "LoaderParts.h"

#include "npuscope/core/RunOnThreads.h"
#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/detect/FileKinds.h"
#include "npuscope/io/parse/IssueText.h"
#include "npuscope/io/parse/SourceFile.h"
#include "npuscope/io/torch_npu/KernelDetailsImporter.h"
#include "npuscope/load/MemoryGuard.h"
#include "npuscope/load/ModelMerger.h"
#include "npuscope/load/RankImport.h"
#include "npuscope/model/RankFileTable.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <thread>

namespace npuscope::load {

using namespace io;
using namespace model;

namespace detail {

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
    ProgressSink& progress, const std::atomic<bool>* cancel, bool direct, model::ModelWriter* shared)
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


} // namespace detail

using namespace detail;

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

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/model/Database.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::load {

// What a load did, for tests and benchmarks: which files were parsed and how the cache served.
struct LoadReport {
    std::vector<std::string> parsedFiles; // every input file an importer read
    int cacheHits = 0; // cache entries used (summary, per-rank deferred files)
    int cacheMisses = 0; // entries parsed and stored
    int cacheRejected = 0; // damaged entries removed and parsed again
    // Wall-clock seconds of the summary stages of the last parse (0 when read from the cache).
    double parseSeconds = 0; // importers on the worker threads
    double mergeSeconds = 0; // worker batch models copied into the workspace model (part of parseSeconds)
    double postLoadSeconds = 0; // group resolution, devices
    double indexSeconds = 0; // secondary indexes
};

struct LoadOptions {
    bool loadTimelines = true; // import the deferred files too: the groups below, of every rank
    io::DeferredGroups deferredGroups = io::kAllGroups; // with loadTimelines, which groups (io::DeferredGroup)
    int threads = 0; // parser threads; 0 = one per hardware thread (at most 16)
    // Parse cache to reuse and fill (the summary of the whole input, and each rank's deferred
    // files); nullptr = parse everything. Must outlive the load.
    const ParseCache* cache = nullptr;
    // Filled by the load when set; must outlive it.
    LoadReport* report = nullptr;
    // Read an imported folder's joined model (RankImport::join) when it matches; false merges the rank files
    // (RankImport::join itself: a stale or unusable joined model must not end up in the new one).
    bool useJoined = true;
    // Bytes of summary files a parser thread reads before it hands its model over to be merged (64 MB: a batch
    // per thread and its copy are what the load holds twice). Tests make it small to hand over every rank.
    uint64_t summaryBatchBytes = 64ull << 20;
    // Called on the loader's thread, once, when the summary's rows are all written and the groups resolved, before
    // the model's secondary indexes are built: after a parse only (not for a model read from the parse cache or a
    // joined import). Nothing else uses the model meanwhile. The window starts its communication index builds there
    // (query::IndexPrebuild), beside the rest of the load. An exception from it fails the load.
    std::function<void(model::Database&)> beforeIndexes;
};

struct LoadProgress {
    double fraction = 0; // 0..1 over the planned bytes
    std::string currentFile; // file being imported
    int ranksDone = 0;
    int ranksTotal = 0;
};

// Runs a LoadPlan into a new in-memory model: rank rows, every importer, plan issues as
// parse_issue rows, group resolution (local -> global link ranks), indexes. Ranks are parsed on
// several threads, each into its own in-memory model, and merged into the result in SQL
// (ModelMerger). Never throws for bad input; a file that fails leaves the others loaded. May be
// called from any thread; the returned Database then belongs to the caller. progress may be
// called from any of the loader's threads, one call at a time. Returns nullptr only when cancelled.
class Loader {
public:
    using ProgressFn = std::function<void(const LoadProgress&)>;
    static std::unique_ptr<model::Database> load(const io::LoadPlan& plan, const LoadOptions& options = {},
        const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

    // Writes one rank's summary rows into target as a load's worker does (rank row, summary files, the memory peaks
    // pass, rank_file rows of every planned file with deferred ones "skipped"), without group resolution or indexes:
    // the content of an imported rank file (load::RankImport). Bad input becomes parse_issue rows. Any thread that
    // is target's only user.
    static void importRankSummary(
        model::Database& target, const io::PlannedRank& rank, const std::atomic<bool>* cancel = nullptr);

    // The model a deferred load of one group of one rank merges (its parse cache entry: the files' rank_file rows
    // with their final status, the group's rows, parse issues), parsed from rank's files of that group; nullptr when
    // the rank has none, or on cancel. For the group files of `npuscope-cli import` (load::RankImport). Any thread.
    static std::unique_ptr<model::Database> importRankGroup(
        const io::PlannedRank& rank, io::DeferredGroup group, const std::atomic<bool>* cancel = nullptr);
    // The same for the kernel totals of loadKernelTotals (no rank_file rows); nullptr without kernel files.
    static std::unique_ptr<model::Database> importRankKernelTotals(
        const io::PlannedRank& rank, const std::atomic<bool>* cancel = nullptr);

    // Imports one rank's deferred files of every group (Loader::loadDeferred with io::kAllGroups).
    static bool loadTimeline(model::Database& db, int64_t rank, const ProgressFn& progress = {},
        const std::atomic<bool>* cancel = nullptr, const ParseCache* cache = nullptr, LoadReport* report = nullptr);

    // Imports one rank's deferred files of the given groups (io::DeferredGroup flags: timeline, kernels, memory;
    // rank_file rows with status "skipped") into an already loaded model: parsed without holding the model, then
    // merged under db.lock(), one parse cache entry per (rank, group). Files of these groups another thread is
    // importing (status "loading") are waited for. Returns true when rows of these groups arrived during the call
    // (imported here or by the other thread); false when there was nothing left to import, or on cancel. Import
    // problems become parse_issue rows as usual. Any thread except one holding db.lock().
    static bool loadDeferred(model::Database& db, int64_t rank, io::DeferredGroups groups,
        const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr, const ParseCache* cache = nullptr,
        LoadReport* report = nullptr);

    // The kernel_total rows (per step: kernel count and FLOPs sums, schema.sql) of a rank whose kernel files are not
    // imported: one streaming pass over kernel_details.csv / op_summary reading only the cells the sums need,
    // cached per rank. For the FLOPs heatmap of a cluster without importing every kernel table (query::FlopsQuery
    // reads kernel_total for such ranks). Returns false when not needed (the kernel files are imported, being
    // imported, absent, or the totals are already there) or on cancel. Any thread except one holding db.lock().
    static bool loadKernelTotals(model::Database& db, int64_t rank, const ProgressFn& progress = {},
        const std::atomic<bool>* cancel = nullptr, const ParseCache* cache = nullptr, LoadReport* report = nullptr);

    // The step_kernel rows (schema.sql: name, type, accelerator core, start, duration) of the kernels of one step
    // (nullopt: every kernel; for data without step ids) of each of ranks whose kernel files are not imported: a
    // streaming pass over each rank's kernel_details.csv / op_summary with the import's checks and parse issues,
    // keeping that step's rows; ranks parsed on several threads (threads: 0 = one per hardware thread, at most 16),
    // one parse cache entry for the whole set of ranks and step. For the Marey view of a cluster without importing
    // every kernel table (query::MareyQuery reads step_kernel for such ranks). Ranks whose kernel files are
    // imported, being imported or absent, or that have rows of this step already, are skipped. Rows of a rank whose
    // Kernels group is imported later are dropped then, so nothing counts twice. Returns false when no rank needed
    // it, or on cancel. Any thread except one holding db.lock().
    static bool loadStepKernels(model::Database& db, const std::vector<int64_t>& ranks, std::optional<int64_t> step,
        const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr, const ParseCache* cache = nullptr,
        LoadReport* report = nullptr, int threads = 0);

    // The kernel_sum rows (schema.sql: per step, name, type and accelerator core the kernel count and Σ duration) of
    // each of ranks whose kernel files are not imported: one streaming pass per rank over kernel_details.csv /
    // op_summary with the import's checks and parse issues, as loadStepKernels (threads, one parse cache entry for
    // the set of ranks, skipped ranks, rows dropped when the Kernels group is imported later). For the operator level
    // of query::RunComparison without importing every kernel row. Returns false when no rank needed it, or on cancel.
    // Any thread except one holding db.lock().
    static bool loadKernelSums(model::Database& db, const std::vector<int64_t>& ranks, const ProgressFn& progress = {},
        const std::atomic<bool>* cancel = nullptr, const ParseCache* cache = nullptr, LoadReport* report = nullptr,
        int threads = 0);

    // The operator_memory rows of each of ranks: their operator_memory.csv (the Memory group without memory_record.csv,
    // whose rows stay deferred: the memory peaks are memory_peak rows of the summary), imported straight into db on
    // the calling thread in one transaction without the parse cache (as Loader::load's one-thread path). For the
    // memory level of query::RunComparison (npuscope-cli diff). Returns true when rows arrived; false when nothing
    // was left to import, or on cancel. The caller must be db's only user (a model no other thread reads yet).
    static bool loadOperatorMemory(model::Database& db, const std::vector<int64_t>& ranks,
        const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);
};

} // namespace npuscope::load

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/Loader.h"

#include "npuscope/io/AnalysisDbImporter.h"
#include "npuscope/io/ApiStatisticImporter.h"
#include "npuscope/io/CommunicationImporter.h"
#include "npuscope/io/KernelDetailsImporter.h"
#include "npuscope/io/MemoryRecordImporter.h"
#include "npuscope/io/NpuModuleMemImporter.h"
#include "npuscope/io/OpStatisticImporter.h"
#include "npuscope/io/OperatorMemoryImporter.h"
#include "npuscope/io/ProfilerDbImporter.h"
#include "npuscope/io/ProfilerInfoImporter.h"
#include "npuscope/io/StepTraceImporter.h"
#include "npuscope/io/TraceViewImporter.h"
#include "npuscope/model/ModelMerger.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/model/PostLoad.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace npuscope::io {

namespace {

using ImporterFn = bool (*)(ImportContext&);

ImporterFn importerFor(FileKind kind)
{
    switch (kind) {
    case FileKind::ProfilerInfo:
        return &ProfilerInfoImporter::run;
    case FileKind::ProfilerMetadata:
        return &MetadataImporter::run;
    case FileKind::StepTraceTime:
        return &StepTraceImporter::run;
    case FileKind::KernelDetails:
        return &KernelDetailsImporter::run;
    case FileKind::OpStatistic:
        return &OpStatisticImporter::run;
    case FileKind::ApiStatistic:
        return &ApiStatisticImporter::run;
    case FileKind::Communication:
        return &CommunicationImporter::run;
    case FileKind::CommunicationMatrix:
        return &CommunicationMatrixImporter::run;
    case FileKind::MemoryRecord:
        return &MemoryRecordImporter::run;
    case FileKind::OperatorMemory:
        return &OperatorMemoryImporter::run;
    case FileKind::NpuModuleMem:
        return &NpuModuleMemImporter::run;
    case FileKind::TraceView:
        return &TraceViewImporter::run;
    case FileKind::ProfilerDb:
        return &ProfilerDbImporter::run;
    case FileKind::AnalysisDb:
        return &AnalysisDbImporter::run;
    }
    return nullptr;
}

// profiler_info first (it fills the rank row), the timeline last (largest).
int importOrder(FileKind k)
{
    switch (k) {
    case FileKind::ProfilerInfo:
        return 0;
    case FileKind::ProfilerMetadata:
        return 1;
    case FileKind::TraceView:
        return 3;
    default:
        return 2;
    }
}

model::Severity severityOf(const std::string& s)
{
    if (s == "error")
        return model::Severity::Error;
    if (s == "info")
        return model::Severity::Info;
    return model::Severity::Warning;
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
    ProgressSink(const Loader::ProgressFn& fn, uint64_t totalBytes, int ranks)
        : m_fn(fn)
        , m_total(totalBytes)
    {
        m_state.ranksTotal = ranks;
    }
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
    const Loader::ProgressFn& m_fn;
    std::mutex m_mutex;
    uint64_t m_total = 0;
    uint64_t m_done = 0;
    LoadProgress m_state;
};

// Imports one file with the right importer; one bad file never takes the others down.
void importFile(model::ModelWriter& writer, int64_t rank, const PlannedFile& file, ProgressSink& progress,
    const std::atomic<bool>* cancel)
{
    progress.bytes(0, file.path);
    ImportContext ctx(writer, rank, file.path, cancel);
    uint64_t reported = 0;
    ctx.onBytes = [&](uint64_t bytes) {
        if (bytes > reported) {
            progress.bytes(bytes - reported, file.path);
            reported = bytes;
        }
    };
    bool ok = false;
    try {
        ok = importerFor(file.kind)(ctx);
    } catch (const std::exception& e) {
        ctx.error(std::nullopt, std::string("import failed: ") + e.what());
        spdlog::error("import of {} failed: {}", file.path, e.what());
    }
    ctx.finish();
    writer.setRankFileStatus(rank, file.path, ok ? "loaded" : "failed");
    if (file.size > reported)
        progress.bytes(file.size - reported, file.path);
}

// Imports whole ranks into its own model; ranks are taken from a shared counter.
void runWorker(model::Database& db, const LoadPlan& plan, const LoadOptions& options, std::atomic<size_t>& next,
    ProgressSink& progress, const std::atomic<bool>* cancel)
{
    model::ModelWriter writer(db);
    writer.begin();
    for (size_t i = next.fetch_add(1); i < plan.ranks.size(); i = next.fetch_add(1)) {
        const auto& rank = plan.ranks[i];
        model::RankRow row;
        row.rankId = rank.rank;
        row.path = rank.path;
        row.rankSource = rank.rankSource;
        writer.addRank(row);
        std::vector<const PlannedFile*> files;
        for (const auto& f : rank.files) {
            const bool skip = !options.loadTimelines && isDeferredKind(f.kind);
            writer.addRankFile(rank.rank, fileKindName(f.kind), f.path, static_cast<int64_t>(f.size),
                skip ? "skipped" : "planned");
            if (!skip)
                files.push_back(&f);
        }
        std::stable_sort(files.begin(), files.end(),
            [](const PlannedFile* a, const PlannedFile* b) { return importOrder(a->kind) < importOrder(b->kind); });
        for (const PlannedFile* f : files) {
            if (cancel && cancel->load())
                return;
            importFile(writer, rank.rank, *f, progress, cancel);
        }
        progress.rankDone();
    }
    writer.commit();
}

} // namespace

std::unique_ptr<model::Database> Loader::load(
    const LoadPlan& plan, const LoadOptions& options, const ProgressFn& progressFn, const std::atomic<bool>* cancel)
{
    auto db = model::Database::createModel();
    uint64_t totalBytes = 0;
    for (const auto& r : plan.ranks) {
        for (const auto& f : r.files) {
            if (options.loadTimelines || !isDeferredKind(f.kind))
                totalBytes += f.size;
        }
    }
    ProgressSink progress(progressFn, totalBytes, static_cast<int>(plan.ranks.size()));

    int threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
    threads = std::clamp(threads, 1, 16);
    threads = std::min<int>(threads, std::max<int>(1, static_cast<int>(plan.ranks.size())));

    // Each worker parses whole ranks into its own model (own connection, no lock contention);
    // the merge below copies them into the result in SQL.
    std::vector<std::string> names;
    std::vector<std::unique_ptr<model::Database>> workerDbs;
    for (int i = 0; i < threads; ++i) {
        names.push_back(workerModelName());
        workerDbs.push_back(model::Database::createModel(names.back()));
    }
    std::atomic<size_t> next { 0 };
    std::vector<std::exception_ptr> errors(static_cast<size_t>(threads));
    {
        std::vector<std::thread> pool;
        for (int i = 0; i < threads; ++i) {
            pool.emplace_back([&, i] {
                try {
                    runWorker(*workerDbs[static_cast<size_t>(i)], plan, options, next, progress, cancel);
                } catch (...) {
                    errors[static_cast<size_t>(i)] = std::current_exception();
                }
            });
        }
        for (auto& t : pool)
            t.join();
    }
    if (cancel && cancel->load())
        return nullptr;
    for (const auto& e : errors) {
        if (e)
            std::rethrow_exception(e); // a model (SQL) failure, not bad input
    }

    progress.message("merging ranks");
    for (const auto& name : names)
        model::ModelMerger::merge(*db, name); // outside any transaction: it ATTACHes
    workerDbs.clear();
    model::ModelWriter writer(*db);
    writer.begin();
    for (const auto& issue : plan.issues)
        writer.addIssue({ severityOf(issue.severity), std::nullopt, issue.path, std::nullopt, issue.message });
    progress.message("resolving communication groups");
    model::PostLoad::resolveGroups(*db, writer);
    model::PostLoad::fillDevices(*db);
    writer.commit();
    db->createIndexes();
    progress.message("");
    return db;
}

bool Loader::loadTimeline(
    model::Database& db, int64_t rank, const ProgressFn& progressFn, const std::atomic<bool>* cancel)
{
    std::vector<PlannedFile> files;
    uint64_t totalBytes = 0;
    {
        auto lock = db.lock();
        auto st = db.prepare("SELECT kind, path, size_bytes FROM rank_file WHERE rank_id = ?1 AND status = 'skipped'");
        st.bind(1, rank);
        while (st.step()) {
            FileKind kind;
            const std::string path = st.text(1);
            if (!fileKindOf(std::filesystem::path(path).filename().string(), kind) || !isDeferredKind(kind))
                continue;
            files.push_back({ kind, path, static_cast<uint64_t>(st.optInt(2).value_or(0)) });
            totalBytes += files.back().size;
        }
        if (files.empty())
            return false;
        // Claim them so a second request does not import them twice.
        auto claim = db.prepare("UPDATE rank_file SET status = 'loading' WHERE rank_id = ?1 AND path = ?2");
        for (const auto& f : files)
            claim.bind(1, rank).bind(2, f.path).run();
    }
    ProgressSink progress(progressFn, totalBytes, 1);
    const std::string name = workerModelName();
    auto worker = model::Database::createModel(name);
    {
        model::ModelWriter writer(*worker);
        writer.begin();
        for (const auto& f : files) {
            if (cancel && cancel->load())
                break;
            writer.addRankFile(rank, fileKindName(f.kind), f.path, static_cast<int64_t>(f.size), "planned");
            importFile(writer, rank, f, progress, cancel);
        }
        writer.commit();
    }
    auto lock = db.lock();
    const bool cancelled = cancel && cancel->load();
    auto finish = db.prepare(cancelled ? "UPDATE rank_file SET status = 'skipped' WHERE rank_id = ?1 AND path = ?2"
                                       : "DELETE FROM rank_file WHERE rank_id = ?1 AND path = ?2");
    for (const auto& f : files)
        finish.bind(1, rank).bind(2, f.path).run();
    if (cancelled)
        return false;
    // The worker's own rank_file rows carry the final status.
    model::ModelMerger::merge(db, name);
    return true;
}

} // namespace npuscope::io

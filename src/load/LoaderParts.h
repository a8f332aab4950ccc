// SPDX-License-Identifier: Apache-2.0
// What Loader.cpp (the open: summaries, merges, the parse cache) and DeferredImports.cpp (per-rank deferred files and
// the kernel scans) share. Private to src/load.
#pragma once

#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/model/Database.h"
#include "npuscope/model/ModelWriter.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace npuscope::load::detail {

// An importer that is not a file kind's own (an aggregate or step-scoped pass); empty = the kind's importer.
using ImporterOverride = std::function<bool(io::ImportContext&)>;

// How long a caller sleeps between looks while another thread imports the files it asked for.
constexpr auto kClaimPoll = std::chrono::milliseconds(10);

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

// A fresh name for a worker's shared-cache model.
std::string workerModelName();

// Stores model in the cache under key; a cache that cannot be written leaves an info issue in model instead.
void storeInCache(const ParseCache& cache, model::Database& model, const std::string& key);

// Imports one file with its kind's importer (or importerOverride); one bad file never takes the others down. Sets the
// file's rank_file status when setStatus (its row exists); returns whether it loaded.
bool importFile(model::ModelWriter& writer, int64_t rank, const io::PlannedFile& file, ProgressSink& progress,
    const std::atomic<bool>* cancel, const std::shared_ptr<io::RankState>& state = nullptr, bool setStatus = true,
    const ImporterOverride& importerOverride = {});

// Imports one rank's summary files and writes its rank and rank_file rows; the writer's transaction is open.
void importRankFiles(model::ModelWriter& writer, const io::PlannedRank& rank, ProgressSink& progress,
    const std::atomic<bool>* cancel, const std::atomic<bool>* lean = nullptr);

// Imports a rank's deferred files of groups (DeferredImports.cpp): through cache when given, into a worker model
// merged into db unless direct (then straight into db, through shared when given).
bool importDeferred(model::Database& db, int64_t rank, io::DeferredGroups groups, const ParseCache* cache,
    ProgressSink& progress, const std::atomic<bool>* cancel, bool direct = false, model::ModelWriter* shared = nullptr);

} // namespace npuscope::load::detail

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/Loader.h"

#include "npuscope/io/ApiStatisticImporter.h"
#include "npuscope/io/CommunicationImporter.h"
#include "npuscope/io/KernelDetailsImporter.h"
#include "npuscope/io/MemoryRecordImporter.h"
#include "npuscope/io/NpuModuleMemImporter.h"
#include "npuscope/io/OpStatisticImporter.h"
#include "npuscope/io/OperatorMemoryImporter.h"
#include "npuscope/io/ProfilerInfoImporter.h"
#include "npuscope/io/StepTraceImporter.h"
#include "npuscope/io/TraceViewImporter.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/model/PostLoad.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>

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

} // namespace

std::unique_ptr<model::Database> Loader::load(
    const LoadPlan& plan, const LoadOptions& options, const ProgressFn& progress, const std::atomic<bool>* cancel)
{
    auto db = model::Database::createModel();
    model::ModelWriter writer(*db);
    writer.begin();
    for (const auto& issue : plan.issues)
        writer.addIssue({ severityOf(issue.severity), std::nullopt, issue.path, std::nullopt, issue.message });

    uint64_t totalBytes = 0;
    for (const auto& r : plan.ranks) {
        for (const auto& f : r.files) {
            if (options.loadTimelines || !isTimelineKind(f.kind))
                totalBytes += f.size;
        }
    }
    uint64_t doneBytes = 0;
    LoadProgress state;
    state.ranksTotal = static_cast<int>(plan.ranks.size());
    auto report = [&](uint64_t bytes, const std::string& file) {
        if (!progress)
            return;
        state.fraction = totalBytes ? std::min(1.0, static_cast<double>(bytes) / static_cast<double>(totalBytes)) : 1.0;
        state.currentFile = file;
        progress(state);
    };

    for (const auto& rank : plan.ranks) {
        model::RankRow row;
        row.rankId = rank.rank;
        row.path = rank.path;
        row.rankSource = rank.rankSource;
        writer.addRank(row);
        std::vector<const PlannedFile*> files;
        for (const auto& f : rank.files) {
            const bool skip = !options.loadTimelines && isTimelineKind(f.kind);
            writer.addRankFile(rank.rank, fileKindName(f.kind), f.path, static_cast<int64_t>(f.size),
                skip ? "skipped" : "planned");
            if (!skip)
                files.push_back(&f);
        }
        std::stable_sort(files.begin(), files.end(),
            [](const PlannedFile* a, const PlannedFile* b) { return importOrder(a->kind) < importOrder(b->kind); });
        for (const PlannedFile* f : files) {
            if (cancel && cancel->load())
                return nullptr;
            report(doneBytes, f->path);
            ImportContext ctx(writer, rank.rank, f->path, cancel);
            const uint64_t base = doneBytes;
            ctx.onBytes = [&, base](uint64_t bytes) { report(base + bytes, f->path); };
            bool ok = false;
            try {
                ok = importerFor(f->kind)(ctx);
            } catch (const std::exception& e) {
                // Importers report bad input themselves; this is the last guard so one file can never
                // take the others down.
                ctx.error(std::nullopt, std::string("import failed: ") + e.what());
                spdlog::error("import of {} failed: {}", f->path, e.what());
            }
            ctx.finish();
            writer.setRankFileStatus(rank.rank, f->path, ok ? "loaded" : "failed");
            doneBytes += f->size;
        }
        ++state.ranksDone;
    }
    if (cancel && cancel->load())
        return nullptr;
    report(totalBytes, "resolving communication groups");
    model::PostLoad::resolveGroups(*db, writer);
    model::PostLoad::fillDevices(*db);
    writer.commit();
    db->createIndexes();
    report(totalBytes, "");
    return db;
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "FuzzTarget.h"

#include "CacheEntryFuzzer.h"
#include "FolderDescription.h"
#include "FuzzScratch.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/io/cann/CannProfImporter.h"
#include "npuscope/io/db/AnalysisDbImporter.h"
#include "npuscope/io/db/DbTimelineImporter.h"
#include "npuscope/io/db/ProfilerDbImporter.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/io/mindspore/MindSporeHcclRawImporter.h"
#include "npuscope/io/mindspore/MindSporeMiscImporter.h"
#include "npuscope/io/mindspore/MindSporeStepTraceImporter.h"
#include "npuscope/io/mindspore/MindSporeTimelineImporter.h"
#include "npuscope/io/mindspore/MsParallelStrategyImporter.h"
#include "npuscope/io/msprof_analyze/ClusterAnalysisDbImporter.h"
#include "npuscope/io/msprof_analyze/ClusterAnalysisImporter.h"
#include "npuscope/io/torch_npu/ApiStatisticImporter.h"
#include "npuscope/io/torch_npu/CommunicationImporter.h"
#include "npuscope/io/torch_npu/KernelDetailsImporter.h"
#include "npuscope/io/torch_npu/MemoryRecordImporter.h"
#include "npuscope/io/torch_npu/NpuModuleMemImporter.h"
#include "npuscope/io/torch_npu/OpStatisticImporter.h"
#include "npuscope/io/torch_npu/OperatorMemoryImporter.h"
#include "npuscope/io/torch_npu/ProfilerInfoImporter.h"
#include "npuscope/io/torch_npu/StepTraceImporter.h"
#include "npuscope/io/torch_npu/TraceViewImporter.h"
#include "npuscope/load/Loader.h"
#include "npuscope/model/Database.h"
#include "npuscope/model/ModelWriter.h"

#include <sqlite3.h>

#include <exception>
#include <functional>
#include <string>

namespace npuscope::fuzz {

namespace {

// Small inputs: each exec costs about its size (the comparison tracing of libFuzzer on every byte loop), and the
// bugs of a parser show on a few KB; 64 KB gave 40-160 execs per CPU second, 8 KB several times more.
constexpr size_t kTextMaxLen = 8 * 1024;
constexpr size_t kFolderMaxLen = 16 * 1024;
constexpr size_t kDbMaxLen = 1024 * 1024;

using Importer = std::function<bool(io::ImportContext&)>;

// The model every importing target writes into: created once per process (the schema costs more than most inputs),
// and each input's rows are rolled back, so every input starts from the same empty model a fresh one would give.
model::Database& scratchModel()
{
    static const auto db = model::Database::createModel();
    return *db;
}

// Runs importers over data written as fileName, into the empty scratch model, the way the loader does: an exception
// is caught and reported (Loader's importFile does the same), so only crashes, sanitizer reports and hangs are
// findings. The importers of one call share the rank's state, as a rank's importers do. The transaction is this
// function's (the writer never begins one) and is rolled back at the end, whatever happened.
void importAs(const std::string& fileName, const uint8_t* data, size_t size, std::initializer_list<Importer> importers)
{
    const std::string path = FuzzScratch::instance().write(fileName, data, size);
    auto& db = scratchModel();
    db.exec("BEGIN");
    // Rolled back however the import ends (SQLite may have rolled back already after an error of its own).
    const std::unique_ptr<model::Database, void (*)(model::Database*)> rollback(&db, [](model::Database* d) {
        if (!sqlite3_get_autocommit(d->handle()))
            d->exec("ROLLBACK");
    });
    {
        model::ModelWriter writer(db);
        const auto state = std::make_shared<io::RankState>();
        for (const auto& importer : importers) {
            io::ImportContext ctx(writer, 0, path);
            ctx.setRankState(state);
            try {
                importer(ctx);
            } catch (const std::exception& e) {
                ctx.error(std::nullopt, std::string("import failed: ") + e.what());
            }
            ctx.finish();
        }
    }
}

void csvReader(const uint8_t* data, size_t size)
{
    const std::string path = FuzzScratch::instance().write("reader.csv", data, size);
    for (const size_t limit : { CsvReader::kMaxRecordBytes, size_t(64) }) {
        CsvReader reader;
        std::string error;
        if (!reader.open(path, error))
            return;
        reader.setMaxRecordBytes(limit);
        std::vector<std::string> fields;
        while (reader.next(fields)) { }
    }
    CsvReader text;
    text.openText(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<std::string> fields;
    while (text.next(fields)) { }
}

void kernelDetails(const uint8_t* data, size_t size)
{
    importAs("kernel_details.csv", data, size,
        { &io::KernelDetailsImporter::run, &io::KernelDetailsImporter::runTotals,
            [](io::ImportContext& ctx) { return io::KernelDetailsImporter::runStep(ctx, std::nullopt); },
            [](io::ImportContext& ctx) { return io::KernelDetailsImporter::runStep(ctx, 1); } });
}

void memoryRecord(const uint8_t* data, size_t size)
{
    importAs("memory_record.csv", data, size, { &io::MemoryRecordImporter::run, &io::MemoryRecordImporter::runPeaks });
}

// communication.json and communication_matrix.json after the rank's profiler_metadata.json (its groups map the
// matrix's local ranks), with a fixed metadata file so the fuzzed bytes go to the communication importer.
void afterMetadata(const char* fileName, const Importer& importer, const uint8_t* data, size_t size)
{
    const std::string metadata = FuzzScratch::instance().write("profiler_metadata.json",
        R"({"parallel_group_info":{"10":{"group_name":"dp","group_rank":0,"global_ranks":[0,1]}},)"
        R"("distributed_args":{"world_size":2,"rank":0}})");
    importAs(fileName, data, size,
        { [&](io::ImportContext& ctx) {
             io::ImportContext meta(ctx.writer(), 0, metadata);
             meta.setRankState(std::shared_ptr<io::RankState>(&ctx.rankState(), [](io::RankState*) {}));
             return io::MetadataImporter::run(meta);
         },
            importer });
}

void communication(const uint8_t* data, size_t size)
{
    afterMetadata("communication.json", &io::CommunicationImporter::run, data, size);
}

void communicationMatrix(const uint8_t* data, size_t size)
{
    afterMetadata("communication_matrix.json", &io::CommunicationMatrixImporter::run, data, size);
}

// CANN timeline files sit in device_<n>/timeline/ and are placed on the epoch clock with device_<n>/start_info.<n>.
void cannFile(const char* fileName, const Importer& importer, const uint8_t* data, size_t size)
{
    FuzzScratch::instance().write("device_0/start_info.0",
        R"({"collectionDateBegin":"2023-08-18 14:27:04.324979","collectionTimeBegin":"1692340024324979",)"
        R"("clockMonotonicRaw":"56579931060630"})");
    importAs(std::string("device_0/timeline/") + fileName, data, size, { importer });
}

void cannTimeline(const uint8_t* data, size_t size)
{
    cannFile("msprof_0_1_1.json", &io::CannProfImporter::runTimeline, data, size);
}

void cannStepTrace(const uint8_t* data, size_t size)
{
    cannFile("step_trace_0_1_1.json", &io::CannProfImporter::runStepTrace, data, size);
}

void detect(const uint8_t* data, size_t size)
{
    const auto root = FuzzScratch::instance().freshFolder("detect");
    FolderDescription::materialise(data, size, root);
    io::Detector::detect({ root.string() });
}

// Detection, then the whole load (summary, deferred files, group resolution, indexes) on one thread.
void loadFolder(const uint8_t* data, size_t size)
{
    const auto root = FuzzScratch::instance().freshFolder("load");
    FolderDescription::materialise(data, size, root);
    const auto plan = io::Detector::detect({ root.string() });
    load::LoadOptions options;
    options.threads = 1;
    load::Loader::load(plan, options);
}

void parseCache(const uint8_t* data, size_t size) { CacheEntryFuzzer::instance().run(data, size); }

// A target that imports the input as one file name with one importer.
#define IMPORT(fileName, importer)                                                                                     \
    [](const uint8_t* data, size_t size) { importAs(fileName, data, size, { importer }); }

const std::vector<FuzzTarget> kTargets = {
    { "csv_reader", &csvReader, "*.csv", kTextMaxLen },
    { "step_trace_time", IMPORT("step_trace_time.csv", &io::StepTraceImporter::run), "step_trace_time.csv",
        kTextMaxLen },
    { "kernel_details", &kernelDetails, "kernel_details.csv op_summary_*.csv", kTextMaxLen },
    { "op_summary", IMPORT("op_summary_0.csv", &io::KernelDetailsImporter::run), "op_summary_*.csv", kTextMaxLen },
    { "op_statistic", IMPORT("op_statistic.csv", &io::OpStatisticImporter::run), "op_statistic.csv", kTextMaxLen },
    { "api_statistic", IMPORT("api_statistic.csv", &io::ApiStatisticImporter::run), "api_statistic.csv", kTextMaxLen },
    { "memory_record", &memoryRecord, "memory_record.csv", kTextMaxLen },
    { "operator_memory", IMPORT("operator_memory.csv", &io::OperatorMemoryImporter::run), "operator_memory.csv",
        kTextMaxLen },
    { "npu_module_mem", IMPORT("npu_module_mem.csv", &io::NpuModuleMemImporter::run), "npu_module_mem.csv",
        kTextMaxLen },
    { "cluster_step_trace", IMPORT("cluster_step_trace_time.csv", &io::ClusterAnalysisImporter::runStepTrace),
        "cluster_step_trace_time.csv", kTextMaxLen },
    { "ms_step_trace_raw", IMPORT("step_trace_raw_0_detail_time.csv", &io::MindSporeStepTraceImporter::run),
        "step_trace_raw_*_detail_time.csv", kTextMaxLen },
    { "ms_hccl_raw", IMPORT("hccl_raw_0.csv", &io::MindSporeHcclRawImporter::run), "hccl_raw_*.csv", kTextMaxLen },
    { "trace_view", IMPORT("trace_view.json", static_cast<bool (*)(io::ImportContext&)>(&io::TraceViewImporter::run)),
        "trace_view*.json", kTextMaxLen },
    { "communication", &communication, "communication.json", kTextMaxLen },
    { "communication_matrix", &communicationMatrix, "communication_matrix.json", kTextMaxLen },
    { "profiler_metadata", IMPORT("profiler_metadata.json", &io::MetadataImporter::run), "profiler_metadata.json",
        kTextMaxLen },
    { "profiler_info", IMPORT("profiler_info_0.json", &io::ProfilerInfoImporter::run), "profiler_info*.json",
        kTextMaxLen },
    { "cluster_communication", IMPORT("cluster_communication.json", &io::ClusterAnalysisImporter::runCommunication),
        "cluster_communication.json", kTextMaxLen },
    { "cluster_communication_matrix",
        IMPORT("cluster_communication_matrix.json", &io::ClusterAnalysisImporter::runMatrix),
        "cluster_communication_matrix.json", kTextMaxLen },
    { "communication_group", IMPORT("communication_group.json", &io::ClusterAnalysisImporter::runCommunicationGroup),
        "communication_group*.json", kTextMaxLen },
    { "ms_timeline_display", IMPORT("ascend_timeline_display_0.json", &io::MindSporeTimelineImporter::run),
        "ascend_timeline_display_*.json timeline_display_*.json", kTextMaxLen },
    { "ms_flops_summary", IMPORT("flops_summary_0.json", &io::MindSporeMiscImporter::runFlops), "flops_summary_*.json",
        kTextMaxLen },
    { "ms_rank_table", IMPORT("hccl.json", &io::MindSporeMiscImporter::runRankTable), "hccl.json", kTextMaxLen },
    { "ms_parallel_strategy", IMPORT("parallel_strategy_0.json", &io::MsParallelStrategyImporter::run),
        "parallel_strategy_*.json", kTextMaxLen },
    { "cann_info", IMPORT("info.json.0", &io::CannProfImporter::runInfo), "info.json.[0-9]", kTextMaxLen },
    { "cann_timeline", &cannTimeline, "msprof_*.json", kTextMaxLen },
    { "cann_step_trace", &cannStepTrace, "step_trace_*_*_*.json", kTextMaxLen },
    { "profiler_db", IMPORT("ascend_pytorch_profiler_0.db", &io::ProfilerDbImporter::run),
        "ascend_pytorch_profiler*.db msprof_*.db report_*.db", kDbMaxLen },
    { "profiler_db_timeline", IMPORT("ascend_pytorch_profiler_0.db", &io::DbTimelineImporter::run),
        "ascend_pytorch_profiler*.db msprof_*.db report_*.db", kDbMaxLen },
    { "analysis_db", IMPORT("analysis.db", &io::AnalysisDbImporter::run), "analysis.db", kDbMaxLen },
    { "cluster_analysis_db", IMPORT("cluster_analysis.db", &io::ClusterAnalysisDbImporter::run), "cluster_analysis.db",
        kDbMaxLen },
    { "detect", &detect, "@folders", kFolderMaxLen },
    { "load_folder", &loadFolder, "@folders", kFolderMaxLen },
    { "parse_cache", &parseCache, "@cache", kDbMaxLen },
};
#undef IMPORT

} // namespace

const std::vector<FuzzTarget>& fuzzTargets() { return kTargets; }

const FuzzTarget* findFuzzTarget(std::string_view name)
{
    for (const auto& t : kTargets) {
        if (name == t.name)
            return &t;
    }
    return nullptr;
}

} // namespace npuscope::fuzz

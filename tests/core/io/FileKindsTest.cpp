// SPDX-License-Identifier: Apache-2.0
// The table of file kinds (io::FileKinds): every kind has an importer (or says why not) and a fuzz target, names
// are recognised as before, and a kind added to the table is detected, estimated, loaded and fuzzed without an edit
// anywhere else.
#include "TestSupport.h"

#include "FuzzTarget.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/io/detect/FileKinds.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/MemoryGuard.h"
#include "npuscope/model/RankFileTable.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>

namespace fs = std::filesystem;
using namespace npuscope;
using namespace npuscope::test;

TEST(FileKinds, EveryKindHasAnImporterOrSaysWhyNot)
{
    for (const auto& spec : io::FileKinds::all()) {
        SCOPED_TRACE(spec.name);
        EXPECT_NE(spec.importer == nullptr, spec.noImporter == nullptr) << "an importer, or a reason for none";
        if (spec.summaryPass) {
            EXPECT_NE(spec.deferred, io::kNoGroup) << "a summary pass is for a deferred kind";
        }
        EXPECT_GT(spec.memoryWeight, 0.0);
    }
}

TEST(FileKinds, EveryKindIsFuzzed)
{
    for (const auto& spec : io::FileKinds::all()) {
        SCOPED_TRACE(spec.name);
        if (spec.fuzz.target) {
            EXPECT_NE(fuzz::findFuzzTarget(spec.fuzz.target), nullptr);
            ASSERT_NE(spec.fuzz.fileName, nullptr);
            EXPECT_TRUE(spec.importer || spec.fuzz.viaLoad) << "the target needs something to run";
        } else {
            ASSERT_NE(spec.fuzz.coveredBy, nullptr) << "a target of its own, or the one that covers it";
            EXPECT_NE(fuzz::findFuzzTarget(spec.fuzz.coveredBy), nullptr);
            ASSERT_NE(spec.fuzz.coveredWhy, nullptr);
        }
    }
    // The Kineto importer, the last without one, is fuzzed now.
    EXPECT_NE(fuzz::findFuzzTarget("kineto_trace"), nullptr);
}

TEST(FileKinds, EveryEnumValueHasOneEntryAndAStableName)
{
    std::set<std::string> names;
    for (int k = 0; k <= static_cast<int>(io::FileKind::MsMemoryDetails); ++k) {
        const auto kind = static_cast<io::FileKind>(k);
        const auto* spec = io::FileKinds::find(kind);
        ASSERT_NE(spec, nullptr) << k;
        EXPECT_TRUE(names.insert(spec->name).second) << spec->name;
        io::FileKind back {};
        ASSERT_TRUE(io::fileKindFromName(spec->name, back));
        EXPECT_EQ(back, kind);
    }
}

// File names the detection recognised before the table, with the kind each was given, and names it refused.
TEST(FileKinds, NamesAreRecognisedAsBefore)
{
    using K = io::FileKind;
    const std::vector<std::pair<std::string, K>> known {
        { "profiler_info.json", K::ProfilerInfo },
        { "profiler_info_3.json", K::ProfilerInfo },
        { "profiler_metadata.json", K::ProfilerMetadata },
        { "step_trace_time.csv", K::StepTraceTime },
        { "kernel_details.csv", K::KernelDetails },
        { "op_statistic.csv", K::OpStatistic },
        { "api_statistic.csv", K::ApiStatistic },
        { "communication.json", K::Communication },
        { "communication_matrix.json", K::CommunicationMatrix },
        { "memory_record.csv", K::MemoryRecord },
        { "operator_memory.csv", K::OperatorMemory },
        { "npu_module_mem.csv", K::NpuModuleMem },
        { "trace_view.json", K::TraceView },
        { "ascend_pytorch_profiler.db", K::ProfilerDb },
        { "ascend_pytorch_profiler_12.db", K::ProfilerDb },
        { "ascend_mindspore_profiler_0.db", K::ProfilerDb },
        { "msprof_20240101.db", K::ProfilerDb },
        { "report_0.db", K::ProfilerDb },
        { "analysis.db", K::AnalysisDb },
        { "communication_analyzer.db", K::AnalysisDb },
        { "cluster_step_trace_time.csv", K::ClusterStepTrace },
        { "cluster_communication.json", K::ClusterCommunication },
        { "cluster_communication_matrix.json", K::ClusterCommunicationMatrix },
        { "cluster_analysis.db", K::ClusterAnalysisDb },
        { "communication_group.json", K::ClusterCommunicationGroup },
        { "step_trace_raw_7_detail_time.csv", K::MsStepTraceRaw },
        { "hccl_raw_7.csv", K::MsHcclRaw },
        { "flops_summary_7.json", K::MsFlopsSummary },
        { "flops_7.txt", K::MsOpFlops },
        { "flops_scope_7.json", K::MsFlopsScope },
        { "ascend_timeline_display_7.json", K::MsTimelineDisplay },
        { "timeline_display_7.json", K::MsTimelineDisplay },
        { "parallel_strategy_7.json", K::MsParallelStrategy },
        { "op_summary.csv", K::OpSummary },
        { "op_summary_20240101.csv", K::OpSummary },
        { "op_summary_0_1_2.csv", K::OpSummary },
        { "minddata_pipeline_raw_7.csv", K::MsPipelineRaw },
        { "pipeline_profiling_7.json", K::MsPipelineProfiling },
        { "minddata_cpu_utilization_7.json", K::MsMinddataCpu },
        { "device_queue_profiling_7.txt", K::MsDeviceQueue },
        { "memory_usage_summary_7.json", K::MsMemorySummary },
        { "memory_usage_details_7.json", K::MsMemoryDetails },
    };
    for (const auto& [name, kind] : known) {
        io::FileKind found {};
        ASSERT_TRUE(io::fileKindOf(name, found)) << name;
        EXPECT_EQ(found, kind) << name;
    }
    for (const std::string name : { "ascend_pytorch_profiler_.db", "ascend_pytorch_profiler_x.db", "msprof_.db",
             "msprof_1a.db", "report_x.db", "op_summary__1.csv", "op_summary_1_.csv", "op_summary_x.csv",
             "hccl_raw_.csv", "hccl_raw_a.csv", "timeline_display_.json", "step_trace_raw_1.csv", "trace_view.json.bak",
             "profiler_info.txt", "hccl.json", "info.json.0", "rank_0.nprank", "x.pt.trace.json", "flops_.txt",
             "flops_utilization_step_0.json", "flops_scope_x.json" }) {
        io::FileKind found {};
        EXPECT_FALSE(io::fileKindOf(name, found)) << name;
    }
}

namespace {

std::atomic<int> g_madeUpRuns { 0 };

// The made-up kind's importer: counts its runs and leaves an info issue, so the test sees the load call it.
bool importMadeUp(io::ImportContext& ctx)
{
    ++g_madeUpRuns;
    ctx.info(std::nullopt, TrText("made-up kind read"));
    return true;
}

constexpr auto kMadeUp = static_cast<io::FileKind>(900);

void addMadeUpKind()
{
    static const bool added = [] {
        io::FileKinds::add({ .kind = kMadeUp, .name = "made_up", .family = io::FileFamily::Npuscope,
            .format = io::FileFormat::Json, .names = { "made_up.json" }, .importer = &importMadeUp,
            .memoryWeight = 1000.0,
            .fuzz = { .target = "made_up", .fileName = "made_up.json", .seeds = "made_up.json" } });
        return true;
    }();
    (void)added;
}

} // namespace

TEST(FileKinds, AMadeUpKindIsDetectedEstimatedLoadedAndFuzzed)
{
    addMadeUpKind();
    ScratchDir dir;
    fs::copy_file(dataDir() / "msinsight_metadata_only" / "profiler_metadata.json", dir.path() / "profiler_metadata.json");
    const std::string content(1000, ' ');
    writeFile(dir.path() / "made_up.json", "{" + content + "}");

    // Detection plans it with the rank's other file.
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    const auto kinds = kindsOf(plan.ranks[0]);
    ASSERT_NE(std::find(kinds.begin(), kinds.end(), kMadeUp), kinds.end());

    // The memory estimate weighs it with its entry's weight.
    const uint64_t estimate = load::MemoryGuard::estimate(plan, false, io::kAllGroups);
    EXPECT_GE(estimate, 1000u * 1002u);

    // The load runs its importer and records the file as loaded under its name.
    const int before = g_madeUpRuns.load();
    const auto db = openPlan(plan);
    ASSERT_NE(db, nullptr);
    EXPECT_EQ(g_madeUpRuns.load(), before + 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank_file WHERE kind = 'made_up' AND status = 'loaded'"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE message = 'made-up kind read'"), 1);

    // The fuzz driver has a target for it that runs its importer.
    const auto* target = fuzz::findFuzzTarget("made_up");
    ASSERT_NE(target, nullptr);
    const std::string bytes = "{\"x\": 1}";
    target->run(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    EXPECT_EQ(g_madeUpRuns.load(), before + 2);

    // A second entry with the same value or name is refused.
    EXPECT_THROW(io::FileKinds::add({ .kind = kMadeUp, .name = "made_up_again" }), std::invalid_argument);
}

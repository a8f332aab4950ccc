// SPDX-License-Identifier: Apache-2.0
// A CANN msprof op_summary_*.csv fills the kernel table like kernel_details.csv (found in a folder of its own, in a
// PROF folder, or beside a kernel_details.csv that wins).
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/io/torch_npu/KernelDetailsImporter.h"
#include "npuscope/load/SourceDetails.h"
#include "npuscope/load/Loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace npuscope;
using namespace npuscope::test;

namespace {

const fs::path kOpSummaryDir = dataDir() / "msinsight_op_summary";

} // namespace


TEST(OpSummary, OpSummaryFolderPlansAKernelFileOfRankFromItsName)
{
    const auto plan = io::Detector::detect({ kOpSummaryDir.string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 1);
    EXPECT_EQ(plan.ranks[0].rankSource, "file_name");
    EXPECT_EQ(kindsOf(plan.ranks[0]), std::vector<io::FileKind> { io::FileKind::OpSummary });
    EXPECT_TRUE(io::isDeferredKind(io::FileKind::OpSummary));
    EXPECT_TRUE(hasIssue(plan, "device id", "info"));
    EXPECT_STREQ(io::fileKindName(io::FileKind::OpSummary), "op_summary");

    io::FileKind kind;
    for (const char* name :
        { "op_summary.csv", "op_summary_1.csv", "op_summary_0_1_1.csv", "op_summary_20240101120000.csv" }) {
        EXPECT_TRUE(io::fileKindOf(name, kind)) << name;
        EXPECT_EQ(kind, io::FileKind::OpSummary) << name;
    }
    for (const char* name :
        { "op_summary_.csv", "op_summary_a.csv", "op_summary1.csv", "op_summary_1_.csv", "op_summary_1.json" })
        EXPECT_FALSE(io::fileKindOf(name, kind)) << name;
}

TEST(OpSummary, OpSummaryFillsTheKernelTable)
{
    const auto plan = io::Detector::detect({ kOpSummaryDir.string() });
    // Deferred like kernel_details.csv: not part of the summary load.
    {
        auto db = openPlan(plan);
        ASSERT_TRUE(db);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel"), 0);
        EXPECT_EQ(text(*db, "SELECT status FROM rank_file WHERE kind = 'op_summary'"), "skipped");
    }
    auto db = openPlan(plan, true);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
    // The fixture's line 17 lacks one field (a cell after Task Duration is missing, so the rest is shifted): reported
    // and still imported.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'warning'"), 2);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'warning' AND line = 17 AND message LIKE "
                  "'row has 31 fields, header has 32%'"),
        1);
    EXPECT_EQ(text(*db, "SELECT status FROM rank_file WHERE kind = 'op_summary'"), "loaded");
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel WHERE rank_id = 1"), 21);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel WHERE accelerator_core = 'HCCL'"), 4);

    // Line 14: FlashAttentionScore, MIX_AIC, start 1695115378741567.2 µs, 6969.308 µs, wait 2.5678 µs, block dim 24.
    const std::string fa = "FROM kernel k JOIN string n ON n.id = k.name_id WHERE k.source_line = 14";
    EXPECT_EQ(text(*db, "SELECT n.value " + fa), "FlashAttentionScore");
    EXPECT_EQ(text(*db, "SELECT t.value FROM kernel k JOIN string t ON t.id = k.type_id WHERE k.source_line = 14"),
        "FlashAttentionScore");
    EXPECT_EQ(count(*db, "SELECT k.ts " + fa), 1695115378741567200);
    EXPECT_EQ(count(*db, "SELECT k.dur " + fa), 6969308);
    EXPECT_EQ(count(*db, "SELECT k.wait_ns " + fa), 2568);
    EXPECT_EQ(count(*db, "SELECT k.block_dim " + fa), 24);
    EXPECT_EQ(count(*db, "SELECT k.step " + fa), 2);
    EXPECT_EQ(text(*db, "SELECT k.accelerator_core " + fa), "MIX_AIC");

    // Line 2: ZerosLike with its shapes, stream and task ids, PMU and format columns in pmu_json.
    const std::string zeros = "FROM kernel k WHERE k.source_line = 2";
    EXPECT_EQ(count(*db, "SELECT k.ts " + zeros), 1695115378713661000);
    EXPECT_EQ(count(*db, "SELECT k.dur " + zeros), 496851); // 496.8508 µs, rounded to the ns
    EXPECT_EQ(count(*db, "SELECT k.task_id " + zeros), 2451);
    EXPECT_EQ(count(*db, "SELECT k.stream_id " + zeros), 16);
    EXPECT_EQ(count(*db, "SELECT k.model_id " + zeros), 4294967295);
    EXPECT_EQ(text(*db, "SELECT k.input_shapes " + zeros), "232138240");
    EXPECT_EQ(text(*db, "SELECT k.input_data_types " + zeros), "FLOAT");
    const auto zerosPmu = load::SourceDetails::kernelPmu(*db, count(*db, "SELECT k.rowid " + zeros));
    ASSERT_TRUE(zerosPmu);
    EXPECT_EQ(zerosPmu->at("Input Formats"), "FORMAT_ND");
    EXPECT_EQ(zerosPmu->at("aiv_total_cycles"), 43632970);

    // The HCCL row: N/A cells are NULL.
    const std::string hccl = "FROM kernel k JOIN string n ON n.id = k.name_id WHERE n.value = 'hcom_broadcast__483_0'";
    EXPECT_EQ(count(*db, "SELECT COUNT(*) " + hccl), 1);
    EXPECT_EQ(text(*db, "SELECT k.accelerator_core " + hccl), "HCCL");
    EXPECT_EQ(text(*db, "SELECT t.value FROM kernel k JOIN string t ON t.id = k.type_id WHERE k.source_line = 3"),
        "hcom_broadcast_");
    EXPECT_EQ(count(*db, "SELECT k.ts " + hccl), 1695115378715400200);
    EXPECT_EQ(count(*db, "SELECT k.dur " + hccl), 4975266);
    EXPECT_EQ(count(*db, "SELECT k.wait_ns " + hccl), 1242399);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) " + hccl
                      + " AND k.task_id IS NULL AND k.stream_id IS NULL AND k.mix_block_dim IS NULL AND "
                        "k.input_shapes IS NULL AND k.output_data_types IS NULL"),
        1);
    EXPECT_FALSE(load::SourceDetails::kernelPmu(*db, count(*db, "SELECT k.rowid " + hccl))); // all N/A
    EXPECT_EQ(count(*db, "SELECT k.block_dim " + hccl), 0);
}

TEST(OpSummary, OpSummaryColumnsMissingAreNamedWithTheirAlternatives)
{
    ScratchDir dir;
    writeFile(dir.path() / "op_summary_0.csv", "Op Name,OP Type,Task Type,Start Time(us)\nA,A,AI_CORE,1.0\n");
    auto db = openPlan(io::Detector::detect({ dir.path().string() }), true);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel"), 0);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error' AND line = 1 AND message LIKE "
                  "'missing required column \"Duration(us)\" or \"Task Duration(us)\" (found: \"Op Name\"%'"),
        1);
}

TEST(OpSummary, KernelDetailsWinsOverAnOpSummaryBesideIt)
{
    ScratchDir dir;
    const auto rank = dir.path() / "rank_2";
    fs::create_directories(rank);
    fs::copy_file(kOpSummaryDir / "op_summary_1.csv", rank / "op_summary_1.csv");
    writeFile(rank / "kernel_details.csv", "Name,Type,Start Time(us),Duration(us)\nMatMul,MatMul,1.0,2.0\n");
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 2); // the folder name, not the op_summary's device id
    EXPECT_EQ(kindsOf(plan.ranks[0]), std::vector<io::FileKind> { io::FileKind::KernelDetails });
    EXPECT_TRUE(hasIssue(plan, "ignored the CANN op_summary_1.csv", "info"));
}

TEST(OpSummary, ProfDirPlansTheOpSummaryOfItsDevice)
{
    ScratchDir dir;
    const auto prof = dir.path() / "PROF_000001_20230818142704322_ABCDEFGHIJKLMNOP";
    writeFile(prof / "device_3" / "info.json.3", R"({"devices": "3"})");
    fs::create_directories(prof / "device_3" / "summary");
    fs::copy_file(kOpSummaryDir / "op_summary_1.csv", prof / "device_3" / "summary" / "op_summary_3_1_1.csv");
    fs::create_directories(prof / "mindstudio_profiler_output");
    fs::copy_file(
        kOpSummaryDir / "op_summary_1.csv", prof / "mindstudio_profiler_output" / "op_summary_20230818142704.csv");
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 3);
    EXPECT_EQ(kindsOf(plan.ranks[0]), (std::vector<io::FileKind> { io::FileKind::CannInfo, io::FileKind::OpSummary }));
    EXPECT_EQ(fs::path(plan.ranks[0].files[1].path).filename(), "op_summary_3_1_1.csv");
    EXPECT_TRUE(hasIssue(plan, "own op_summary files were imported instead", "info"));

    // Newer layout: only mindstudio_profiler_output holds it; one device, so it is that device's.
    fs::remove_all(prof / "device_3" / "summary");
    const auto newer = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(newer.ranks.size(), 1u);
    ASSERT_EQ(kindsOf(newer.ranks[0]), (std::vector<io::FileKind> { io::FileKind::CannInfo, io::FileKind::OpSummary }));
    EXPECT_EQ(fs::path(newer.ranks[0].files[1].path).filename(), "op_summary_20230818142704.csv");

    // Two devices share that file: not split, not imported.
    writeFile(prof / "device_4" / "info.json.4", R"({"devices": "4"})");
    const auto two = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(two.ranks.size(), 2u);
    EXPECT_EQ(kindsOf(two.ranks[0]), std::vector<io::FileKind> { io::FileKind::CannInfo });
    EXPECT_TRUE(hasIssue(two, "not split by device", "info"));
}

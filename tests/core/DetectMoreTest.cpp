// SPDX-License-Identifier: Apache-2.0
// Folders that only held files npuscope did not plan: profiler_metadata.json alone (a facts-only rank with its
// parallel groups) and a CANN msprof op_summary_*.csv (the kernel table, like kernel_details.csv).
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

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

const fs::path kMetadataDir = dataDir() / "msinsight_metadata_only";
const fs::path kOpSummaryDir = dataDir() / "msinsight_op_summary";

} // namespace

TEST(DetectMore, MetadataOnlyFolderIsAFactsOnlyRank)
{
    const auto plan = io::Detector::detect({ kMetadataDir.string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.layout, io::LoadPlan::Layout::SingleRank);
    EXPECT_EQ(plan.ranks[0].rank, 0);
    EXPECT_EQ(plan.ranks[0].rankSource, "rank_id_field"); // distributed_args.rank
    EXPECT_EQ(kindsOf(plan.ranks[0]), std::vector<io::FileKind> { io::FileKind::ProfilerMetadata });
    EXPECT_TRUE(hasIssue(plan, "rank folder holds only profiler_metadata.json", "info"));
    EXPECT_TRUE(hasIssue(plan, "no step, communication or timeline data", "info"));
    EXPECT_FALSE(hasIssue(plan, "no profiler output found"));

    // The file given directly plans the same rank.
    const auto direct = io::Detector::detect({ (kMetadataDir / "profiler_metadata.json").string() });
    ASSERT_EQ(direct.ranks.size(), 1u);
    EXPECT_EQ(direct.ranks[0].rank, 0);
}

TEST(DetectMore, MetadataOnlyRankHasWorldSizeAndNamedGroups)
{
    auto db = openPlan(io::Detector::detect({ kMetadataDir.string() }));
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 1);
    EXPECT_EQ(count(*db, "SELECT world_size FROM rank WHERE rank_id = 0"), 8);
    EXPECT_EQ(text(*db, "SELECT value FROM rank_info WHERE rank_id = 0 AND key = 'distributed_args.world_size'"), "8");
    EXPECT_EQ(text(*db, "SELECT value FROM rank_info WHERE key = 'distributed_args.tensor_model_parallel_size'"), "2");
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel"), 0);
    // parallel_group_info: 21 raw group ids, 16 distinct names, all with their global ranks.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_group WHERE ranks_source = 'metadata'"), 21);
    EXPECT_EQ(count(*db, "SELECT COUNT(DISTINCT name) FROM comm_group"), 16);
    EXPECT_EQ(
        text(*db,
            "SELECT group_concat(global_rank) FROM (SELECT r.global_rank FROM comm_group g JOIN comm_group_rank r "
            "USING (group_hash) WHERE g.name = 'tp' ORDER BY r.local_rank)"),
        "0,1");
    EXPECT_EQ(text(*db, "SELECT raw_name FROM comm_group WHERE name = 'tp'"),
        "10.174.216.241%enp189s0f1_55000_0_1738895506630464");
    EXPECT_EQ(
        text(*db,
            "SELECT group_concat(global_rank) FROM (SELECT r.global_rank FROM comm_group g JOIN comm_group_rank r "
            "USING (group_hash) WHERE g.name = 'default_group' ORDER BY r.local_rank)"),
        "0,1,2,3,4,5,6,7");
    EXPECT_EQ(
        text(*db,
            "SELECT group_concat(global_rank) FROM (SELECT r.global_rank FROM comm_group g JOIN comm_group_rank r "
            "USING (group_hash) WHERE g.name = 'pp' ORDER BY r.local_rank)"),
        "0,4");
    EXPECT_GE(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'info' AND message LIKE "
                  "'%holds only profiler_metadata.json%'"),
        1);
}

TEST(DetectMore, MetadataRankComesFromDistributedArgs)
{
    ScratchDir dir;
    auto json = readAll(kMetadataDir / "profiler_metadata.json");
    const auto at = json.find("\"rank\": 0");
    ASSERT_NE(at, std::string::npos);
    json.replace(at, 9, "\"rank\": 5");
    writeFile(dir.path() / "meta" / "profiler_metadata.json", json);
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 5);
    EXPECT_EQ(plan.ranks[0].rankSource, "rank_id_field");

    // Without distributed_args.rank the usual rules apply (here: the folder name).
    ScratchDir other;
    writeFile(other.path() / "worker_rank_3" / "profiler_metadata.json", R"({"ENV_VARIABLES": {"HCCL_ALGO": ""}})");
    const auto byFolder = io::Detector::detect({ other.path().string() });
    ASSERT_EQ(byFolder.ranks.size(), 1u);
    EXPECT_EQ(byFolder.ranks[0].rank, 3);
    EXPECT_EQ(byFolder.ranks[0].rankSource, "folder_name");
}

TEST(DetectMore, OpSummaryFolderPlansAKernelFileOfRankFromItsName)
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

TEST(DetectMore, OpSummaryFillsTheKernelTable)
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

TEST(DetectMore, OpSummaryColumnsMissingAreNamedWithTheirAlternatives)
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

TEST(DetectMore, KernelDetailsWinsOverAnOpSummaryBesideIt)
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

TEST(DetectMore, ProfDirPlansTheOpSummaryOfItsDevice)
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

TEST(DetectMore, CliSummaryLoadsBothFolders)
{
    for (const auto& dir : { kMetadataDir, kOpSummaryDir }) {
        const auto run = runCli("summary --json --no-cache '" + dir.string() + "'");
        EXPECT_EQ(run.status, 0) << dir << "\n" << run.out;
        EXPECT_NE(run.out.find("npuscope.summary/1"), std::string::npos) << run.out;
    }
    const auto meta = runCli("summary --json --no-cache '" + kMetadataDir.string() + "'");
    EXPECT_NE(meta.out.find("\"tp\""), std::string::npos) << meta.out;
    EXPECT_NE(meta.out.find("default_group"), std::string::npos) << meta.out;
}

// A folder name with the characters a SQLite URI gives a meaning to ('#', '?', '%') still opens the exports in it
// (read-only, immutable) and nothing else.
TEST(DetectMore, DbExportsInAFolderWithUriCharacters)
{
    npuscope::test::ScratchDir dir;
    const fs::path odd = dir.path() / "run#1 ?x%41";
    fs::create_directories(odd);
    for (const char* name : { "analysis.db", "ascend_pytorch_profiler_0.db" })
        fs::copy_file(dataDir() / "torch_npu_2rank_db" / "level1" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / name,
            odd / name);
    auto db = load::Loader::load(io::Detector::detect({ odd.string() }));
    ASSERT_TRUE(db);
    EXPECT_EQ(db->scalarInt("SELECT COUNT(*) FROM step_trace").value_or(-1), 1);
    EXPECT_EQ(db->scalarInt("SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'").value_or(-1), 0);
    EXPECT_GT(db->scalarInt("SELECT COUNT(*) FROM comm_op").value_or(-1), 0);
    // Nothing was written next to the exports.
    int files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(odd))
        ++files;
    EXPECT_EQ(files, 2);
}

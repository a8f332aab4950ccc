// SPDX-License-Identifier: Apache-2.0
// A folder holding only torch_npu's profiler_metadata.json is a facts-only rank with its parallel groups; the CLI
// summarises it (and an op_summary-only folder).
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

TEST(MetadataOnlyRank, MetadataOnlyFolderIsAFactsOnlyRank)
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

TEST(MetadataOnlyRank, MetadataOnlyRankHasWorldSizeAndNamedGroups)
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

TEST(MetadataOnlyRank, MetadataRankComesFromDistributedArgs)
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

TEST(MetadataOnlyRank, CliSummaryLoadsBothFolders)
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


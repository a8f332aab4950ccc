// SPDX-License-Identifier: Apache-2.0
// Input fixes on real data: a cluster summary beside per-rank folders without summary files, hccl_raw local link ranks
// and SDMA bandwidth, db-export timeline communication tasks.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::ScratchDir;
using npuscope::test::count;
using npuscope::test::openModel;

namespace {

double real(model::Database& db, const std::string& sql)
{
    auto st = db.prepare(sql);
    return st.step() && !st.isNull(0) ? st.real(0) : -1.0;
}

fs::path flat() { return dataDir() / "mindspore_flat_profiler" / "cluster_propose"; }
fs::path r13() { return dataDir() / "mindinsight_r13_job" / "run"; }

} // namespace

// msprof_analyze_test_resources: cluster_analysis_output (8 ranks) and folders holding only kernel_details.csv /
// trace_view.json. The summary stays; the folders' files join the summary's ranks.
TEST(InputFixes, SummaryKeptBesideRankFoldersWithoutSummaryFiles)
{
    ScratchDir dir;
    fs::create_directories(dir.path() / "resource" / "advisor");
    fs::copy(dataDir() / "msprof_cluster_analysis" / "text_no_step",
        dir.path() / "resource" / "advisor" / "cluster_analysis_output", fs::copy_options::recursive);
    fs::create_directories(dir.path() / "ut" / "compute_advice" / "data");
    fs::copy_file(dataDir() / "msprof_cluster_analysis" / "advisor_kernels" / "kernel_details.csv",
        dir.path() / "ut" / "compute_advice" / "data" / "kernel_details.csv");
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 8u);
    EXPECT_TRUE(plan.ranks[0].summaryReplaced.empty());
    bool kernels = false;
    for (const auto& f : plan.ranks[0].files)
        kernels = kernels || f.kind == io::FileKind::KernelDetails;
    EXPECT_TRUE(kernels);
    auto db = openModel({ dir.path().string() }, true);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 8);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 8);
    EXPECT_EQ(count(*db, "SELECT computing_ns FROM step_trace WHERE rank_id = 0"), 80309687); // 80309.687 µs
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM kernel WHERE rank_id = 0"), 0);
}

// msinsight_server_test_data layout: the 16-rank summary with two per-rank folders of the same run (ranks 0 and 1,
// own step_trace_time / communication files) and an unrelated trace: 16 ranks, 0 and 1 from their own files.
TEST(InputFixes, SummaryRanksWithoutOwnDataStay)
{
    ScratchDir dir;
    fs::copy(dataDir() / "msprof_cluster_analysis" / "text", dir.path() / "cluster_analysis_output",
        fs::copy_options::recursive);
    fs::copy(dataDir() / "torch_npu_2023_2rank", dir.path(), fs::copy_options::recursive);
    fs::create_directories(dir.path() / "fuzz_test_data");
    fs::copy_file(dataDir() / "msinsight_trace_tiny" / "trace_view_tiny.json",
        dir.path() / "fuzz_test_data" / "trace_view_tiny.json");
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 16u);
    EXPECT_EQ(plan.ranks[0].summaryReplaced, (std::set<int64_t> { 0, 1 }));
    auto db = openModel({ dir.path().string() });
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 16);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 16);
}

// hccl_raw link keys are group-local: rank 2 writes "1-0" and "0-0". With ascend_cluster_analyse_pipeline-parallel_2_4
// (2 stages of 4 ranks -> groups {0,1}, {2,3}) they are 3 -> 2 and 2 -> 2, never 1 -> 0.
TEST(InputFixes, HcclRawLocalRanksMappedByStageLayout)
{
    auto db = openModel({ flat().string() });
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link WHERE src IS NULL OR dst IS NULL"), 0);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM comm_link WHERE rank_id = 2 AND local_src = 1 AND local_dst = 0 AND NOT (src = 3 "
                  "AND dst = 2)"),
        0);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM comm_link WHERE rank_id = 2 AND src = 3 AND dst = 2"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link WHERE rank_id IN (2, 3) AND (src < 2 OR dst < 2)"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE message LIKE '%global ranks inferred%'"), 4);
    // 0 -> 1 is rank 1's own "0-1" step links only: Σsize / Σtime = 6659.584 KB / 1.31738 ms.
    EXPECT_NEAR(real(*db,
                    "SELECT SUM(size_mb) / (SUM(time_ns) / 1e6) FROM comm_link WHERE slot = 'total' AND src = 0 AND "
                    "dst = 1"),
        5.0552, 1e-3);

    // The r1.3 job layout has the same files but no stage layout: links to other ranks keep no global ranks.
    auto job = openModel({ r13().string() });
    ASSERT_TRUE(job);
    EXPECT_EQ(count(*job, "SELECT COUNT(*) FROM comm_link WHERE src IS NOT NULL AND src <> dst"), 0);
    EXPECT_GT(count(*job, "SELECT COUNT(*) FROM comm_link WHERE rank_id = 2 AND src = 2 AND dst = 2"), 0);
    EXPECT_EQ(count(*job,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'warning' AND message LIKE '%no global src/dst%'"),
        4);
}

// hccl_raw SDMA bandwidth: comm_bandwidth rows per op and transport from the op's link_info (self-links and LOCAL
// left out). Rank 0: 276.416512 MB in 13.20416 ms = 20.93 GB/s, the same in both layouts of the same files.
TEST(InputFixes, HcclRawSdmaBandwidth)
{
    for (const auto& path : { flat(), r13() }) {
        auto db = openModel({ path.string() });
        ASSERT_TRUE(db);
        const std::string where = " FROM comm_bandwidth b JOIN comm_op o ON o.id = b.comm_op_id WHERE o.rank_id = 0 "
                                  "AND o.is_total = 0 AND b.transport = 'SDMA'";
        EXPECT_NEAR(real(*db, "SELECT SUM(b.size_mb)" + where), 276.416512, 1e-6) << path;
        EXPECT_EQ(count(*db, "SELECT SUM(b.transit_ns)" + where), 13204160) << path;
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_bandwidth WHERE transport = 'LOCAL'"), 0);
    }
}

// db export Level1: TASK rows typed AI_CORE without task info whose connectionId is a COMMUNICATION_OP's (88.75 ms
// around hcom_allReduce__210_0_1) are not drawn on Stream 4; the op stays on HCCL "Group 0 Communication".
TEST(InputFixes, DbTimelineHasNoFakeAiCoreTask)
{
    auto db = openModel({ (dataDir() / "torch_npu_2rank_db" / "level1").string() }, true);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM slice s JOIN string n ON n.id = s.name_id WHERE n.value = 'AI_CORE' AND "
                  "s.dur > 1000000"),
        0);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM slice s JOIN string n ON n.id = s.name_id JOIN thread t ON t.rank_id = s.rank_id "
                  "AND t.pid = s.pid AND t.tid = s.tid WHERE s.rank_id = 0 AND n.value = 'hcom_allReduce__210_0_1' AND "
                  "t.name = 'Group 0 Communication'"),
        1);
}

// db export Level0: planeId 4294967295 (unknown) gives no plane row (it became "Plane 98" by clamping).
TEST(InputFixes, DbTimelineUnknownPlaneHasNoRow)
{
    auto db = openModel({ (dataDir() / "torch_npu_2rank_db" / "level0").string() }, true);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM thread WHERE name LIKE '%Plane%'"), 0);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM thread WHERE name = 'Group 0 Communication'"), 0);
}

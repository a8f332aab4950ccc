// SPDX-License-Identifier: Apache-2.0
// msprof-analyze cluster_analysis_output (text and cluster_analysis.db) as a summary-only cluster.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/StepQuery.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::ScratchDir;
using npuscope::test::count;
using npuscope::test::openModel;

namespace {

fs::path caseDir(const char* sub) { return dataDir() / "msprof_cluster_analysis" / sub; }


} // namespace

TEST(ClusterAnalysis, TextPlanTakesRanksFromTheFiles)
{
    const auto plan = io::Detector::detect({ caseDir("text").string() });
    ASSERT_EQ(plan.ranks.size(), 16u); // communication_group.json names 0..15; the step csv 0..15
    EXPECT_EQ(plan.layout, io::LoadPlan::Layout::Cluster);
    EXPECT_EQ(plan.ranks.front().rankSource, "cluster_analysis");
    EXPECT_EQ(plan.ranks.front().files.size(), 4u); // the step csv, the two communication files, communication_group
    for (size_t i = 1; i < plan.ranks.size(); ++i)
        EXPECT_TRUE(plan.ranks[i].files.empty());
}

TEST(ClusterAnalysis, TextStepsAndMatrixEqualThePerRankFolders)
{
    auto cluster = openModel({ caseDir("text").string() });
    auto ranks = openModel({ (dataDir() / "torch_npu_2023_2rank").string() });
    ASSERT_TRUE(cluster && ranks);
    EXPECT_EQ(count(*cluster, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
    EXPECT_EQ(count(*cluster, "SELECT COUNT(*) FROM rank"), 16);
    EXPECT_EQ(count(*cluster, "SELECT COUNT(*) FROM step_trace"), 16); // 16 rank rows; 2 stage rows elsewhere
    // Ranks 0 and 1 are the same run as tests/data/torch_npu_2023_2rank: the step table is equal, value for value.
    const auto own = query::StepQuery::breakdown(*ranks);
    const auto summary = query::StepQuery::breakdown(*cluster);
    ASSERT_EQ(own.size(), 2u);
    for (const auto& o : own) {
        const auto it = std::find_if(summary.begin(), summary.end(), [&](const auto& s) { return s.rank == o.rank; });
        ASSERT_NE(it, summary.end());
        EXPECT_EQ(it->step, o.step);
        for (size_t c = 0; c < query::kStepColumnCount; ++c)
            EXPECT_EQ(it->values[c], o.values[c]) << "rank " << o.rank << " column " << c;
    }
    // Matrix: every per-op link the summary holds for ranks 0/1 equals the link npuscope derives from their own files.
    auto st = cluster->prepare(
        "SELECT step, matrix_op, src, dst, transport, time_ns, size_mb FROM comm_link WHERE rank_id IN (0, 1) "
        "AND matrix_op <> 'Total Op Info'");
    int compared = 0;
    while (st.step()) {
        auto ownLink
            = ranks->prepare("SELECT transport, time_ns, size_mb FROM comm_link WHERE step = ?1 AND matrix_op = ?2 "
                             "AND src = ?3 AND dst = ?4 AND rank_id = ?3");
        ownLink.bind(1, st.int64(0)).bind(2, st.text(1)).bind(3, st.int64(2)).bind(4, st.int64(3));
        ASSERT_TRUE(ownLink.step()) << st.text(1) << " " << st.int64(2) << "-" << st.int64(3);
        EXPECT_EQ(ownLink.text(0), st.text(4));
        EXPECT_EQ(ownLink.int64(1), st.int64(5));
        EXPECT_DOUBLE_EQ(ownLink.real(2), st.real(6));
        ++compared;
    }
    // The per-rank "Total Op Info" links carry no group, so npuscope has no global ranks for them: not compared.
    EXPECT_EQ(compared, 6);
    // Links are global as written: hcom_send 0 -> 8 over RDMA.
    EXPECT_EQ(
        count(*cluster, "SELECT time_ns FROM comm_link WHERE matrix_op = 'hcom_send__822_0' AND src = 0 AND dst = 8"),
        863815); // 0.86381540625 ms
    EXPECT_EQ(count(*cluster, "SELECT COUNT(*) FROM comm_link WHERE src IS NULL OR dst IS NULL"), 0);
    // Communication ops per rank from cluster_communication.json, equal to the rank's own communication.json.
    const auto ops = query::CommQuery::ops(*cluster, { 2, std::nullopt, 1, false });
    ASSERT_FALSE(ops.empty());
    const auto ownOps = query::CommQuery::ops(*ranks, { 2, std::nullopt, 1, false });
    for (const auto& o : ops) {
        const auto it = std::find_if(ownOps.begin(), ownOps.end(), [&](const auto& x) { return x.opKey == o.opKey; });
        ASSERT_NE(it, ownOps.end()) << o.opKey;
        EXPECT_EQ(it->startNs, o.startNs) << o.opKey;
        EXPECT_EQ(it->elapseNs, o.elapseNs) << o.opKey;
        EXPECT_EQ(it->waitNs, o.waitNs) << o.opKey;
    }
}

TEST(ClusterAnalysis, EmptyStepColumnIsNull)
{
    auto db = openModel({ caseDir("text_no_step").string() });
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 8);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace WHERE step IS NULL"), 8);
    EXPECT_EQ(count(*db, "SELECT computing_ns FROM step_trace WHERE rank_id = 0"), 80309687); // 80309.68717187493 µs
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM comm_op"), 0);
}

TEST(ClusterAnalysis, DbMatchesItsTables)
{
    auto db = openModel({ caseDir("db").string() });
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 8);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 8);
    EXPECT_EQ(count(*db, "SELECT computing_ns FROM step_trace WHERE rank_id = 0 AND step = 1"), 179587578);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op"), 344);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op WHERE is_total = 1"), 8);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_bandwidth"), 666);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_packet"), 394);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link"), 1087);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link WHERE src IS NULL OR dst IS NULL"), 0);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM comm_link WHERE matrix_op = 'broadcast-top1' AND src = 3 AND dst = 5 AND "
                  "time_ns = 1140 AND op_name = 'hcom_broadcast__535_20_1'"),
        1);
    EXPECT_EQ(count(*db, "SELECT elapse_ns FROM comm_op WHERE rank_id = 0 AND is_total = 0 ORDER BY start_ns LIMIT 1"),
        166197002); // 166.1970024375 ms
}

TEST(ClusterAnalysis, RankFoldersInTheSameInputWin)
{
    ScratchDir dir;
    fs::copy(dataDir() / "torch_npu_2023_2rank", dir.path(), fs::copy_options::recursive);
    fs::copy(caseDir("text"), dir.path() / "cluster_analysis_output", fs::copy_options::recursive);
    const auto plan = io::Detector::detect({ dir.path().string() });
    // The rank folders (with their own step_trace_time / communication files) win for their ranks 0 and 1 only; the
    // summary's other 14 ranks stay (before, the whole summary was dropped, losing them).
    ASSERT_EQ(plan.ranks.size(), 16u);
    EXPECT_EQ(plan.ranks[0].summaryReplaced, (std::set<int64_t> { 0, 1 }));
    EXPECT_EQ(plan.ranks[0].rankSource, "file_name");
    EXPECT_EQ(plan.ranks[2].rankSource, "cluster_analysis");
    bool said = false;
    for (const auto& i : plan.issues)
        said = said || i.message.find("of rank 0, 1 come from their own per-rank folders") != std::string::npos;
    EXPECT_TRUE(said);
    auto db = load::Loader::load(plan, load::LoadOptions {});
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 16);
    // One step row per rank: ranks 0 and 1 from their own step_trace_time.csv, not twice.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 16);
    // Rank 0's ops and links are those of its own files only (the summary's rows of rank 0 are skipped).
    auto own = openModel({ (dataDir() / "torch_npu_2023_2rank").string() });
    ASSERT_TRUE(own);
    for (const char* table : { "comm_op", "comm_link" }) {
        const std::string sql = std::string("SELECT COUNT(*) FROM ") + table + " WHERE rank_id = 0";
        EXPECT_EQ(count(*db, sql), count(*own, sql)) << table;
    }
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace WHERE rank_id = 5"), 1); // a summary-only rank
}

// msprof_analyze_test_resources: cluster_analysis_output (8 ranks) and folders holding only kernel_details.csv /
// trace_view.json. The summary stays; the folders' files join the summary's ranks.
TEST(ClusterAnalysis, SummaryKeptBesideRankFoldersWithoutSummaryFiles)
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
TEST(ClusterAnalysis, SummaryRanksWithoutOwnDataStay)
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

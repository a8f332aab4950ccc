// SPDX-License-Identifier: Apache-2.0
// Old MindSpore flat profiler/ folders and the MindInsight <= r1.3 cluster_profiler job.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/SummaryReport.h"

#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <sstream>
#include <cstdio>
#include <sys/wait.h>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::count;
using npuscope::test::openFolder;
using npuscope::test::openModel;
using npuscope::test::real;

namespace {


std::string runCli(const std::string& args, int& status)
{
    auto r = npuscope::test::runCli(args, true);
    status = r.status;
    return r.out;
}

fs::path job() { return dataDir() / "mindinsight_r13_job" / "run"; }
fs::path flat() { return dataDir() / "mindspore_flat_profiler" / "cluster_propose"; }

} // namespace

TEST(MindInsightJob, RanksAndHostsFromTheRankTable)
{
    const auto plan = io::Detector::detect({ job().string() });
    ASSERT_EQ(plan.ranks.size(), 4u);
    for (size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(plan.ranks[i].rank, static_cast<int64_t>(i));
        EXPECT_EQ(plan.ranks[i].rankSource, "rank_table");
    }
    auto db = openFolder(job());
    ASSERT_TRUE(db);
    // hccl_raw link keys are group-local and this layout has no stage facts (no ascend_cluster_analyse_*): one
    // warning per hccl_raw file that its links to other ranks have no global src/dst (HcclRaw.HcclRawLocalRanksMappedByStageLayout).
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity <> 'info'"), 4);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity <> 'info' AND message NOT LIKE '%no global src/dst%'"),
        0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank WHERE host = '1' AND device_id = rank_id"), 4);
    // The real host IP (hccl.json server_id) appears nowhere in the model.
    for (const char* sql : { "SELECT COUNT(*) FROM rank WHERE host LIKE '%10.0.0.1%' OR path LIKE '%10.0.0.1%'",
             "SELECT COUNT(*) FROM rank_info WHERE value LIKE '%10.0.0.1%' OR key LIKE '%10.0.0.1%'",
             "SELECT COUNT(*) FROM parse_issue WHERE message LIKE '%10.0.0.1%' OR file LIKE '%10.0.0.1%'",
             "SELECT COUNT(*) FROM string WHERE value LIKE '%10.0.0.1%'" })
        EXPECT_EQ(count(*db, sql), 0) << sql;
}

TEST(MindInsightJob, StepTraceRawTicksAndAverageRow)
{
    auto db = openFolder(job());
    ASSERT_TRUE(db);
    // 5 steps per rank; the "-" average row is not a step.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 20);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace WHERE step IS NULL"), 0);
    // rank 0, step 5: total 17870916, iteration_interval 89572, fp_and_bp 17687359, tail 93985 (10 ns ticks).
    auto st = db->prepare(
        "SELECT total_ns, iteration_interval_ns, fp_bp_ns, tail_ns FROM step_trace WHERE rank_id = 0 AND step = 5");
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.int64(0), 178709160);
    EXPECT_EQ(st.int64(1), 895720);
    EXPECT_EQ(st.int64(2), 176873590);
    EXPECT_EQ(st.int64(3), 939850);
    // The file's "-" row (total 18030115 ticks) is kept as written; it is NOT the mean of the 5 listed steps
    // (17916840.6 ticks), so it is not recomputed either.
    EXPECT_EQ(count(*db, "SELECT value FROM rank_info WHERE rank_id = 0 AND key = 'step_trace_raw.average.total_ns'"),
        180301150);
    EXPECT_EQ(count(*db, "SELECT AVG(total_ns) FROM step_trace WHERE rank_id = 0"), 179168406);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM step_trace WHERE total_ns <> iteration_interval_ns + fp_bp_ns + "
                  "tail_ns"),
        0);
    // Figures this generation does not have stay NULL (the views show "—").
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace WHERE computing_ns IS NOT NULL OR free_ns IS NOT NULL"), 0);
    // No secret in CLI output either, text or JSON; both exit 0.
    for (const char* args : { "summary --no-cache ", "summary --no-cache --json " }) {
        int status = -1;
        const auto out = runCli(args + std::string("'") + job().string() + "'", status);
        EXPECT_EQ(status, 0) << args;
        EXPECT_EQ(out.find("10.0.0.1"), std::string::npos) << args;
        EXPECT_EQ(out.find("192.168."), std::string::npos) << args;
    }
}

TEST(MindSporeFlat, HcclRawOpsLinksAndCosts)
{
    auto db = openFolder(flat());
    ASSERT_TRUE(db);
    // Per rank: one Total + one op row per communication_operator_cost entry and step (python count of the files).
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op WHERE rank_id = 0"), 506);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op WHERE rank_id = 2"), 502);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link WHERE rank_id = 0"), 949);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link WHERE rank_id = 3"), 988);
    // Step 1 of rank 0: communication_cost 2.60018 ms, wait_cost 270.25056 ms.
    EXPECT_EQ(count(*db, "SELECT elapse_ns FROM comm_op WHERE rank_id = 0 AND step = 1 AND is_total = 1"), 2600180);
    EXPECT_EQ(count(*db, "SELECT wait_ns FROM comm_op WHERE rank_id = 0 AND step = 1 AND is_total = 1"), 270250560);
    // "stream_41_0_AllReduce-op4582": ["1", 0.00322, 0.01035, {"1-0": {"SDMA": [0.00237, 4.096, 1728270.04]}}]
    auto op = db->prepare("SELECT elapse_ns, wait_ns, op_type, kind FROM comm_op WHERE rank_id = 0 AND step = 1 AND "
                          "op_key = 'stream_41_0_AllReduce-op4582'");
    ASSERT_TRUE(op.step());
    EXPECT_EQ(op.int64(0), 3220);
    EXPECT_EQ(op.int64(1), 10350);
    EXPECT_EQ(op.text(2), "AllReduce");
    EXPECT_EQ(op.text(3), "collective");
    auto link = db->prepare("SELECT time_ns, size_mb, bandwidth_gbps, transport FROM comm_link WHERE rank_id = 0 AND "
                            "step = 1 AND matrix_op = 'stream_41_0_AllReduce-op4582' AND src = 1 AND dst = 0");
    ASSERT_TRUE(link.step());
    EXPECT_EQ(link.int64(0), 2370);
    EXPECT_DOUBLE_EQ(link.real(1), 0.004096);
    EXPECT_NEAR(link.real(2), 1.72827, 1e-5);
    EXPECT_EQ(link.text(3), "SDMA");
    // Step links: bandwidth recomputed as size / time (52706.816 KB in 2.52091 ms), not the file's summed value.
    auto total = db->prepare("SELECT bandwidth_gbps FROM comm_link WHERE rank_id = 0 AND step = 1 AND matrix_op = "
                             "'Total Op Info' AND src = 1 AND dst = 0");
    ASSERT_TRUE(total.step());
    EXPECT_NEAR(total.real(0), 52706.816 / 2.52091 / 1.0e3, 1e-9);
}

TEST(MindSporeFlat, RanksFromFileNamesAndBreakdownFromClusterAnalyse)
{
    const auto plan = io::Detector::detect({ flat().string() });
    ASSERT_EQ(plan.ranks.size(), 4u);
    EXPECT_EQ(plan.ranks[3].rankSource, "file_name");
    auto db = openFolder(flat());
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity <> 'info'"), 0);
    const auto rows = query::StepQuery::breakdown(*db);
    ASSERT_EQ(rows.size(), 20u);
    using C = query::StepColumn;
    // ascend_cluster_analyse_pipeline-parallel_2_4_0.csv row 1: 13.8202,164.476,121.8989,56.3973,108.0787 (ms)
    EXPECT_EQ(rows[0].rank, 0);
    EXPECT_EQ(rows[0].step, 1);
    EXPECT_EQ(rows[0].value(C::Computing), 13820200);
    EXPECT_EQ(rows[0].value(C::CommunicationNotOverlapped), 164476000);
    EXPECT_EQ(rows[0].value(C::Stage), 121898900);
    EXPECT_EQ(rows[0].value(C::Bubble), 56397300);
    EXPECT_FALSE(rows[0].value(C::Overlapped).has_value());
    EXPECT_FALSE(rows[0].value(C::Free).has_value());
    EXPECT_EQ(
        count(*db,
            "SELECT communication_not_overlapped_exclude_receive_ns FROM step_trace WHERE rank_id = 0 AND step = 1"),
        108078700);
    auto flops = db->prepare("SELECT value FROM rank_info WHERE rank_id = 0 AND key = 'flops_summary.FLOPs'");
    ASSERT_TRUE(flops.step());
    EXPECT_EQ(flops.text(0), "107146.763");
}

TEST(MindSporeFlat, FixturesAndTheOlderColumnOrder)
{
    auto tiny = openFolder(dataDir() / "mindspore_flat_profiler" / "tiny_fixture");
    ASSERT_TRUE(tiny);
    EXPECT_EQ(count(*tiny, "SELECT COUNT(*) FROM step_trace"), 1); // "0,..." rows and the blank line are not steps
    EXPECT_EQ(count(*tiny, "SELECT fp_bp_ns FROM step_trace WHERE rank_id = 1 AND step = 1"), 23668080);
    auto old = openFolder(dataDir() / "mindspore_flat_profiler" / "old_column_order");
    ASSERT_TRUE(old);
    EXPECT_EQ(count(*old, "SELECT COUNT(*) FROM step_trace"), 20);
    EXPECT_EQ(count(*old, "SELECT tail_ns FROM step_trace WHERE step = 1"), 23001030);
    EXPECT_EQ(count(*old, "SELECT COUNT(*) FROM parse_issue WHERE severity <> 'info'"), 0);
}

TEST(MindSporeFlat, PerOpTriplesInBothColumnOrders)
{
    // Newer order "<op>,<op>_start_point,<op>_end_point": 97 triples x 5 steps in step_trace_raw_0.
    auto db = openFolder(flat());
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace_op WHERE rank_id = 0"), 485);
    auto st = db->prepare("SELECT stream_id, op_type, start_syscnt_ns, end_syscnt_ns, dur FROM step_trace_op WHERE "
                          "rank_id = 0 AND step = 1 AND column_name = 'stream_48_0_Receive-op663'");
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.int64(0), 48);
    EXPECT_EQ(st.text(1), "Receive");
    EXPECT_EQ(st.int64(2), 11624118165660); // 1162411816566 ticks
    EXPECT_EQ(st.int64(3), 11624168273330);
    EXPECT_EQ(st.int64(4), 50107670); // 5010767 ticks
    // Older order "<op>_start_point,<op>_end_point,<op>": 4 parallel-stream triples x 20 steps.
    auto old = openFolder(dataDir() / "mindspore_flat_profiler" / "old_column_order");
    ASSERT_TRUE(old);
    EXPECT_EQ(count(*old, "SELECT COUNT(*) FROM step_trace_op"), 80);
    auto o = old->prepare("SELECT stream_id, op_type, start_syscnt_ns, end_syscnt_ns, dur FROM step_trace_op WHERE "
                          "step = 1 AND column_name = 'stream_10_parallel_0'");
    ASSERT_TRUE(o.step());
    EXPECT_EQ(o.int64(0), 10);
    EXPECT_TRUE(o.isNull(1));
    EXPECT_EQ(o.int64(2), 450000426790);
    EXPECT_EQ(o.int64(3), 450000602750);
    EXPECT_EQ(o.int64(4), 175960);
    EXPECT_EQ(count(*old, "SELECT COUNT(*) FROM step_trace_op WHERE end_syscnt_ns - start_syscnt_ns <> dur"), 0);
}

TEST(MindInsightJob, StepQueryCarriesTheIterationTraceColumns)
{
    auto db = openFolder(job());
    ASSERT_TRUE(db);
    using C = query::StepColumn;
    const auto rows = query::StepQuery::breakdown(*db);
    ASSERT_EQ(rows.size(), 20u);
    // step_trace_raw_0_detail_time.csv step 5: total 17870916, iteration_interval 89572, fp_and_bp 17687359,
    // tail 93985 (10 ns ticks).
    const auto& r = rows[4];
    EXPECT_EQ(r.rank, 0);
    EXPECT_EQ(r.step, 5);
    EXPECT_EQ(r.value(C::Total), 178709160);
    EXPECT_EQ(r.value(C::IterationInterval), 895720);
    EXPECT_EQ(r.value(C::FpBp), 176873590);
    EXPECT_EQ(r.value(C::Tail), 939850);
    // step_trace_raw_3_detail_time.csv step 1: 237613245, 0, 236844348, 768897.
    EXPECT_EQ(rows[15].rank, 3);
    EXPECT_EQ(rows[15].step, 1);
    EXPECT_EQ(rows[15].value(C::Total), 2376132450);
    EXPECT_EQ(rows[15].value(C::IterationInterval), 0);
    EXPECT_EQ(rows[15].value(C::FpBp), 2368443480);
    EXPECT_EQ(rows[15].value(C::Tail), 7688970);
    // The new-generation columns are absent, not 0.
    for (auto c :
        { C::Computing, C::CommunicationNotOverlapped, C::Overlapped, C::Communication, C::Free, C::Preparing })
        EXPECT_FALSE(r.value(c).has_value()) << query::stepColumnTitle(c);

    // Per-rank means over the 5 listed steps (not the file's "-" row).
    const auto averaged = query::StepQuery::averaged(*db);
    ASSERT_EQ(averaged.size(), 4u);
    EXPECT_EQ(averaged[0].value(C::Total), 179168406);
    EXPECT_EQ(averaged[0].stepCount, 5);

    // The split falls back to the iteration trace: interval + fp+bp + tail = total.
    const auto split = query::splitOf(r);
    EXPECT_TRUE(split.iterationTrace);
    EXPECT_FALSE(split.hasPreparing);
    EXPECT_EQ(split.iterationInterval, 895720);
    EXPECT_EQ(split.fpBp, 176873590);
    EXPECT_EQ(split.tail, 939850);
    EXPECT_EQ(split.total(), 178709160);
    EXPECT_EQ(split.computingNotOverlapped + split.overlapped + split.communicationNotOverlapped + split.free, 0);

    const auto stats = query::clusterStats(averaged);
    EXPECT_EQ(stats[static_cast<size_t>(C::Total)].count, 4);
    EXPECT_EQ(stats[static_cast<size_t>(C::Computing)].count, 0);
}

TEST(MindInsightJob, SummaryJsonHasIterationTraceAndHosts)
{
    auto db = openFolder(job());
    ASSERT_TRUE(db);
    const auto doc = query::SummaryReport::json(*db);
    ASSERT_EQ(doc["steps"].size(), 20u);
    const auto& s = doc["steps"][4];
    EXPECT_EQ(s["rank"], 0);
    EXPECT_EQ(s["step"], 5);
    EXPECT_DOUBLE_EQ(s["total_us"].get<double>(), 178709.16);
    EXPECT_DOUBLE_EQ(s["iteration_interval_us"].get<double>(), 895.72);
    EXPECT_DOUBLE_EQ(s["fp_bp_us"].get<double>(), 176873.59);
    EXPECT_DOUBLE_EQ(s["tail_us"].get<double>(), 939.85);
    EXPECT_TRUE(s["computing_us"].is_null());
    EXPECT_TRUE(s["preparing_us"].is_null());
    // Hosts by mapping id by default; the IP only when asked for.
    ASSERT_EQ(doc["ranks"].size(), 4u);
    for (const auto& r : doc["ranks"])
        EXPECT_EQ(r["host"], "1");
    EXPECT_EQ(doc.dump().find("10.0.0.1"), std::string::npos);
    const auto withIps = query::SummaryReport::json(*db, query::HostDisplay::RealIp);
    for (const auto& r : withIps["ranks"])
        EXPECT_EQ(r["host"], "10.0.0.1");
    EXPECT_EQ(query::RankQuery::hosts(*db).at(2), "1");
    EXPECT_EQ(query::RankQuery::hosts(*db, query::HostDisplay::RealIp).at(2), "10.0.0.1");
    const auto text = query::SummaryReport::text(*db);
    EXPECT_NE(text.find("FP+BP"), std::string::npos);
    EXPECT_NE(text.find("178.709"), std::string::npos);
    EXPECT_EQ(text.find("10.0.0.1"), std::string::npos);
    EXPECT_NE(query::SummaryReport::text(*db, query::HostDisplay::RealIp).find("10.0.0.1"), std::string::npos);
}

TEST(MindInsightJob, CliShowsHostIpsOnlyWhenAsked)
{
    for (const char* args : { "summary --no-cache --show-host-ips ", "summary --no-cache --json --show-host-ips " }) {
        int status = -1;
        const auto out = runCli(args + std::string("'") + job().string() + "'", status);
        EXPECT_EQ(status, 0) << args;
        EXPECT_NE(out.find("10.0.0.1"), std::string::npos) << args;
        // Only the host IP: the device IPs of the rank table are never printed.
        EXPECT_EQ(out.find("192.168."), std::string::npos) << args;
    }
    int status = -1;
    const auto json = runCli("summary --no-cache --json '" + job().string() + "'", status);
    EXPECT_EQ(status, 0);
    EXPECT_NE(json.find("\"host\": \"1\""), std::string::npos);
    EXPECT_EQ(json.find("10.0.0.1"), std::string::npos);
}

TEST(NewGeneration, SummaryJsonIterationTraceFieldsAreNull)
{
    auto db = openFolder(dataDir() / "torch_npu_2rank_level1");
    ASSERT_TRUE(db);
    const auto doc = query::SummaryReport::json(*db);
    ASSERT_FALSE(doc["steps"].empty());
    for (const auto& s : doc["steps"]) {
        for (const char* key : { "total_us", "iteration_interval_us", "fp_bp_us", "tail_us" }) {
            ASSERT_TRUE(s.contains(key)) << key;
            EXPECT_TRUE(s[key].is_null()) << key;
        }
        EXPECT_FALSE(s["computing_us"].is_null());
    }
    for (const auto& r : doc["ranks"])
        EXPECT_TRUE(r["host"].is_null());
    const auto rows = query::StepQuery::breakdown(*db);
    ASSERT_FALSE(rows.empty());
    EXPECT_FALSE(query::splitOf(rows[0]).iterationTrace);
    // The text report keeps its new-generation columns only.
    EXPECT_EQ(query::SummaryReport::text(*db).find("FP+BP"), std::string::npos);
}

TEST(MindSporeFlat, IterationSplitCarriesTheClusterAnalyseFigures)
{
    auto db = openFolder(flat());
    ASSERT_TRUE(db);
    const auto rows = query::StepQuery::breakdown(*db);
    ASSERT_EQ(rows.size(), 20u);
    // rank 0 step 1: step_trace_raw_0 total 17818660 ticks; ascend_cluster_analyse row 1: 13.8202, 164.476 ms.
    const auto split = query::splitOf(rows[0]);
    EXPECT_TRUE(split.iterationTrace);
    EXPECT_EQ(split.total(), 178186600);
    EXPECT_EQ(split.analyseComputation, 13820200);
    EXPECT_EQ(split.analyseCommunicationAlone, 164476000);
    EXPECT_EQ(split.computingNotOverlapped + split.communicationNotOverlapped, 0);
    const auto doc = query::SummaryReport::json(*db);
    EXPECT_DOUBLE_EQ(doc["steps"][0]["total_us"].get<double>(), 178186.6);
    EXPECT_DOUBLE_EQ(doc["steps"][0]["computing_us"].get<double>(), 13820.2);
    // A flat folder has no rank table: no host.
    EXPECT_TRUE(doc["ranks"][0]["host"].is_null());
}

// timeline_display_1.json with min_cycle_counter_1.txt next to it (run_1 of the MindInsight tests): the slices are
// placed on the device syscnt clock and the step trace's steps are drawn on the same clock.
TEST(MindSporeFlat, TimelineOnTheSyscntClockWithStepSpans)
{
    const fs::path dir = dataDir() / "mindspore_run1_profiler";
    auto db = openFolder(dir);
    ASSERT_TRUE(db);
    ASSERT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace WHERE rank_id = 1"), 322);
    ASSERT_TRUE(load::Loader::loadTimeline(*db, 1));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity <> 'info'"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE message LIKE '%system counter clock%'"), 1);

    // min_cycle_counter_1.txt = 43806841592.0 ticks: the first task (AssignAdd-op414, ts 0.0) is at 438068415920 ns,
    // the same instant output_timeline_data_1.txt gives it (438068.41592 ms).
    auto first = db->prepare("SELECT MIN(s.ts) FROM slice s JOIN string n ON n.id = s.name_id "
                             "WHERE n.value = 'AssignAdd-op414' AND s.pid = 1");
    ASSERT_TRUE(first.step());
    EXPECT_EQ(first.optInt(0).value_or(0), 438068415920);

    // Steps: ProfilerStep#1 = [start_point, end_point] x 10 ns = [43806850547, 43835277665] ticks.
    auto step = db->prepare("SELECT s.ts, s.dur, s.depth FROM slice s JOIN string n ON n.id = s.name_id "
                            "WHERE n.value = 'ProfilerStep#1'");
    ASSERT_TRUE(step.step());
    EXPECT_EQ(step.optInt(0).value_or(0), 438068505470);
    EXPECT_EQ(step.optInt(1).value_or(0), (43835277665 - 43806850547) * 10);
    EXPECT_EQ(step.optInt(2).value_or(-1), 0);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM slice s JOIN string n ON n.id = s.name_id "
                  "WHERE n.value LIKE 'ProfilerStep#%' AND s.depth = 0"),
        322);
    // Step 1: fp_point = start_point (interval 0), FP+BP to bp_point 43826228662, Tail to the end; all inside the step.
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM slice s JOIN string n ON n.id = s.name_id WHERE n.value = 'FP+BP' "
                  "AND s.ts = 438068505470 AND s.dur = (43826228662 - 43806850547) * 10 AND s.depth = 1"),
        1);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM slice s JOIN string n ON n.id = s.name_id WHERE n.value = 'Tail' "
                  "AND s.ts = 438262286620 AND s.depth = 1"),
        1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM process WHERE rank_id = 1 AND name = 'Step Trace'"), 1);
    // Two levels only: the parts of a step never nest in each other (zero-length parts are not drawn).
    EXPECT_EQ(count(*db, "SELECT MAX(depth) FROM slice WHERE pid = 2147418112"), 1);
    // MindSpore's own copy of the step trace streams (pid 10000) lands on the same clock as the step trace:
    // stream_520_parallel_0 of step 1 starts at its start_point 43806979896 ticks.
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM slice s JOIN string n ON n.id = s.name_id WHERE s.pid = 10000 "
                  "AND n.value = 'stream_520_parallel_0' AND s.ts = 438069798960"),
        1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM process WHERE rank_id = 1 AND pid = 10000 AND name = 'Step trace streams'"),
        1);
    // The first op of step 1 lies inside step 1 on the timeline (same clock).
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM step_trace_op o WHERE o.step = 1 AND (o.start_syscnt_ns < 438068505470 "
                  "OR o.end_syscnt_ns > 438068505470 + (43835277665 - 43806850547) * 10)"),
        0);
}

// ascend_timeline_display_{id}.json: a deferred file kind, loaded with the rank's timeline.
TEST(MindSporeFlat, TimelineDisplayIsDeferredAndImportedWithTheTimeline)
{
    const fs::path dir = dataDir() / "mindspore_flat_profiler" / "timeline_display";
    io::FileKind kind;
    ASSERT_TRUE(io::fileKindOf("ascend_timeline_display_1.json", kind));
    EXPECT_EQ(kind, io::FileKind::MsTimelineDisplay);
    ASSERT_TRUE(io::fileKindOf("timeline_display_12.json", kind));
    EXPECT_EQ(kind, io::FileKind::MsTimelineDisplay);
    EXPECT_TRUE(io::isDeferredKind(kind));
    EXPECT_FALSE(io::fileKindOf("gpu_timeline_display_0.json", kind));

    const auto plan = io::Detector::detect({ dir.string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 1);

    auto db = openFolder(dir);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM slice"), 0); // not parsed with the summary
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM rank_file WHERE rank_id = 1 AND kind = 'ms_timeline_display' AND "
                  "status = 'skipped'"),
        1);
    ASSERT_TRUE(load::Loader::loadTimeline(*db, 1));

    // 112 X events in the file: 107 on pid 1 / stream "519", 5 on pid 9000 / tid "0".
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM slice WHERE rank_id = 1"), 112);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM slice WHERE pid = 1 AND tid = 519"), 107);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM slice WHERE pid = 9000 AND tid = 0"), 5);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity <> 'info'"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'info' AND message LIKE '%relative%'"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM process WHERE rank_id = 1 AND pid = 1 AND name = 'Device'"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM process WHERE rank_id = 1 AND pid = 9000 AND name = 'AI CPU'"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM thread WHERE rank_id = 1 AND tid = 519 AND name = 'Stream 519'"), 1);

    // Relative float µs -> ns exactly (rounded half away from zero at the ns).
    struct Spot {
        const char* name;
        int64_t ts, dur;
    };
    for (const Spot& s : { Spot { "InitData", 0, 160000 }, Spot { "AssignAdd-op142", 6042909560, 3100 },
             Spot { "TransData-op118", 6042915170, 46640 }, Spot { "EndOfSequence", 6067258000, 40000 } }) {
        auto st = db->prepare("SELECT COUNT(*) FROM slice s JOIN string n ON n.id = s.name_id "
                              "WHERE n.value = ?1 AND s.ts = ?2 AND s.dur = ?3");
        st.bind(1, std::string(s.name)).bind(2, s.ts).bind(3, s.dur);
        ASSERT_TRUE(st.step());
        EXPECT_EQ(st.optInt(0).value_or(0), 1) << s.name;
    }
}

// hccl_raw link keys are group-local: rank 2 writes "1-0" and "0-0". With ascend_cluster_analyse_pipeline-parallel_2_4
// (2 stages of 4 ranks -> groups {0,1}, {2,3}) they are 3 -> 2 and 2 -> 2, never 1 -> 0.
TEST(HcclRaw, HcclRawLocalRanksMappedByStageLayout)
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
    auto r13 = openModel({ job().string() });
    ASSERT_TRUE(r13);
    EXPECT_EQ(count(*r13, "SELECT COUNT(*) FROM comm_link WHERE src IS NOT NULL AND src <> dst"), 0);
    EXPECT_GT(count(*r13, "SELECT COUNT(*) FROM comm_link WHERE rank_id = 2 AND src = 2 AND dst = 2"), 0);
    EXPECT_EQ(count(*r13,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'warning' AND message LIKE '%no global src/dst%'"),
        4);
}

// hccl_raw SDMA bandwidth: comm_bandwidth rows per op and transport from the op's link_info (self-links and LOCAL
// left out). Rank 0: 276.416512 MB in 13.20416 ms = 20.93 GB/s, the same in both layouts of the same files.
TEST(HcclRaw, HcclRawSdmaBandwidth)
{
    for (const auto& path : { flat(), job() }) {
        auto db = openModel({ path.string() });
        ASSERT_TRUE(db);
        const std::string where = " FROM comm_bandwidth b JOIN comm_op o ON o.id = b.comm_op_id WHERE o.rank_id = 0 "
                                  "AND o.is_total = 0 AND b.transport = 'SDMA'";
        EXPECT_NEAR(real(*db, "SELECT SUM(b.size_mb)" + where), 276.416512, 1e-6) << path;
        EXPECT_EQ(count(*db, "SELECT SUM(b.transit_ns)" + where), 13204160) << path;
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_bandwidth WHERE transport = 'LOCAL'"), 0);
    }
}

// A tick count whose ns do not fit in int64 (found by the ms_step_trace_raw fuzz target: signed overflow) is left out
// with a warning naming the line; the rest of the row and file still load.
TEST(MindSporeFlat, TickCountOutOfRangeIsLeftOutWithAWarning)
{
    npuscope::test::ScratchDir dir;
    const auto from = dataDir() / "mindspore_flat_profiler" / "old_column_order" / "step_trace_raw_0_detail_time.csv";
    std::ifstream in(from);
    std::stringstream text;
    text << in.rdbuf();
    std::string csv = text.str();
    const std::string tail = ",2300103,"; // step 1's tail column
    const auto at = csv.find(tail);
    ASSERT_NE(at, std::string::npos);
    csv.replace(at, tail.size(), ",4398765044000263921,");
    std::ofstream(dir.path() / "step_trace_raw_0_detail_time.csv") << csv;
    auto db = openFolder(dir.path());
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace WHERE step = 1 AND tail_ns IS NULL"), 1);
    EXPECT_EQ(count(*db, "SELECT fp_bp_ns FROM step_trace WHERE step = 1"), 17029440);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'warning' AND line = 2 AND message LIKE "
                         "'%4398765044000263921 is out of range%'"),
        1);
}

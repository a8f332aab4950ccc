// SPDX-License-Identifier: Apache-2.0
// CANN msprof PROF_*/device_<n>/ folders: info/start/end files and monotonic-raw timelines converted to epoch.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::count;

namespace {

fs::path caseDir() { return dataDir() / "cann_prof_2023"; }


} // namespace

TEST(CannProf, DevicesBecomeRanks)
{
    const auto plan = io::Detector::detect({ caseDir().string() });
    ASSERT_EQ(plan.ranks.size(), 2u);
    EXPECT_EQ(plan.ranks[0].rank, 0);
    EXPECT_EQ(plan.ranks[1].rank, 1);
    EXPECT_EQ(plan.ranks[1].rankSource, "rank_id_field"); // info.json.1 "rank_id": 1
    // info.json.0 + 4 timeline files + step_trace_0_2_2.json again for the step table (one file per model)
    EXPECT_EQ(plan.ranks[0].files.size(), 6u);
}

TEST(CannProf, TimelineIsConvertedToEpoch)
{
    auto db = load::Loader::load(io::Detector::detect({ caseDir().string() }));
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity <> 'info'"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM slice WHERE rank_id = 0"), 2214); // X events of the 4 files
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM slice WHERE rank_id = 1"), 2224);
    // GE@Infer: ts 56635864386.8 µs monotonic raw; start_info.0 clockMonotonicRaw 56579931060630 ns,
    // collectionTimeBegin 1692340024324979 µs -> 1692340080258305170 epoch ns, dur 47878.15 µs.
    auto st = db->prepare("SELECT s.ts, s.dur, s.pid, s.tid, s.depth FROM slice s JOIN string n ON n.id = s.name_id "
                          "WHERE s.rank_id = 0 AND n.value = 'GE@Infer' ORDER BY s.ts LIMIT 1");
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.int64(0), 1692340080258305170);
    EXPECT_EQ(st.int64(1), 47878150);
    EXPECT_EQ(st.int64(2), 1003602);
    EXPECT_EQ(st.int64(3), 16027);
    EXPECT_EQ(st.int64(4), 0);
    // Every slice lies inside the collection window (start_info .. end_info).
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM slice WHERE rank_id = 0 AND (ts < 1692340024324979000 OR ts + dur > "
                  "1692340082430569000)"),
        0);
    EXPECT_EQ(count(*db, "SELECT collection_end_ns FROM rank WHERE rank_id = 0"), 1692340082430569000);
    EXPECT_EQ(count(*db, "SELECT device_id FROM rank WHERE rank_id = 1"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM process WHERE rank_id = 0 AND name = 'Ascend Hardware'"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank_info WHERE key LIKE '%mac%' OR value LIKE 'C4-44-%'"), 0);
}

// timeline/step_trace_*.json: "Iteration <N>" events become old-generation step rows (FORMATS.md §11).
TEST(CannProf, IterationsBecomeSteps)
{
    const auto plan = io::Detector::detect({ caseDir().string() });
    ASSERT_FALSE(plan.ranks.empty());
    int stepFiles = 0;
    for (const auto& f : plan.ranks[0].files)
        stepFiles += f.kind == io::FileKind::CannStepTrace ? 1 : 0;
    EXPECT_EQ(stepFiles, 1); // step_trace_0_2_1 and _2 repeat the same iterations: the higher index is read
    auto db = load::Loader::load(plan);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace WHERE rank_id = 0"), 10);
    // Iteration 1: Iteration Time 47587810 ns, FP_BP 4236100 ns, Iteration Refresh 43345580 ns -> interval 6130 ns
    // (= FP Start 56635864658.62 - iteration start 56635864652.49 µs).
    auto st = db->prepare("SELECT total_ns, fp_bp_ns, tail_ns, iteration_interval_ns, computing_ns FROM step_trace "
                          "WHERE rank_id = 0 AND step = 1");
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.int64(0), 47587810);
    EXPECT_EQ(st.int64(1), 4236100);
    EXPECT_EQ(st.int64(2), 43345580);
    EXPECT_EQ(st.int64(3), 6130);
    EXPECT_TRUE(st.isNull(4)); // not in this generation
}

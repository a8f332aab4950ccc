// SPDX-License-Identifier: Apache-2.0
// msprof-analyze cluster_step_trace_time.csv / ClusterStepTraceTime rows of Type "stage" (cluster_stage_step).
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/SummaryReport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::count;
using npuscope::test::openFolder;

namespace {

fs::path caseDir(const char* sub) { return dataDir() / "msprof_cluster_analysis" / sub; }


} // namespace

TEST(ClusterOutputStage, TextStageRows)
{
    auto db = openFolder(caseDir("text"));
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM cluster_stage_step"), 2);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 16); // the rank rows are unchanged
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE message LIKE '%not imported%' AND file LIKE "
                  "'%cluster_step_trace_time.csv'"),
        0);
    const auto stages = query::StepQuery::stages(*db);
    ASSERT_EQ(stages.size(), 2u);
    // 2,stage,"(0, 1, 2, 3, 4, 5, 6, 7)",76310.94000000008,160813.12,7987.020000000019,167659.24,71919.96000000006,
    //   304017.5,0,160813.12
    EXPECT_EQ(stages[0].stage, 0);
    EXPECT_EQ(stages[0].step, 2);
    EXPECT_EQ(stages[0].ranks, (std::vector<int64_t> { 0, 1, 2, 3, 4, 5, 6, 7 }));
    EXPECT_EQ(stages[0].value(query::StepColumn::Computing), 76310940);
    EXPECT_EQ(stages[0].value(query::StepColumn::CommunicationNotOverlapped), 160813120);
    EXPECT_EQ(stages[0].value(query::StepColumn::Stage), 304017500);
    EXPECT_EQ(stages[0].value(query::StepColumn::Bubble), 0);
    EXPECT_FALSE(stages[0].value(query::StepColumn::Preparing).has_value());
    // 2,stage,"(8, ..., 15)",80072.45015234381,231698.2,7913.858117187483,239502.12,92698.5800000001,
    //   203701.7357578125,195498.28,38360.69050781254
    EXPECT_EQ(stages[1].stage, 1);
    EXPECT_EQ(stages[1].ranks.front(), 8);
    EXPECT_EQ(stages[1].ranks.back(), 15);
    EXPECT_EQ(stages[1].value(query::StepColumn::Bubble), 195498280);
    EXPECT_EQ(stages[1].value(query::StepColumn::Free), 92698580);
    EXPECT_EQ(stages[1].value(query::StepColumn::CommunicationNotOverlappedExcludeReceive), 38360691);
}

TEST(ClusterOutputStage, StageRowIsTheMaxOverItsRanks)
{
    // msprof-analyze writes each stage value as the maximum of that column over the stage's rank rows of the step;
    // both are parsed by the same fixed-point code, so the equality is exact.
    for (const char* sub : { "text", "text_no_step", "db" }) {
        auto db = openFolder(caseDir(sub));
        ASSERT_TRUE(db);
        const auto ranks = query::StepQuery::breakdown(*db);
        const auto stages = query::StepQuery::stages(*db);
        ASSERT_FALSE(stages.empty()) << sub;
        int compared = 0;
        for (const auto& s : stages) {
            for (int c = 0; c <= static_cast<int>(query::StepColumn::CommunicationNotOverlappedExcludeReceive); ++c) {
                std::optional<int64_t> max;
                for (const auto& r : ranks) {
                    if (r.step != s.step || std::find(s.ranks.begin(), s.ranks.end(), r.rank) == s.ranks.end())
                        continue;
                    if (auto v = r.values[static_cast<size_t>(c)]; v && (!max || *v > *max))
                        max = v;
                }
                ASSERT_TRUE(max.has_value()) << sub;
                EXPECT_EQ(s.values[static_cast<size_t>(c)], max) << sub << " stage " << s.stage << " column " << c;
                ++compared;
            }
        }
        EXPECT_EQ(compared, static_cast<int>(stages.size()) * 8) << sub;
    }
}

TEST(ClusterOutputStage, EmptyStepAndDbStages)
{
    auto noStep = openFolder(caseDir("text_no_step"));
    ASSERT_TRUE(noStep);
    const auto a = query::StepQuery::stages(*noStep);
    ASSERT_EQ(a.size(), 1u);
    EXPECT_FALSE(a[0].step.has_value());
    EXPECT_EQ(a[0].ranks.size(), 8u);
    EXPECT_EQ(a[0].value(query::StepColumn::Free), 1488610059); // 1488610.0587500026 µs

    auto db = openFolder(caseDir("db"));
    ASSERT_TRUE(db);
    const auto b = query::StepQuery::stages(*db);
    ASSERT_EQ(b.size(), 1u); // 1|stage|(0,1,2,3,4,5,6,7)|180580.22|673283.7|31723.42|702743.76|1422823.9|1889132.08|0|…
    EXPECT_EQ(b[0].step, 1);
    EXPECT_EQ(b[0].ranks, (std::vector<int64_t> { 0, 1, 2, 3, 4, 5, 6, 7 }));
    EXPECT_EQ(b[0].value(query::StepColumn::Computing), 180580220);
    EXPECT_EQ(b[0].value(query::StepColumn::Stage), 1889132080);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 8);
    const auto mean = query::StepQuery::averagedStages(*db);
    ASSERT_EQ(mean.size(), 1u);
    EXPECT_EQ(mean[0].value(query::StepColumn::Computing), 180580220);
}

TEST(ClusterOutputStage, SummaryJsonAndText)
{
    auto db = openFolder(caseDir("text"));
    ASSERT_TRUE(db);
    const auto j = query::SummaryReport::json(*db);
    ASSERT_EQ(j["stages"].size(), 2u);
    EXPECT_EQ(j["stages"][1]["stage"], 1);
    EXPECT_EQ(j["stages"][1]["step"], 2);
    EXPECT_EQ(j["stages"][1]["ranks"].size(), 8u);
    EXPECT_DOUBLE_EQ(j["stages"][1]["bubble_us"].get<double>(), 195498.28);
    EXPECT_TRUE(j["stages"][1]["preparing_us"].is_null());
    EXPECT_FALSE(j["stages"][1].contains("total_us"));
    const auto text = query::SummaryReport::text(*db);
    EXPECT_NE(text.find("Pipeline stages"), std::string::npos);
    EXPECT_NE(text.find("8-15"), std::string::npos);

    // Inputs without stage rows: an empty array and no text section.
    auto plain = openFolder(dataDir() / "torch_npu_2rank_level1");
    ASSERT_TRUE(plain);
    EXPECT_TRUE(query::SummaryReport::json(*plain)["stages"].empty());
    EXPECT_EQ(query::SummaryReport::text(*plain).find("Pipeline stages"), std::string::npos);
}

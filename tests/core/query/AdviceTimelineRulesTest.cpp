// SPDX-License-Identifier: Apache-2.0
// The timeline advice rules (docs/metrics.md, "Advice rules", idle_gap, dispatch_chain) on a generated cluster whose
// rank kLateRank launches some kernels late (generate --late-launch-rank): idle_gap names exactly that rank, its
// longest gap is the planted 2 ms (plus the generator's < 4 µs launch gap) and its cause "host launched late"; the
// rules stay silent while no timeline is loaded.
#include "AdviceTestSupport.h"
#include "TestSupport.h"

#include "npuscope/query/advice/AdviceQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace npuscope;
using namespace npuscope::query::advice;
using npuscope::test::openFolder;
using npuscope::test::ScratchDir;
using npuscope::test::withId;

namespace {

constexpr int kLateRank = 5;

class AdviceTimelineRules : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_dir = new ScratchDir;
        testgen::GeneratorOptions o;
        o.ranks = 8;
        o.steps = 2;
        o.lateLaunchRank = kLateRank;
        o.outDir = (s_dir->path() / "gen").string();
        std::string error;
        ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    }
    static void TearDownTestSuite()
    {
        delete s_dir;
        s_dir = nullptr;
    }
    static std::string folder() { return (s_dir->path() / "gen").string(); }
    static ScratchDir* s_dir;
};

ScratchDir* AdviceTimelineRules::s_dir = nullptr;

} // namespace

TEST_F(AdviceTimelineRules, SilentWithoutTimelines)
{
    auto db = openFolder(folder());
    ASSERT_TRUE(db);
    const auto findings = AdviceQuery::run(*db);
    for (const char* id : { "idle_gap", "collective_bound", "sdma_contention", "dispatch_chain" })
        EXPECT_TRUE(withId(findings, id).empty()) << id;
}

TEST_F(AdviceTimelineRules, IdleGapNamesTheLateLaunchRankWithItsCause)
{
    auto db = openFolder(folder(), true);
    ASSERT_TRUE(db);
    const auto findings = AdviceQuery::run(*db);
    const auto gaps = withId(findings, "idle_gap");
    ASSERT_EQ(gaps.size(), 1u);
    const Finding& f = gaps.front();
    EXPECT_EQ(f.ranks, std::vector<int64_t> { kLateRank });
    EXPECT_EQ(f.category, "scheduling");
    EXPECT_DOUBLE_EQ(f.threshold, 1.0);
    EXPECT_EQ(f.unit, "ms");
    // The planted delay plus the generator's own launch gap of 0.8 to 4 µs.
    const double plantedMs = testgen::GeneratorOptions::kLateLaunchDelayUs / 1e3;
    EXPECT_GE(f.value, plantedMs + 0.0008);
    EXPECT_LE(f.value, plantedMs + 0.004);
    EXPECT_NE(f.message.find("The longest: host launched late."), std::string::npos) << f.message;
    EXPECT_NE(f.message.find("aten::"), std::string::npos) << "names the launch event: " << f.message;
    EXPECT_EQ(f.evidence.view, "timeline");
    EXPECT_EQ(f.evidence.rank, kLateRank);

    // The dispatch chain covers every rank's launched kernels.
    const auto chain = withId(findings, "dispatch_chain");
    ASSERT_EQ(chain.size(), 1u);
    EXPECT_EQ(chain.front().ranks, (std::vector<int64_t> { 0, 1, 2, 3, 4, 5, 6, 7 }));
    EXPECT_EQ(chain.front().severity, Severity::Info);
    EXPECT_GT(chain.front().value, 0.0);
}

// SPDX-License-Identifier: Apache-2.0
// The resource advice rules (docs/metrics.md, "Advice rules": memory_peak, flops_light) on a generated cluster with
// a planted memory-heavy rank and a planted FLOPs-light rank: each rule names exactly the planted rank, with the value
// recomputed from MemoryQuery / the generator's factor, and stays silent without its input (no capacity, no kernels).
#include "TestSupport.h"

#include "npuscope/load/Loader.h"
#include "npuscope/query/MemoryQuery.h"
#include "npuscope/query/advice/AdviceQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace npuscope;
using namespace npuscope::query::advice;
using npuscope::test::openFolder;
using npuscope::test::ScratchDir;

namespace {

constexpr int kHeavyRank = 3;
constexpr int kLightRank = 7;

std::vector<Finding> withId(const std::vector<Finding>& findings, const std::string& id)
{
    std::vector<Finding> out;
    for (const auto& f : findings) {
        if (f.id == id)
            out.push_back(f);
    }
    return out;
}

class AdviceResourceRules : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_dir = new ScratchDir;
        testgen::GeneratorOptions o;
        o.ranks = 16;
        // The default trace size: with tiny kernel files (traceMb 0) a rank's FLOP/s jitters by ~20 % and a healthy
        // rank can cross the 0.8 threshold.
        o.memoryHeavyRank = kHeavyRank;
        o.flopsLightRank = kLightRank;
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

ScratchDir* AdviceResourceRules::s_dir = nullptr;

} // namespace

TEST_F(AdviceResourceRules, MemoryPeakNamesTheHeavyRankOnlyWithACapacity)
{
    auto db = openFolder(folder());
    ASSERT_TRUE(db);
    EXPECT_TRUE(withId(AdviceQuery::run(*db), "memory_peak").empty()) << "no capacity, no memory_peak finding";

    // 40 GB: the heavy rank (1.6 x the others' ~34 GB) is above 90 %, the others (~84 %) are not.
    const double capacityMb = 40.0 * 1024.0;
    AdviceOptions options;
    options.capacityMb = capacityMb;
    const auto findings = withId(AdviceQuery::run(*db, options), "memory_peak");
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].ranks, std::vector<int64_t> { kHeavyRank });
    EXPECT_DOUBLE_EQ(findings[0].threshold, 0.9);

    std::optional<double> heavyPeak;
    {
        auto lock = db->lock();
        for (const auto& p : query::MemoryQuery::peaks(*db, capacityMb)) {
            if (p.rank == kHeavyRank) {
                heavyPeak = p.peakReservedMb;
            } else if (p.ratio) {
                EXPECT_LT(*p.ratio, 0.9) << "rank " << p.rank;
            }
        }
    }
    ASSERT_TRUE(heavyPeak);
    EXPECT_NEAR(findings[0].value, *heavyPeak / capacityMb, 1e-9);
    EXPECT_GT(findings[0].value, 1.0) << "the planted rank is over capacity at 40 GB";
    EXPECT_EQ(findings[0].severity, Severity::Critical);
}

TEST_F(AdviceResourceRules, FlopsLightNamesTheLightRankOnceItsKernelsAreKnown)
{
    auto db = openFolder(folder());
    ASSERT_TRUE(db);
    EXPECT_TRUE(withId(AdviceQuery::run(*db), "flops_light").empty()) << "no kernels loaded, no FLOPs to compare";

    for (int64_t rank = 0; rank < 16; ++rank)
        ASSERT_TRUE(load::Loader::loadKernelTotals(*db, rank)) << "rank " << rank;
    const auto findings = withId(AdviceQuery::run(*db), "flops_light");
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].ranks, std::vector<int64_t> { kLightRank });
    EXPECT_DOUBLE_EQ(findings[0].threshold, 0.8);
    // Half the FLOPs in the same time: about half its peers' FLOP/s (compute times jitter by a few %).
    EXPECT_NEAR(findings[0].value, 0.5, 0.05);
}

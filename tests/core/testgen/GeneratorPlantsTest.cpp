// SPDX-License-Identifier: Apache-2.0
// The generator's planted compute and memory anomalies (--memory-heavy-rank, --flops-light-rank, --flops) reach the
// model: the heavy rank's memory peak and the light rank's FLOPs (the ArithmeticUtilization PMU columns, read back
// from kernel_details.csv) single them out, and the default output keeps the PipeUtilization columns.
#include "TestSupport.h"

#include "npuscope/load/SourceDetails.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace npuscope;
using npuscope::test::count;
using npuscope::test::openFolder;
using npuscope::test::ScratchDir;

namespace {

// Σ aic_cube_fops + aiv_vector_fops of a rank's kernels, through the model's PMU references.
double rankFlops(model::Database& db, int64_t rank, int64_t& kernelsWithPmu)
{
    double sum = 0;
    kernelsWithPmu = 0;
    auto st = db.prepare("SELECT rowid FROM kernel WHERE rank_id = ?1 AND accelerator_core <> 'HCCL'");
    st.bind(1, rank);
    while (st.step()) {
        std::string error;
        const auto pmu = load::SourceDetails::kernelPmu(db, st.int64(0), &error);
        if (!pmu)
            continue;
        ++kernelsWithPmu;
        for (const char* key : { "aic_cube_fops", "aiv_vector_fops" }) {
            if (pmu->contains(key) && (*pmu)[key].is_number())
                sum += (*pmu)[key].get<double>();
        }
    }
    return sum;
}

} // namespace

TEST(GeneratorPlants, MemoryHeavyAndFlopsLightRanksStandOut)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "gen").string();
    o.ranks = 4;
    o.traceMb = 0;
    o.memoryHeavyRank = 2;
    o.flopsLightRank = 1;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    auto db = openFolder(o.outDir, true);
    ASSERT_TRUE(db);

    std::map<int64_t, double> peak;
    auto st = db->prepare(
        "SELECT rank_id, MAX(allocated_mb) FROM memory_record WHERE component = 'PTA' GROUP BY rank_id ORDER BY 1");
    while (st.step())
        peak[st.int64(0)] = st.real(1);
    ASSERT_EQ(peak.size(), 4u);
    for (const auto& [rank, mb] : peak) {
        if (rank != 2) {
            EXPECT_NEAR(peak[2] / mb, testgen::GeneratorOptions::kMemoryHeavyFactor, 0.02) << rank;
        }
    }

    std::map<int64_t, double> flops;
    for (int64_t rank = 0; rank < 4; ++rank) {
        int64_t withPmu = 0;
        flops[rank] = rankFlops(*db, rank, withPmu);
        EXPECT_EQ(withPmu,
            count(*db, "SELECT COUNT(*) FROM kernel WHERE accelerator_core <> 'HCCL' AND rank_id = " + std::to_string(rank)))
            << rank;
        EXPECT_GT(flops[rank], 0) << rank;
    }
    // Same kernels and durations per rank up to a few percent of random spread; the light rank does half the FLOPs.
    for (int64_t rank : { 0, 2, 3 })
        EXPECT_LT(flops[1] / flops[rank], 0.65) << rank;
}

TEST(GeneratorPlants, DefaultKernelsHaveNoFlopsColumns)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "gen").string();
    o.ranks = 2;
    o.traceMb = 0;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    auto db = openFolder(o.outDir, true);
    ASSERT_TRUE(db);
    int64_t withPmu = 0;
    EXPECT_EQ(rankFlops(*db, 0, withPmu), 0.0);
    EXPECT_GT(withPmu, 0); // PipeUtilization columns are there, without FLOPs
}

TEST(GeneratorPlants, OutOfRangeRanksAreRefused)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "gen").string();
    o.ranks = 2;
    o.memoryHeavyRank = 2;
    std::string error;
    EXPECT_FALSE(testgen::ClusterGenerator::generate(o, error));
    EXPECT_NE(error.find("--memory-heavy-rank 2 is out of range 0..1"), std::string::npos) << error;
    o.memoryHeavyRank.reset();
    o.flopsLightRank = -1;
    EXPECT_FALSE(testgen::ClusterGenerator::generate(o, error));
    EXPECT_NE(error.find("--flops-light-rank -1"), std::string::npos) << error;
}

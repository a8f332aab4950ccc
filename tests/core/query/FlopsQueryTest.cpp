// SPDX-License-Identifier: Apache-2.0
// kernel.flops (the *_fops PMU columns of an ArithmeticUtilization run) and query::FlopsQuery: sums equal the CSV read
// independently, the FLOPs-light rank the generator plants is singled out, and a run without FLOPs says so.
#include "TestSupport.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/query/FlopsQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::openFolder;
using npuscope::test::ScratchDir;

namespace {

// Σ of the four *_fops columns over a kernel_details.csv, N/A cells left out.
double csvFlops(const std::filesystem::path& csv)
{
    CsvReader reader;
    std::string error;
    EXPECT_TRUE(reader.open(csv.string(), error)) << error;
    std::vector<std::string> header, f;
    EXPECT_TRUE(reader.next(header));
    std::vector<size_t> cols;
    for (size_t i = 0; i < header.size(); ++i) {
        if (header[i].ends_with("_fops"))
            cols.push_back(i);
    }
    EXPECT_EQ(cols.size(), 4u);
    double sum = 0;
    while (reader.next(f)) {
        for (size_t c : cols) {
            if (c < f.size() && f[c] != "N/A" && !f[c].empty())
                sum += std::stod(f[c]);
        }
    }
    return sum;
}

std::string generate(const ScratchDir& dir, std::optional<int> flopsLight)
{
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "gen").string();
    o.ranks = 4;
    o.traceMb = 0;
    o.flopsLightRank = flopsLight;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return o.outDir;
}

} // namespace

TEST(FlopsQuery, LightRankIsSingledOutAndSumsEqualTheCsv)
{
    ScratchDir dir;
    const auto root = generate(dir, 1);
    auto db = openFolder(root, true); // kernels are a rank's detail files
    ASSERT_TRUE(db);
    const auto s = query::FlopsQuery::perRank(*db);
    ASSERT_TRUE(s.recorded);
    ASSERT_EQ(s.ranks.size(), 4u);
    for (const auto& r : s.ranks) {
        std::filesystem::path csv;
        for (const auto& e : std::filesystem::directory_iterator(root)) {
            if (e.path().filename().string().starts_with("rank" + std::to_string(r.rank) + "_"))
                csv = e.path() / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv";
        }
        EXPECT_NEAR(r.flops, csvFlops(csv), 1e-6 * r.flops) << r.rank;
        EXPECT_GT(r.kernels, 0);
        EXPECT_GT(r.flopsPerSecond(), 0);
    }
    const auto lowest = std::min_element(
        s.ranks.begin(), s.ranks.end(), [](const auto& a, const auto& b) { return a.relative < b.relative; });
    EXPECT_EQ(lowest->rank, 1);
    EXPECT_LT(lowest->relative, 0.65);
    EXPECT_DOUBLE_EQ(std::max_element(s.ranks.begin(), s.ranks.end(), [](const auto& a, const auto& b) {
        return a.relative < b.relative;
    })->relative,
        1.0);
    // One step is a part of all.
    const auto one = query::FlopsQuery::perRank(*db, 50);
    ASSERT_EQ(one.ranks.size(), 4u);
    EXPECT_LT(one.ranks[0].flops, s.ranks[0].flops);
    EXPECT_GT(one.ranks[0].flops, 0);
}

TEST(FlopsQuery, RunsWithoutFlopsSaySo)
{
    ScratchDir dir;
    auto generated = openFolder(generate(dir, std::nullopt), true);
    ASSERT_TRUE(generated);
    EXPECT_FALSE(query::FlopsQuery::perRank(*generated).recorded);
    // A real Level1 run with the default aic_metrics (PipeUtilization): kernels, no FLOPs.
    auto real = openFolder(dataDir() / "torch_npu_2rank_level1", true);
    ASSERT_TRUE(real);
    const auto s = query::FlopsQuery::perRank(*real);
    EXPECT_FALSE(s.recorded);
    ASSERT_EQ(s.ranks.size(), 2u);
    EXPECT_EQ(s.ranks[0].kernels, 0);
    EXPECT_NE(std::string(query::FlopsQuery::kHowToRecord).find("ArithmeticUtilization"), std::string::npos);
}

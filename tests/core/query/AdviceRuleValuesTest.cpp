// SPDX-License-Identifier: Apache-2.0
// Advice rules with values read from the files (docs/metrics.md, "Advice rules"): aicpu_long on the real 2023
// torch_npu sample (two AI CPU Cast kernels of 72.1612 and 72.8611 µs on rank 0), rdma_retransmission and
// step_variance planted into a generated cluster's communication.json / step_trace_time.csv, and no slow_rank on a
// balanced generated cluster nor on a generated PP=4 cluster (whose stages wait differently by design).
#include "AdviceTestSupport.h"
#include "TestSupport.h"

#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/advice/AdviceQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace npuscope;
using namespace npuscope::query::advice;
using npuscope::test::generate;
using npuscope::test::openFolder;
using npuscope::test::rankFile;
using npuscope::test::readAll;
using npuscope::test::ScratchDir;
using npuscope::test::withId;

namespace {

std::vector<std::string> split(const std::string& line)
{
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');)
        cells.push_back(cell);
    return cells;
}

} // namespace

TEST(AdviceRuleValues, AiCpuLongOnTheRealSampleEqualsItsKernelFile)
{
    auto db = openFolder(test::dataDir() / "torch_npu_2023_2rank");
    ASSERT_TRUE(db);
    EXPECT_TRUE(withId(AdviceQuery::run(*db), "aicpu_long").empty()) << "no kernels loaded";
    for (int64_t rank : { 0, 1 })
        ASSERT_TRUE(load::Loader::loadDeferred(*db, rank, io::kKernelsGroup)) << rank;
    const auto found = withId(AdviceQuery::run(*db), "aicpu_long");
    ASSERT_EQ(found.size(), 1u);
    // kernel_details.csv of test_rank_0: trans_Cast_5 72.1612 µs and trans_Cast_15 72.8611 µs, Accelerator Core
    // AI_CPU; rank 1 has none.
    EXPECT_EQ(found[0].ranks, std::vector<int64_t> { 0 });
    EXPECT_NEAR(found[0].value, 72.8611, 1e-3);
    EXPECT_EQ(found[0].unit, "us");
    EXPECT_DOUBLE_EQ(found[0].threshold, 20.0);
    auto ops = found[0].ops;
    std::sort(ops.begin(), ops.end());
    EXPECT_EQ(ops, (std::vector<std::string> { "trans_Cast_15", "trans_Cast_5" }));
    EXPECT_NE(found[0].message.find("0.145 ms in total"), std::string::npos) << found[0].message;
}

TEST(AdviceRuleValues, PlantedRdmaRetransmission)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.ranks = 16; // two nodes of 8: the pipeline sends between them go over RDMA
    o.pp = 2;
    const auto folder = generate(dir, o);
    EXPECT_TRUE(withId(AdviceQuery::run(*openFolder(folder)), "rdma_retransmission").empty());
    // Rank 3's first op with an RDMA transfer gets a Transit Time of 5,000 ms.
    const auto path = rankFile(folder, 3, "communication.json");
    auto doc = nlohmann::json::parse(readAll(path));
    std::string planted;
    for (auto& [step, groups] : doc.items()) {
        for (auto& [group, ops] : groups.items()) {
            for (auto& [op, info] : ops.items()) {
                if (!planted.empty() || op == "Total Op Info" || !info.contains("Communication Bandwidth Info")
                    || !info["Communication Bandwidth Info"].contains("RDMA"))
                    continue;
                info["Communication Bandwidth Info"]["RDMA"]["Transit Time(ms)"] = 5000.0;
                planted = op;
            }
        }
    }
    ASSERT_FALSE(planted.empty());
    std::ofstream(path) << doc.dump();
    auto db = openFolder(folder);
    ASSERT_TRUE(db);
    const auto found = withId(AdviceQuery::run(*db), "rdma_retransmission");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].ranks, std::vector<int64_t> { 3 });
    EXPECT_DOUBLE_EQ(found[0].value, 5000.0);
    EXPECT_DOUBLE_EQ(found[0].threshold, 4000.0);
    EXPECT_EQ(found[0].severity, Severity::Critical);
    // communication.json keys carry the group: "<op name>@<group hash>"; the finding names the op.
    ASSERT_EQ(found[0].ops.size(), 1u);
    EXPECT_TRUE(planted.starts_with(found[0].ops[0] + "@")) << found[0].ops[0] << " vs " << planted;
}

TEST(AdviceRuleValues, PlantedStepVarianceEqualsTheStepTraceFile)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.ranks = 4;
    o.steps = 3;
    const auto folder = generate(dir, o);
    EXPECT_TRUE(withId(AdviceQuery::run(*openFolder(folder)), "step_variance").empty());
    // Rank 2's last step gets 40 ms more Free.
    const auto path = rankFile(folder, 2, "step_trace_time.csv");
    std::stringstream in(readAll(path));
    std::string header, line;
    std::getline(in, header);
    const auto columns = split(header);
    const auto column = [&](const char* name) {
        return static_cast<size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
    };
    std::vector<std::vector<std::string>> rows;
    while (std::getline(in, line))
        rows.push_back(split(line));
    ASSERT_EQ(rows.size(), 3u);
    rows.back()[column("Free")] = std::to_string(std::stod(rows.back()[column("Free")]) + 40000.0);
    std::ofstream out(path);
    out << header << "\n";
    for (const auto& row : rows) {
        for (size_t i = 0; i < row.size(); ++i)
            out << (i ? "," : "") << row[i];
        out << "\n";
    }
    out.close();
    // The step time is Computing + Communication(Not Overlapped) + Free + Preparing; the first step is left out.
    std::array<double, 2> wall {};
    for (size_t r = 1; r < rows.size(); ++r) {
        for (const char* name : { "Computing", "Communication(Not Overlapped)", "Free", "Preparing" })
            wall[r - 1] += std::stod(rows[r][column(name)]);
    }
    const double expected = std::abs(wall[1] - wall[0]) / ((wall[0] + wall[1]) / 2);
    const auto found = withId(AdviceQuery::run(*openFolder(folder)), "step_variance");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].ranks.front(), 2);
    EXPECT_NEAR(found[0].value, expected, 1e-6);
    EXPECT_GT(found[0].value, 0.2);
    EXPECT_EQ(found[0].steps, (std::vector<int64_t> { std::stoll(rows[2][0]), std::stoll(rows[1][0]) }));
}

TEST(AdviceRuleValues, NoSlowRankOnBalancedOrUnequalStageClusters)
{
    ScratchDir balancedDir, stagesDir;
    testgen::GeneratorOptions balanced;
    balanced.ranks = 16;
    EXPECT_TRUE(withId(AdviceQuery::run(*openFolder(generate(balancedDir, balanced))), "slow_rank").empty());
    // PP = 4: the stages' waits differ by design (1F1B: stage s runs p − 1 − s warm-up passes, the bubbles differ);
    // tests/core/query/AdviceQueryTest.cpp also scales one stage's Computing by 1.7.
    testgen::GeneratorOptions stages;
    stages.ranks = 32;
    stages.pp = 4;
    stages.tp = 4;
    const auto findings = AdviceQuery::run(*openFolder(generate(stagesDir, stages)));
    EXPECT_TRUE(withId(findings, "slow_rank").empty());
}

// SPDX-License-Identifier: Apache-2.0
// The advice rules (docs/metrics.md, "Advice rules") on generated clusters with planted anomalies, on clusters
// that must not give a slow-rank or slow-link finding (balanced; unequal pipeline stages), and on a real 2-rank
// sample whose finding values are recomputed here from the files.
#include "AdviceTestSupport.h"
#include "TestSupport.h"

#include "npuscope/query/advice/AdviceQuery.h"
#include "npuscope/query/advice/AdviceReport.h"
#include "npuscope/query/advice/OutlierTest.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace npuscope;
using namespace npuscope::query::advice;
using npuscope::test::generate;
using npuscope::test::openFolder;
using npuscope::test::ScratchDir;
using npuscope::test::withId;

namespace {

std::vector<Finding> advise(const std::string& folder, const AdviceOptions& options = {})
{
    auto db = openFolder(folder);
    EXPECT_TRUE(db);
    return db ? AdviceQuery::run(*db, options) : std::vector<Finding> {};
}

// Every file named name under root.
std::vector<std::filesystem::path> filesNamed(const std::string& root, const std::string& name)
{
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
        if (e.is_regular_file() && e.path().filename() == name)
            out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string readAll(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The global rank of a generated rank folder (rank{r}_..._ascend_pt).
int rankOfPath(const std::filesystem::path& p)
{
    for (auto it = p.begin(); it != p.end(); ++it) {
        const std::string part = it->string();
        if (part.rfind("rank", 0) == 0 && part.find("_ascend_pt") != std::string::npos)
            return std::stoi(part.substr(4));
    }
    return -1;
}

} // namespace

TEST(OutlierTest, DixonAndRobustZ)
{
    EXPECT_DOUBLE_EQ(*OutlierTest::dixonCritical95(4), 0.829);
    EXPECT_FALSE(OutlierTest::dixonCritical95(11));
    // (60 − 5) ÷ (60 − 2) = 0.948 > 0.829.
    EXPECT_NEAR(*OutlierTest::dixonQHigh({ 2, 3, 60, 5 }), 55.0 / 58.0, 1e-12);
    EXPECT_TRUE(OutlierTest::isOutlier({ 2, 3, 60, 5 }, true));
    EXPECT_FALSE(OutlierTest::isOutlier({ 2, 3, 6, 5 }, true));
    std::vector<double> many(20, 10.0);
    for (size_t i = 0; i < many.size(); ++i)
        many[i] += static_cast<double>(i % 3);
    EXPECT_FALSE(OutlierTest::isOutlier(many, true));
    many.push_back(40);
    EXPECT_TRUE(OutlierTest::isOutlier(many, true));
    EXPECT_DOUBLE_EQ(OutlierTest::median({ 4, 1, 3, 2 }), 2.5);
}

TEST(Advice, PlantedSlowRankIsTheOnlySlowRank)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.ranks = 16;
    o.pp = 2;
    o.tp = 2;
    o.slowRank = 5;
    const auto findings = advise(generate(dir, o));
    const auto slow = withId(findings, "slow_rank");
    ASSERT_EQ(slow.size(), 1u);
    EXPECT_EQ(slow[0].ranks, std::vector<int64_t> { 5 });
    EXPECT_EQ(slow[0].unit, "ms");
    EXPECT_GT(slow[0].value, slow[0].threshold);
    EXPECT_EQ(slow[0].evidence.view, "timeoverview");
    EXPECT_EQ(slow[0].evidence.rank, 5);
    // Its comparable ranks (stage 0, TP position 1: 1, 3, 5, 7) show the computing dispersion, rank 5 on top.
    const auto computing = withId(findings, "computation_dispersion");
    ASSERT_EQ(computing.size(), 1u);
    EXPECT_EQ(computing[0].ranks.front(), 5);
    EXPECT_TRUE(withId(findings, "slow_link").empty());
}

TEST(Advice, PlantedSlowLinkIsFound)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.ranks = 16;
    o.pp = 2;
    o.tp = 2;
    o.slowLink = std::make_pair(4, 6);
    const auto findings = advise(generate(dir, o));
    const auto links = withId(findings, "slow_link");
    ASSERT_EQ(links.size(), 1u);
    EXPECT_EQ(links[0].ranks, (std::vector<int64_t> { 4, 6 }));
    ASSERT_FALSE(links[0].links.empty());
    for (const auto& l : links[0].links) {
        EXPECT_TRUE((l.src == 4 && l.dst == 6) || (l.src == 6 && l.dst == 4));
        EXPECT_EQ(l.transport, "HCCS");
    }
    EXPECT_EQ(links[0].severity, Severity::Critical); // a tenth of the bandwidth
    EXPECT_LT(links[0].value, 0.2 * links[0].threshold);
    EXPECT_TRUE(withId(findings, "slow_rank").empty());
}

TEST(Advice, BalancedClusterHasNoSlowRankOrLink)
{
    for (int pp : { 1, 4 }) {
        ScratchDir dir;
        testgen::GeneratorOptions o;
        o.ranks = 16;
        o.pp = pp;
        const auto findings = advise(generate(dir, o));
        EXPECT_TRUE(withId(findings, "slow_rank").empty()) << "pp " << pp;
        EXPECT_TRUE(withId(findings, "slow_link").empty()) << "pp " << pp;
        EXPECT_TRUE(withId(findings, "stage_imbalance").empty()) << "pp " << pp;
    }
}

TEST(Advice, UnequalStagesAreAStageImbalanceNotASlowRank)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.ranks = 16;
    o.pp = 4;
    const auto folder = generate(dir, o);
    // Stage 3 (ranks 12..15) computes 1.7 times as long: scale the Computing column of its step_trace_time.csv.
    for (const auto& p : filesNamed(folder, "step_trace_time.csv")) {
        if (rankOfPath(p) < 12)
            continue;
        std::istringstream in(readAll(p));
        std::ostringstream out;
        std::string line;
        bool header = true;
        while (std::getline(in, line)) {
            if (!header) {
                const auto a = line.find(',');
                const auto b = line.find(',', a + 1);
                line = line.substr(0, a + 1) + std::to_string(std::stod(line.substr(a + 1, b - a - 1)) * 1.7)
                    + line.substr(b);
            }
            header = false;
            out << line << "\n";
        }
        std::ofstream(p) << out.str();
    }
    const auto findings = advise(folder);
    const auto stage = withId(findings, "stage_imbalance");
    ASSERT_EQ(stage.size(), 1u);
    EXPECT_EQ(stage[0].ranks, (std::vector<int64_t> { 12, 13, 14, 15 }));
    EXPECT_EQ(stage[0].evidence.view, "parallel");
    EXPECT_EQ(stage[0].evidence.stage, 3);
    EXPECT_GT(stage[0].value, 0.4);
    EXPECT_TRUE(withId(findings, "slow_rank").empty());
    // Within a stage the ranks agree: no computing dispersion.
    EXPECT_TRUE(withId(findings, "computation_dispersion").empty());
}

TEST(Advice, PlantedSmallPacketsAreFound)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.ranks = 16; // two nodes of 8: the pipeline sends between them go over RDMA
    o.pp = 2;
    const auto folder = generate(dir, o);
    // Every RDMA transfer becomes 0.5 MB (below the 1 MB RDMA limit).
    int64_t planted = 0;
    for (const auto& p : filesNamed(folder, "communication.json")) {
        auto doc = nlohmann::json::parse(readAll(p));
        for (auto& [step, groups] : doc.items()) {
            for (auto& [group, ops] : groups.items()) {
                for (auto& [op, info] : ops.items()) {
                    if (!info.contains("Communication Bandwidth Info")
                        || !info["Communication Bandwidth Info"].contains("RDMA"))
                        continue;
                    auto& dist = info["Communication Bandwidth Info"]["RDMA"]["Size Distribution"];
                    nlohmann::json small = nlohmann::json::object();
                    for (auto& [size, entry] : dist.items()) {
                        small["0.5"] = entry;
                        // Total Op Info sums the ops again; npuscope never adds it to them.
                        if (op != "Total Op Info")
                            planted += entry[0].get<int64_t>();
                    }
                    dist = small;
                }
            }
        }
        std::ofstream(p) << doc.dump();
    }
    ASSERT_GT(planted, 0);
    const auto small = withId(advise(folder), "small_packets");
    ASSERT_EQ(small.size(), 1u);
    EXPECT_DOUBLE_EQ(small[0].value, 1.0);
    EXPECT_EQ(small[0].evidence.transport, "RDMA");
    EXPECT_NE(
        small[0].message.find(std::to_string(planted) + " of " + std::to_string(planted) + " RDMA"), std::string::npos)
        << small[0].message;
}

TEST(Advice, RealTwoRankValuesEqualTheFiles)
{
    const auto findings = advise((test::dataDir() / "torch_npu_2rank_level1").string());
    // communication.json of rank 0: Σwait 5.94061871875 ms, Σtransit 3.6833535 ms over its ops.
    const auto wait = withId(findings, "wait_ratio");
    ASSERT_EQ(wait.size(), 1u);
    EXPECT_EQ(wait[0].ranks, std::vector<int64_t> { 0 });
    EXPECT_NEAR(wait[0].value, 5.94061871875 / (5.94061871875 + 3.6833535), 1e-6);
    // step_trace_time.csv: rank 1 Preparing 20433.25 of 8878.295 + 96359.047 + 26675.274 + 20433.25 µs,
    // rank 0 17902.5 of 8873.756 + 101963.203 + 25744.05 + 17902.5 µs.
    const auto prep = withId(findings, "preparing");
    ASSERT_EQ(prep.size(), 1u);
    EXPECT_EQ(prep[0].ranks, (std::vector<int64_t> { 1, 0 }));
    EXPECT_NEAR(prep[0].value, 20433.25 / (8878.295 + 96359.047 + 26675.274 + 20433.25), 1e-6);
    // Two ranks: no outlier test, and no latency-bound link is called slow.
    EXPECT_TRUE(withId(findings, "slow_rank").empty());
    EXPECT_TRUE(withId(findings, "slow_link").empty());
}

TEST(Advice, CliJsonIsTheContract)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.ranks = 16;
    o.pp = 2;
    o.tp = 2;
    o.slowRank = 5;
    const auto folder = generate(dir, o);
    const auto run = test::runCli("advise --json --no-cache --capacity-gb 64 " + folder);
    ASSERT_EQ(run.status, 0);
    const auto doc = nlohmann::json::parse(run.out);
    EXPECT_EQ(doc["schema"], "npuscope.advice/1");
    ASSERT_TRUE(doc["findings"].is_array());
    bool slowRank = false;
    int lastSeverity = 3;
    for (const auto& f : doc["findings"]) {
        for (const char* key : { "id", "category", "severity", "threshold", "threshold_text", "value", "unit", "ranks",
                 "links", "ops", "steps", "message", "suggestion", "evidence" })
            EXPECT_TRUE(f.contains(key)) << key;
        const std::string sev = f["severity"];
        const int level = sev == "critical" ? 2 : sev == "warning" ? 1 : 0;
        EXPECT_LE(level, lastSeverity) << "sorted by severity";
        lastSeverity = level;
        if (f["id"] == "slow_rank") {
            slowRank = true;
            EXPECT_EQ(f["ranks"], nlohmann::json::array({ 5 }));
            EXPECT_EQ(f["evidence"]["view"], "timeoverview");
        }
    }
    EXPECT_TRUE(slowRank);
    const auto text = test::runCli("advise --no-cache " + folder);
    EXPECT_NE(text.out.find("slow_rank"), std::string::npos);
    EXPECT_EQ(test::runCli("advise --capacity-gb x " + folder).status, 2);
}

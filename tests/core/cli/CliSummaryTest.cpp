// SPDX-License-Identifier: Apache-2.0
#include "TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <memory>
#include <string>

using npuscope::test::dataDir;

namespace {

using Run = npuscope::test::CliRun;
using npuscope::test::runCli;

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

} // namespace

TEST(CliSummary, JsonContractOnLevel1)
{
    const auto run = runCli("summary --json " + quoted(dataDir() / "torch_npu_2rank_level1"));
    ASSERT_EQ(run.status, 0);
    const auto j = nlohmann::json::parse(run.out);
    EXPECT_EQ(j["schema"], "npuscope.summary/1");
    ASSERT_EQ(j["ranks"].size(), 2u);
    EXPECT_EQ(j["ranks"][0]["rank"], 0);
    EXPECT_EQ(j["ranks"][0]["device"], 0);
    const auto& files = j["ranks"][1]["files"];
    EXPECT_NE(std::find(files.begin(), files.end(), "step_trace_time.csv"), files.end());
    ASSERT_EQ(j["steps"].size(), 2u);
    const auto& s0 = j["steps"][0];
    EXPECT_EQ(s0["rank"], 0);
    EXPECT_EQ(s0["step"], 50);
    EXPECT_DOUBLE_EQ(s0["computing_us"].get<double>(), 8873.756);
    EXPECT_DOUBLE_EQ(s0["preparing_us"].get<double>(), 17902.5);
    EXPECT_DOUBLE_EQ(s0["bubble_us"].get<double>(), 0.0);
    ASSERT_EQ(j["groups"].size(), 1u);
    EXPECT_EQ(j["groups"][0]["hash"], "17522688603477080586");
    EXPECT_TRUE(j["groups"][0]["name"].is_null());
    // 6 matrix ops x 8 links x 2 ranks.
    ASSERT_EQ(j["links"].size(), 96u);
    bool found = false;
    for (const auto& l : j["links"]) {
        EXPECT_TRUE(l["src"].is_number_integer());
        EXPECT_TRUE(l["dst"].is_number_integer());
        if (l["op"] == "allreduce-total" && l["src"] == 1 && l["dst"] == 0) {
            found = true;
            EXPECT_EQ(l["transport"], "HCCS");
            EXPECT_EQ(l["step"], 50);
            EXPECT_EQ(l["group"], "17522688603477080586");
        }
    }
    EXPECT_TRUE(found);
}

TEST(CliSummary, AbsentValuesAreNull)
{
    const auto run = runCli("summary --json --with-timeline " + quoted(dataDir() / "torch_npu_2023_2rank"));
    ASSERT_EQ(run.status, 0);
    const auto j = nlohmann::json::parse(run.out);
    ASSERT_EQ(j["steps"].size(), 2u);
    EXPECT_TRUE(j["steps"][0]["preparing_us"].is_null()); // 2023 builds have no Preparing column
    EXPECT_EQ(j["steps"][0]["step"], 2);
    bool hasIssueWithLine = false;
    for (const auto& i : j["issues"])
        hasIssueWithLine = hasIssueWithLine || (i["line"].is_number_integer() && i["file"].is_string());
    EXPECT_TRUE(hasIssueWithLine); // the trimmed 2023 kernel_details.csv (a deferred file) has a short row
}

TEST(CliSummary, TextTablesAndExitCodes)
{
    const auto ok = runCli("summary " + quoted(dataDir() / "torch_npu_2rank_level0"));
    EXPECT_EQ(ok.status, 0);
    EXPECT_NE(ok.out.find("Step breakdown"), std::string::npos);
    EXPECT_NE(ok.out.find("Cluster statistics"), std::string::npos);
    EXPECT_EQ(runCli("summary /nonexistent/npuscope/path").status, 1);
    EXPECT_EQ(runCli("summary").status, 2);
    EXPECT_EQ(runCli("frobnicate").status, 2);
}

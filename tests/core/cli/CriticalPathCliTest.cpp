// SPDX-License-Identifier: Apache-2.0
// npuscope-cli critical-path and whatif: options, usage errors and the changes a replay reports.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

using namespace npuscope;

namespace {

std::string sample() { return (test::dataDir() / "torch_npu_2rank_level1").string(); }

} // namespace

TEST(CriticalPathCli, BadChangeIsAUsageErrorNamingTheSpecAndTheForms)
{
    const auto r = test::runCli("whatif --no-cache --change rank=x:compute=2 " + sample(), true);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out.find("npuscope-cli whatif: change \"rank=x:compute=2\""), 0u) << r.out;
    EXPECT_NE(r.out.find("link=A-B:bandwidth=F"), std::string::npos);
    const auto missing = test::runCli("whatif --change", true);
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.out.find("--change needs a SPEC"), std::string::npos) << missing.out;
}

TEST(CriticalPathCli, ChangesApplyTogetherAndSayWhatTheyMatched)
{
    const auto r = test::runCli("whatif --json --no-cache --step 50 --change rank=0:compute=0.5 --change "
                                "op=TransData:0.1 --change op=NoSuchOp:2 "
        + sample());
    ASSERT_EQ(r.status, 0) << r.out;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["changes"].size(), 3u);
    EXPECT_EQ(doc["changes"][0]["matched"], 1);
    EXPECT_GT(doc["changes"][1]["matched"].get<int>(), 0);
    EXPECT_EQ(doc["changes"][2]["matched"], 0);
    ASSERT_EQ(doc["steps"].size(), 1u);
    const auto& s = doc["steps"][0];
    EXPECT_LT(s["predicted_ms"].get<double>(), s["measured_ms"].get<double>());
    EXPECT_NEAR(s["gain_ms"].get<double>(), s["measured_ms"].get<double>() - s["predicted_ms"].get<double>(), 1e-6);
    EXPECT_EQ(s["ranks"].size(), 2u);
}

TEST(CriticalPathCli, StepOptionKeepsOneStep)
{
    const auto r = test::runCli("critical-path --json --no-cache --step 50 " + sample());
    ASSERT_EQ(r.status, 0);
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["steps"].size(), 1u);
    EXPECT_EQ(doc["steps"][0]["step"], 50);
    const auto none = test::runCli("critical-path --json --no-cache --step 7 " + sample());
    ASSERT_EQ(none.status, 0);
    EXPECT_TRUE(nlohmann::json::parse(none.out)["steps"].empty());
}

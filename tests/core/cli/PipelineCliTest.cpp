// SPDX-License-Identifier: Apache-2.0
// npuscope-cli pipeline: the npuscope.pipeline/1 contract and the text form on tests/data/mindspore_pipeline, the
// figures checked against the CSV read here (python3 one-off of the same reading: csv.DictReader over
// run2/minddata_pipeline_raw_1.csv gives BatchOp 4 workers, usage 0.015625, capacity 64; ImageFolderOp 8 workers 0.0).
#include "TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace npuscope::test;

namespace {

std::string samplePath() { return "'" + (dataDir() / "mindspore_pipeline").string() + "'"; }

} // namespace

TEST(PipelineCli, JsonContract)
{
    const auto run = runCli("pipeline --json --no-cache " + samplePath());
    ASSERT_EQ(run.status, 0);
    const auto j = nlohmann::json::parse(run.out);
    EXPECT_EQ(j["schema"], "npuscope.pipeline/1");
    ASSERT_EQ(j["ranks"].size(), 2u);
    const auto& r1 = j["ranks"][1];
    EXPECT_EQ(r1["rank"], 1);
    ASSERT_EQ(r1["ops"].size(), 4u);
    const auto& root = r1["ops"][3];
    EXPECT_EQ(root["op_id"], 0);
    EXPECT_EQ(root["op_type"], "BatchOp");
    EXPECT_EQ(root["num_workers"], 4);
    EXPECT_DOUBLE_EQ(root["queue_usage"].get<double>(), 0.015625);
    EXPECT_EQ(root["queue_capacity"], 64);
    EXPECT_TRUE(root["parent_id"].is_null());
    EXPECT_EQ(r1["ops"][0]["op_type"], "ImageFolderOp");
    EXPECT_DOUBLE_EQ(r1["device_queue"]["empty_rate"].get<double>(), 1.0);
    EXPECT_EQ(r1["bottleneck"]["op_id"], 3);
    EXPECT_EQ(r1["bottleneck"]["rule"], "slow_source");
    EXPECT_FALSE(r1.contains("bottleneck_reason"));
    const auto& r0 = j["ranks"][0];
    EXPECT_TRUE(r0["bottleneck"].is_null());
    EXPECT_TRUE(r0["bottleneck_reason"].is_string());
}

TEST(PipelineCli, TextNamesTheBottleneckAndSaysWhenNothingWasLoaded)
{
    const auto run = runCli("pipeline --no-cache " + samplePath());
    ASSERT_EQ(run.status, 0);
    EXPECT_NE(run.out.find("bottleneck: op 3 ImageFolderOp (slow_source)"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("bottleneck: none"), std::string::npos) << run.out;
    const auto none = runCli("pipeline --no-cache '" + (dataDir() / "torch_npu_2rank_level1").string() + "'");
    ASSERT_EQ(none.status, 0);
    EXPECT_NE(none.out.find("No MindSpore data pipeline files"), std::string::npos);
}

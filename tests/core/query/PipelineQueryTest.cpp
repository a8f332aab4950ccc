// SPDX-License-Identifier: Apache-2.0
// PipelineQuery (docs/metrics.md, "Data pipeline") and the input_bound advice rule: on the real MindInsight fixtures
// of tests/data/mindspore_pipeline, with the expected figures read from the files here, and on small models written
// for each bottleneck rule.
//
// The real samples, applied by hand (python3 one-off: csv.DictReader over minddata_pipeline_raw_{1,0}.csv, json.load
// of minddata_cpu_utilization_*.json, the "1 ..." lines of device_queue_profiling_*.txt):
//   run2 (rank 1): BatchOp 0 (usage 0.015625) <- MapOp 1 (0.0) <- MapOp 2 (0.0) <- ImageFolderOp 3 (0.0, a source);
//     device queue 1 sample, empty (rate 1.0 > 0.3); no queue drops (every input queue is as empty as its output);
//     the source is below 0.2 -> slow_source, ImageFolderOp. CPU: op 1 user 20 + sys 20 = 40 %, process 40 %.
//   profiler (rank 0): Batch 0 (no queue samples) <- Shuffle 1 (0.3125) <- TFReader 2, 3 (0.3125 each); device queue
//     empty in 1 of 1; no drop (0.3125 - 0.3125), sources above 0.2, not every queue above 0.8 -> no rule fires.
#include "TestSupport.h"

#include "npuscope/model/ModelWriter.h"
#include "npuscope/query/PipelineQuery.h"
#include "npuscope/query/advice/AdviceQuery.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace fs = std::filesystem;
using namespace npuscope;
using namespace npuscope::test;
using query::NoBottleneck;
using query::PipelineQuery;

namespace {

const fs::path kSample = dataDir() / "mindspore_pipeline";

double meanOf(const nlohmann::json& series)
{
    double sum = 0;
    for (const auto& v : series)
        sum += v.get<double>();
    return sum / static_cast<double>(series.size());
}

// A model with a rank per entry and the given operators: (op id, parent, usage, samples, empty samples).
struct Op {
    int64_t id;
    std::optional<int64_t> parent;
    std::optional<double> usage;
    int64_t samples = 4;
};

std::unique_ptr<model::Database> modelWith(const std::vector<Op>& ops, std::vector<int64_t> queueSizes = { 0, 0, 0 },
    std::optional<int64_t> preparingNs = std::nullopt)
{
    auto db = model::Database::createModel();
    model::ModelWriter w(*db);
    w.begin();
    model::RankRow rank;
    rank.rankId = 0;
    rank.path = "/r0";
    rank.rankSource = "file_name";
    w.addRank(rank);
    for (const auto& o : ops) {
        model::PipelineOpRow r;
        r.rankId = 0;
        r.source = "minddata_pipeline_raw";
        r.opId = o.id;
        r.opType = "Op" + std::to_string(o.id);
        r.numWorkers = 2;
        r.parentId = o.parent;
        r.queueCapacity = 10;
        r.queueSamples = o.samples;
        r.queueEmptySamples = 0;
        r.queueUsageRate = o.usage;
        w.addPipelineOp(r);
    }
    for (size_t i = 0; i < queueSizes.size(); ++i) {
        model::PipelineQueueRow q;
        q.rankId = 0;
        q.step = static_cast<int64_t>(i + 1);
        q.size = queueSizes[i];
        q.capacity = 4;
        w.addPipelineQueue(q);
    }
    if (preparingNs) {
        for (int64_t step = 1; step <= 3; ++step) {
            model::StepTraceRow s;
            s.rankId = 0;
            s.step = step;
            s.computing = 60'000'000;
            s.communicationNotOverlapped = 0;
            s.free = 0;
            s.preparing = preparingNs;
            w.addStepTrace(s);
        }
    }
    w.commit();
    return db;
}

} // namespace

TEST(PipelineQuery, RealSamplesChainFiguresAndBottleneck)
{
    auto db = openFolder(kSample);
    ASSERT_TRUE(db);
    const auto ranks = PipelineQuery::ranks(*db);
    ASSERT_EQ(ranks.size(), 2u);

    const auto& r1 = ranks[1];
    ASSERT_EQ(r1.rank, 1);
    EXPECT_EQ(r1.source, "minddata_pipeline_raw");
    std::vector<int64_t> order;
    for (const auto& op : r1.ops)
        order.push_back(op.opId);
    EXPECT_EQ(order, (std::vector<int64_t> { 3, 2, 1, 0 })); // the source first, the root last
    EXPECT_EQ(r1.ops.front().opType, "ImageFolderOp");
    EXPECT_EQ(r1.ops.back().numWorkers, 4);
    EXPECT_DOUBLE_EQ(*r1.ops.back().queueUsage, 0.015625);
    EXPECT_EQ(r1.ops.back().queueCapacity, 64);

    std::ifstream in(kSample / "run2" / "minddata_cpu_utilization_1.json");
    const auto cpu = nlohmann::json::parse(in);
    const auto& opCpu = cpu["op_info"][0];
    const auto op1 = std::find_if(r1.ops.begin(), r1.ops.end(), [](const auto& o) { return o.opId == 1; });
    ASSERT_NE(op1, r1.ops.end());
    EXPECT_DOUBLE_EQ(
        *op1->cpuPct(), meanOf(opCpu["metrics"]["user_utilization"]) + meanOf(opCpu["metrics"]["sys_utilization"]));
    EXPECT_DOUBLE_EQ(*r1.processCpuPct(),
        meanOf(cpu["process_info"]["user_utilization"]) + meanOf(cpu["process_info"]["sys_utilization"]));
    EXPECT_EQ(r1.cpuProcessorNum, cpu["cpu_processor_num"].get<int64_t>());

    EXPECT_EQ(r1.deviceQueueSamples, 1);
    EXPECT_EQ(r1.deviceQueueEmpty, 1);
    EXPECT_EQ(r1.deviceQueueCapacity, 64);
    EXPECT_DOUBLE_EQ(*r1.deviceQueueEmptyRate, 1.0);
    ASSERT_TRUE(r1.bottleneck);
    EXPECT_EQ(r1.bottleneck->opId, 3);
    EXPECT_EQ(r1.bottleneck->opType, "ImageFolderOp");
    EXPECT_EQ(r1.bottleneck->rule, "slow_source");

    const auto& r0 = ranks[0];
    EXPECT_EQ(r0.rank, 0);
    EXPECT_EQ(r0.ops.size(), 4u);
    EXPECT_EQ(r0.ops.back().opType, "Batch");
    EXPECT_EQ(r0.ops.front().depth, 2); // a TFReader under Shuffle under Batch
    EXPECT_FALSE(r0.bottleneck);
    EXPECT_EQ(r0.noBottleneck, NoBottleneck::NoRuleFired);
    EXPECT_NE(PipelineQuery::reasonText(r0).find("single one out"), std::string::npos);
}

TEST(PipelineQuery, QueueDropNamesTheOperatorWhoseInputIsFullerThanItsOutput)
{
    // source 2 (0.9) -> map 1 (0.1) -> batch 0 (0.05): map consumes a full queue and leaves its own nearly empty.
    auto db = modelWith({ { 0, std::nullopt, 0.05 }, { 1, 0, 0.1 }, { 2, 1, 0.9 } });
    const auto p = PipelineQuery::rank(*db, 0);
    ASSERT_TRUE(p && p->bottleneck);
    EXPECT_EQ(p->bottleneck->opId, 1);
    EXPECT_EQ(p->bottleneck->rule, "queue_drop");
    EXPECT_DOUBLE_EQ(*p->bottleneck->inputUsage, 0.9);
}

TEST(PipelineQuery, AllQueuesFullNamesTheRoot)
{
    auto db = modelWith({ { 0, std::nullopt, 0.85 }, { 1, 0, 0.9 }, { 2, 1, 0.95 } });
    const auto p = PipelineQuery::rank(*db, 0);
    ASSERT_TRUE(p && p->bottleneck);
    EXPECT_EQ(p->bottleneck->opId, 0);
    EXPECT_EQ(p->bottleneck->rule, "all_queues_full");
}

TEST(PipelineQuery, NoBottleneckWhenTheDeviceQueueRarelyEmptiesOrNothingWasSampled)
{
    // 1 empty sample of 4 = 0.25, at most 0.3: the pipeline keeps up.
    auto keeps = modelWith({ { 0, std::nullopt, 0.05 }, { 1, 0, 0.0 } }, { 0, 2, 3, 4 });
    const auto p = PipelineQuery::rank(*keeps, 0);
    ASSERT_TRUE(p);
    EXPECT_FALSE(p->bottleneck);
    EXPECT_EQ(p->noBottleneck, NoBottleneck::KeepsUp);
    EXPECT_EQ(p->deviceQueueFull, 1); // size 4 = capacity 4
    auto unsampled = modelWith({ { 0, std::nullopt, 0.5, 0 }, { 1, 0, 0.0, 0 } });
    EXPECT_EQ(PipelineQuery::rank(*unsampled, 0)->noBottleneck, NoBottleneck::NoQueueFigures);
}

TEST(PipelineAdvice, InputBoundFiresOnTheRealSampleWithItsBottleneck)
{
    auto db = openFolder(kSample);
    ASSERT_TRUE(db);
    const auto findings = query::advice::AdviceQuery::run(*db);
    const auto f = std::find_if(findings.begin(), findings.end(), [](const auto& x) { return x.id == "input_bound"; });
    ASSERT_NE(f, findings.end());
    EXPECT_DOUBLE_EQ(f->value, 1.0); // 1 empty of 1 sample
    EXPECT_DOUBLE_EQ(f->threshold, 0.3);
    EXPECT_EQ(f->ranks, (std::vector<int64_t> { 1, 0 })); // both empty always; rank 1 names a bottleneck
    EXPECT_EQ(f->evidence.view, "pipeline");
    EXPECT_EQ(f->evidence.rank, 1);
    EXPECT_EQ(f->evidence.op, "ImageFolderOp");
    EXPECT_NE(f->message.find("ImageFolderOp"), std::string::npos);
}

TEST(PipelineAdvice, InputBoundUsesPreparingWithoutADeviceQueueFile)
{
    // Preparing 20 ms of a 80 ms step = 0.25 > 0.10; the source queue is starved (0.0).
    auto db = modelWith({ { 0, std::nullopt, 0.3 }, { 1, 0, 0.0 } }, {}, 20'000'000);
    const auto findings = query::advice::AdviceQuery::run(*db);
    const auto f = std::find_if(findings.begin(), findings.end(), [](const auto& x) { return x.id == "input_bound"; });
    ASSERT_NE(f, findings.end());
    EXPECT_DOUBLE_EQ(f->value, 0.25);
    EXPECT_DOUBLE_EQ(f->threshold, 0.10);
    EXPECT_DOUBLE_EQ(f->impactNs, 20'000'000);
    EXPECT_EQ(f->evidence.op, "Op1");
    // Preparing 5 ms of 65 ms (0.077) is below the threshold: nothing.
    auto low = modelWith({ { 0, std::nullopt, 0.3 }, { 1, 0, 0.0 } }, {}, 5'000'000);
    const auto none = query::advice::AdviceQuery::run(*low);
    EXPECT_TRUE(std::none_of(none.begin(), none.end(), [](const auto& x) { return x.id == "input_bound"; }));
}

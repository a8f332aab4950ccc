// SPDX-License-Identifier: Apache-2.0
// The dependency graph, critical path and what-if replay (query::DependencyGraph, CriticalPath, WhatIf) on generated
// TP8 x PP4 clusters with a planted cause, and on the real samples. Expectations come from the generator's parameters
// and from the generated files read here directly (step_trace_time.csv), not from npuscope's figures.
#include "TestSupport.h"

#include "npuscope/load/Loader.h"
#include "npuscope/query/CriticalPath.h"
#include "npuscope/query/CriticalPathReport.h"
#include "npuscope/query/WhatIf.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace npuscope;
using npuscope::test::ScratchDir;

namespace {

constexpr int kSteps = 4;

std::string generate(const testgen::GeneratorOptions& plant, const std::filesystem::path& out, int ranks,
    double traceMb, int64_t skewUs = 0)
{
    testgen::GeneratorOptions o = plant;
    o.outDir = out.string();
    o.ranks = ranks;
    o.pp = 4;
    o.tp = 8;
    o.steps = kSteps;
    o.traceMb = traceMb;
    o.seed = 3;
    o.clockSkewUs = skewUs;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return o.outDir;
}

// The graph as the CLI builds it: the summary, then every rank's kernels of every step (Loader::loadStepKernels).
query::DependencyGraph graphOf(const std::string& folder)
{
    auto db = test::openFolder(folder);
    EXPECT_TRUE(db);
    std::vector<int64_t> ranks;
    for (const auto& r : test::rows(*db, "SELECT rank_id FROM rank ORDER BY rank_id"))
        ranks.push_back(std::stoll(r));
    load::Loader::loadStepKernels(*db, ranks, std::nullopt);
    return query::DependencyGraphBuilder::build(*db);
}

// Per step, the longest step wall time over the ranks as the generator wrote it: Computing + Communication(Not
// Overlapped) + Free + Preparing of each rank's step_trace_time.csv (µs), read here without npuscope.
std::map<int64_t, double> writtenStepMs(const std::filesystem::path& folder)
{
    std::map<int64_t, double> out;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        const auto csv = entry.path() / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv";
        if (!std::filesystem::exists(csv))
            continue;
        std::ifstream in(csv);
        std::string line;
        std::getline(in, line); // Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,...
        while (std::getline(in, line)) {
            std::vector<double> cells;
            std::stringstream ss(line);
            std::string cell;
            while (std::getline(ss, cell, ','))
                cells.push_back(std::stod(cell));
            const double wall = cells.at(1) + cells.at(2) + cells.at(5) + cells.at(9);
            auto& v = out[static_cast<int64_t>(cells.at(0))];
            v = std::max(v, wall / 1000.0);
        }
    }
    return out;
}

// Whether the step's critical path holds a segment on one of ranks (of an instance with every one of them, when
// sameInstance).
bool passes(const query::DependencyGraph& g, const query::CriticalPathStep& s, const std::set<int64_t>& ranks,
    bool sameInstance = false)
{
    for (const auto& seg : s.segments) {
        if (!ranks.count(seg.rank))
            continue;
        if (!sameInstance)
            return true;
        if (seg.instance < 0)
            continue;
        const auto& inst = g.set.instances[static_cast<size_t>(seg.instance)];
        size_t in = 0;
        for (const auto& m : inst.members)
            in += ranks.count(m.rank);
        if (in == ranks.size())
            return true;
    }
    return false;
}

// The replay of every step with change against the unplanted cluster's written step times: within 3 %.
void expectPredicts(const query::DependencyGraph& planted, const std::string& spec, const std::filesystem::path& base)
{
    std::string error;
    const auto change = query::WhatIfChange::parse(spec, error);
    ASSERT_TRUE(change) << error;
    const auto result = query::WhatIf::run(planted, { *change });
    ASSERT_EQ(result.matched.size(), 1u);
    EXPECT_GT(result.matched[0], 0) << spec;
    const auto expected = writtenStepMs(base);
    ASSERT_EQ(result.steps.size(), static_cast<size_t>(kSteps));
    for (const auto& s : result.steps) {
        ASSERT_TRUE(expected.count(s.step)) << s.step;
        const double want = expected.at(s.step);
        const double got = static_cast<double>(s.predictedNs) / 1.0e6;
        EXPECT_NEAR(got, want, 0.03 * want) << spec << ", step " << s.step;
        EXPECT_GT(s.measuredNs, s.predictedNs) << spec << ", step " << s.step << ": the plant cost time";
        EXPECT_EQ(s.cycles, 0);
    }
}

// Every step: the path's segments tile the slowest rank's step; operator times add up.
void expectConsistent(const query::DependencyGraph& g)
{
    const auto steps = query::CriticalPath::run(g);
    ASSERT_FALSE(steps.empty());
    for (const auto& s : steps) {
        ASSERT_FALSE(s.segments.empty());
        EXPECT_NEAR(static_cast<double>(s.lengthNs), static_cast<double>(s.stepNs), 0.01 * static_cast<double>(s.stepNs))
            << "step " << s.step;
        for (size_t i = 1; i < s.segments.size(); ++i)
            EXPECT_LE(s.segments[i - 1].end, s.segments[i].start + 1000) << "step " << s.step << " segment " << i;
        EXPECT_EQ(s.share.totalNs(), s.lengthNs);
        for (const auto& o : s.operators) {
            EXPECT_EQ(o.serialNs + o.parallelNs, o.durNs) << g.strings.text(o.name);
            EXPECT_GE(o.serialNs, 0);
            EXPECT_GE(o.parallelNs, 0);
        }
        EXPECT_LE(s.topCommunication.size(), query::CriticalPath::kTopCommunication);
    }
    // No change: the replay gives the measured times back.
    const auto self = query::WhatIf::run(g, {});
    for (const auto& s : self.steps) {
        EXPECT_NEAR(static_cast<double>(s.predictedNs), static_cast<double>(s.measuredNs), 1000.0) << "step " << s.step;
        EXPECT_EQ(s.cycles, 0);
    }
}

} // namespace

TEST(CriticalPath, SlowRankIsOnThePathAndRemovingItPredictsTheUnplantedCluster)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    const auto base = generate(o, dir.path() / "base", 128, 0, 500);
    o.slowRank = 37;
    const auto planted = generate(o, dir.path() / "slow", 128, 0, 500);
    const auto g = graphOf(planted);
    expectConsistent(g);
    for (const auto& s : query::CriticalPath::run(g))
        EXPECT_TRUE(passes(g, s, { 37 })) << "step " << s.step;
    expectPredicts(g, "rank=37:compute=" + std::to_string(1.0 / testgen::GeneratorOptions::kSlowFactor), base);
}

TEST(CriticalPath, SlowLinkIsOnThePathAndRestoringItPredictsTheUnplantedCluster)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    const auto base = generate(o, dir.path() / "base", 128, 0);
    o.slowLink = std::make_pair(40, 41);
    const auto planted = generate(o, dir.path() / "slow", 128, 0);
    const auto g = graphOf(planted);
    for (const auto& s : query::CriticalPath::run(g))
        EXPECT_TRUE(passes(g, s, { 40, 41 }, true)) << "step " << s.step;
    expectPredicts(g, "link=40-41:bandwidth=" + std::to_string(1.0 / testgen::GeneratorOptions::kSlowLinkFactor), base);
}

// A slow host costs step time only where its rank has enough kernels for the launch gaps to outgrow the pipeline's
// slack: 32 ranks with a 3 MB trace budget per rank.
TEST(CriticalPath, SlowHostIsOnThePathAndIdealHostPredictsTheUnplantedCluster)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    const auto base = generate(o, dir.path() / "base", 32, 3);
    o.slowHost = 21;
    const auto planted = generate(o, dir.path() / "slow", 32, 3);
    const auto g = graphOf(planted);
    for (const auto& s : query::CriticalPath::run(g)) {
        EXPECT_TRUE(passes(g, s, { 21 })) << "step " << s.step;
        bool host = false;
        for (const auto& [rank, share] : s.ranks)
            host = host || (rank == 21 && share.hostNs > 0);
        EXPECT_TRUE(host) << "step " << s.step << ": rank 21's launch gaps are on the path";
    }
    expectPredicts(g, "rank=21:host=ideal", base);
}

TEST(CriticalPath, RealSamplesTileTheStepAndReplayThemselves)
{
    for (const char* sample : { "torch_npu_2rank_level1", "torch_npu_2rank_level2", "torch_npu_2rank_db",
             "torch_npu_2023_2rank", "kineto_nccl_2rank", "msprof_cluster_analysis" }) {
        SCOPED_TRACE(sample);
        const auto g = graphOf((test::dataDir() / sample).string());
        expectConsistent(g);
    }
}

// level1 rank 0, step 50: the four allReduces of an 8-rank group with only ranks 0 and 1 loaded. Expected figures
// from the files: rank 0's hcom_allReduce__586_0_1 waits 5.646633 ms for rank 1 (communication.json), so the path
// passes rank 1 there; its kernels are kernel_details.csv's.
TEST(CriticalPath, RealSampleFollowsTheLastArriver)
{
    const auto g = graphOf((test::dataDir() / "torch_npu_2rank_level1").string());
    const auto steps = query::CriticalPath::run(g);
    ASSERT_EQ(steps.size(), 1u);
    const auto& s = steps.front();
    EXPECT_EQ(s.step, 50);
    EXPECT_TRUE(passes(g, s, { 1 }));
    EXPECT_GT(s.share.computeNs, 0);
    EXPECT_GT(s.share.communicationNs, 0);
    ASSERT_FALSE(s.topCommunication.empty());
    EXPECT_EQ(g.strings.text(s.topCommunication.front().name).rfind("hcom_allReduce", 0), 0u);
}

TEST(CriticalPath, ChangeSpecsParseAndRejectWithTheForm)
{
    std::string error;
    auto c = query::WhatIfChange::parse("rank=3:compute=0.5", error);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->kind, query::WhatIfChange::Kind::RankCompute);
    EXPECT_EQ(c->rank, 3);
    EXPECT_DOUBLE_EQ(c->factor, 0.5);
    c = query::WhatIfChange::parse("op=MatMulV2:0.8", error);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->kind, query::WhatIfChange::Kind::Operator);
    EXPECT_EQ(c->op, "MatMulV2");
    c = query::WhatIfChange::parse("rank=2:op=hcom_allReduce__586_0_1:2", error);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->kind, query::WhatIfChange::Kind::RankOperator);
    EXPECT_EQ(c->op, "hcom_allReduce__586_0_1");
    c = query::WhatIfChange::parse("link=41-40:bandwidth=10", error);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->link.first, 40);
    EXPECT_EQ(c->link.second, 41);
    c = query::WhatIfChange::parse("rank=7:host=ideal", error);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->kind, query::WhatIfChange::Kind::RankHostIdeal);
    for (const char* bad : { "rank=x:compute=2", "rank=1:compute=0", "rank=1:compute=-1", "op=:2", "op=MatMul",
             "link=3-3:bandwidth=2", "link=3-4:speed=2", "rank=1:host=slow", "cluster=1" }) {
        error.clear();
        EXPECT_FALSE(query::WhatIfChange::parse(bad, error)) << bad;
        EXPECT_NE(error.find(bad), std::string::npos) << error;
        EXPECT_NE(error.find("rank=R:compute=F"), std::string::npos) << error;
    }
}

TEST(CriticalPath, OperatorChangeScalesEveryMatchingKernel)
{
    const auto g = graphOf((test::dataDir() / "torch_npu_2rank_level1").string());
    std::string error;
    // Doubling every allReduce's transit cannot make the step shorter; halving the biggest compute op cannot make it
    // longer.
    const auto slower = query::WhatIf::run(g, { *query::WhatIfChange::parse("op=allReduce:2", error) });
    ASSERT_EQ(slower.steps.size(), 1u);
    EXPECT_GT(slower.matched[0], 0);
    EXPECT_GE(slower.steps[0].predictedNs, slower.steps[0].measuredNs);
    const auto faster = query::WhatIf::run(g, { *query::WhatIfChange::parse("op=TransData:0.5", error) });
    EXPECT_GT(faster.matched[0], 0);
    EXPECT_LE(faster.steps[0].predictedNs, faster.steps[0].measuredNs);
    const auto none = query::WhatIf::run(g, { *query::WhatIfChange::parse("op=NoSuchOperator:0.5", error) });
    EXPECT_EQ(none.matched[0], 0);
    EXPECT_EQ(none.steps[0].predictedNs, none.steps[0].measuredNs);
}

TEST(CriticalPath, JsonCarriesTheContractFields)
{
    const auto g = graphOf((test::dataDir() / "torch_npu_2rank_level1").string());
    const auto doc = query::CriticalPathReport::criticalPathJson(g, query::CriticalPath::run(g));
    EXPECT_EQ(doc["schema"], "npuscope.critical_path/1");
    ASSERT_EQ(doc["steps"].size(), 1u);
    const auto& s = doc["steps"][0];
    for (const char* key : { "step", "length_ms", "segments" })
        EXPECT_TRUE(s.contains(key)) << key;
    for (const auto& seg : s["segments"]) {
        for (const char* key : { "rank", "kind", "op", "start_us", "dur_ms" })
            EXPECT_TRUE(seg.contains(key)) << key;
        const std::string kind = seg["kind"];
        EXPECT_TRUE(kind == "compute" || kind == "communication" || kind == "host" || kind == "idle") << kind;
    }
    const auto w = query::CriticalPathReport::whatIfJson(g, query::WhatIf::run(g, {}));
    EXPECT_EQ(w["schema"], "npuscope.whatif/1");
    for (const char* key : { "step", "measured_ms", "predicted_ms" })
        EXPECT_TRUE(w["steps"][0].contains(key)) << key;
}

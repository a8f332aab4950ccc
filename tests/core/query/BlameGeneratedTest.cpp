// SPDX-License-Identifier: Apache-2.0
// Blame on generated 128-rank TP8 x PP4 clusters (4 steps, clocks skewed by up to 500 µs per server): the expected
// root of every step is the cause the generator planted, not anything npuscope computed.
#include "TestSupport.h"

#include "npuscope/query/BlameAnalysis.h"
#include "npuscope/query/CollectivesReport.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace npuscope;
using npuscope::test::ScratchDir;

namespace {

constexpr int kRanks = 128;
constexpr int kSteps = 4;
constexpr int kSkewUs = 500;

// With ranks and steps given: no clock skew, as `npuscope-cli generate` writes by default.
query::BlameResult blameOf(
    const testgen::GeneratorOptions& plant, const ScratchDir& dir, int ranks = kRanks, int steps = kSteps)
{
    const bool cliDefaults = ranks != kRanks;
    testgen::GeneratorOptions o = plant;
    o.outDir = (dir.path() / "cluster").string();
    o.ranks = ranks;
    o.pp = 4;
    o.tp = 8;
    o.steps = steps;
    o.traceMb = 0;
    if (!cliDefaults)
        o.clockSkewUs = kSkewUs;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    auto db = test::openFolder(o.outDir);
    EXPECT_TRUE(db);
    return query::BlameAnalysis::run(*db);
}

} // namespace

TEST(BlameGenerated, SlowRankIsTheComputeRootOfEveryStep)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.slowRank = 37;
    const auto blame = blameOf(o, dir);
    ASSERT_EQ(blame.steps.size(), static_cast<size_t>(kSteps));
    for (const auto& s : blame.steps) {
        ASSERT_FALSE(s.roots.empty());
        const auto& top = s.roots.front();
        EXPECT_EQ(top.rank, 37) << "step " << s.step;
        EXPECT_EQ(top.cause, query::BlameCause::Compute) << "step " << s.step;
        EXPECT_GE(top.share, 0.8) << "step " << s.step;
        // The chain ends on rank 37, late on its own account.
        ASSERT_FALSE(top.chain.empty());
        EXPECT_EQ(top.chain.back().rank, 37);
        EXPECT_GT(top.ownExcessNs, 0);
        ASSERT_TRUE(top.computingNs && top.peerComputingNs);
        // The plant: 37 computes kSlowFactor times as long as its peers (their per-step jitter is ±3 %).
        EXPECT_NEAR(static_cast<double>(*top.computingNs) / static_cast<double>(*top.peerComputingNs),
            testgen::GeneratorOptions::kSlowFactor, 0.08);
    }
}

TEST(BlameGenerated, SlowLinkIsTheLinkRoot)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.slowLink = std::make_pair(5, 37); // stage 0 -> stage 1 of replica 0, tp index 5: a pipeline p2p link
    const auto blame = blameOf(o, dir);
    ASSERT_EQ(blame.steps.size(), static_cast<size_t>(kSteps));
    for (const auto& s : blame.steps) {
        ASSERT_FALSE(s.roots.empty());
        const auto& top = s.roots.front();
        ASSERT_TRUE(top.link) << "step " << s.step;
        EXPECT_EQ(top.link->first, 5);
        EXPECT_EQ(top.link->second, 37);
        EXPECT_EQ(top.cause, query::BlameCause::Link);
        // The plant: the link moves data at kSlowLinkFactor of the bandwidth, so its transit is about 10 times the
        // same size elsewhere.
        EXPECT_GT(static_cast<double>(top.transitNs),
            0.6 / testgen::GeneratorOptions::kSlowLinkFactor * static_cast<double>(top.expectedTransitNs));
        EXPECT_GE(top.share, 0.5) << "step " << s.step;
    }
}

// A slow link inside a collective: ranks 40 and 41 are in one TP group (TP 8: ranks 40..47), so the link slows the
// group's all-reduce, which ends together on every member once its slowest link is done. Whoever left it late names
// the link (both of its ends show the slow transit), in every step.
TEST(BlameGenerated, SlowLinkInsideACollectiveIsTheLinkRoot)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.slowLink = std::make_pair(40, 41);
    const auto blame = blameOf(o, dir);
    ASSERT_EQ(blame.steps.size(), static_cast<size_t>(kSteps));
    for (const auto& s : blame.steps) {
        ASSERT_FALSE(s.roots.empty()) << "step " << s.step;
        const auto& top = s.roots.front();
        ASSERT_TRUE(top.link) << "step " << s.step;
        EXPECT_EQ(top.link->first, 40) << "step " << s.step;
        EXPECT_EQ(top.link->second, 41) << "step " << s.step;
        EXPECT_EQ(top.cause, query::BlameCause::Link) << "step " << s.step;
        EXPECT_GT(static_cast<double>(top.transitNs),
            0.6 / testgen::GeneratorOptions::kSlowLinkFactor * static_cast<double>(top.expectedTransitNs));
        EXPECT_GE(top.share, 0.5) << "step " << s.step;
        ASSERT_FALSE(top.chain.empty());
    }
}

TEST(BlameGenerated, SlowHostIsTheHostRoot)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.slowHost = 70; // stage 2, replica 0
    const auto blame = blameOf(o, dir);
    ASSERT_EQ(blame.steps.size(), static_cast<size_t>(kSteps));
    for (const auto& s : blame.steps) {
        ASSERT_FALSE(s.roots.empty());
        const auto& top = s.roots.front();
        EXPECT_EQ(top.rank, 70) << "step " << s.step;
        EXPECT_EQ(top.cause, query::BlameCause::Host) << "step " << s.step;
        EXPECT_GE(top.share, 0.5) << "step " << s.step;
        // Host-bound: more device idle (Free) than its peers at about the same computing time.
        ASSERT_TRUE(top.freeNs && top.peerFreeNs && top.computingNs && top.peerComputingNs);
        EXPECT_GT(*top.freeNs, *top.peerFreeNs);
        EXPECT_NEAR(static_cast<double>(*top.computingNs) / static_cast<double>(*top.peerComputingNs), 1.0, 0.06);
    }
}

TEST(BlameGenerated, NoPlantNoDominantRoot)
{
    ScratchDir dir;
    const auto blame = blameOf({}, dir);
    ASSERT_EQ(blame.steps.size(), static_cast<size_t>(kSteps));
    for (const auto& s : blame.steps) {
        // The 1F1B bubbles and the ±3 % spread of the ranks' compute make every step wait...
        EXPECT_GT(s.delayNs, 0);
        // ...but no rank or link stands out: what roots explain stays a small part of it, and no root dominates.
        EXPECT_LE(static_cast<double>(s.inducedWaitNs), 0.05 * static_cast<double>(s.delayNs)) << "step " << s.step;
        if (s.roots.empty())
            continue;
        std::vector<double> shares;
        for (const auto& r : s.roots)
            shares.push_back(r.share);
        std::sort(shares.begin(), shares.end());
        const double median = shares[shares.size() / 2];
        EXPECT_LE(shares.back(), 3.0 * median) << "step " << s.step << ": " << s.roots.size() << " roots";
    }
}

// A delay does not grow as it travels. With nothing planted, 256 ranks of seed 1 have a rank 38.5 µs slower than its
// peers once in step 52; carried down a 55-hop chain of pipeline waits it was charged 14.8 % of the step's delay
// (1,192 ms) as a compute root. A root late by d makes no member wait more than d.
TEST(BlameGenerated, ASmallExcessCarriedFarIsNoRoot)
{
    ScratchDir dir;
    const auto blame = blameOf({}, dir, 256, 3);
    ASSERT_EQ(blame.steps.size(), 3U);
    for (const auto& s : blame.steps) {
        EXPECT_TRUE(s.roots.empty()) << "step " << s.step << ": rank " << s.roots.front().rank.value_or(-1) << ", "
                                     << s.roots.front().inducedWaitNs / 1e6 << " ms of " << s.delayNs / 1e6;
        EXPECT_EQ(s.inducedWaitNs, 0) << "step " << s.step;
    }
}

TEST(BlameGenerated, ClockOffsetsRecoverTheSkew)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.slowRank = 37;
    const auto blame = blameOf(o, dir);
    // Ranks of one server share its offset; servers differ (up to 500 µs); the estimates come from collectives
    // whose members end together, so they match each server's offset to well under a microsecond... relative to
    // server 0, which is unshifted.
    std::vector<std::vector<int64_t>> perServer(kRanks / 8);
    for (const auto& off : blame.set.offsets) {
        ASSERT_EQ(off.ranks.size(), 1u); // generated ranks have no host name: one clock domain per rank
        perServer[static_cast<size_t>(off.ranks.front() / 8)].push_back(off.offsetNs);
    }
    int distinct = 0;
    for (const auto& v : perServer) {
        ASSERT_EQ(v.size(), 8u);
        EXPECT_LE(*std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end()), 2000);
        EXPECT_LE(std::llabs(v.front()), kSkewUs * 1000 + 2000);
        distinct += std::llabs(v.front()) > 5000;
    }
    EXPECT_EQ(perServer.front().front(), 0);
    EXPECT_GE(distinct, 8); // most servers are shifted
}

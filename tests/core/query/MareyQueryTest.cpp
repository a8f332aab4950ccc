// SPDX-License-Identifier: Apache-2.0
// MareyQuery / MareyStep / MareyFindings on a generated PP=4 × TP=8 cluster with a slow rank and on the real 2-rank
// torch_npu samples.

#include "TestSupport.h"

#include "npuscope/query/MareyFindings.h"
#include "npuscope/query/MareyQuery.h"
#include "npuscope/query/ParallelLayoutQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace npuscope;
using namespace npuscope::query;

namespace {

constexpr int kSlowRank = 9;

std::string generateCluster(const test::ScratchDir& dir)
{
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "pp4").string();
    o.ranks = 32;
    o.pp = 4;
    o.tp = 8;
    o.steps = 2;
    o.traceMb = 1; // ~150 kernels per rank and step: enough for the slow rank's median ratio to stand out
    o.slowRank = kSlowRank;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return o.outDir;
}

// The generated cluster with its kernels, opened once for the suite.
class MareyGenerated : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_dir = new test::ScratchDir;
        s_db = test::openFolder(generateCluster(*s_dir), true).release();
    }
    static void TearDownTestSuite()
    {
        delete s_db;
        delete s_dir;
    }
    static MareyStep firstStep()
    {
        const auto steps = MareyQuery::steps(*s_db);
        EXPECT_FALSE(steps.empty());
        return MareyQuery::step(*s_db, ParallelLayoutQuery::layout(*s_db), steps.empty() ? 0 : steps.front());
    }
    static inline test::ScratchDir* s_dir = nullptr;
    static inline model::Database* s_db = nullptr;
};

// (name, occurrence) keys of a device's ops, computed again from SQL rows in time order.
std::vector<std::pair<std::string, int>> sqlKeys(model::Database& db, int64_t rank, int64_t step)
{
    std::vector<std::pair<std::string, int>> out;
    std::map<std::string, int> seen;
    for (const auto& name : test::rows(db,
             "SELECT s.value FROM kernel k JOIN string s ON s.id = k.name_id WHERE k.rank_id = " + std::to_string(rank)
                 + " AND k.step = " + std::to_string(step) + " ORDER BY k.ts, k.ts + k.dur"))
        out.emplace_back(name, seen[name]++);
    return out;
}

// Matches and unmatched ops of one stage, by brute force over the SQL keys.
std::pair<int64_t, int64_t> bruteMatching(model::Database& db, const MareyStep& step, const MareyStage& stage)
{
    std::vector<std::set<std::pair<std::string, int>>> keys;
    for (int d = stage.firstDevice; d < stage.firstDevice + stage.deviceCount; ++d) {
        const auto k = sqlKeys(db, step.devices[d].rank, *step.step);
        keys.emplace_back(k.begin(), k.end());
    }
    int64_t joins = 0, unmatched = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
        for (const auto& k : keys[i]) {
            const bool withNext = i + 1 < keys.size() && keys[i + 1].count(k);
            const bool withPrev = i > 0 && keys[i - 1].count(k);
            joins += withNext ? 1 : 0;
            unmatched += (!withNext && !withPrev && keys.size() > 1) ? 1 : 0;
        }
    }
    return { joins, unmatched };
}

int64_t countJoins(const MareyStep& step, const MareyStage& stage)
{
    int64_t joins = 0;
    for (int d = stage.firstDevice; d < stage.firstDevice + stage.deviceCount; ++d) {
        for (const auto& op : step.devices[d].ops)
            joins += op.next >= 0 ? 1 : 0;
    }
    return joins;
}

// The union of a collapsed op checked against its devices' intervals: every elementary segment between endpoints is
// covered by the union exactly when some device's interval covers it, and the union's intervals are disjoint.
void expectUnion(const MareyStep& step, int s, MareyTime time)
{
    const auto& stage = step.stages[s];
    std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<int64_t, int64_t>>> raw;
    for (int d = stage.firstDevice; d < stage.firstDevice + stage.deviceCount; ++d) {
        const auto& dev = step.devices[d];
        for (const auto& op : dev.ops) {
            if (op.matched || stage.deviceCount == 1)
                raw[{ op.name, op.occurrence }].emplace_back(op.start - dev.offset(time), op.end - dev.offset(time));
        }
    }
    const auto collapsed = step.collapse(s, time);
    ASSERT_EQ(collapsed.size(), raw.size());
    for (const auto& c : collapsed) {
        const auto& ivs = raw.at({ c.name, c.occurrence });
        std::set<int64_t> points;
        for (const auto& [a, b] : ivs) {
            points.insert(a);
            points.insert(b);
        }
        for (size_t i = 1; i < c.intervals.size(); ++i)
            ASSERT_LT(c.intervals[i - 1].second, c.intervals[i].first);
        for (auto it = points.begin(); std::next(it) != points.end(); ++it) {
            const int64_t mid2 = *it + *std::next(it); // twice the segment's midpoint: no rounding
            const bool inDevices = std::any_of(
                ivs.begin(), ivs.end(), [&](const auto& iv) { return 2 * iv.first <= mid2 && mid2 <= 2 * iv.second; });
            const bool inUnion = std::any_of(c.intervals.begin(), c.intervals.end(),
                [&](const auto& iv) { return 2 * iv.first <= mid2 && mid2 <= 2 * iv.second; });
            ASSERT_EQ(inDevices, inUnion) << step.names[c.name] << " segment at " << *it;
        }
    }
}

} // namespace

TEST_F(MareyGenerated, DevicesInStageOrderWithTheStepsKernels)
{
    const auto step = firstStep();
    ASSERT_EQ(step.stages.size(), 4u);
    ASSERT_EQ(step.devices.size(), 32u);
    for (int s = 0; s < 4; ++s) {
        EXPECT_EQ(step.stages[s].index, s);
        EXPECT_EQ(step.stages[s].deviceCount, 8);
        for (int i = 0; i < 8; ++i)
            EXPECT_EQ(step.devices[step.stages[s].firstDevice + i].rank, s * 8 + i); // Megatron: pp groups stride tp·dp
    }
    int64_t total = 0;
    for (const auto& dev : step.devices) {
        const auto n = test::count(*s_db,
            "SELECT COUNT(*) FROM kernel WHERE rank_id = " + std::to_string(dev.rank)
                + " AND step = " + std::to_string(*step.step));
        EXPECT_EQ(static_cast<int64_t>(dev.ops.size()), n) << dev.rank;
        EXPECT_GT(n, 0);
        EXPECT_EQ(dev.stepStart, dev.ops.front().start);
        total += n;
    }
    EXPECT_EQ(step.opCount, total);
}

TEST_F(MareyGenerated, MatchingEqualsBruteForce)
{
    const auto step = firstStep();
    int64_t unmatched = 0;
    for (const auto& stage : step.stages) {
        const auto [joins, lone] = bruteMatching(*s_db, step, stage);
        EXPECT_EQ(countJoins(step, stage), joins) << "stage " << stage.index;
        EXPECT_GT(joins, 0);
        EXPECT_EQ(stage.unmatchedOps, lone) << "stage " << stage.index;
        unmatched += lone;
    }
    EXPECT_EQ(step.unmatchedOps, unmatched);
    // A joined pair has the same name and occurrence.
    for (const auto& stage : step.stages) {
        for (int d = stage.firstDevice; d + 1 < stage.firstDevice + stage.deviceCount; ++d) {
            for (const auto& op : step.devices[d].ops) {
                if (op.next < 0)
                    continue;
                const auto& other = step.devices[d + 1].ops[op.next];
                EXPECT_EQ(other.name, op.name);
                EXPECT_EQ(other.occurrence, op.occurrence);
            }
        }
    }
}

TEST_F(MareyGenerated, CollapsedUnionEqualsTheDevicesUnion)
{
    const auto step = firstStep();
    for (int s = 0; s < static_cast<int>(step.stages.size()); ++s) {
        expectUnion(step, s, MareyTime::Absolute);
        expectUnion(step, s, MareyTime::Aligned);
    }
}

TEST_F(MareyGenerated, SendReceivePairsJoinNeighbouringStages)
{
    const auto step = firstStep();
    ASSERT_FALSE(step.p2p.empty());
    const auto layout = ParallelLayoutQuery::layout(*s_db);
    std::set<std::pair<int, int>> usedRecv;
    int64_t sends = 0;
    for (const auto& dev : step.devices) {
        for (const auto& op : dev.ops)
            sends += op.kind == MareyOpKind::Send ? 1 : 0;
    }
    for (const auto& p : step.p2p) {
        const auto& s = step.devices[p.sendDevice];
        const auto& r = step.devices[p.recvDevice];
        EXPECT_EQ(s.ops[p.sendOp].kind, MareyOpKind::Send);
        EXPECT_EQ(r.ops[p.recvOp].kind, MareyOpKind::Receive);
        EXPECT_EQ(std::abs(step.stages[s.stage].index - step.stages[r.stage].index), 1);
        // Same position in the stage's dp/cp/tp order.
        const auto* cs = layout.find(s.rank);
        const auto* cr = layout.find(r.rank);
        ASSERT_TRUE(cs && cr);
        EXPECT_EQ(cs->tp, cr->tp);
        EXPECT_EQ(cs->dp, cr->dp);
        // The communication matrix names the peer of each p2p op: the pair agrees with it.
        const auto peer = test::count(*s_db,
            "SELECT dst FROM comm_link WHERE kind = 'p2p' AND rank_id = " + std::to_string(s.rank) + " AND src = "
                + std::to_string(s.rank) + " AND dst <> src AND op_name = '" + step.names[s.ops[p.sendOp].name] + "'");
        if (peer >= 0) {
            EXPECT_EQ(peer, r.rank);
        }
        EXPECT_TRUE(usedRecv.insert({ p.recvDevice, p.recvOp }).second) << "a receive joined twice";
    }
    // Without a named peer a middle stage's send may go either way; the time rule joins nearly all of them (the
    // generated 1F1B schedule: 379 of 384 in the first step) and says how many it left.
    EXPECT_GE(static_cast<double>(step.p2p.size()), 0.95 * static_cast<double>(sends));
    const int64_t left = sends - static_cast<int64_t>(step.p2p.size());
    EXPECT_EQ(step.unpairedSends, left);
}

TEST_F(MareyGenerated, SlowRankIsTheOneDeviceOutlier)
{
    const auto step = firstStep();
    MareyThresholds every;
    every.maxFindings = 1'000'000; // the whole list, to sum the excess per device
    const auto found = MareyFindings::find(step, every);
    // The slow device: rank 9 alone, listed first.
    std::vector<int64_t> slow;
    for (const auto& f : found.findings) {
        if (f.kind == MareyFindingKind::SlowDevice) {
            slow.push_back(step.devices[f.device].rank);
            EXPECT_GE(f.timeRatio, MareyThresholds {}.slowDeviceRatio);
            EXPECT_GE(f.opsCompared, MareyThresholds {}.slowDeviceMinOps);
        }
    }
    EXPECT_EQ(slow, (std::vector<int64_t> { kSlowRank }));
    EXPECT_EQ(found.slowDeviceTotal, 1);
    ASSERT_FALSE(found.findings.empty());
    EXPECT_EQ(found.findings.front().kind, MareyFindingKind::SlowDevice);
    // Its long operators add up to more excess over the peers than any other device's.
    std::map<int64_t, int64_t> excess;
    for (const auto& f : found.findings) {
        if (f.kind != MareyFindingKind::OneDevice)
            continue;
        excess[step.devices[f.device].rank] += f.excessNs();
        EXPECT_GE(f.durationNs, MareyThresholds {}.deviceMinNs);
        EXPECT_GE(static_cast<double>(f.durationNs), 1.2 * static_cast<double>(f.referenceNs));
    }
    ASSERT_EQ(found.oneDeviceTotal,
        static_cast<int64_t>(std::count_if(found.findings.begin(), found.findings.end(),
            [](const MareyFinding& f) { return f.kind == MareyFindingKind::OneDevice; })));
    auto top = std::max_element(excess.begin(), excess.end(), [](auto& a, auto& b) { return a.second < b.second; });
    ASSERT_NE(top, excess.end());
    EXPECT_EQ(top->first, kSlowRank);
}

TEST(MareyReal, TwoRankSampleMatchesByNameAndOccurrence)
{
    for (const char* sample : { "torch_npu_2rank_level1", "torch_npu_2rank_level0" }) {
        SCOPED_TRACE(sample);
        auto db = test::openFolder(test::dataDir() / sample, true);
        EXPECT_EQ(MareyQuery::steps(*db), (std::vector<int64_t> { 50 }));
        const auto step = MareyQuery::step(*db, ParallelLayoutQuery::layout(*db), 50);
        ASSERT_EQ(step.stages.size(), 1u);
        ASSERT_EQ(step.devices.size(), 2u);
        EXPECT_EQ(step.devices[0].rank, 0);
        EXPECT_EQ(step.devices[1].rank, 1);
        EXPECT_EQ(step.devices[0].ops.size(), 191u); // kernel_details.csv rows of step 50
        EXPECT_EQ(step.devices[1].ops.size(), 191u);
        int comm = 0;
        for (const auto& op : step.devices[0].ops)
            comm += op.kind == MareyOpKind::Communication ? 1 : 0;
        EXPECT_EQ(comm, 4); // hcom_allReduce__…_0_1 .. _3_1
        const auto [joins, lone] = bruteMatching(*db, step, step.stages[0]);
        EXPECT_EQ(countJoins(step, step.stages[0]), joins);
        EXPECT_EQ(step.unmatchedOps, lone);
        EXPECT_GT(joins, 150);
        expectUnion(step, 0, MareyTime::Absolute);
        expectUnion(step, 0, MareyTime::Aligned);
        EXPECT_TRUE(step.p2p.empty());
        const auto aligned = step.range(MareyTime::Aligned);
        EXPECT_EQ(aligned.first, 0);
    }
}

// SPDX-License-Identifier: Apache-2.0
// Collective instances of the real samples against an independent reading of every rank's communication.json.
#include "TestSupport.h"

#include "npuscope/query/BlameAnalysis.h"
#include "npuscope/query/CollectiveInstances.h"
#include "npuscope/query/CollectivesReport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace fs = std::filesystem;
using namespace npuscope;

namespace {

struct Figures {
    int64_t startNs = 0, elapseNs = 0, transitNs = 0, waitNs = 0, syncNs = 0;
    bool p2p = false;
};

int64_t ns(double v, double scale) { return std::llround(v * scale); }

// (rank, step, op key) -> figures, read straight from the files; the rank is the N of profiler_info_N.json.
std::map<std::tuple<int64_t, int64_t, std::string>, Figures> readFiles(const fs::path& root)
{
    std::map<std::tuple<int64_t, int64_t, std::string>, Figures> out;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        if (e.path().filename() != "communication.json")
            continue;
        const fs::path rankDir = e.path().parent_path().parent_path();
        int64_t rank = -1;
        for (const auto& f : fs::directory_iterator(rankDir)) {
            const std::string name = f.path().filename().string();
            if (name.rfind("profiler_info_", 0) == 0)
                rank = std::stoll(name.substr(14, name.size() - 14 - 5));
        }
        EXPECT_GE(rank, 0) << rankDir;
        std::ifstream in(e.path());
        const auto j = nlohmann::json::parse(in);
        for (const auto& [stepKey, kinds] : j.items()) {
            const int64_t step = std::stoll(stepKey.substr(4));
            for (const auto& [kind, ops] : kinds.items()) {
                for (const auto& [key, op] : ops.items()) {
                    if (key == "Total Op Info")
                        continue;
                    const auto& t = op.at("Communication Time Info");
                    Figures f;
                    f.startNs = ns(t.at("Start Timestamp(us)").get<double>(), 1e3);
                    f.elapseNs = ns(t.at("Elapse Time(ms)").get<double>(), 1e6);
                    f.transitNs = ns(t.at("Transit Time(ms)").get<double>(), 1e6);
                    f.waitNs = ns(t.at("Wait Time(ms)").get<double>(), 1e6);
                    f.syncNs = ns(t.at("Synchronization Time(ms)").get<double>(), 1e6);
                    f.p2p = kind == "p2p";
                    out[{ rank, step, key }] = f;
                }
            }
        }
    }
    return out;
}

void checkSample(const char* name, size_t expectedInstances, size_t expectedP2p)
{
    const fs::path root = test::dataDir() / name;
    const auto files = readFiles(root);
    ASSERT_FALSE(files.empty());
    auto db = test::openFolder(root);
    ASSERT_TRUE(db);
    const auto set = query::CollectiveInstances::build(*db);
    EXPECT_TRUE(set.unmatched.empty()) << name;
    EXPECT_EQ(set.instances.size(), expectedInstances) << name;

    // Every op of every file is a member of exactly one instance, with the figures as written.
    std::set<std::tuple<int64_t, int64_t, std::string>> seen;
    size_t p2p = 0;
    for (const auto& inst : set.instances) {
        p2p += inst.p2p;
        std::set<int64_t> ranks;
        for (const auto& m : inst.members) {
            const auto key = std::make_tuple(m.rank, inst.step, std::string(m.opKey));
            ASSERT_TRUE(files.count(key)) << name << " rank " << m.rank << " " << m.opKey;
            EXPECT_TRUE(seen.insert(key).second) << "twice: " << m.opKey;
            const Figures& f = files.at(key);
            // The starts are epoch µs (~1.7e15): read through a double here (0.25 µs spacing, then × 1000) they are
            // off by up to about 400 ns; npuscope reads the decimal text exactly.
            EXPECT_LE(std::llabs(m.startNs - f.startNs), 512) << m.opKey;
            EXPECT_LE(std::llabs(m.elapseNs - f.elapseNs), 1) << m.opKey;
            EXPECT_LE(std::llabs(m.transitNs - f.transitNs), 1) << m.opKey;
            EXPECT_LE(std::llabs(m.waitNs - f.waitNs), 1) << m.opKey;
            EXPECT_LE(std::llabs(m.syncNs - f.syncNs), 1) << m.opKey;
            EXPECT_EQ(inst.p2p, f.p2p);
            ranks.insert(m.rank);
        }
        // A collective's members: exactly the ranks whose file has its key in that step.
        std::set<int64_t> expected;
        for (const auto& [key, f] : files) {
            if (std::get<1>(key) == inst.step && std::get<2>(key) == inst.members.front().opKey)
                expected.insert(std::get<0>(key));
        }
        EXPECT_EQ(ranks, expected) << inst.opKey;
        // The last arriver waited least; the wait cost is the others' wait above it.
        int64_t cost = 0;
        for (const auto& m : inst.members) {
            EXPECT_GE(m.waitNs, inst.members[inst.lastArriver].waitNs);
            cost += m.waitNs - inst.members[inst.lastArriver].waitNs;
        }
        EXPECT_EQ(inst.waitCostNs, cost);
    }
    EXPECT_EQ(seen.size(), files.size()) << name;
    EXPECT_EQ(p2p, expectedP2p) << name;
    // Every send has its counterpart on another rank.
    for (const auto& inst : set.instances) {
        if (!inst.p2p)
            continue;
        ASSERT_EQ(inst.members.size(), 2u) << inst.opKey;
        EXPECT_NE(inst.members[0].rank, inst.members[1].rank);
    }
}

} // namespace

TEST(CollectiveInstancesReal, TorchNpu2RankLevel1)
{
    // 1 step x 4 all-reduces on both ranks (rank0/rank1 communication.json, step50).
    checkSample("torch_npu_2rank_level1", 4, 0);
}

TEST(CollectiveInstancesReal, TorchNpu2RankLevel2) { checkSample("torch_npu_2rank_level2", 4, 0); }

TEST(CollectiveInstancesReal, TorchNpu2023TwoRanksWithSend)
{
    // step2: 30 collective keys over the two files (27 on rank 1, some on one rank only) and one hcom_send__822_0
    // written by both ranks (a batched send/receive).
    checkSample("torch_npu_2023_2rank", 31, 1);
}

TEST(CollectiveInstancesReal, CollectivesJsonKeys)
{
    auto db = test::openFolder(test::dataDir() / "torch_npu_2rank_level1");
    ASSERT_TRUE(db);
    const auto blame = query::BlameAnalysis::run(*db);
    const auto j = query::CollectivesReport::collectivesJson(*db, blame, {});
    EXPECT_EQ(j.at("schema"), "npuscope.collectives/1");
    ASSERT_EQ(j.at("instances").size(), 4u);
    const auto& first = j.at("instances").at(0);
    for (const char* k :
        { "step", "group", "op_key", "op_type", "kind", "members", "last_arriver", "wait_cost_ms", "root" })
        EXPECT_TRUE(first.contains(k)) << k;
    EXPECT_EQ(first.at("kind"), "collective");
    EXPECT_EQ(first.at("members").size(), 2u);
    for (const char* k : { "rank", "start_us", "elapse_ms", "transit_ms", "wait_ms" })
        EXPECT_TRUE(first.at("members").at(0).contains(k)) << k;
    // Sorted by wait cost.
    EXPECT_GE(first.at("wait_cost_ms").get<double>(), j.at("instances").at(3).at("wait_cost_ms").get<double>());
    const auto b = query::CollectivesReport::blameJson(blame, std::nullopt);
    EXPECT_EQ(b.at("schema"), "npuscope.blame/1");
    for (const auto& s : b.at("steps")) {
        double sum = 0;
        for (const auto& r : s.at("roots")) {
            EXPECT_TRUE(r.contains("rank") || r.contains("link"));
            sum += r.at("share").get<double>();
        }
        if (!s.at("roots").empty()) {
            EXPECT_NEAR(sum, 1.0, 1e-9);
        }
        EXPECT_NEAR(s.at("induced_wait_ms").get<double>() + s.at("unattributed_wait_ms").get<double>(),
            s.at("delay_ms").get<double>(), 1e-6);
    }
}

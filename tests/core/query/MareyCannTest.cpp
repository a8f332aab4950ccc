// SPDX-License-Identifier: Apache-2.0
// Marey on CANN PROF task timelines (issue 38): a PROF_* folder has no kernel file; a device's operators of a step are
// the operator tasks of its msprof_{dev}_{model}_{iter}.json ("Ascend Hardware" tasks named by their op, the HCCL
// process's op-level slices) within the step's "Iteration N" span. The expected ops, times and matches are read here
// from the fixture's JSON files and start_info files (tests/data/cann_prof_2023, a real 2-device AlexNet run), not
// from npuscope's model.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/MareyQuery.h"
#include "npuscope/query/ParallelLayoutQuery.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;

namespace {

struct Expected {
    std::string name;
    int64_t start = 0, end = 0;
    bool comm = false;
    bool operator==(const Expected&) const = default;
    bool operator<(const Expected& o) const
    {
        return std::tie(start, end, name, comm) < std::tie(o.start, o.end, o.name, o.comm);
    }
};

fs::path deviceFolder(int device)
{
    const fs::path root = dataDir() / "cann_prof_2023";
    for (const auto& prof : fs::directory_iterator(root)) {
        const auto d = prof.path() / ("device_" + std::to_string(device));
        if (fs::is_directory(d))
            return d;
    }
    return {};
}

// Device `device`'s operators of iteration `iter`, read from its files: every X event of its msprof_* file of that
// iteration on the "Ascend Hardware" process whose args give a Task Type other than its name, and every X event of
// the "HCCL" process on a thread not named "Plane …"; epoch ns = µs × 1000 − clockMonotonicRaw + collectionTimeBegin
// × 1000 (start_info).
std::multiset<Expected> expectedOps(int device, int iter)
{
    const fs::path dir = deviceFolder(device);
    std::ifstream startIn(dir / ("start_info." + std::to_string(device)));
    const auto start = nlohmann::json::parse(startIn);
    const int64_t offset = std::stoll(start.at("collectionTimeBegin").get<std::string>()) * 1000
        - std::stoll(start.at("clockMonotonicRaw").get<std::string>());
    fs::path file;
    for (const auto& e : fs::directory_iterator(dir / "timeline")) {
        const std::string n = e.path().filename().string();
        if (n.rfind("msprof_", 0) == 0 && n.size() > 7
            && n.substr(n.size() - 5 - std::to_string(iter).size() - 1) == "_" + std::to_string(iter) + ".json")
            file = e.path();
    }
    std::ifstream in(file);
    const auto events = nlohmann::json::parse(in);
    std::map<int64_t, std::string> processes;
    std::map<std::pair<int64_t, int64_t>, std::string> threads;
    for (const auto& e : events) {
        if (e.value("ph", "") != "M")
            continue;
        if (e.at("name") == "process_name")
            processes[e.at("pid").get<int64_t>()] = e.at("args").at("name").get<std::string>();
        if (e.at("name") == "thread_name")
            threads[{ e.at("pid").get<int64_t>(), e.at("tid").get<int64_t>() }]
                = e.at("args").at("name").get<std::string>();
    }
    std::multiset<Expected> out;
    for (const auto& e : events) {
        if (e.value("ph", "") != "X")
            continue;
        const std::string process = processes[e.at("pid").get<int64_t>()];
        const std::string thread = threads[{ e.at("pid").get<int64_t>(), e.at("tid").get<int64_t>() }];
        const std::string name = e.at("name").get<std::string>();
        bool take = false, comm = false;
        if (process == "Ascend Hardware" && e.contains("args") && e.at("args").contains("Task Type")) {
            take = e.at("args").at("Task Type").get<std::string>() != name;
        } else if (process == "HCCL" && thread.rfind("Plane", 0) != 0) {
            take = comm = true;
        }
        if (!take)
            continue;
        const int64_t ts = std::llround(e.at("ts").get<double>() * 1000) + offset;
        const int64_t dur = std::llround(e.at("dur").get<double>() * 1000);
        out.insert({ name, ts, ts + dur, comm });
    }
    return out;
}

} // namespace

TEST(MareyCann, DevicesAreTheTaskTimelinesOperatorsOfTheIteration)
{
    auto db = load::Loader::load(io::Detector::detect({ (dataDir() / "cann_prof_2023").string() }));
    ASSERT_TRUE(db);
    // Nothing deferred: the PROF timelines are read with the rank.
    EXPECT_TRUE(query::MareyQuery::ranksNeedingTimelines(*db, { 0, 1 }).empty());
    const auto steps = query::MareyQuery::steps(*db);
    ASSERT_FALSE(steps.empty());
    EXPECT_EQ(steps.front(), 1);
    const auto layout = query::ParallelLayoutQuery::layout(*db);
    for (const int iter : { 1, 2 }) {
        const auto marey = query::MareyQuery::step(*db, layout, iter);
        ASSERT_EQ(marey.devices.size(), 2u) << "iteration " << iter;
        size_t expectedMatches = 0;
        std::map<std::string, int> firstDeviceNames;
        for (int d = 0; d < 2; ++d) {
            const auto want = expectedOps(d, iter);
            const auto& dev = marey.devices[static_cast<size_t>(d)];
            EXPECT_EQ(dev.rank, d);
            // 137 AI_CORE + 2 AI_CPU tasks and the AllReduce of the HCCL process, in every iteration file
            EXPECT_EQ(want.size(), 140u);
            std::multiset<Expected> got;
            for (const auto& op : dev.ops)
                got.insert({ marey.names[op.name], op.start, op.end, op.kind != query::MareyOpKind::Compute });
            EXPECT_EQ(got.size(), want.size()) << "device " << d << " iteration " << iter;
            EXPECT_TRUE(got == want) << "device " << d << " iteration " << iter;
            std::map<std::string, int> names;
            for (const auto& e : want)
                ++names[e.name];
            if (d == 0) {
                firstDeviceNames = names;
            } else {
                for (const auto& [name, n] : names) {
                    auto it = firstDeviceNames.find(name);
                    expectedMatches += it == firstDeviceNames.end() ? 0 : std::min(n, it->second);
                }
            }
        }
        size_t matches = 0, comm = 0;
        for (const auto& dev : marey.devices) {
            for (const auto& op : dev.ops) {
                matches += op.next >= 0 ? 1 : 0;
                comm += op.kind == query::MareyOpKind::Communication ? 1 : 0;
            }
        }
        // Data parallel: both devices run the same graph, so every operator of device 0 meets its twin on device 1.
        EXPECT_EQ(matches, expectedMatches) << "iteration " << iter;
        EXPECT_EQ(matches, 140u) << "iteration " << iter;
        EXPECT_EQ(comm, 2u) << "iteration " << iter; // Default/AllReduce-op534_0 on each device
    }
    // An iteration without a timeline file of its own (3: only its step_trace row) has no operators.
    const auto none = query::MareyQuery::step(*db, layout, 3);
    for (const auto& dev : none.devices)
        EXPECT_TRUE(dev.ops.empty());
}

// SPDX-License-Identifier: Apache-2.0
// Marey on MindSpore timelines (issue 38): a job of the old layout has no kernel files; its devices' operator timings
// are the tasks of its ascend_timeline_display files. The fixture's timelines are derived from MindInsight's own Marey
// data of a real 4-device, 2-stage pipeline job (tests/data/mindinsight_marey_4dev/SOURCE.txt); the expected devices,
// ops and matches are read here from those JSON files, not from npuscope's model.
#include "TestSupport.h"

#include "npuscope/load/Loader.h"
#include "npuscope/query/MareyQuery.h"
#include "npuscope/query/ParallelLayoutQuery.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>
#include <string>

#include <unistd.h>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;

namespace {

// Per device: op name -> (start, end) in ns, from the timeline file.
std::map<std::string, std::pair<int64_t, int64_t>> deviceOps(int device)
{
    std::ifstream in(dataDir() / "mindinsight_marey_4dev" / "profiler"
        / ("ascend_timeline_display_" + std::to_string(device) + ".json"));
    std::map<std::string, std::pair<int64_t, int64_t>> out;
    for (const auto& e : nlohmann::json::parse(in)) {
        const auto ts = static_cast<int64_t>(std::llround(e.at("ts").get<double>() * 1000));
        const auto dur = static_cast<int64_t>(std::llround(e.at("dur").get<double>() * 1000));
        out[e.at("name").get<std::string>()] = { ts, ts + dur };
    }
    return out;
}

} // namespace

TEST(MareyMindSpore, DevicesAreTheTimelinesTasksInTheirPipelineStages)
{
    auto db = test::openFolder(dataDir() / "mindinsight_marey_4dev");
    ASSERT_TRUE(db);
    const std::vector<int64_t> ranks { 0, 1, 2, 3 };
    // No kernel file: every rank's timeline is what Marey needs, and it is deferred until the view asks.
    EXPECT_EQ(query::MareyQuery::ranksNeedingTimelines(*db, ranks), ranks);
    for (const int64_t rank : ranks)
        ASSERT_TRUE(load::Loader::loadDeferred(*db, rank, io::kTimelineGroup));
    EXPECT_TRUE(query::MareyQuery::ranksNeedingTimelines(*db, ranks).empty());

    const auto steps = query::MareyQuery::steps(*db);
    ASSERT_EQ(steps, std::vector<int64_t> { 1 });
    const auto layout = query::ParallelLayoutQuery::layout(*db);
    const auto marey = query::MareyQuery::step(*db, layout, 1);
    ASSERT_EQ(marey.stages.size(), 2u); // the pipeline-parallel_2_4 file names
    ASSERT_EQ(marey.devices.size(), 4u);
    size_t expectedMatches = 0;
    for (int d = 0; d < 4; ++d) {
        const auto want = deviceOps(d);
        const auto& dev = marey.devices[static_cast<size_t>(d)];
        EXPECT_EQ(dev.rank, d);
        EXPECT_EQ(dev.stage, d / 2);
        ASSERT_EQ(dev.ops.size(), want.size()) << "device " << d;
        for (const auto& op : dev.ops) {
            const auto it = want.find(marey.names[op.name]);
            ASSERT_NE(it, want.end()) << marey.names[op.name];
            EXPECT_EQ(op.start, it->second.first) << marey.names[op.name];
            EXPECT_EQ(op.end, it->second.second) << marey.names[op.name];
        }
        // Ops of the same name on the stage's two devices are the same operator.
        if (d % 2 == 0) {
            const auto other = deviceOps(d + 1);
            for (const auto& [name, span] : want)
                expectedMatches += other.count(name);
        }
    }
    size_t matches = 0;
    for (const auto& dev : marey.devices)
        for (const auto& op : dev.ops)
            matches += op.next >= 0 ? 1 : 0;
    EXPECT_EQ(matches, expectedMatches);
    EXPECT_GT(matches, 6000u);

    // Collectives by their type; the stream synchronisation tasks are not communication.
    size_t collectives = 0;
    for (const auto& dev : marey.devices) {
        for (const auto& op : dev.ops) {
            const std::string& name = marey.names[op.name];
            const bool comm = op.kind != query::MareyOpKind::Compute;
            EXPECT_EQ(comm, name.rfind("AllReduce-op", 0) == 0 || name.rfind("Send-op", 0) == 0
                    || name.rfind("Receive-op", 0) == 0 || name.rfind("AllGather-op", 0) == 0
                    || name.rfind("ReduceScatter-op", 0) == 0 || name.rfind("Broadcast-op", 0) == 0)
                << name;
            collectives += comm ? 1 : 0;
            if (name.rfind("Receive-op", 0) == 0) {
                EXPECT_EQ(op.kind, query::MareyOpKind::Receive);
            }
        }
    }
    EXPECT_GT(collectives, 0u);
}

// The tutorial's FLOPs line on a MindSpore job: flops_{rank}.txt names each op by its full scope name
// (Default/.../MatMul-op9) and gives one execution's MFLOPs; the timeline's task carries the last part of it. A copy of
// the fixture with a FLOPs file written here (values made up for the test: the fixture's job has none) for every
// other op name of devices 0 and 2: those tasks carry the file's FLOPs, the others none.
TEST(MareyMindSpore, TimelineTasksCarryTheFlopsFilesFlops)
{
    const auto root = fs::temp_directory_path() / ("npuscope-marey-flops-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::copy(dataDir() / "mindinsight_marey_4dev", root, fs::copy_options::recursive);
    std::map<int, std::map<std::string, double>> expected; // device -> op name -> FLOPs
    for (const int d : { 0, 2 }) {
        std::ofstream out(root / "profiler" / ("flops_" + std::to_string(d) + ".txt"));
        out << "full_kernel_name, FLOPs, FLOPS, FLOPS utilization\n";
        int i = 0;
        for (const auto& [name, span] : deviceOps(d)) {
            if (i++ % 2 != 0)
                continue;
            const double mflops = 100.0 + i;
            out << "Default/network-WithLossCell/" << name << ", " << mflops << ", 1000, 10\n";
            expected[d][name] = mflops * 1e6;
        }
    }
    auto db = test::openFolder(root);
    ASSERT_TRUE(db);
    for (const int64_t rank : { 0, 1, 2, 3 })
        ASSERT_TRUE(load::Loader::loadDeferred(*db, rank, io::kTimelineGroup));
    const auto marey = query::MareyQuery::step(*db, query::ParallelLayoutQuery::layout(*db), 1);
    ASSERT_EQ(marey.devices.size(), 4u);
    for (int d = 0; d < 4; ++d) {
        size_t withFlops = 0;
        for (const auto& op : marey.devices[static_cast<size_t>(d)].ops) {
            const auto& name = marey.names[op.name];
            const auto it = expected[d].find(name);
            EXPECT_DOUBLE_EQ(op.flops, it == expected[d].end() ? 0.0 : it->second) << "device " << d << " " << name;
            withFlops += op.flops > 0 ? 1 : 0;
        }
        EXPECT_EQ(withFlops > 0, d == 0 || d == 2) << "device " << d;
    }
    fs::remove_all(root);
}

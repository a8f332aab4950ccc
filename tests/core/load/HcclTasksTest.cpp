// SPDX-License-Identifier: Apache-2.0
// Task-level HCCL figures (docs/metrics.md, "Task-level HCCL figures"): the tutorial's formulas on made-up tasks, and
// on the real torch_npu and CANN PROF traces checked against a reading of the trace files of the test itself (the
// tasks of each op summed here from the JSON, not from npuscope's model).
#include "TestSupport.h"

#include "npuscope/load/HcclTasks.h"
#include "npuscope/query/HcclTaskFigures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <string>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;

namespace {

query::HcclTask task(int64_t plane, int64_t ts, int64_t dur, const char* type, const char* transport,
    int64_t size = 0, const char* rdmaType = "")
{
    query::HcclTask t;
    t.plane = plane;
    t.ts = ts;
    t.dur = dur;
    t.type = type;
    t.transport = transport;
    t.rdmaType = rdmaType;
    t.src = 0;
    t.dst = plane;
    t.sizeBytes = size;
    return t;
}

// The figures of each op of one trace file, summed from its JSON: the HCCL process's "Plane" threads' tasks whose
// start lies within an op of its other threads. Times in µs as written.
struct FileOp {
    std::string name;
    double elapseUs = 0, sdmaUs = 0, notifyWaitUs = 0;
    std::map<int64_t, std::pair<double, double>> planes; // tid -> (sdma, wait)
};

double number(const nlohmann::json& v) { return v.is_string() ? std::stod(v.get<std::string>()) : v.get<double>(); }

std::vector<FileOp> readOps(const fs::path& file)
{
    std::ifstream in(file);
    const auto root = nlohmann::json::parse(in);
    const auto& events = root.is_array() ? root : root.at("traceEvents");
    std::optional<int64_t> pid;
    std::set<int64_t> planeTids;
    for (const auto& e : events) {
        if (e.value("ph", "") != "M")
            continue;
        const std::string name = e.value("name", "");
        const std::string arg = e.contains("args") ? e["args"].value("name", "") : "";
        if (name == "process_name" && arg == "HCCL")
            pid = e.at("pid").get<int64_t>();
    }
    if (!pid)
        return {};
    for (const auto& e : events) {
        if (e.value("ph", "") == "M" && e.value("name", "") == "thread_name" && e.at("pid").get<int64_t>() == *pid
            && e["args"].value("name", "").rfind("Plane ", 0) == 0)
            planeTids.insert(e.at("tid").get<int64_t>());
    }
    std::vector<std::pair<double, FileOp>> ops;
    std::vector<const nlohmann::json*> tasks;
    for (const auto& e : events) {
        if (e.value("ph", "") != "X" || e.at("pid").get<int64_t>() != *pid)
            continue;
        const int64_t tid = e.at("tid").is_string() ? std::stoll(e["tid"].get<std::string>()) : e["tid"].get<int64_t>();
        if (planeTids.count(tid))
            tasks.push_back(&e);
        else
            ops.push_back({ number(e.at("ts")), FileOp { e.value("name", ""), number(e.at("dur")), 0, 0, {} } });
    }
    for (const auto* t : tasks) {
        const double ts = number(t->at("ts"));
        const int64_t tid = t->at("tid").get<int64_t>();
        for (auto& [start, op] : ops) {
            if (ts < start || ts > start + op.elapseUs)
                continue;
            const auto& a = t->at("args");
            const std::string type = a.value("task type", "");
            const double dur = number(t->at("dur"));
            if ((type == "Memcpy" || type == "Reduce_Inline") && a.value("transport type", "") == "SDMA") {
                op.sdmaUs += dur;
                op.planes[tid].first += dur;
            }
            if (type == "Notify_Wait") {
                op.notifyWaitUs += dur;
                op.planes[tid].second += dur;
            }
            break;
        }
    }
    std::vector<FileOp> out;
    for (auto& [start, op] : ops)
        out.push_back(std::move(op));
    return out;
}

double ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }

} // namespace

TEST(HcclTaskFigures, SdmaCopiesRdmaRunsAndWaitsByTheTutorialsFormulas)
{
    std::vector<query::HcclTask> tasks {
        task(1, 0, 10, "Memcpy", "SDMA", 1000),
        task(1, 20, 5, "Reduce_Inline", "SDMA", 500),
        task(1, 30, 7, "Memcpy", "LOCAL", 9999), // a local copy is no link's communication
        task(1, 40, 3, "Notify_Wait", "LOCAL"),
        // An RDMA run on plane 2: payload, notify, the wait for the peer.
        task(2, 0, 4, "RDMASend", "RDMA", 100, "RDMASendPayload"),
        task(2, 5, 2, "RDMASend", "RDMA", 8, "RDMASendNotify"),
        task(2, 8, 6, "Notify_Wait", "LOCAL"),
        task(2, 20, 8, "Notify_Wait", "LOCAL"), // outside a run: a wait
        // A payload without its notify is no run.
        task(3, 0, 9, "RDMASendPayload", "RDMA", 50),
        task(3, 10, 1, "Notify_Wait", "LOCAL"),
    };
    const auto f = query::taskFigures(tasks);
    EXPECT_EQ(f.tasks, tasks.size());
    EXPECT_EQ(f.sdmaNs, 15);
    EXPECT_EQ(f.rdmaNs, 4 + 2 + 6);
    EXPECT_EQ(f.rdmaRuns, 1u);
    EXPECT_EQ(f.notifyWaitNs, 3 + 6 + 8 + 1);
    EXPECT_EQ(f.rdmaWaitNs, 6);
    EXPECT_EQ(f.waitNs(), 3 + 8 + 1);
    EXPECT_EQ(f.communicationNs(), 27);
    ASSERT_EQ(f.links.size(), 2u);
    EXPECT_EQ(f.links[0].transport, "SDMA");
    EXPECT_EQ(f.links[0].timeNs, 15);
    EXPECT_EQ(f.links[0].sizeBytes, 1500);
    EXPECT_DOUBLE_EQ(*f.links[0].bandwidthGbps(), 100.0);
    EXPECT_EQ(f.links[1].transport, "RDMA");
    EXPECT_EQ(f.links[1].timeNs, 12);
    EXPECT_EQ(f.links[1].sizeBytes, 100);
    ASSERT_EQ(f.planes.size(), 3u);
    EXPECT_EQ(f.planes[0].communicationNs, 15);
    EXPECT_EQ(f.planes[0].waitNs, 3);
    EXPECT_EQ(f.planes[1].communicationNs, 12);
    EXPECT_EQ(f.planes[1].waitNs, 8);
    EXPECT_EQ(f.planes[1].tasks, 4u);
    EXPECT_EQ(f.planes[2].waitNs, 1);
}

// torch_npu: every op's sums equal the trace's, and the profiler's transit and wait time (communication.json) are
// one plane's own figures.
TEST(HcclTasks, TorchNpuOpsEqualTheTraceAndTheProfilerIsOnePlane)
{
    const fs::path root = dataDir() / "torch_npu_2rank_level1";
    auto db = test::openFolder(root, true);
    ASSERT_TRUE(db);
    const auto ops = load::HcclTasks::read(*db);
    std::map<int64_t, std::vector<FileOp>> expected;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (entry.path().filename() != "trace_view.json")
            continue;
        const auto rank = test::count(*db,
            "SELECT rank_id FROM rank_file WHERE kind = 'trace_view' AND path = '"
                + fs::absolute(entry.path()).lexically_normal().string() + "'");
        ASSERT_GE(rank, 0) << entry.path();
        expected[rank] = readOps(entry.path());
    }
    ASSERT_EQ(expected.size(), 2u);
    size_t checked = 0;
    for (const auto& [rank, fileOps] : expected) {
        std::vector<const load::HcclOpFigures*> mine;
        for (const auto& op : ops)
            if (op.rank == rank)
                mine.push_back(&op);
        ASSERT_EQ(mine.size(), fileOps.size()) << "rank " << rank;
        for (size_t i = 0; i < mine.size(); ++i) {
            const auto& op = *mine[i];
            const auto& want = fileOps[i];
            EXPECT_EQ(op.name, want.name);
            EXPECT_EQ(op.tasksWithoutArgs, 0u);
            EXPECT_NEAR(ms(op.tasks.sdmaNs), want.sdmaUs / 1e3, 1e-5) << op.name;
            EXPECT_NEAR(ms(op.tasks.notifyWaitNs), want.notifyWaitUs / 1e3, 1e-5) << op.name;
            EXPECT_EQ(op.tasks.rdmaNs, 0); // one server: no RDMA
            ASSERT_TRUE(op.profilerTransitNs && op.profilerWaitNs) << op.name;
            ASSERT_TRUE(op.profilerPlane) << op.name;
            const auto& plane = want.planes.at(*op.profilerPlane);
            EXPECT_NEAR(ms(*op.profilerTransitNs), plane.first / 1e3, 1e-3) << op.name;
            EXPECT_NEAR(ms(*op.profilerWaitNs), plane.second / 1e3, 1e-3) << op.name;
            ++checked;
        }
    }
    EXPECT_EQ(checked, 8u);
}

// CANN PROF: the msprof timeline's HCCL process, read eagerly with inline args; no communication.json to compare.
TEST(HcclTasks, CannProfOpsEqualTheTimelineFiles)
{
    const fs::path root = dataDir() / "cann_prof_2023";
    auto db = test::openFolder(root);
    ASSERT_TRUE(db);
    const auto ops = load::HcclTasks::read(*db);
    std::vector<FileOp> expected;
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(root))
        if (entry.path().filename().string().rfind("msprof_", 0) == 0)
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    double sdmaUs = 0, waitUs = 0;
    size_t opCount = 0;
    for (const auto& f : files) {
        for (const auto& op : readOps(f)) {
            sdmaUs += op.sdmaUs;
            waitUs += op.notifyWaitUs;
            ++opCount;
        }
    }
    ASSERT_EQ(ops.size(), opCount);
    ASSERT_GT(opCount, 0u);
    int64_t sdmaNs = 0, waitNs = 0;
    for (const auto& op : ops) {
        sdmaNs += op.tasks.sdmaNs;
        waitNs += op.tasks.notifyWaitNs;
        EXPECT_FALSE(op.profilerTransitNs);
        EXPECT_GT(op.tasks.tasks, 0u);
    }
    EXPECT_NEAR(ms(sdmaNs), sdmaUs / 1e3, 1e-4);
    EXPECT_NEAR(ms(waitNs), waitUs / 1e3, 1e-4);
}

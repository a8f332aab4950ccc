// SPDX-License-Identifier: Apache-2.0
// npuscope-cli comm-tasks: each communication op's task-level figures by the MindInsight cluster tutorial's formulas
// (load::HcclTasks), beside the transit and wait time the profiler wrote for it.
#include "CliSupport.h"

#include "npuscope/load/HcclTasks.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>

namespace {

constexpr const char* kUsage = R"(  comm-tasks [--json] [--rank R] [--no-cache] PATH...
      Task-level figures of every communication op whose HCCL tasks are in a trace (torch_npu trace_view.json,
      MindSpore or CANN PROF timelines; imported here): communication time = Reduce_Inline + Memcpy on SDMA plus
      each RDMASendPayload, RDMASendNotify, Notify_Wait run on RDMA; wait time = every Notify_Wait minus those of
      the RDMA runs (docs/metrics.md, "Task-level HCCL figures"), per link with its size and bandwidth, beside the
      transit and wait time the profiler wrote for the op and the plane (stream) whose own figures equal them. --json prints the npuscope.comm_tasks/1 document
      (times ms, sizes MB).
)";

double ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }

nlohmann::json optionalMs(const std::optional<int64_t>& ns) { return ns ? nlohmann::json(ms(*ns)) : nlohmann::json(); }

nlohmann::json opJson(const npuscope::load::HcclOpFigures& op)
{
    const auto& f = op.tasks;
    nlohmann::json links = nlohmann::json::array();
    for (const auto& l : f.links) {
        const auto bw = l.bandwidthGbps();
        links.push_back({ { "src", l.src }, { "dst", l.dst }, { "transport", l.transport }, { "time_ms", ms(l.timeNs) },
            { "size_mb", static_cast<double>(l.sizeBytes) / 1e6 },
            { "bandwidth_gbps", bw ? nlohmann::json(*bw) : nlohmann::json() } });
    }
    nlohmann::json planes = nlohmann::json::array();
    for (const auto& p : f.planes)
        planes.push_back({ { "plane", p.plane }, { "tasks", p.tasks }, { "communication_ms", ms(p.communicationNs) },
            { "wait_ms", ms(p.waitNs) } });
    return { { "rank", op.rank }, { "name", op.name }, { "start_us", static_cast<double>(op.ts) / 1e3 },
        { "elapse_ms", ms(op.dur) }, { "tasks", f.tasks }, { "tasks_without_args", op.tasksWithoutArgs },
        { "communication_ms", ms(f.communicationNs()) }, { "sdma_ms", ms(f.sdmaNs) }, { "rdma_ms", ms(f.rdmaNs) },
        { "rdma_runs", f.rdmaRuns }, { "wait_ms", ms(f.waitNs()) }, { "notify_wait_ms", ms(f.notifyWaitNs) },
        { "profiler_transit_ms", optionalMs(op.profilerTransitNs) },
        { "profiler_wait_ms", optionalMs(op.profilerWaitNs) },
        { "profiler_plane", op.profilerPlane ? nlohmann::json(*op.profilerPlane) : nlohmann::json() },
        { "planes", std::move(planes) }, { "links", std::move(links) } };
}

std::string cell(const std::optional<int64_t>& ns)
{
    if (!ns)
        return "—";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", ms(*ns));
    return buf;
}

std::string text(const std::vector<npuscope::load::HcclOpFigures>& ops)
{
    std::ostringstream out;
    if (ops.empty()) {
        out << "No HCCL tasks: the traces have no HCCL process with Plane threads (profiler level 0, or no trace "
               "imported).\n";
        return out.str();
    }
    out << "Task-level HCCL figures (ms; docs/metrics.md, \"Task-level HCCL figures\")\n";
    char line[512];
    std::snprintf(line, sizeof line, "%5s  %-40s %9s %6s %9s %9s %9s %9s %11s %10s %6s\n", "rank", "op", "elapse",
        "tasks", "comm", "sdma", "rdma", "wait", "prof.trans", "prof.wait", "plane");
    out << line;
    for (const auto& op : ops) {
        const auto& f = op.tasks;
        std::snprintf(line, sizeof line, "%5lld  %-40.40s %9.3f %6zu %9.3f %9.3f %9.3f %9.3f %11s %10s %6s\n",
            static_cast<long long>(op.rank), op.name.c_str(), ms(op.dur), f.tasks, ms(f.communicationNs()),
            ms(f.sdmaNs), ms(f.rdmaNs), ms(f.waitNs()), cell(op.profilerTransitNs).c_str(),
            cell(op.profilerWaitNs).c_str(), op.profilerPlane ? std::to_string(*op.profilerPlane).c_str() : "—");
        out << line;
    }
    out << "comm, sdma, rdma and wait sum every plane's tasks (the tutorial's formulas); prof.trans and prof.wait are "
           "the figures the profiler wrote, those of one plane (its master stream): plane names the plane whose own "
           "figures equal them.\n";
    return out.str();
}

int run(const std::vector<std::string>& args)
{
    npuscope::cli::ReportArgs report;
    std::optional<int64_t> rank;
    npuscope::cli::Options options("comm-tasks");
    options.report(report).integer(
        "--rank", 0, std::numeric_limits<int>::max(), "a rank", [&](long long r) { rank = r; });
    if (const auto status = options.parse(args))
        return *status;
    auto db = npuscope::cli::loadRanks("comm-tasks", report, npuscope::io::kTimelineGroup);
    if (!db)
        return 1;
    auto ops = npuscope::load::HcclTasks::read(*db);
    if (rank)
        std::erase_if(ops, [&](const auto& op) { return op.rank != *rank; });
    npuscope::cli::printReport(
        report,
        [&] {
            nlohmann::json doc { { "schema", "npuscope.comm_tasks/1" }, { "ops", nlohmann::json::array() } };
            for (const auto& op : ops)
                doc["ops"].push_back(opJson(op));
            return doc;
        },
        [&] { return text(ops); });
    return std::cout ? 0 : 1;
}

const bool kRegistered = npuscope::cli::registerCommand({ "comm-tasks", kUsage, &run, 45 });

} // namespace

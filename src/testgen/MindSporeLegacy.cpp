// SPDX-License-Identifier: Apache-2.0
// The older MindSpore / MindInsight form of a generated cluster (FORMATS.md §1.5, §11): the job's rank table
// (hccl.json) and host_ips_mapping.txt, and per rank, in its server's cluster_profiler/<host>/profiler/ folder and
// named by its device id, the step trace (step_trace_raw, 10 ns system counter ticks), the communication costs
// (hccl_raw, ms, sizes in KB), the pipeline-parallel step breakdown (ascend_cluster_analyse, ms), the device timeline
// (ascend_timeline_display, µs from the first task, with min_cycle_counter), the FLOPs files, the data pipeline files
// and profiler_info. Everything comes from the same planned steps as the other forms.
#include "ClusterGeneratorParts.h"

#include <map>

namespace npuscope::testgen::detail {

namespace {

// The device system counter's reading (ns) at the generator's epoch base: a device up for about 3 hours. Every
// server shares it (their clocks differ only by the planned --clock-skew-us).
constexpr int64_t kUptimeNs = 11624120793490;

int64_t counterNs(const Cluster& c, int64_t epochNs) { return epochNs - c.epochBase + kUptimeNs; }
int64_t ticks(const Cluster& c, int64_t epochNs) { return counterNs(c, epochNs) / 10; }

// A communication op as MindSpore names it: its stream, its place among the stream's ops of the step, its type and
// a graph-wide op number, the same every step ("stream_41_0_AllReduce-op141000" in the step trace and hccl_raw,
// "AllReduce-op141000" on the timeline).
struct LegacyOp {
    const CommOp* op = nullptr;
    int stream = 0;
    std::string type, task, column;
};

constexpr int kComputeStream = 13;

std::vector<LegacyOp> legacyOps(const Cluster& c, int rank, const StepPlan& sp)
{
    const auto& groups = c.layout.rankGroups[static_cast<size_t>(rank)];
    std::map<int, int> placeOnStream;
    std::vector<LegacyOp> out;
    for (const auto& op : sp.ops) {
        LegacyOp l;
        l.op = &op;
        l.type = op.type == "allReduce" ? "AllReduce" : op.type == "send" ? "Send" : "Receive";
        if (op.p2p)
            l.stream = op.type == "send" ? 48 : 49;
        else
            l.stream = op.group == groups[TpGroup] ? 41 : 45;
        const int place = placeOnStream[l.stream]++;
        l.task = l.type + "-op" + std::to_string(100000 + l.stream * 1000 + place);
        l.column = "stream_" + std::to_string(l.stream) + "_" + std::to_string(place) + "_" + l.task;
        out.push_back(std::move(l));
    }
    return out;
}

// ---- step_trace_raw_{id}_detail_time.csv ----

std::string stepTraceRaw(const Cluster& c, int rank, const std::vector<StepPlan>& steps)
{
    // Columns: the fixed nine, then per op (first appearance order over the steps) its duration, start and end.
    std::vector<std::string> columns;
    std::map<std::string, size_t> columnOf;
    std::vector<std::vector<LegacyOp>> ops;
    for (const auto& sp : steps) {
        ops.push_back(legacyOps(c, rank, sp));
        for (const auto& l : ops.back()) {
            if (columnOf.emplace(l.column, columns.size()).second)
                columns.push_back(l.column);
        }
    }
    std::string s = "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail";
    for (const auto& col : columns)
        s += "," + col + "," + col + "_start_point," + col + "_end_point";
    s += "\n";
    const size_t width = 8 + 3 * columns.size();
    std::vector<std::vector<int64_t>> rows;
    for (size_t i = 0; i < steps.size(); ++i) {
        const auto& sp = steps[i];
        const int64_t start = ticks(c, sp.start);
        const int64_t end = ticks(c, sp.end);
        const int64_t fp = ticks(c, sp.start + sp.prep);
        const int64_t bp = std::clamp(ticks(c, backwardEndNs(sp)), fp, end);
        std::vector<int64_t> row { start, end, end - start, fp, bp, fp - start, bp - fp, end - bp };
        row.resize(width, -1);
        for (const auto& l : ops[i]) {
            const size_t at = 8 + 3 * columnOf[l.column];
            row[at + 1] = ticks(c, l.op->ts);
            row[at + 2] = ticks(c, l.op->ts + l.op->elapse());
            row[at] = row[at + 2] - row[at + 1];
        }
        rows.push_back(std::move(row));
    }
    auto line = [&](const std::string& label, const std::vector<int64_t>& row) {
        s += label;
        for (const int64_t v : row)
            s += v < 0 ? std::string(",") : "," + std::to_string(v);
        s += "\n";
    };
    for (size_t i = 0; i < rows.size(); ++i)
        line(std::to_string(i + 1), rows[i]);
    // The average row MindSpore ends the file with ("-"): the mean of each column over the steps that have it.
    std::vector<int64_t> mean(width, -1);
    for (size_t k = 0; k < width; ++k) {
        int64_t sum = 0, n = 0;
        for (const auto& row : rows) {
            if (row[k] >= 0) {
                sum += row[k];
                ++n;
            }
        }
        if (n > 0)
            mean[k] = sum / n;
    }
    line("-", mean);
    return s;
}

// ---- hccl_raw_{id}.csv ----

// time (ms) and size (KB) per "src-dst" link and transport.
using LinkSums = std::map<std::string, std::map<std::string, std::pair<double, double>>>;

struct OpCost {
    double costMs = 0, waitMs = 0;
    LinkSums links;
};

void addSums(LinkSums& into, const LinkSums& from)
{
    for (const auto& [key, byTransport] : from) {
        for (const auto& [transport, sums] : byTransport) {
            into[key][transport].first += sums.first;
            into[key][transport].second += sums.second;
        }
    }
}

std::string linksJson(const LinkSums& links, double scale)
{
    std::string s = "{";
    bool first = true;
    for (const auto& [key, byTransport] : links) {
        s += std::string(first ? "" : ", ") + "\"" + key + "\": {";
        first = false;
        bool firstTransport = true;
        for (const auto& [transport, sums] : byTransport) {
            const double ms = sums.first * scale;
            const double kb = sums.second * scale;
            s += std::string(firstTransport ? "" : ", ") + "\"" + transport + "\": [" + pyFloat(ms) + ", " + pyFloat(kb)
                + ", " + pyFloat(ms > 0 ? kb / (ms / 1e3) : 0.0) + "]";
            firstTransport = false;
        }
        s += "}";
    }
    return s + "}";
}

// A JSON text as a CSV cell: quoted, inner quotes doubled.
std::string jsonCell(const std::string& json)
{
    std::string s = "\"";
    for (const char ch : json) {
        s += ch;
        if (ch == '"')
            s += '"';
    }
    return s + "\"";
}

// One step's op costs in op order. Link keys are ranks local to the rank's pipeline stage (global rank modulo
// tp * dp), the group ascend_cluster_analyse_pipeline-parallel describes; "k-k" is the rank itself. Every link is
// written from this rank (src) to its peer, as the torch_npu form's matrix has it. A pipeline send has no links and
// no cost, and a receive's link is "k-k" (its peer is in another stage, outside the local numbering), as in the
// MindInsight cluster_propose sample.
std::vector<std::pair<std::string, OpCost>> stepCosts(const Cluster& c, int rank, const StepPlan& sp)
{
    const int stageSize = c.layout.tp * c.layout.dp;
    const std::string self = std::to_string(rank % stageSize);
    std::vector<std::pair<std::string, OpCost>> out;
    for (const auto& l : legacyOps(c, rank, sp)) {
        OpCost cost;
        cost.waitMs = nsToMs(l.op->wait);
        if (l.op->type != "send") {
            cost.costMs = nsToMs(l.op->transit);
            for (const auto& link : l.op->links) {
                const std::string key = l.op->p2p
                    ? self + "-" + self
                    : std::to_string(link.srcGlobal % stageSize) + "-" + std::to_string(link.dstGlobal % stageSize);
                auto& sums = cost.links[key][link.transport == "RDMA" ? "RDMA" : "SDMA"];
                sums.first += nsToMs(link.timeNs);
                sums.second += link.sizeMb * 1e3;
            }
        }
        out.emplace_back(l.column, std::move(cost));
    }
    return out;
}

std::string hcclRaw(const Cluster& c, int rank, const std::vector<StepPlan>& steps)
{
    std::string s = "step_num,communication_cost,wait_cost,link_info,communication_operator_cost\n";
    std::vector<std::pair<std::string, OpCost>> total; // summed over the steps, for the average row
    auto row = [&](const std::string& label, const std::vector<std::pair<std::string, OpCost>>& ops, double scale) {
        double cost = 0, wait = 0;
        LinkSums links;
        std::string opsJson = "{";
        for (size_t i = 0; i < ops.size(); ++i) {
            const auto& [name, op] = ops[i];
            cost += op.costMs;
            wait += op.waitMs;
            addSums(links, op.links);
            opsJson += std::string(i ? ", " : "") + "\"" + name + "\": [\"" + label + "\", "
                + pyFloat(op.costMs * scale) + ", " + pyFloat(op.waitMs * scale) + ", " + linksJson(op.links, scale)
                + "]";
        }
        s += label + "," + pyFloat(cost * scale) + "," + pyFloat(wait * scale) + "," + jsonCell(linksJson(links, scale))
            + "," + jsonCell(opsJson + "}") + "\n";
    };
    for (size_t i = 0; i < steps.size(); ++i) {
        const auto ops = stepCosts(c, rank, steps[i]);
        row(std::to_string(i + 1), ops, 1.0);
        for (const auto& [name, op] : ops) {
            auto it = std::find_if(total.begin(), total.end(), [&](const auto& t) { return t.first == name; });
            if (it == total.end()) {
                total.emplace_back(name, OpCost {});
                it = total.end() - 1;
            }
            it->second.costMs += op.costMs;
            it->second.waitMs += op.waitMs;
            addSums(it->second.links, op.links);
        }
    }
    row("-", total, 1.0 / static_cast<double>(std::max<size_t>(1, steps.size())));
    return s;
}

// ---- ascend_cluster_analyse_pipeline-parallel_{stages}_{ranks}_{id}.csv ----

std::string clusterAnalyse(const std::vector<StepPlan>& steps)
{
    std::string s = "computation_time,communication_alone_time,stage_time,receive_alone_time,"
                    "collective_communication_alone_time\n";
    std::array<int64_t, 5> sum {};
    auto line = [&](const std::array<int64_t, 5>& v, int64_t n) {
        for (size_t k = 0; k < v.size(); ++k)
            s += (k ? "," : "") + fixed(nsToMs(v[k] / n), 4);
        s += "\n";
    };
    for (const auto& sp : steps) {
        const std::array<int64_t, 5> v { sp.computing, sp.notOverlapped,
            sp.computing + sp.notOverlapped + sp.free - sp.bubble, sp.bubble, sp.notOverlapped - sp.receive };
        line(v, 1);
        for (size_t k = 0; k < v.size(); ++k)
            sum[k] += v[k];
    }
    line(sum, std::max<int64_t>(1, static_cast<int64_t>(steps.size())));
    return s;
}

// ---- ascend_timeline_display_{id}.json ----

const char* msDataType(std::string_view t)
{
    if (t == "BF16")
        return "NUMBER_TYPE_BFLOAT16";
    if (t == "FLOAT")
        return "NUMBER_TYPE_FLOAT32";
    return "NUMBER_TYPE_FLOAT16";
}

// "input_0": {...}, "input_1": {...} from the ';'-separated shapes, types and formats of a kernel type.
std::string tensorArgs(const char* prefix, std::string_view shapes, std::string_view types, std::string_view formats)
{
    std::string s;
    for (int i = 0; !shapes.empty(); ++i) {
        auto next = [](std::string_view& list) {
            const auto semi = list.find(';');
            const auto item = list.substr(0, semi);
            list = semi == std::string_view::npos ? std::string_view() : list.substr(semi + 1);
            return item;
        };
        const auto shape = next(shapes);
        const auto type = types.empty() ? std::string_view("BF16") : next(types);
        const auto format = formats.empty() ? std::string_view("ND") : next(formats);
        s += ", \"" + std::string(prefix) + std::to_string(i) + "\": {\"format\": \"" + std::string(format)
            + "\", \"data_type\": \"" + msDataType(type) + "\", \"shape\": \"" + std::string(shape) + "\"}";
    }
    return s;
}

// The rank's device tasks (kernels on the compute stream, communication ops on theirs) on one line, µs from the first
// task, which min_cycle_counter_{id}.txt places on the system counter (ticks with one decimal: exactly ns / 10).
bool writeTimeline(const fs::path& dir, const std::string& id, const Cluster& c, int rank,
    const std::vector<StepPlan>& steps, std::string& error)
{
    struct Task {
        int64_t ts, dur;
        int stream;
        std::string name, args;
    };
    std::vector<Task> tasks;
    for (const auto& sp : steps) {
        const auto names = msKernelNames(sp);
        for (size_t i = 0; i < sp.kernels.size(); ++i) {
            const Kernel& k = sp.kernels[i];
            const auto& kt = kKernelTypes[static_cast<size_t>(k.type)];
            tasks.push_back({ k.ts, k.dur, kComputeStream, names[i].name,
                "{\"type\": \"" + std::string(kt.type) + "\", \"fullname\": \"" + names[i].fullName + "\""
                    + tensorArgs("input_", kt.inShapes, kt.inTypes, kt.inFormats)
                    + tensorArgs("output_", kt.outShapes, "BF16", "ND") + "}" });
        }
        for (const auto& l : legacyOps(c, rank, sp))
            tasks.push_back({ l.op->ts, l.op->elapse(), l.stream, l.task,
                "{\"type\": \"" + l.type + "\", \"fullname\": \"Default/" + l.task + "\"}" });
    }
    std::stable_sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) { return a.ts < b.ts; });
    const int64_t first = tasks.empty() ? counterNs(c, steps.front().start) : counterNs(c, tasks.front().ts);
    if (!writeText(dir / ("min_cycle_counter_" + id + ".txt"),
            std::to_string(first / 10) + "." + std::to_string(first % 10), error))
        return false;
    const fs::path path = dir / ("ascend_timeline_display_" + id + ".json");
    Out out(path);
    if (!out.ok()) {
        error = "cannot create " + path.string();
        return false;
    }
    out << '[';
    for (size_t i = 0; i < tasks.size(); ++i) {
        const Task& t = tasks[i];
        out << (i ? ",{\"name\": \"" : "{\"name\": \"") << t.name << "\", \"ph\": \"X\", \"tid\": " << t.stream
            << ", \"ts\": " << pyFloat(static_cast<double>(counterNs(c, t.ts) - first) / 1e3)
            << ", \"dur\": " << pyFloat(static_cast<double>(t.dur) / 1e3) << ", \"pid\": 1, \"args\": " << t.args
            << '}';
    }
    out << ']';
    return out.close(error);
}

} // namespace

std::string legacyHostId(int rank) { return std::to_string(rank / kRanksPerServer + 1); }

bool writeLegacyRank(
    const Cluster& c, int rank, const std::vector<StepPlan>& steps, const fs::path& root, std::string& error)
{
    const fs::path dir = root / "cluster_profiler" / legacyHostId(rank) / "profiler";
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        error = "cannot create " + dir.string() + ": " + ec.message();
        return false;
    }
    const std::string id = std::to_string(rank % kRanksPerServer); // file names carry the device id
    const std::string analyse = "ascend_cluster_analyse_pipeline-parallel_" + std::to_string(c.layout.pp) + "_"
        + std::to_string(c.layout.world) + "_" + id + ".csv";
    const int64_t endNs = steps.back().end + 40 * kMs;
    return writeText(dir / ("profiler_info_" + id + ".json"), legacyProfilerInfo(c, rank, endNs), error)
        && writeText(dir / ("step_trace_raw_" + id + "_detail_time.csv"), stepTraceRaw(c, rank, steps), error)
        && writeText(dir / ("hccl_raw_" + id + ".csv"), hcclRaw(c, rank, steps), error)
        && writeText(dir / analyse, clusterAnalyse(steps), error)
        && writeText(dir / ("flops_" + id + ".txt"), opFlopsText(c, rank, steps), error)
        && writeText(dir / ("flops_summary_" + id + ".json"), flopsSummaryJson(c, rank, steps), error)
        && writeText(dir / ("flops_scope_" + id + ".json"), flopsScopeJson(c, rank, steps), error)
        && writeText(dir / ("minddata_pipeline_raw_" + id + ".csv"), minddataPipelineCsv(c, rank, steps), error)
        && (c.options.strategyNodes == 0 || writeStrategyFile(c, rank, dir / ("parallel_strategy_" + id + ".json"), error))
        && writeText(dir / ("minddata_cpu_utilization_" + id + ".json"), minddataCpuJson(c, rank, steps), error)
        && writeText(dir / ("device_queue_profiling_" + id + ".txt"), deviceQueueText(c, rank, steps), error)
        && writeText(dir / ("memory_usage_summary_" + id + ".json"), memoryUsageSummaryJson(c, rank, steps), error)
        && writeText(dir / ("memory_usage_details_" + id + ".json"), memoryUsageDetailsJson(c, rank, steps), error)
        && writeTimeline(dir, id, c, rank, steps, error);
}

// hccl.json (every value a string, one line per device as the MindInsight fixtures) and host_ips_mapping.txt: server
// s is host "10.0.<(s + 1) / 256>.<(s + 1) % 256>" with mapping id s + 1, the name of its cluster_profiler folder.
bool writeLegacyJobFiles(const Cluster& c, const fs::path& root, std::string& error)
{
    const int servers = (c.layout.world + kRanksPerServer - 1) / kRanksPerServer;
    auto hostIp = [](int server) {
        return "10.0." + std::to_string((server + 1) / 256) + "." + std::to_string((server + 1) % 256);
    };
    std::string table = "{\n    \"version\": \"1.0\",\n    \"server_count\": \"" + std::to_string(servers)
        + "\",\n    \"server_list\": [\n";
    std::string mapping;
    for (int server = 0; server < servers; ++server) {
        table += std::string(server ? ",\n" : "") + "        {\n            \"server_id\": \"" + hostIp(server)
            + "\",\n            \"device\": [\n";
        const int last = std::min(c.layout.world, (server + 1) * kRanksPerServer);
        for (int r = server * kRanksPerServer; r < last; ++r) {
            const int device = r % kRanksPerServer;
            table += "                {\"device_id\": \"" + std::to_string(device) + "\", \"device_ip\": \"192.168."
                + std::to_string(100 + device) + "." + std::to_string(server % 250 + 1) + "\", \"rank_id\": \""
                + std::to_string(r) + "\"}" + (r + 1 < last ? ",\n" : "\n");
        }
        table += "            ],\n            \"host_nic_ip\": \"reserve\"\n        }";
        mapping += hostIp(server) + " " + legacyHostId(server * kRanksPerServer) + "\n";
    }
    table += "\n    ],\n    \"status\": \"completed\"\n}\n";
    return writeText(root / "hccl.json", table, error) && writeText(root / "host_ips_mapping.txt", mapping, error);
}

} // namespace npuscope::testgen::detail

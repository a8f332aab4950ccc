// SPDX-License-Identifier: Apache-2.0
// What both MindSpore forms of the cluster generator share: the MindSpore names of a step's kernels (op name and full
// scope name), where backward ends, the data pipeline files (minddata_pipeline_raw, minddata_cpu_utilization,
// device_queue_profiling) and the FLOPs files (flops_{id}.txt, flops_summary_{id}.json, flops_scope_{id}.json), all
// from the planned steps of the rank.
#include "ClusterGeneratorParts.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

namespace npuscope::testgen::detail {

namespace {

constexpr int kLayers = 4; // transformer layers the forward and backward kernels are spread over
constexpr const char* kNetwork = "network-WithLossCell/_backbone-Transformer";

// The dataset chain of every generated job (MindSpore's op ids: 0 is the op nearest the device).
struct DatasetOp {
    int id;
    const char* type;
    int workers;
    int queueLength;
    int parent; // -1: none
};
constexpr std::array<DatasetOp, 4> kDatasetOps { {
    { 0, "Batch", 4, 64, -1 },
    { 1, "Map", 8, 64, 0 },
    { 2, "Shuffle", 1, 64, 1 },
    { 3, "MindRecord", 4, 64, 2 },
} };
constexpr int kDeviceQueueCapacity = 64;

// Cube and vector units' peak FLOP/s of a 910B-class device (the utilisation figures' denominators).
constexpr double kCubePeak = 280e12;
constexpr double kVectorPeak = 18e12;

// A queue's occupancy at a step's sample, 40-95 % of its length, a pure function of seed, rank, op and step.
int queueSample(const Cluster& c, int rank, int op, int step, int length)
{
    const double u = unit(mix(mix(c.options.seed, 0xda7a0000ull + static_cast<uint64_t>(rank)),
        static_cast<uint64_t>(op) * 4096u + static_cast<uint64_t>(step)));
    return static_cast<int>(static_cast<double>(length) * (0.40 + 0.55 * u));
}

std::string intList(const std::vector<int>& v)
{
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

// A CSV cell as Python's csv module writes it: quoted only when it holds a comma.
std::string csvCell(const std::string& v) { return v.find(',') == std::string::npos ? v : "\"" + v + "\""; }

// One execution of each distinct op of the rank (the first step that runs it), in the order of first appearance.
struct OpExecution {
    const MsKernelName* names;
    const Kernel* kernel;
};

class OpExecutions {
public:
    explicit OpExecutions(const std::vector<StepPlan>& steps)
    {
        m_names.reserve(steps.size());
        for (const auto& sp : steps)
            m_names.push_back(msKernelNames(sp));
        std::set<std::string> seen;
        for (size_t s = 0; s < steps.size(); ++s) {
            for (size_t i = 0; i < steps[s].kernels.size(); ++i) {
                if (seen.insert(m_names[s][i].fullName).second)
                    m_ops.push_back({ &m_names[s][i], &steps[s].kernels[i] });
            }
        }
    }
    const std::vector<OpExecution>& ops() const { return m_ops; }

private:
    std::vector<std::vector<MsKernelName>> m_names;
    std::vector<OpExecution> m_ops;
};

} // namespace

std::string pyFloat(double v)
{
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, res.ptr);
    if (s.find_first_of(".en") == std::string::npos)
        s += ".0";
    return s;
}

std::vector<MsKernelName> msKernelNames(const StepPlan& sp)
{
    std::vector<MsKernelName> out;
    out.reserve(sp.kernels.size());
    double total = 0;
    for (const auto& k : sp.kernels)
        total += static_cast<double>(k.dur);
    // First pass: each kernel's phase by the share of kernel time done before it; then its layer inside the phase.
    std::vector<int> phase(sp.kernels.size());
    std::array<size_t, 3> count {};
    double done = 0;
    for (size_t i = 0; i < sp.kernels.size(); ++i) {
        const double share = total > 0 ? done / total : 0.0;
        phase[i] = share < kForwardShare ? 0 : share < kBackwardEndShare ? 1 : 2;
        ++count[static_cast<size_t>(phase[i])];
        done += static_cast<double>(sp.kernels[i].dur);
    }
    std::array<size_t, 3> seen {};
    for (size_t i = 0; i < sp.kernels.size(); ++i) {
        const auto& kt = kKernelTypes[static_cast<size_t>(sp.kernels[i].type)];
        const std::string name = std::string(kt.type) + "-op" + std::to_string(i + 1);
        const auto p = static_cast<size_t>(phase[i]);
        const size_t place = seen[p]++;
        int layer = static_cast<int>(place * kLayers / std::max<size_t>(1, count[p]));
        if (p == 1)
            layer = kLayers - 1 - layer; // backward runs the layers in reverse
        const std::string scope = std::string(kNetwork) + "/layer" + std::to_string(layer) + "-TransformerLayer";
        std::string full;
        if (p == 0)
            full = "Default/" + scope + "/" + name;
        else if (p == 1)
            full = "Gradients/Default/" + scope + "/grad" + kt.type + "/" + name;
        else
            full = "Default/optimizer-AdamWeightDecay/" + name;
        out.push_back({ name, std::move(full) });
    }
    return out;
}

int64_t backwardEndNs(const StepPlan& sp)
{
    int64_t total = 0;
    for (const auto& k : sp.kernels)
        total += k.dur;
    int64_t done = 0;
    for (const auto& k : sp.kernels) {
        done += k.dur;
        if (static_cast<double>(done) >= kBackwardEndShare * static_cast<double>(total))
            return k.ts + k.dur;
    }
    return sp.start + sp.prep;
}

// ---- data pipeline ----

std::string minddataPipelineCsv(const Cluster& c, int rank, const std::vector<StepPlan>& steps)
{
    std::string s = "op_id,op_type,num_workers,output_queue_size,output_queue_average_size,output_queue_length,"
                    "output_queue_usage_rate,sample_interval,parent_id,children_id\r\n";
    for (const auto& op : kDatasetOps) {
        std::vector<int> sizes;
        double sum = 0;
        for (const auto& sp : steps) {
            sizes.push_back(queueSample(c, rank, op.id, sp.step, op.queueLength));
            sum += sizes.back();
        }
        const double avg = sizes.empty() ? 0.0 : sum / static_cast<double>(sizes.size());
        const std::string children
            = op.id + 1 < static_cast<int>(kDatasetOps.size()) ? csvCell(intList({ op.id + 1 })) : std::string();
        s += std::to_string(op.id) + "," + op.type + "," + std::to_string(op.workers) + "," + csvCell(intList(sizes))
            + "," + pyFloat(round4(avg)) + "," + std::to_string(op.queueLength) + ","
            + pyFloat(round4(avg / op.queueLength)) + ",10," + (op.parent >= 0 ? std::to_string(op.parent) : "") + ","
            + children + "\r\n";
    }
    return s;
}

std::string minddataCpuJson(const Cluster& c, int rank, const std::vector<StepPlan>& steps)
{
    // One sample per step; utilisation in % of one core (process) or of all cores (device).
    const uint64_t salt = mix(c.options.seed, 0xc9c90000ull + static_cast<uint64_t>(rank));
    auto series = [&](uint64_t key, double lo, double hi) {
        std::vector<int> v;
        for (const auto& sp : steps)
            v.push_back(
                static_cast<int>(lo + (hi - lo) * unit(mix(salt, key * 65536u + static_cast<uint64_t>(sp.step)))));
        return intList(v);
    };
    std::vector<int> stamps;
    for (const auto& sp : steps)
        stamps.push_back(static_cast<int>((sp.start - steps.front().start) / kMs));
    std::string s = "{\n  \"sampling_interval\": 100,\n  \"cpu_processor_num\": 192,\n  \"time_stamp\": "
        + intList(stamps) + ",\n  \"device_info\": {\n    \"user_utilization\": " + series(1, 20, 40)
        + ",\n    \"sys_utilization\": " + series(2, 2, 6) + ",\n    \"io_utilization\": " + series(3, 0, 2)
        + ",\n    \"idle_utilization\": " + series(4, 50, 70) + ",\n    \"runable_processes\": " + series(5, 10, 40)
        + ",\n    \"context_switch_count\": " + series(6, 1000, 5000) + "\n},\n  \"process_info\": {\n"
        + "    \"user_utilization\": " + series(7, 200, 400) + ",\n    \"sys_utilization\": " + series(8, 10, 30)
        + "\n  },\n  \"op_info\": [";
    for (const auto& op : kDatasetOps) {
        const auto k = static_cast<uint64_t>(16 + 2 * op.id);
        s += std::string(op.id ? "," : "") + "{\n    \"metrics\":{\n      \"user_utilization\": "
            + series(k, 5.0 * op.workers, 20.0 * op.workers) + ",\n      \"sys_utilization\": " + series(k + 1, 1, 5)
            + "\n    },\n    \"op_id\": " + std::to_string(op.id) + "\n  }\n  ";
    }
    return s + "]\n}\n";
}

std::string deviceQueueText(const Cluster& c, int rank, const std::vector<StepPlan>& steps)
{
    // Per step MindSpore's time lines ("0 <kind> <step> <us> <sample ms>": 1 push, 2 get, 0 total) and the queue
    // line ("1 <capacity> <step> <size> <sample ms>").
    std::string s;
    for (const auto& sp : steps) {
        const int64_t ms = (sp.start - steps.front().start) / kMs;
        const std::string step = std::to_string(sp.step);
        const std::string at = std::to_string(ms);
        const int64_t getUs = std::max<int64_t>(1, sp.prep / kUs / 4);
        s += "0 1 " + step + " " + std::to_string(getUs * 3) + " " + at + "\n";
        s += "0 2 " + step + " " + std::to_string(getUs) + " " + at + "\n";
        s += "0 0 " + step + " " + std::to_string(getUs * 4) + " " + at + "\n";
        s += "1 " + std::to_string(kDeviceQueueCapacity) + " " + step + " "
            + std::to_string(std::max(1, queueSample(c, rank, 99, sp.step, kDeviceQueueCapacity))) + " " + at + "\n";
    }
    return s;
}

// ---- FLOPs ----

std::string opFlopsText(const Cluster& c, int rank, const std::vector<StepPlan>& steps)
{
    std::string s = "full_kernel_name, MFLOPs(10^6 cube), GFLOPS(10^9 cube), FLOPS utilization(cube), MFLOPs(10^6 "
                    "vector), GFLOPS(10^9 vector), FLOPS utilization(vec)\n";
    const OpExecutions ex(steps);
    for (const auto& [names, kernel] : ex.ops()) {
        const auto f = kernelFlops(c, rank, *kernel);
        const double seconds = std::max<double>(1.0, static_cast<double>(kernel->dur)) / 1e9;
        const double cube = static_cast<double>(f.aicCube);
        const double vec = static_cast<double>(f.aicVector + f.aivVector);
        s += names->fullName + ", " + fixed(cube / 1e6, 3) + ", " + fixed(cube / seconds / 1e9, 3) + ", "
            + fixed(100.0 * cube / seconds / kCubePeak, 3) + ", " + fixed(vec / 1e6, 3) + ", "
            + fixed(vec / seconds / 1e9, 3) + ", " + fixed(100.0 * vec / seconds / kVectorPeak, 3) + "\n";
    }
    return s;
}

std::string flopsSummaryJson(const Cluster& c, int rank, const std::vector<StepPlan>& steps)
{
    double cube = 0, vec = 0, seconds = 0;
    const OpExecutions ex(steps);
    for (const auto& [names, kernel] : ex.ops()) {
        const auto f = kernelFlops(c, rank, *kernel);
        cube += static_cast<double>(f.aicCube);
        vec += static_cast<double>(f.aicVector + f.aivVector);
        seconds += static_cast<double>(kernel->dur) / 1e9;
    }
    seconds = std::max(seconds, 1e-9);
    const double all = cube + vec;
    return "{\"FLOPs\": " + fixed(all / 1e6, 3) + ", \"FLOPS\": " + fixed(all / seconds / 1e9, 3)
        + ", \"FLOPS_Utilization\": " + fixed(100.0 * all / seconds / (kCubePeak + kVectorPeak), 3)
        + ", \"cube_FLOPs\": " + fixed(cube / 1e6, 3) + ", \"cube_FLOPS\": " + fixed(cube / seconds / 1e9, 3)
        + ", \"vec_FLOPs\": " + fixed(vec / 1e6, 3) + ", \"vec_FLOPS\": " + fixed(vec / seconds / 1e9, 3) + "}";
}

std::string flopsScopeJson(const Cluster& c, int rank, const std::vector<StepPlan>& steps)
{
    // Each op's MFLOPs added to every link of its scope chain: Total -> root -> scope -> ... (the op itself is no
    // node). Node names carry the root in brackets, as MindSpore writes them: "layer0-TransformerLayer(Default)".
    std::map<std::pair<std::string, std::string>, double> links;
    std::vector<std::pair<std::string, std::string>> order;
    std::vector<std::string> nodes;
    std::set<std::string> known;
    size_t depth = 0;
    auto node = [&](const std::string& n) {
        if (known.insert(n).second)
            nodes.push_back(n);
    };
    const OpExecutions ex(steps);
    for (const auto& [names, kernel] : ex.ops()) {
        const auto f = kernelFlops(c, rank, *kernel);
        const double mflops = static_cast<double>(f.aicCube + f.aicVector + f.aivVector) / 1e6;
        std::vector<std::string> parts;
        size_t at = 0;
        const std::string& full = names->fullName;
        for (size_t slash = full.find('/'); slash != std::string::npos; slash = full.find('/', at)) {
            parts.push_back(full.substr(at, slash - at));
            at = slash + 1;
        }
        if (parts.size() > 1 && parts[0] == "Gradients" && parts[1] == "Default")
            parts.erase(parts.begin() + 1);
        std::string prev = "Total";
        node(prev);
        for (size_t i = 0; i < parts.size(); ++i) {
            const std::string cur = i == 0 ? parts[0] : parts[i] + "(" + parts[0] + ")";
            node(cur);
            const auto key = std::make_pair(prev, cur);
            if (!links.count(key))
                order.push_back(key);
            links[key] += mflops;
            prev = cur;
        }
        depth = std::max(depth, parts.size());
    }
    std::string s = "{\"data\": {\"nodes\": [";
    for (size_t i = 0; i < nodes.size(); ++i)
        s += std::string(i ? ", " : "") + "{\"name\": \"" + nodes[i] + "\"}";
    s += "], \"links\": [";
    for (size_t i = 0; i < order.size(); ++i)
        s += std::string(i ? ", " : "") + "{\"source\": \"" + order[i].first + "\", \"target\": \"" + order[i].second
            + "\", \"value\": " + fixed(links[order[i]], 3) + "}";
    return s + "]}, \"max_scope_num\": " + std::to_string(depth) + "}";
}

// ---- memory ----

namespace {

constexpr double kCapacityGib = 64.0;

double memoryFactor(const Cluster& c, int rank)
{
    return c.options.memoryHeavyRank && *c.options.memoryHeavyRank == rank ? GeneratorOptions::kMemoryHeavyFactor : 1.0;
}

// The memory in use after each op of the first step, GiB: static memory plus activations growing through forward
// (up to 20 GiB, times the rank's memory factor) and freed through backward.
std::vector<double> memoryLine(const Cluster& c, int rank, const StepPlan& sp, double& staticGib)
{
    const double factor = memoryFactor(c, rank);
    staticGib = round4(6.0 * factor);
    double total = 0;
    for (const auto& k : sp.kernels)
        total += static_cast<double>(k.dur);
    std::vector<double> out;
    double done = 0;
    for (const auto& k : sp.kernels) {
        done += static_cast<double>(k.dur);
        const double share = total > 0 ? done / total : 1.0;
        double live = share < kForwardShare ? share / kForwardShare
            : share < kBackwardEndShare     ? 1.0 - (share - kForwardShare) / (kBackwardEndShare - kForwardShare)
                                            : 0.0;
        live = std::max(0.0, std::min(1.0, live));
        out.push_back(round4(staticGib + 20.0 * factor * live));
    }
    return out;
}

} // namespace

std::string memoryUsageDetailsJson(const Cluster& c, int rank, const std::vector<StepPlan>& steps)
{
    if (steps.empty())
        return "{}";
    double staticGib = 0;
    const auto line = memoryLine(c, rank, steps.front(), staticGib);
    const auto names = msKernelNames(steps.front());
    std::string nodes, lines;
    for (size_t i = 0; i < names.size(); ++i) {
        const std::string sep = i ? ", " : "";
        const double change = line[i] - (i ? line[i - 1] : staticGib);
        nodes += sep + "{\"name\": \"" + names[i].name + "\", \"fullname\": \"" + names[i].fullName
            + "\", \"node_id\": " + std::to_string(i) + ", \"size\": " + pyFloat(round4(std::max(0.0, change)))
            + ", \"allocations\": 1, \"deallocations\": 1, \"mem_change\": " + pyFloat(round4(change))
            + ", \"inputs\": [], \"outputs\": [{\"format\": \"ND\", \"data_type\": \"float16\", \"shape\": \"[]\"}]}";
        lines += sep + pyFloat(line[i]);
    }
    return "{\"0\": {\"graph_id\": 0, \"static_mem\": " + pyFloat(staticGib) + ", \"nodes\": [" + nodes
        + "], \"lines\": [" + lines + "], \"fp_start\": 0, \"bp_end\": " + std::to_string(names.size() - 1)
        + ", \"breakdowns\": [[{\"tensor_name\": \"" + (names.empty() ? std::string() : names.front().name)
        + ":output:0\", \"size\": 0.0001, \"type\": \"output\", \"life_start\": 0, \"life_end\": 1}]]}}";
}

std::string memoryUsageSummaryJson(const Cluster& c, int rank, const std::vector<StepPlan>& steps)
{
    double staticGib = 0, peak = 0;
    size_t nodes = 0;
    if (!steps.empty()) {
        const auto line = memoryLine(c, rank, steps.front(), staticGib);
        for (const double v : line)
            peak = std::max(peak, v);
        nodes = line.size();
    }
    return "{\"capacity\": " + pyFloat(kCapacityGib) + ", \"allocations\": " + std::to_string(nodes)
        + ", \"deallocations\": " + std::to_string(nodes) + ", \"peak_mem\": " + pyFloat(peak)
        + ", \"static_mem\": " + pyFloat(staticGib) + "}";
}

} // namespace npuscope::testgen::detail

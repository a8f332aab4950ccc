// SPDX-License-Identifier: Apache-2.0
// ClusterGenerator::generate and its per-rank driver: checks the options, lays out the cluster and draws every rank's
// compute time, prepares the output folder (replacing only a previous run's rank folders), plans the steps (flat rank
// by rank, or the whole pipeline at once), shifts each rank's times by its server's clock skew and writes the rank's
// folder through the per-file writers declared in ClusterGeneratorParts.h (the MindSpore forms' writers are in
// MindSporeFiles.cpp and MindSporeLegacy.cpp).
#include "npuscope/testgen/ClusterGenerator.h"

#include "ClusterGeneratorParts.h"

#include "npuscope/core/EnumNames.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::testgen {

using namespace detail;

namespace {

// 2025-01-09 07:48:00 UTC, the day of the real 2025-01 samples.
constexpr int64_t kEpochBaseNs = 1736408880000000000;

// What the old MindSpore form writes at the top of the output folder (the rank folders' names end in _ascend_pt or
// _ascend_ms).
constexpr std::array<const char*, 3> kLegacyEntries { "cluster_profiler", "hccl.json", "host_ips_mapping.txt" };

bool isGeneratedEntry(const std::string& name)
{
    auto endsWith = [&](std::string_view suffix) {
        return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return endsWith("_ascend_pt") || endsWith("_ascend_ms")
        || std::find(kLegacyEntries.begin(), kLegacyEntries.end(), name) != kLegacyEntries.end();
}

// ---- output folder ----

bool prepareOutDir(const fs::path& out, std::string& error)
{
    std::error_code ec;
    if (fs::exists(out, ec)) {
        if (!fs::is_directory(out, ec)) {
            error = out.string() + " exists and is not a folder";
            return false;
        }
        if (fs::directory_iterator(out, ec) == fs::directory_iterator()) {
            if (ec) {
                error = "cannot list " + out.string() + ": " + ec.message();
                return false;
            }
            return true;
        }
        const fs::path marker = out / ClusterGenerator::kMarkerFile;
        if (!fs::is_regular_file(marker, ec)) {
            error = "refusing to write into " + out.string()
                + ": the folder is not empty and was not produced by npuscope-cli generate";
            return false;
        }
        std::ifstream in(marker);
        std::string line;
        std::getline(in, line); // header
        while (std::getline(in, line)) {
            const fs::path entry(line);
            // Only plain rank folder names the generator writes; never a path that leaves the folder.
            if (line.empty() || entry.has_parent_path() || line.find("..") != std::string::npos
                || !isGeneratedEntry(line))
                continue;
            fs::remove_all(out / entry, ec);
            if (ec) {
                error = "cannot remove " + (out / entry).string() + ": " + ec.message();
                return false;
            }
        }
        fs::remove(marker, ec);
        return true;
    }
    fs::create_directories(out, ec);
    if (ec) {
        error = "cannot create " + out.string() + ": " + ec.message();
        return false;
    }
    return true;
}

// The clock offset of a rank's server: 0 for server 0, else up to clockSkewUs µs, a pure function of seed and server.
int64_t clockOffsetNs(const Cluster& c, int rank)
{
    const int server = rank / kRanksPerServer;
    if (c.options.clockSkewUs <= 0 || server == 0)
        return 0;
    const auto span = static_cast<uint64_t>(c.options.clockSkewUs) * kUs + 1;
    return static_cast<int64_t>(mix(c.options.seed, 0xc10c0000ull + static_cast<uint64_t>(server)) % span);
}

// Moves every timestamp of a rank's plan by its clock offset (what the rank's own clock read); durations stay.
void shiftClock(std::vector<StepPlan>& steps, int64_t offsetNs)
{
    if (offsetNs == 0)
        return;
    for (auto& sp : steps) {
        sp.start += offsetNs;
        sp.end += offsetNs;
        for (auto& k : sp.kernels)
            k.ts += offsetNs;
        for (auto& op : sp.ops) {
            op.ts += offsetNs;
            for (auto& seg : op.notOverlapped) {
                seg.first += offsetNs;
                seg.second += offsetNs;
            }
        }
    }
}

// One rank folder of the torch_npu or MindSpore 2.x form.
bool generateRank(const Cluster& c, int rank, const std::vector<StepPlan>& steps, const fs::path& root,
    std::string& folder, std::string& error)
{
    const bool ms = c.options.format == OutputFormat::MindSpore;
    folder = "rank" + std::to_string(rank) + "_" + folderTimestamp(c.rankStart[static_cast<size_t>(rank)])
        + (ms ? "_ascend_ms" : "_ascend_pt");
    const fs::path dir = root / folder;
    const fs::path out = dir / "ASCEND_PROFILER_OUTPUT";
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) {
        error = "cannot create " + out.string() + ": " + ec.message();
        return false;
    }
    const int device = rank % kRanksPerServer;
    const uint64_t salt = mix(c.options.seed, 0xabcdef00ull + static_cast<uint64_t>(rank));
    const std::string stepCsv = stepTraceCsv(steps);
    const std::string comm = communicationJson(c, steps);
    const std::string matrix = matrixJson(c, steps);
    const double memoryFactor
        = c.options.memoryHeavyRank && *c.options.memoryHeavyRank == rank ? GeneratorOptions::kMemoryHeavyFactor : 1.0;
    if (c.options.analysisDb && !writeAnalysisDb(out / "analysis.db", stepCsv, comm, matrix, error))
        return false;
    const int64_t endNs = steps.back().end + 40 * kMs;
    if (ms
        && !writeText(out / ("minddata_pipeline_raw_" + std::to_string(rank) + ".csv"),
            minddataPipelineCsv(c, rank, steps), error))
        return false;
    if (ms && c.options.strategyNodes > 0
        && !writeStrategyFile(c, rank, dir / ("parallel_strategy_" + std::to_string(rank) + ".json"), error))
        return false;
    if (!writeText(dir / ("profiler_info_" + std::to_string(rank) + ".json"),
            ms ? msProfilerInfo(c, rank, endNs) : profilerInfo(rank, endNs, c.options.seed), error)
        || !writeText(dir / "profiler_metadata.json", profilerMetadata(c, rank), error)
        || !writeText(out / "step_trace_time.csv", stepCsv, error)
        || !writeKernelDetails(out / "kernel_details.csv", c, rank, steps, error)
        || !writeText(out / "op_statistic.csv", opStatisticCsv(steps), error)
        || !writeText(out / "communication.json", comm, error)
        || !writeText(out / "communication_matrix.json", matrix, error)
        || !writeText(out / "memory_record.csv", memoryRecordCsv(device, steps, salt, memoryFactor), error)
        || !writeText(out / "npu_module_mem.csv", npuModuleMemCsv(device, steps, memoryFactor), error))
        return false;
    Out trace(out / "trace_view.json");
    if (!trace.ok()) {
        error = "cannot create " + (out / "trace_view.json").string();
        return false;
    }
    writeTraceView(trace, c, rank, steps);
    return trace.close(error);
}

// Checks the options and fills the ones left to the generator (pp, tp and dp of 0, microbatches); false, with error
// naming the first option that is out of range, when they cannot make a cluster.
bool completeOptions(GeneratorOptions& o, std::string& error)
{
    if (o.ranks < 1) {
        error = "--ranks must be at least 1";
        return false;
    }
    if (o.steps < 1 || o.steps > 10000) {
        error = "--steps must be between 1 and 10000";
        return false;
    }
    if (!(o.traceMb >= 0) || o.traceMb > 100000) {
        error = "--trace-mb must be between 0 and 100000";
        return false;
    }
    if (o.pp < 0 || o.tp < 0 || o.dp < 0) {
        error = "--pp, --tp and --dp must be positive";
        return false;
    }
    if (o.strategyNodes < 0 || o.strategyNodes > 10000000) {
        error = "--strategy-nodes must be between 0 and 10000000";
        return false;
    }
    if (o.strategyNodes > 0 && o.format == OutputFormat::TorchNpu) {
        error = "--strategy-nodes writes MindSpore's parallel_strategy files: use it with --format mindspore or "
                "mindspore-legacy";
        return false;
    }
    if (o.pp == 0)
        o.pp = 1;
    if (o.tp == 0)
        o.tp = 1;
    if (o.dp == 0)
        o.dp = o.ranks % (o.pp * o.tp) == 0 ? o.ranks / (o.pp * o.tp) : 0;
    if (static_cast<int64_t>(o.pp) * o.tp * o.dp != o.ranks) {
        error = "pp * tp * dp (" + std::to_string(o.pp) + " * " + std::to_string(o.tp) + " * " + std::to_string(o.dp)
            + ") must equal --ranks " + std::to_string(o.ranks);
        return false;
    }
    if (o.slowRank && (*o.slowRank < 0 || *o.slowRank >= o.ranks)) {
        error = "--slow-rank " + std::to_string(*o.slowRank) + " is out of range 0.." + std::to_string(o.ranks - 1);
        return false;
    }
    for (const auto& [flag, rank] :
        { std::pair { "--memory-heavy-rank", o.memoryHeavyRank }, std::pair { "--flops-light-rank", o.flopsLightRank },
            std::pair { "--late-launch-rank", o.lateLaunchRank }, std::pair { "--slow-host", o.slowHost } }) {
        if (rank && (*rank < 0 || *rank >= o.ranks)) {
            error = std::string(flag) + " " + std::to_string(*rank) + " is out of range 0.."
                + std::to_string(o.ranks - 1);
            return false;
        }
    }
    if (o.clockSkewUs < 0 || o.clockSkewUs > 1000000000) {
        error = "--clock-skew-us must be between 0 and 1000000000";
        return false;
    }
    if (o.microbatches < 0 || o.microbatches > 10000) {
        error = "--microbatches must be between 1 and 10000";
        return false;
    }
    if (o.microbatches == 0)
        o.microbatches = 2 * o.pp;
    if (o.outDir.empty()) {
        error = "--out is required";
        return false;
    }
    for (size_t i = 0; i < o.windows.size(); ++i) {
        const auto [a, b] = o.windows[i];
        if (o.format == OutputFormat::MindSporeLegacy) {
            error = "--windows is part of the torch_npu and mindspore forms only";
            return false;
        }
        if (a > b || a < kFirstStep || b >= kFirstStep + o.steps || (i > 0 && a <= o.windows[i - 1].second)) {
            error = "--windows " + std::to_string(a) + "-" + std::to_string(b) + ": windows must be ascending, apart "
                + "and within the steps " + std::to_string(kFirstStep) + ".."
                + std::to_string(kFirstStep + o.steps - 1);
            return false;
        }
    }
    if (o.analysisDb && o.format == OutputFormat::MindSporeLegacy) {
        error = "--analysis-db is part of the torch_npu and mindspore forms only (the old MindSpore profiler wrote no "
                "analysis.db)";
        return false;
    }
    return true;
}

} // namespace

bool ClusterGenerator::generate(const GeneratorOptions& input, std::string& error)
{
    GeneratorOptions o = input;
    if (!completeOptions(o, error))
        return false;

    Cluster c;
    c.options = o;
    c.layout = buildLayout(o.pp, o.tp, o.dp);
    if (o.slowLink) {
        const auto [a, b] = *o.slowLink;
        if (a < 0 || b < 0 || a >= o.ranks || b >= o.ranks || a == b) {
            error = "--slow-link " + std::to_string(a) + "-" + std::to_string(b) + " needs two different ranks in 0.."
                + std::to_string(o.ranks - 1);
            return false;
        }
        bool shared = false;
        for (const auto& g : c.layout.groups)
            shared = shared
                || (std::count(g.ranks.begin(), g.ranks.end(), a) && std::count(g.ranks.begin(), g.ranks.end(), b));
        if (!shared) {
            error = "--slow-link " + std::to_string(a) + "-" + std::to_string(b)
                + ": the two ranks share no tp, dp or pp group, so no link joins them";
            return false;
        }
    }

    // Roughly 60 % of the trace budget goes to per-kernel events (~1.4 KB each), the rest to Python frames.
    const double kernels = o.traceMb * 1e6 * 0.6 / 1400.0 / o.steps;
    c.kernelsPerStep = static_cast<int>(std::clamp(kernels, 24.0, 200000.0));
    c.epochBase = kEpochBaseNs + static_cast<int64_t>(mix(o.seed, 1u) % 86400u) * 1000 * kMs;
    c.compute.assign(static_cast<size_t>(o.ranks), std::vector<int64_t>(static_cast<size_t>(o.steps)));
    c.rankStart.resize(static_cast<size_t>(o.ranks));
    for (int r = 0; r < o.ranks; ++r) {
        const uint64_t rs = mix(o.seed, 0xc0ffee00ull + static_cast<uint64_t>(r));
        c.rankStart[static_cast<size_t>(r)] = c.epochBase + static_cast<int64_t>(rs % 500000u);
        for (int s = 0; s < o.steps; ++s) {
            double ns = 80.0 * kMs * (0.97 + 0.06 * unit(mix(rs, static_cast<uint64_t>(s))));
            if (o.slowRank && *o.slowRank == r)
                ns *= GeneratorOptions::kSlowFactor;
            c.compute[static_cast<size_t>(r)][static_cast<size_t>(s)] = static_cast<int64_t>(ns);
        }
    }

    const fs::path root(o.outDir);
    if (!prepareOutDir(root, error))
        return false;
    const bool legacy = o.format == OutputFormat::MindSporeLegacy;
    std::string marker = "npuscope cluster generator output; the folders below are replaced by the next run\n";
    if (legacy) {
        for (const char* entry : kLegacyEntries)
            marker += std::string(entry) + "\n";
    }
    // Pipeline stages wait for each other, so a pp > 1 cluster is planned whole; a flat one rank by rank.
    std::vector<std::vector<StepPlan>> pipeline;
    if (o.pp > 1)
        pipeline = planPipeline(c);
    for (int r = 0; r < o.ranks; ++r) {
        std::string folder;
        std::vector<StepPlan> steps;
        if (o.pp > 1)
            steps = std::move(pipeline[static_cast<size_t>(r)]);
        else
            steps = planRank(c, r);
        shiftClock(steps, clockOffsetNs(c, r));
        if (legacy) {
            for (size_t i = 0; i < steps.size(); ++i)
                steps[i].step = static_cast<int>(i) + 1; // MindSpore counts a job's steps from 1
            if (!writeLegacyRank(c, r, steps, root, error))
                return false;
            if (r > 0 && r + 1 < o.ranks)
                continue; // the marker lists the legacy entries already; written after the first and last rank
        } else if (o.windows.empty()) {
            if (!generateRank(c, r, steps, root, folder, error))
                return false;
            marker += folder + "\n";
        } else {
            for (const auto& [a, b] : o.windows) {
                std::vector<StepPlan> window;
                for (const auto& sp : steps) {
                    if (sp.step >= a && sp.step <= b)
                        window.push_back(sp);
                }
                const std::string parent
                    = "rank" + std::to_string(r) + "_start" + std::to_string(a) + "_stop" + std::to_string(b);
                if (!generateRank(c, r, window, root / parent, folder, error))
                    return false;
                marker += parent + "\n";
            }
        }
        // Written after every rank so a failed run can still be regenerated over.
        if (!writeText(root / kMarkerFile, marker, error))
            return false;
    }
    return !legacy || writeLegacyJobFiles(c, root, error);
}

namespace {

constexpr EnumName<OutputFormat> kFormatNames[] { { OutputFormat::TorchNpu, "torch_npu" },
    { OutputFormat::MindSpore, "mindspore" }, { OutputFormat::MindSporeLegacy, "mindspore-legacy" } };

} // namespace

const char* formatName(OutputFormat format) { return nameOf(kFormatNames, format, "torch_npu"); }

std::optional<OutputFormat> formatFromName(std::string_view name) { return valueOf(kFormatNames, name); }

} // namespace npuscope::testgen

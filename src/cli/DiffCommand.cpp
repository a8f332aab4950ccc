// SPDX-License-Identifier: Apache-2.0
// npuscope-cli diff: compares two inputs (two runs, two clusters, or an Ascend run against a PyTorch GPU trace).
#include "CliSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/query/compare/DiffReport.h"
#include "npuscope/query/compare/RunComparison.h"

#include <exception>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr const char* kUsage
    = "  diff [--json] [--step-base N] [--step-new M] [--top K] [--no-cache] BASE NEW\n"
      "      Compare two inputs, each anything npuscope opens (an Ascend rank or cluster, a PyTorch profiler\n"
      "      (Kineto) GPU trace): the step breakdown per rank and for the cluster (computing, communication not\n"
      "      overlapped, overlapped, free, bubble, preparing; base, new, delta, delta %), operators by category,\n"
      "      op type and kernel name (GPU kernels mapped onto the NPU categories; unmapped kernels listed),\n"
      "      communication per op type and group, and the memory peak per rank. Ranks are matched by rank id (two\n"
      "      single-rank inputs are compared whatever their ids); ranks only one side has are listed. Without\n"
      "      --step-base / --step-new each side is the mean per step over all its steps; operator and\n"
      "      communication figures are per rank and per step. --top K limits the op type, kernel, rank,\n"
      "      communication and memory lists (default 20, 0 = all). The text form starts with the headline\n"
      "      (\"step +12.4 % (+38.1 ms): computing +31.0 ms, of which ... on all ranks; ...\"); --json prints the\n"
      "      npuscope.diff/1 document. Of each input's deferred files only operator_memory.csv is imported (the\n"
      "      memory peaks come from the summary), and of its kernel files the count and total duration per step\n"
      "      and kernel.\n";

// One side: its summary (through the parse cache when useCache; memory peaks included), every rank's
// operator_memory.csv (Loader::loadOperatorMemory: memory_record.csv's samples are not needed) and the kernel_sum
// rows of its kernel files, straight into the model on one thread, rank by rank, instead of each rank through its
// own worker model, cache entry and merge, which for the many small per-rank files of a cluster cost several times
// their parsing (npuscope-bench diff). The two sides load at the same
// time, so both cores work. error: why nothing was loaded.
std::unique_ptr<npuscope::model::Database> loadSide(const std::string& path, bool useCache, std::string& error)
{
    try {
        const auto plan = npuscope::io::Detector::detect({ path });
        if (plan.ranks.empty()) {
            error = "nothing loaded from " + path;
            return nullptr;
        }
        npuscope::load::LoadOptions options;
        options.loadTimelines = false; // of the deferred files only operator_memory.csv, below
        options.threads = 1;
        const npuscope::load::ParseCache cache;
        if (useCache)
            options.cache = &cache;
        auto db = npuscope::load::Loader::load(plan, options);
        if (!db) {
            error = "nothing loaded from " + path;
            return db;
        }
        // The operator level reads per rank, step and kernel only the count and Σ duration: kernel_sum rows, one
        // streaming pass over each rank's kernel files and one cache entry per side, instead of every kernel row.
        std::vector<int64_t> ranks;
        for (const auto& r : plan.ranks)
            ranks.push_back(r.rank);
        npuscope::load::Loader::loadKernelSums(*db, ranks, {}, nullptr, options.cache, nullptr, 1);
        // The memory level reads the peaks (memory_peak rows of the summary) and the operator_memory rows: of the
        // Memory group only operator_memory.csv, not memory_record.csv's samples.
        npuscope::load::Loader::loadOperatorMemory(*db, ranks);
        return db;
    } catch (const std::exception& e) {
        error = path + ": " + e.what();
        return nullptr;
    }
}

int run(const std::vector<std::string>& args)
{
    bool json = false, noCache = false;
    long long top = 20;
    npuscope::query::RunComparison::Options options;
    std::vector<std::string> paths;
    npuscope::cli::Options parser("diff");
    parser.flag("--json", json)
        .flag("--no-cache", noCache)
        .integer("--step-base", std::numeric_limits<int64_t>::min(), std::numeric_limits<int32_t>::max(),
            "a step number", [&](long long n) { options.stepBase = n; })
        .integer("--step-new", std::numeric_limits<int64_t>::min(), std::numeric_limits<int32_t>::max(),
            "a step number", [&](long long n) { options.stepNew = n; })
        .integer("--top", 0, std::numeric_limits<int32_t>::max(), "a count >= 0", [&](long long n) { top = n; })
        .paths(paths);
    if (const auto status = parser.parse(args))
        return *status;
    if (paths.size() != 2)
        return parser.error("expects exactly two paths, BASE and NEW");
    const bool useCache = !noCache;
    std::unique_ptr<npuscope::model::Database> base, neu;
    std::string baseError, newError;
    std::thread baseLoad([&] { base = loadSide(paths[0], useCache, baseError); });
    neu = loadSide(paths[1], useCache, newError);
    baseLoad.join();
    for (const std::string* error : { &baseError, &newError }) {
        if (!error->empty())
            std::cerr << "npuscope-cli diff: " << *error << "\n";
    }
    if (!base || !neu)
        return 1;
    const auto diff = npuscope::query::RunComparison::compare(*base, *neu, options);
    for (const auto& [step, side, name] :
        { std::tuple { options.stepBase, &diff.base, "base" }, std::tuple { options.stepNew, &diff.neu, "new" } }) {
        if (step && side->ranks.empty())
            std::cerr << "npuscope-cli diff: no rank of the " << name << " input has step " << *step << "\n";
    }
    if (json)
        std::cout << npuscope::query::DiffReport::json(diff, paths[0], paths[1], static_cast<std::size_t>(top)).dump(2)
                  << "\n";
    else
        std::cout << npuscope::query::DiffReport::text(diff, paths[0], paths[1], static_cast<std::size_t>(top));
    return std::cout.good() ? 0 : 1;
}

const bool kRegistered = npuscope::cli::registerCommand({ "diff", kUsage, &run, 100 });

} // namespace

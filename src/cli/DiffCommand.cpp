// SPDX-License-Identifier: Apache-2.0
// npuscope-cli diff: compares two inputs (two runs, two clusters, or an Ascend run against a PyTorch GPU trace).
#include "CliSupport.h"

#include "npuscope/query/compare/DiffReport.h"
#include "npuscope/query/compare/RunComparison.h"

#include <iostream>
#include <limits>
#include <optional>
#include <string>
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
      "      npuscope.diff/1 document. Each input's Kernels group is imported.\n";

int run(const std::vector<std::string>& args)
{
    using npuscope::cli::usageError;
    bool json = false;
    bool useCache = true;
    long long top = 20;
    npuscope::query::RunComparison::Options options;
    std::vector<std::string> paths;
    auto usage = [](const std::string& message) { return usageError("diff", message); };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json") {
            json = true;
        } else if (a == "--no-cache") {
            useCache = false;
        } else if (a == "--step-base" || a == "--step-new" || a == "--top") {
            if (i + 1 >= args.size())
                return usage(a + " needs a value");
            long long n = 0;
            const long long lo = a == "--top" ? 0 : std::numeric_limits<int64_t>::min();
            if (!npuscope::cli::parseInt(args[++i], lo, std::numeric_limits<int32_t>::max(), n))
                return usage(
                    a + " expects " + (a == "--top" ? "a count >= 0" : "a step number") + ", got \"" + args[i] + "\"");
            if (a == "--top")
                top = n;
            else
                (a == "--step-base" ? options.stepBase : options.stepNew) = n;
        } else if (a.rfind("--", 0) == 0) {
            return usage("unknown option " + a);
        } else {
            paths.push_back(a);
        }
    }
    if (paths.size() != 2)
        return usage("expects exactly two paths, BASE and NEW");
    // Both inputs are loaded one after the other; the kernel rows are in each rank's deferred Kernels group.
    auto base = npuscope::cli::loadRanks("diff", { paths[0] }, npuscope::io::kKernelsGroup, useCache);
    if (!base)
        return 1;
    auto neu = npuscope::cli::loadRanks("diff", { paths[1] }, npuscope::io::kKernelsGroup, useCache);
    if (!neu)
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

const bool kRegistered = npuscope::cli::registerCommand({ "diff", kUsage, &run });

} // namespace

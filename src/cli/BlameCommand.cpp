// SPDX-License-Identifier: Apache-2.0
// npuscope-cli blame: per step, the ranks and links the cluster's waiting started from (query::BlameAnalysis).
#include "CliSupport.h"

#include "npuscope/query/BlameAnalysis.h"
#include "npuscope/query/CollectivesReport.h"

#include <iostream>
#include <limits>

namespace {

using npuscope::cli::parseInt;
using npuscope::cli::usageError;

constexpr const char* kUsage = R"(  blame [--json] [--step N] [--no-cache] PATH...
      Per step, who held the cluster up: every delayed communication op is followed back through the ops its last
      arriver waited in to the rank (or link) where the delay began, with its cause (compute: longer computing
      than the ranks doing the same work; host: more device idle; link: transit far above the same size
      elsewhere; unknown), the wait it induced and its share of the step's, and the chain as evidence
      (docs/metrics.md). --json prints the npuscope.blame/1 document.
)";

int run(const std::vector<std::string>& args)
{
    bool json = false;
    bool useCache = true;
    std::optional<int64_t> step;
    std::vector<std::string> paths;
    auto usage = [](const std::string& message) { return usageError("blame", message); };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        long long n = 0;
        if (a == "--json")
            json = true;
        else if (a == "--no-cache")
            useCache = false;
        else if (a == "--step") {
            if (i + 1 >= args.size())
                return usage("--step needs a value");
            if (!parseInt(args[++i], std::numeric_limits<long long>::min(), std::numeric_limits<long long>::max(), n))
                return usage("--step expects an integer, got \"" + args[i] + "\"");
            step = n;
        } else if (a.rfind("--", 0) == 0)
            return usage("unknown option " + a);
        else
            paths.push_back(a);
    }
    if (paths.empty())
        return usage("no PATH given");
    auto db = npuscope::cli::loadRanks("blame", paths, npuscope::io::kNoGroup, useCache);
    if (!db)
        return 1;
    const auto blame = npuscope::query::BlameAnalysis::run(*db);
    if (json)
        std::cout << npuscope::query::CollectivesReport::blameJson(blame, step).dump(2) << "\n";
    else
        std::cout << npuscope::query::CollectivesReport::blameText(blame, step);
    return std::cout ? 0 : 1;
}

const bool kRegistered = npuscope::cli::registerCommand({ "blame", kUsage, &run });

} // namespace

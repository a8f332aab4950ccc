// SPDX-License-Identifier: Apache-2.0
// npuscope-cli collectives: every communication op matched across its ranks (query::CollectiveInstances), by the
// wait it cost, with the root of its delay (query::BlameAnalysis).
#include "CliSupport.h"

#include "npuscope/query/BlameAnalysis.h"
#include "npuscope/query/CollectivesReport.h"

#include <iostream>
#include <limits>

namespace {

using npuscope::cli::parseInt;
using npuscope::cli::usageError;

constexpr const char* kUsage = R"(  collectives [--json] [--step N] [--group G] [--top K] [--no-cache] PATH...
      Every communication op matched across the ranks of its group (same step, op name and group; a send with
      its receive), by wait cost: members with start, elapse, transit, wait, sync, the last arriver, the spread
      of the starts after the per-host clock offsets (estimated from collectives' common ends, listed), the wait
      the last arrival cost, and the root blame finds for it. --group takes a hash or a group name; --top K keeps
      the K most costly. --json prints the npuscope.collectives/1 document (times ms, starts us).
)";

int run(const std::vector<std::string>& args)
{
    bool json = false;
    bool useCache = true;
    npuscope::query::CollectivesFilter filter;
    std::vector<std::string> paths;
    auto usage = [](const std::string& message) { return usageError("collectives", message); };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        long long n = 0;
        if (a == "--json")
            json = true;
        else if (a == "--no-cache")
            useCache = false;
        else if ((a == "--step" || a == "--group" || a == "--top") && i + 1 >= args.size())
            return usage(a + " needs a value");
        else if (a == "--step") {
            if (!parseInt(args[++i], std::numeric_limits<long long>::min(), std::numeric_limits<long long>::max(), n))
                return usage("--step expects an integer, got \"" + args[i] + "\"");
            filter.step = n;
        } else if (a == "--top") {
            if (!parseInt(args[++i], 1, std::numeric_limits<int>::max(), n))
                return usage("--top expects a positive integer, got \"" + args[i] + "\"");
            filter.top = static_cast<size_t>(n);
        } else if (a == "--group")
            filter.group = args[++i];
        else if (a.rfind("--", 0) == 0)
            return usage("unknown option " + a);
        else
            paths.push_back(a);
    }
    if (paths.empty())
        return usage("no PATH given");
    auto db = npuscope::cli::loadRanks("collectives", paths, npuscope::io::kNoGroup, useCache);
    if (!db)
        return 1;
    const auto blame = npuscope::query::BlameAnalysis::run(*db);
    if (json)
        std::cout << npuscope::query::CollectivesReport::collectivesJson(*db, blame, filter).dump(2) << "\n";
    else
        std::cout << npuscope::query::CollectivesReport::collectivesText(*db, blame, filter);
    return std::cout ? 0 : 1;
}

const bool kRegistered = npuscope::cli::registerCommand({ "collectives", kUsage, &run });

} // namespace

// SPDX-License-Identifier: Apache-2.0
// npuscope-cli comm: per-rank communication figures and the slowest links (text, or npuscope.comm/1).
#include "CliSupport.h"

#include "npuscope/query/CommQuery.h"
#include "npuscope/query/CommReport.h"

#include <iostream>
#include <limits>
#include <optional>

namespace {

constexpr const char* kUsage = R"(  comm [--json] [--step N] [--group G] PATH...
      Per-rank communication figures (Elapsed, Transit, Wait, Sync, Idle, Wait/Sync Ratio, SDMA/RDMA
      bandwidth = Σsize/Σtime over the ops) and the slowest links for one step (default all) and one group
      (hash or a unique name; default all). Links have global ranks, except in a group whose global ranks are
      unknown (e.g. one rank of it loaded alone): those keep the group-local ranks as written, printed "L3" and
      in JSON "ranks": "local" (with "local_rank_groups"); summary --json marks every link the same way.
      --json prints the npuscope.comm/1 document.
)";

int run(const std::vector<std::string>& args)
{
    bool json = false;
    std::optional<std::string> group;
    npuscope::query::CommSelection sel;
    std::vector<std::string> paths;
    npuscope::cli::Options options("comm");
    options.flag("--json", json)
        .step([&](long long n) { sel.step = n; })
        .text("--group", [&](const std::string& g) { group = g; })
        .paths(paths);
    if (const auto status = options.parse(args))
        return *status;
    auto db = npuscope::cli::loadRanks("comm", paths, npuscope::io::kNoGroup, false);
    if (!db)
        return 1;
    if (group) {
        // A hash, or a group name that names exactly one group.
        std::vector<std::string> matches;
        for (const auto& g : npuscope::query::CommQuery::groups(*db)) {
            if (g.hash == *group)
                matches = { g.hash };
            else if (g.name && *g.name == *group && (matches.empty() || matches.front() != *group))
                matches.push_back(g.hash);
        }
        if (matches.size() != 1) {
            std::cerr << "npuscope-cli comm: --group " << *group
                      << (matches.empty() ? " matches no group" : " names several groups; give the hash") << "\n";
            return 2;
        }
        sel.groupHash = matches.front();
    }
    if (json) {
        npuscope::query::CommReport::write(std::cout, *db, sel);
        std::cout << "\n";
    } else
        std::cout << npuscope::query::CommReport::text(*db, sel);
    return 0;
}

const bool kRegistered = npuscope::cli::registerCommand({ "comm", kUsage, &run, 40 });

} // namespace

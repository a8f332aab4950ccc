// SPDX-License-Identifier: Apache-2.0
// `npuscope-bench diff`: issue 20's target, `npuscope-cli diff --json` of two 1,024-rank TP 8 x PP 4 clusters within 2x
// the time and memory of `summary --json` of one of them, both measured in the same run as child processes.

#include "BenchCases.h"

#include "npuscope/testgen/ClusterGenerator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace npuscope::bench {

int diffRuns(const std::vector<std::string>& args)
{
    int ranks = 1024;
    std::string work = (fs::temp_directory_path() / "npuscope-bench").string();
    std::string cli = cliExe();
    for (size_t i = 0; i + 1 < args.size(); i += 2) {
        if (args[i] == "--ranks")
            ranks = std::max(32, std::atoi(args[i + 1].c_str()));
        else if (args[i] == "--work")
            work = args[i + 1];
        else if (args[i] == "--cli")
            cli = args[i + 1];
        else
            return 2;
    }
    std::vector<std::string> paths;
    for (const std::optional<int> slow : { std::optional<int>(), std::optional<int>(5) }) {
        testgen::GeneratorOptions g;
        g.outDir = (fs::path(work) / ("diff" + std::to_string(ranks) + (slow ? "-slow5" : ""))).string();
        g.ranks = ranks / 32 * 32;
        g.pp = 4;
        g.tp = 8;
        g.traceMb = 0;
        g.slowRank = slow;
        std::string error;
        if (!fs::exists(fs::path(g.outDir) / testgen::ClusterGenerator::kMarkerFile)
            && !testgen::ClusterGenerator::generate(g, error)) {
            std::fprintf(stderr, "npuscope-bench diff: generate: %s\n", error.c_str());
            return 1;
        }
        paths.push_back(g.outDir);
    }
    const std::string out = (fs::path(work) / "diff.out").string();
    const std::vector<std::string> summary { cli, "summary", "--json", paths[1] };
    const std::vector<std::string> diff { cli, "diff", "--json", paths[0], paths[1] };
    // The first runs fill the parse cache (the kernel files too): both timed runs read it warm, as a reopen does.
    runMeasured(summary, out);
    runMeasured(diff, out);
    const auto s = runMeasured(summary, out);
    const auto d = runMeasured(diff, out);
    std::error_code ec;
    fs::remove(out, ec);
    if (!s.ok || !d.ok) {
        std::fprintf(stderr, "npuscope-bench diff: %s failed on %s\n", cli.c_str(), work.c_str());
        return 1;
    }
    print("diff.ranks", static_cast<double>(ranks / 32 * 32), "ranks");
    print("diff.summary_s", s.seconds, "s");
    print("diff.diff_s", d.seconds, "s");
    print("diff.time_ratio", d.seconds / std::max(1e-9, s.seconds), "x summary");
    print("rss.diff.summary_mb", s.peakRssMb, "MB");
    print("rss.diff.diff_mb", d.peakRssMb, "MB");
    print("rss.diff.ratio", d.peakRssMb / std::max(1e-9, s.peakRssMb), "x summary");
    return 0;
}

} // namespace npuscope::bench

// SPDX-License-Identifier: Apache-2.0
// npuscope-cli import: per-rank model files made where the profiles are, opened anywhere (load::RankImport).
#include "CliSupport.h"

#include "npuscope/load/RankImport.h"

#include <iostream>

namespace {

constexpr const char* kUsage = R"(  import [--quiet] [--no-join] [--keep summary|timeline|all] [--ranks LIST]
         RANKDIR... --out DIR
      Parse each RANKDIR (a rank folder, or any folder npuscope opens) on its own and write one file per rank,
      DIR/rank_<id>.nprank: the rank's summary model in the parse cache's format, describing itself (input paths,
      sizes, modification times, importer version and schema). Files are written under a temporary name and
      renamed, so many processes (one per rank or per host, e.g. a Slurm array job, docs/cluster.md) may import
      into one DIR at once; nothing is written into a RANKDIR (DIR inside one is refused). npuscope and
      npuscope-cli open DIR like any profile, without parsing; a file made by another npuscope version is named
      in the parse issues. The timeline, kernel and memory rows are not in the rank files; with --keep timeline
      the timeline rows, with --keep all also the kernel and memory rows, of the ranks in LIST (comma-separated
      ids and ranges, 0,3,8-15; default every rank) go beside them in rank_<id>.<group>.npgroup files, and a view
      that needs them reads them there; otherwise (summary, the default) from the original files the rank files
      name. The kernel totals of the FLOPs heatmap are always written (rank_<id>.kernel-totals.npgroup).
      When the folder then holds only the rank files this import wrote (one import over every rank folder), it
      is joined as by import --join, so its first open reads one file; --no-join leaves that out.
      --quiet prints only errors.
  import --join DIR
      Once every rank is imported (e.g. a job depending on the import array job): write DIR/cluster.npjoined, the
      summary model of all of DIR's rank files, so opening DIR reads one file instead of merging them (as fast as a
      warm parse cache). Used only while DIR holds exactly the rank files it was made from.
)";

int run(const std::vector<std::string>& args)
{
    if (args.size() == 2 && args[0] == "--join") {
        const auto error = npuscope::load::RankImport::join(args[1]);
        if (!error.empty()) {
            std::cerr << "npuscope-cli import --join: " << error << "\n";
            return 1;
        }
        std::cout << "joined " << args[1] << "/" << npuscope::load::RankImport::kJoinedName << "\n";
        return 0;
    }
    std::vector<std::string> dirs;
    std::string out;
    bool quiet = false;
    bool noJoin = false;
    npuscope::load::RankImport::Options options;
    npuscope::cli::Options parser("import");
    parser.text("--out", [&](const std::string& v) { out = v; })
        .value("--keep", "summary, timeline or all",
            [&](const std::string& keep) {
                if (keep == "summary")
                    options.groups = npuscope::io::kNoGroup;
                else if (keep == "timeline")
                    options.groups = npuscope::io::kTimelineGroup;
                else if (keep == "all")
                    options.groups = npuscope::io::kAllGroups;
                else
                    return false;
                return true;
            })
        .ranks(options.groupRanks)
        .flag("--quiet", quiet)
        .flag("--no-join", noJoin)
        .paths(dirs, true);
    if (const auto status = parser.parse(args))
        return *status;
    const bool joinWhole = !noJoin;
    if (out.empty() || dirs.empty())
        return parser.error("needs RANKDIR... and --out DIR");
    const auto result = npuscope::load::RankImport::importRanks(
        dirs, out,
        [&](const auto& w) {
            if (quiet)
                return;
            std::cout << "rank " << w.rank << ": " << w.input << " -> " << w.path << " (" << w.bytes << " bytes";
            for (size_t g = 0; g < w.groups.size(); ++g)
                std::cout << (g ? ", " : "; with ") << w.groups[g];
            std::cout << ")\n";
        },
        nullptr, options);
    for (const auto& e : result.errors)
        std::cerr << "npuscope-cli import: " << e << "\n";
    bool joined = true;
    if (const auto error = joinWhole ? npuscope::load::RankImport::joinIfWhole(out, result) : std::nullopt) {
        joined = error->empty();
        if (!joined)
            std::cerr << "npuscope-cli import: join: " << *error << "\n";
        else if (!quiet)
            std::cout << "joined " << out << "/" << npuscope::load::RankImport::kJoinedName << "\n";
    }
    return result.errors.empty() && !result.written.empty() && joined ? 0 : 1;
}

const bool kRegistered = npuscope::cli::registerCommand({ "import", kUsage, &run, 100 });

} // namespace

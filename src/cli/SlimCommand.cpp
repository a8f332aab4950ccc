// SPDX-License-Identifier: Apache-2.0
// npuscope-cli slim: a copy of a profile with only the files the chosen views read (load::ProfileSlim).
#include "CliSupport.h"

#include "npuscope/load/ProfileSlim.h"

#include <iostream>
#include <sstream>

namespace {

constexpr const char* kUsage = R"(  slim SRC DST [--keep summary|timeline|all] [--ranks LIST]
      Copy into DST (missing or empty; not inside SRC, nor SRC inside it) only the files npuscope reads from SRC,
      keeping the folder layout and modification times: with summary (default) the files of the cluster views
      (step trace, communication, statistics, metadata, memory_record.csv for the memory peaks, db exports);
      with timeline also trace_view.json (or the rank's timeline db) of the ranks in LIST; with all also their
      kernel and memory files. LIST is comma-separated rank ids and ranges (0,3,8-15); default every rank. SRC is
      never written. Prints the sizes before and after.
)";

std::string megabytes(uint64_t bytes)
{
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(1);
    s << static_cast<double>(bytes) / 1e6 << " MB";
    return s.str();
}

int run(const std::vector<std::string>& args)
{
    npuscope::load::ProfileSlim::Options options;
    std::vector<std::string> paths;
    npuscope::cli::Options parser("slim");
    parser
        .value("--keep", "summary, timeline or all",
            [&](const std::string& v) { return npuscope::load::ProfileSlim::keepFromName(v, options.keep); })
        .ranks(options.ranks)
        .paths(paths, true);
    if (const auto status = parser.parse(args))
        return *status;
    if (paths.size() != 2)
        return parser.error("needs SRC and DST");
    options.source = paths[0];
    options.destination = paths[1];
    const auto result = npuscope::load::ProfileSlim::run(options);
    for (const auto& w : result.warnings)
        std::cerr << "npuscope-cli slim: " << w << "\n";
    if (!result.error.empty()) {
        std::cerr << "npuscope-cli slim: " << result.error << "\n";
        return 1;
    }
    const double ratio
        = result.sourceBytes ? static_cast<double>(result.copiedBytes) / static_cast<double>(result.sourceBytes) : 0;
    std::cout << "before: " << result.sourceFiles << " files, " << megabytes(result.sourceBytes) << "\n"
              << "after:  " << result.copiedFiles << " files, " << megabytes(result.copiedBytes) << " ("
              << static_cast<int>(ratio * 1000 + 0.5) / 10.0 << " % of the bytes)\n";
    return 0;
}

const bool kRegistered = npuscope::cli::registerCommand({ "slim", kUsage, &run, 100 });

} // namespace

// SPDX-License-Identifier: Apache-2.0
// npuscope-cli: headless front end over the same core the GUI uses.

#include "npuscope/io/Detector.h"
#include "npuscope/io/Loader.h"
#include "npuscope/model/Database.h"
#include "npuscope/query/SummaryReport.h"

#include <spdlog/spdlog.h>

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr const char* kUsage = R"(usage: npuscope-cli <command> [options] PATH...

commands:
  summary [--json] [--with-timeline] PATH...
      Detect and import the profiler output under PATH (ASCEND_PROFILER_OUTPUT folders, *_ascend_pt /
      *_ascend_ms rank folders, or a folder holding many of them) and print ranks, step breakdown,
      cluster statistics, communication groups, slowest links and parse issues. --json prints the
      npuscope.summary/1 document. trace_view.json is only imported with --with-timeline.
  help
      Show this text.

exit status: 0 on success, 1 when nothing could be loaded, 2 on a usage error.
)";

int summary(const std::vector<std::string>& args)
{
    bool json = false;
    bool timeline = false;
    std::vector<std::string> paths;
    for (const auto& a : args) {
        if (a == "--json")
            json = true;
        else if (a == "--with-timeline")
            timeline = true;
        else if (a.rfind("--", 0) == 0) {
            std::cerr << "npuscope-cli summary: unknown option " << a << "\n" << kUsage;
            return 2;
        } else
            paths.push_back(a);
    }
    if (paths.empty()) {
        std::cerr << "npuscope-cli summary: no PATH given\n" << kUsage;
        return 2;
    }
    const auto plan = npuscope::io::Detector::detect(paths);
    npuscope::io::LoadOptions options;
    options.loadTimelines = timeline;
    auto db = npuscope::io::Loader::load(plan, options);
    if (!db) {
        std::cerr << "npuscope-cli: loading was cancelled\n";
        return 1;
    }
    if (json)
        std::cout << npuscope::query::SummaryReport::json(*db).dump(2) << "\n";
    else
        std::cout << "Layout: " << plan.layoutName() << "\n" << npuscope::query::SummaryReport::text(*db);
    if (plan.ranks.empty()) {
        for (const auto& issue : plan.issues)
            std::cerr << "npuscope-cli: " << issue.path << ": " << issue.message << "\n";
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    spdlog::set_level(spdlog::level::warn);
    if (argc < 2) {
        std::cerr << kUsage;
        return 2;
    }
    const std::string command = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    try {
        if (command == "summary")
            return summary(args);
        if (command == "help" || command == "--help" || command == "-h") {
            std::cout << kUsage;
            return 0;
        }
    } catch (const std::exception& e) {
        std::cerr << "npuscope-cli: " << e.what() << "\n";
        return 1;
    }
    std::cerr << "npuscope-cli: unknown command " << command << "\n" << kUsage;
    return 2;
}

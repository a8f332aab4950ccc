// SPDX-License-Identifier: Apache-2.0
// npuscope-cli cache: the parse cache's folder and size, or clearing it.
#include "CliSupport.h"

#include "npuscope/load/ParseCache.h"

#include <iostream>

namespace {

constexpr const char* kUsage = R"(  cache [--clear]
      Print the parse cache folder and its size; --clear removes every entry.
)";

int run(const std::vector<std::string>& args)
{
    bool clear = false;
    npuscope::cli::Options options("cache");
    options.flag("--clear", clear);
    if (const auto status = options.parse(args))
        return *status;
    const npuscope::load::ParseCache cache;
    if (clear)
        std::cout << "removed " << cache.clear() << " bytes from " << cache.dir() << "\n";
    else
        std::cout << cache.dir() << " " << cache.sizeBytes() << " bytes\n";
    return 0;
}

const bool kRegistered = npuscope::cli::registerCommand({ "cache", kUsage, &run, 20 });

} // namespace

// SPDX-License-Identifier: Apache-2.0
// npuscope-cli: headless front end over the same core the GUI uses. Every command lives in its own file
// (src/cli/<Name>Command.cpp) and registers itself; this file only dispatches.

#include "CliSupport.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    spdlog::set_level(spdlog::level::warn);
    if (argc < 2) {
        std::cerr << npuscope::cli::usageText();
        return 2;
    }
    const std::string command = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    // "COMMAND --help" (or -h) anywhere prints the usage, for every command alike (generate answered "--help needs a
    // value").
    if (std::find(args.begin(), args.end(), "--help") != args.end()
        || std::find(args.begin(), args.end(), "-h") != args.end()) {
        std::cout << npuscope::cli::usageText();
        return 0;
    }
    try {
        if (command == "help" || command == "--help" || command == "-h") {
            std::cout << npuscope::cli::usageText();
            return 0;
        }
        for (const auto& c : npuscope::cli::registeredCommands())
            if (command == c.name)
                return c.run(args);
    } catch (const std::exception& e) {
        std::cerr << "npuscope-cli: " << e.what() << "\n";
        return 1;
    }
    std::cerr << "npuscope-cli: unknown command " << command << "\n" << npuscope::cli::usageText();
    return 2;
}

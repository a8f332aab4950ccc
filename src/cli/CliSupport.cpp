// SPDX-License-Identifier: Apache-2.0
#include "CliSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace npuscope::cli {

namespace {

constexpr const char* kUsageHead = "usage: npuscope-cli <command> [options] PATH...\n\ncommands:\n";
constexpr const char* kUsageTail = R"(  help
      Show this text.

exit status: 0 on success, 1 when nothing could be loaded (or an output file could not be written), 2 on a
usage error.
)";

const char* g_builtinUsage = "";

// Function-local so that registration from other files' static initialisers never sees it unconstructed.
std::vector<Command>& registry()
{
    static std::vector<Command> commands;
    return commands;
}

} // namespace

int usageError(const std::string& command, const std::string& message)
{
    std::cerr << "npuscope-cli " << command << ": " << message << "\n" << usageText();
    return 2;
}

bool parseInt(const std::string& text, long long lo, long long hi, long long& out)
{
    try {
        size_t used = 0;
        out = std::stoll(text, &used);
        return used == text.size() && out >= lo && out <= hi;
    } catch (const std::exception&) {
        return false;
    }
}

bool parseRankList(const std::string& text, std::set<int64_t>& out)
{
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        const auto dash = part.find('-', 1);
        long long lo = 0;
        long long hi = 0;
        constexpr long long kMax = 1LL << 40;
        if (dash == std::string::npos) {
            if (!parseInt(part, 0, kMax, lo))
                return false;
            hi = lo;
        } else if (!parseInt(part.substr(0, dash), 0, kMax, lo)
            || !parseInt(part.substr(dash + 1), lo, lo + 1'000'000, hi)) {
            return false;
        }
        for (long long r = lo; r <= hi; ++r)
            out.insert(r);
    }
    return !out.empty();
}

std::unique_ptr<model::Database> loadPlan(const io::LoadPlan& plan, io::DeferredGroups groups, bool useCache)
{
    load::LoadOptions options;
    options.loadTimelines = groups != io::kNoGroup;
    options.deferredGroups = groups;
    const load::ParseCache cache;
    if (useCache)
        options.cache = &cache;
    return load::Loader::load(plan, options);
}

std::unique_ptr<model::Database> loadRanks(
    const char* command, const std::vector<std::string>& paths, io::DeferredGroups groups, bool useCache)
{
    const auto plan = io::Detector::detect(paths);
    auto db = loadPlan(plan, groups, useCache);
    if (!db || plan.ranks.empty()) {
        std::cerr << "npuscope-cli " << command << ": nothing loaded\n";
        return nullptr;
    }
    return db;
}

bool registerCommand(const Command& command)
{
    auto& commands = registry();
    const auto at = std::lower_bound(commands.begin(), commands.end(), command,
        [](const Command& a, const Command& b) { return std::string_view(a.name) < std::string_view(b.name); });
    commands.insert(at, command);
    return true;
}

const std::vector<Command>& registeredCommands() { return registry(); }

void setBuiltinUsage(const char* text) { g_builtinUsage = text; }

std::string usageText()
{
    std::string text = kUsageHead;
    text += g_builtinUsage;
    for (const auto& c : registry())
        text += c.usage;
    text += kUsageTail;
    return text;
}

} // namespace npuscope::cli

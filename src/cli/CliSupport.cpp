// SPDX-License-Identifier: Apache-2.0
#include "CliSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/load/StepGraph.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
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

std::optional<double> parseCapacityMb(const std::string& text)
{
    double gb = 0;
    size_t used = 0;
    try {
        gb = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || !(gb > 0))
        return std::nullopt;
    return gb * 1024.0;
}

std::optional<double> parsePositive(const std::string& text)
{
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end || !(v > 0) || !std::isfinite(v))
        return std::nullopt;
    return v;
}

Options& Options::flag(const char* name, bool& out)
{
    m_options.push_back({ name, false, {}, [&out](const std::string&) -> std::optional<std::string> {
                             out = true;
                             return std::nullopt;
                         } });
    return *this;
}

Options& Options::value(
    const char* name, const char* expects, std::function<bool(const std::string&)> set, const char* needs)
{
    const std::string option = name;
    const std::string what = expects;
    m_options.push_back({ option, true, needs,
        [option, what, set = std::move(set)](const std::string& v) -> std::optional<std::string> {
            if (set(v))
                return std::nullopt;
            return option + " expects " + what + ", got \"" + v + "\"";
        } });
    return *this;
}

Options& Options::text(const char* name, std::function<void(const std::string&)> set, const char* needs)
{
    m_options.push_back({ name, true, needs, [set = std::move(set)](const std::string& v) -> std::optional<std::string> {
                             set(v);
                             return std::nullopt;
                         } });
    return *this;
}

Options& Options::integer(
    const char* name, long long lo, long long hi, const char* expects, std::function<void(long long)> set)
{
    return value(name, expects, [lo, hi, set = std::move(set)](const std::string& v) {
        long long n = 0;
        if (!parseInt(v, lo, hi, n))
            return false;
        set(n);
        return true;
    });
}

Options& Options::paths(std::vector<std::string>& out, bool optional)
{
    m_paths = &out;
    m_pathsOptional = optional;
    return *this;
}

Options& Options::report(ReportArgs& out)
{
    return flag("--json", out.json).flag("--no-cache", out.noCache).paths(out.paths);
}

Options& Options::step(std::function<void(long long)> set)
{
    return integer("--step", std::numeric_limits<long long>::min(), std::numeric_limits<long long>::max(), "an integer",
        std::move(set));
}

Options& Options::ranks(std::optional<std::set<int64_t>>& out)
{
    return value("--ranks", "rank ids and ranges such as 0,3,8-15", [&out](const std::string& v) {
        std::set<int64_t> ranks;
        if (!parseRankList(v, ranks))
            return false;
        out = std::move(ranks);
        return true;
    });
}

int Options::error(const std::string& message) const { return usageError(m_command, message); }

std::optional<int> Options::parse(const std::vector<std::string>& args) const
{
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto option = std::find_if(m_options.begin(), m_options.end(), [&](const Option& o) { return o.name == a; });
        if (option == m_options.end()) {
            if (a.rfind("--", 0) == 0)
                return error("unknown option " + a);
            if (!m_paths)
                return error("unexpected argument " + a);
            m_paths->push_back(a);
            continue;
        }
        std::string value;
        if (option->takesValue) {
            if (i + 1 >= args.size())
                return error(a + " needs " + option->needs);
            value = args[++i];
        }
        if (auto problem = option->set(value))
            return error(*problem);
    }
    if (m_paths && !m_pathsOptional && m_paths->empty())
        return error("no PATH given");
    return std::nullopt;
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

std::unique_ptr<model::Database> loadRanks(const char* command, const ReportArgs& report, io::DeferredGroups groups)
{
    return loadRanks(command, report.paths, groups, !report.noCache);
}

query::DependencyGraph dependencyGraph(model::Database& db, const ReportArgs& report, std::optional<int64_t> step)
{
    const load::ParseCache cache;
    return load::loadDependencyGraph(db, step, report.noCache ? nullptr : &cache);
}

bool registerCommand(const Command& command)
{
    auto& commands = registry();
    const auto at = std::lower_bound(commands.begin(), commands.end(), command, [](const Command& a, const Command& b) {
        return a.order != b.order ? a.order < b.order : std::string_view(a.name) < std::string_view(b.name);
    });
    commands.insert(at, command);
    return true;
}

const std::vector<Command>& registeredCommands() { return registry(); }

std::string usageText()
{
    std::string text = kUsageHead;
    for (const auto& c : registry())
        text += c.usage;
    text += kUsageTail;
    return text;
}

} // namespace npuscope::cli

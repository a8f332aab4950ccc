// SPDX-License-Identifier: Apache-2.0
// Shared pieces of npuscope-cli: option helpers, loading a plan as every command does, and the registry through
// which a command kept in its own file (src/cli/<Name>Command.cpp) joins the dispatcher and the usage text.
#pragma once

#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/model/Database.h"
#include "npuscope/query/DependencyGraph.h"

#include <cstdint>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npuscope::cli {

// Prints "npuscope-cli COMMAND: MESSAGE" and the usage text to stderr; returns 2, the exit status of a usage error.
int usageError(const std::string& command, const std::string& message);

// Parses a whole decimal integer within [lo, hi]; false when text is not one.
bool parseInt(const std::string& text, long long lo, long long hi, long long& out);

// Parses a rank list such as "0,3,8-15" (comma-separated rank ids and ranges) into out; false on anything else or
// an empty list. Shared by --ranks of slim, collect and import.
bool parseRankList(const std::string& text, std::set<int64_t>& out);

// --capacity-gb G: the device memory in MB (2^20 B); nullopt when G is not a positive number.
std::optional<double> parseCapacityMb(const std::string& text);

// A whole positive finite number (--peak-tflops); nullopt for anything else.
std::optional<double> parsePositive(const std::string& text);

// What a report command (loads PATHs, prints a text or a JSON report) takes besides its own options: --json,
// --no-cache and at least one PATH (Options::report, loadRanks, printReport).
struct ReportArgs {
    bool json = false;
    bool noCache = false;
    std::vector<std::string> paths;
};

// The options of one command, declared once; parse() reads the arguments and reports what every command reports
// alike, through usageError: "unknown option X", "X needs a value" (or the option's own noun), "X expects <what>,
// got "V"", "unexpected argument A" (a command without PATHs) and "no PATH given".
class Options {
public:
    explicit Options(std::string command)
        : m_command(std::move(command))
    {
    }
    // A flag: out becomes true when given.
    Options& flag(const char* name, bool& out);
    // An option with a value: set(value) takes it or returns false, and the error says "NAME expects EXPECTS, got
    // "VALUE"". needs is the noun of the "NAME needs ..." error ("a value", "a FILE").
    Options& value(const char* name, const char* expects, std::function<bool(const std::string&)> set,
        const char* needs = "a value");
    // An option read by read(value) -> an optional: out takes what it gives, and nullopt is the "expects" error.
    template <typename T, typename Read> Options& value(const char* name, const char* expects, T& out, Read read)
    {
        return value(name, expects, [&out, read](const std::string& v) {
            auto parsed = read(v);
            if (parsed)
                out = *parsed;
            return parsed.has_value();
        });
    }
    // An option whose value is any text.
    Options& text(const char* name, std::function<void(const std::string&)> set, const char* needs = "a value");
    // An integer option within [lo, hi]; expects as in value() ("an integer", "a rank").
    Options& integer(const char* name, long long lo, long long hi, const char* expects, std::function<void(long long)> set);
    // The PATH... arguments (at least one unless optional): anything not starting with "--".
    Options& paths(std::vector<std::string>& out, bool optional = false);
    // --json, --no-cache and the PATHs of a report command.
    Options& report(ReportArgs& out);
    // --step N, any integer: the step a report is about.
    Options& step(std::function<void(long long)> set);
    // --step N into out.
    Options& step(std::optional<int64_t>& out)
    {
        return step([&out](long long n) { out = n; });
    }
    // --ranks LIST, rank ids and ranges (parseRankList): the ranks a command keeps to.
    Options& ranks(std::optional<std::set<int64_t>>& out);
    // nullopt when every argument was taken; else the exit status of the usage error it printed (2).
    std::optional<int> parse(const std::vector<std::string>& args) const;
    // The usage error of this command (for checks after parse()).
    int error(const std::string& message) const;

private:
    struct Option {
        std::string name;
        bool takesValue = false;
        std::string needs;
        std::function<std::optional<std::string>(const std::string&)> set; // error text, nullopt when taken
    };
    std::string m_command;
    std::vector<Option> m_options;
    std::vector<std::string>* m_paths = nullptr;
    bool m_pathsOptional = false;
};

// Loads a plan: the summary, the deferred per-rank files of the groups a command reads (io::kNoGroup for none),
// through the parse cache unless useCache is false. nullptr when cancelled.
std::unique_ptr<model::Database> loadPlan(const io::LoadPlan& plan, io::DeferredGroups groups, bool useCache);

// Detects and loads paths for a command that needs at least one rank; nullptr, after saying so on stderr, when
// nothing loaded.
std::unique_ptr<model::Database> loadRanks(
    const char* command, const std::vector<std::string>& paths, io::DeferredGroups groups, bool useCache);
// The same for a report command: its PATHs, through the parse cache unless --no-cache.
std::unique_ptr<model::Database> loadRanks(const char* command, const ReportArgs& report, io::DeferredGroups groups);

// The dependency graph of the loaded ranks (query::DependencyGraphBuilder) for critical-path and whatif: first the
// kernel rows of the step (every step when nullopt) of each rank whose kernels are not imported
// (load::Loader::loadStepKernels, through the parse cache unless report.noCache).
query::DependencyGraph dependencyGraph(model::Database& db, const ReportArgs& report, std::optional<int64_t> step);

// Prints a report command's result: with --json document() indented by 2 and a newline, else text(). Only the one
// printed is made.
template <typename Document, typename Text> void printReport(const ReportArgs& report, Document&& document, Text&& text)
{
    if (report.json)
        std::cout << document().dump(2) << "\n";
    else
        std::cout << text();
}

// The rest of a report command once its options are parsed: the ranks loaded (the deferred files of groups too), then
// document(db) or text(db) printed (printReport). Returns the exit status.
template <typename Document, typename Text>
int loadAndPrint(
    const char* command, const ReportArgs& report, io::DeferredGroups groups, Document&& document, Text&& text)
{
    auto db = loadRanks(command, report, groups);
    if (!db)
        return 1;
    printReport(
        report, [&] { return document(*db); }, [&] { return text(*db); });
    return std::cout ? 0 : 1;
}

// A report on the dependency graph (critical-path, whatif): the loaded ranks' graph of step (every step: nullopt),
// built by dependencyGraph(), then document(graph) or text(graph) printed. Returns the exit status.
template <typename Document, typename Text>
int printGraphReport(
    const char* command, const ReportArgs& report, std::optional<int64_t> step, Document&& document, Text&& text)
{
    return loadAndPrint(
        command, report, io::kNoGroup,
        [&](model::Database& db) { return document(dependencyGraph(db, report, step)); },
        [&](model::Database& db) { return text(dependencyGraph(db, report, step)); });
}

// The whole of a report command without options of its own (`<command> [--json] [--no-cache] PATH...`): the
// summary of every rank loaded (no deferred files), then Report::json(db) or Report::text(db) printed. Returns the
// exit status.
template <typename Report> int runReport(const char* command, const std::vector<std::string>& args)
{
    ReportArgs report;
    Options options(command);
    options.report(report);
    if (const auto status = options.parse(args))
        return *status;
    return loadAndPrint(
        command, report, io::kNoGroup, [](model::Database& db) { return Report::json(db); },
        [](model::Database& db) { return Report::text(db); });
}

// A command of npuscope-cli, each in its own file (src/cli/<Name>Command.cpp). usage is its block of the usage text
// (two-space indent for the synopsis, six for the description, ending in a newline); run gets the arguments after
// the command name and returns the exit status (0 ok, 1 nothing loaded / output failed, 2 usage error). order places
// the block in the usage text (then the name): the report commands first, as users meet them.
struct Command {
    const char* name;
    const char* usage;
    int (*run)(const std::vector<std::string>& args);
    int order;
};

// Adds a command; call from a namespace-scope initialiser in the command's file:
//   const bool kRegistered = npuscope::cli::registerCommand({ "name", kUsage, &run, 100 });
bool registerCommand(const Command& command);

// The registered commands, by order then name.
const std::vector<Command>& registeredCommands();

// The full usage text: every command's block in registeredCommands() order, then help and the exit status paragraph.
std::string usageText();

} // namespace npuscope::cli

// SPDX-License-Identifier: Apache-2.0
// Shared pieces of npuscope-cli: option helpers, loading a plan as every command does, and the registry through
// which a command kept in its own file (src/cli/<Name>Command.cpp) joins the dispatcher and the usage text.
#pragma once

#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/model/Database.h"

#include <cstdint>
#include <memory>
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

// Loads a plan: the summary, the deferred per-rank files of the groups a command reads (io::kNoGroup for none),
// through the parse cache unless useCache is false. nullptr when cancelled.
std::unique_ptr<model::Database> loadPlan(const io::LoadPlan& plan, io::DeferredGroups groups, bool useCache);

// Detects and loads paths for a command that needs at least one rank; nullptr, after saying so on stderr, when
// nothing loaded.
std::unique_ptr<model::Database> loadRanks(
    const char* command, const std::vector<std::string>& paths, io::DeferredGroups groups, bool useCache);

// A command defined outside main.cpp. usage is its block of the usage text (two-space indent for the synopsis,
// six for the description, ending in a newline); run gets the arguments after the command name and returns the
// exit status (0 ok, 1 nothing loaded / output failed, 2 usage error).
struct Command {
    const char* name;
    const char* usage;
    int (*run)(const std::vector<std::string>& args);
};

// Adds a command; call from a namespace-scope initialiser in the command's file:
//   const bool kRegistered = npuscope::cli::registerCommand({ "name", kUsage, &run });
bool registerCommand(const Command& command);

// The registered commands, in name order.
const std::vector<Command>& registeredCommands();

// main.cpp's own block of the usage text (its commands); set once at start-up, before usageText is used.
void setBuiltinUsage(const char* text);

// The full usage text: main.cpp's commands, then the registered ones, then help and the exit status paragraph.
std::string usageText();

} // namespace npuscope::cli

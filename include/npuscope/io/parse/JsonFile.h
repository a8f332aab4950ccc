// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>

namespace npuscope::io {

// Reads a small JSON file (profiler_info, metadata, communication*.json: KB to a few MB) into a
// DOM. Reports "cannot open", "empty file", syntax errors with their byte offset (and line
// when it can be computed) and a top level that is not an object to ctx. Returns false when nothing
// usable was read; when true, out is an object.
bool readJsonFile(ImportContext& ctx, nlohmann::json& out);

// The top-level object of a small JSON file, for a look that reports nothing (detection, a device folder's
// info.json); nullopt when the file cannot be read, is not JSON or its top level is not an object. Any thread.
std::optional<nlohmann::json> peekJsonObject(const std::filesystem::path& path);
// Reads a whole small file into text, reporting "cannot open" / "empty file". False when unusable.
bool readTextFile(ImportContext& ctx, std::string& text);
// Reports a JSON syntax error at a byte offset of text (with its line) as an error issue.
void reportJsonError(ImportContext& ctx, const std::string& text, size_t byte, const std::string& what);
// Parses text (a whole file, as readTextFile reads it) with nlohmann into out, keeping what keep keeps (nullptr:
// everything). A syntax error is reported with reportJsonError; false then.
bool parseJsonText(ImportContext& ctx, const std::string& text, nlohmann::json& out,
    const nlohmann::json::parser_callback_t& keep = nullptr);

// "step50" -> 50; any other key -> the first number in it, or nullopt.
std::optional<int64_t> stepFromKey(const std::string& key);

// A JSON number (or numeric string) as double; nullopt otherwise.
std::optional<double> jsonNumber(const nlohmann::json& object, const char* key);
// A JSON integer (or integer string, see parseInt) as int64; nullopt otherwise (also for a fraction).
std::optional<int64_t> jsonInt(const nlohmann::json& object, const char* key);

} // namespace npuscope::io

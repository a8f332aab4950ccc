// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/JsonFile.h"

#include "npuscope/core/Decimal.h"

#include <cctype>
#include <fstream>
#include <sstream>

namespace npuscope::io {

bool readTextFile(ImportContext& ctx, std::string& text)
{
    std::ifstream in(ctx.file(), std::ios::binary | std::ios::ate);
    if (!in) {
        ctx.error(std::nullopt, "cannot open file");
        return false;
    }
    // One read of the known size (a cluster reads thousands of these; a stringstream copies twice).
    const auto size = in.tellg();
    text.clear();
    if (size > 0) {
        text.resize(static_cast<size_t>(size));
        in.seekg(0);
        in.read(text.data(), static_cast<std::streamsize>(text.size()));
        text.resize(static_cast<size_t>(in.gcount()));
    }
    if (in.bad() || (size < 0)) {
        // Not seekable (a pipe): fall back to reading it as a stream.
        std::ifstream again(ctx.file(), std::ios::binary);
        std::stringstream buffer;
        buffer << again.rdbuf();
        text = buffer.str();
    }
    if (trim(text).empty()) {
        ctx.error(std::nullopt, "empty file");
        return false;
    }
    return true;
}

void reportJsonError(ImportContext& ctx, const std::string& text, size_t byte, const std::string& what)
{
    int64_t line = 1;
    for (size_t i = 0; i < byte && i < text.size(); ++i)
        line += text[i] == '\n';
    std::string message = what;
    if (const auto p = message.find("parse error"); p != std::string::npos)
        message = message.substr(p);
    ctx.error(line, "invalid JSON at byte " + std::to_string(byte) + ": " + message);
}

bool readJsonFile(ImportContext& ctx, nlohmann::json& out)
{
    std::string text;
    if (!readTextFile(ctx, text))
        return false;
    try {
        out = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        reportJsonError(ctx, text, e.byte > 0 ? e.byte - 1 : 0, e.what());
        return false;
    }
    if (!out.is_object()) {
        ctx.error(std::nullopt, "expected a JSON object at the top level");
        return false;
    }
    return true;
}

std::optional<int64_t> stepFromKey(const std::string& key)
{
    size_t i = 0;
    while (i < key.size() && !std::isdigit(static_cast<unsigned char>(key[i])))
        ++i;
    size_t j = i;
    while (j < key.size() && std::isdigit(static_cast<unsigned char>(key[j])))
        ++j;
    if (i == j)
        return std::nullopt;
    return parseInt(std::string_view(key).substr(i, j - i));
}

std::optional<double> jsonNumber(const nlohmann::json& object, const char* key)
{
    if (!object.is_object())
        return std::nullopt;
    const auto it = object.find(key);
    if (it == object.end())
        return std::nullopt;
    if (it->is_number())
        return it->get<double>();
    if (it->is_string())
        return parseDouble(it->get<std::string>());
    return std::nullopt;
}

std::optional<int64_t> jsonInt(const nlohmann::json& object, const char* key)
{
    const auto it = object.find(key);
    if (it == object.end())
        return std::nullopt;
    if (it->is_number_integer())
        return it->get<int64_t>();
    if (it->is_string())
        return parseInt(it->get<std::string>());
    return std::nullopt;
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/JsonFile.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"

#include <simdjson.h>

#include <cctype>
#include <fstream>
#include <sstream>

namespace npuscope::io {

bool readTextFile(ImportContext& ctx, std::string& text)
{
    std::ifstream in(ctx.file(), std::ios::binary | std::ios::ate);
    if (!in) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot open file")));
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
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "empty file")));
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
    ctx.error(line,
        issueText(QT_TRANSLATE_NOOP("ParseIssue", "invalid JSON at byte %1: %2"), { std::to_string(byte), message }));
}

namespace {

// A simdjson DOM element as the nlohmann value its parser would build from the same text: a non-negative integer is
// unsigned, a negative one an integer, other numbers doubles (both parsers round to the nearest double); a repeated
// key keeps its last value.
nlohmann::json toJson(simdjson::dom::element e)
{
    namespace dom = simdjson::dom;
    switch (e.type()) {
    case dom::element_type::OBJECT: {
        nlohmann::json out = nlohmann::json::object();
        for (const auto field : dom::object(e))
            out[std::string(field.key)] = toJson(field.value);
        return out;
    }
    case dom::element_type::ARRAY: {
        nlohmann::json out = nlohmann::json::array();
        for (const auto item : dom::array(e))
            out.push_back(toJson(item));
        return out;
    }
    case dom::element_type::INT64: {
        const int64_t v = int64_t(e);
        if (v >= 0)
            return static_cast<uint64_t>(v);
        return v;
    }
    case dom::element_type::UINT64:
        return uint64_t(e);
    case dom::element_type::DOUBLE:
        return double(e);
    case dom::element_type::STRING:
        return std::string(std::string_view(e));
    case dom::element_type::BOOL:
        return bool(e);
    case dom::element_type::NULL_VALUE:
        break;
    }
    return nullptr;
}

// True when text has a "-0" number token, which nlohmann reads as a signed integer and simdjson's DOM as the same 0
// as "0" (unsigned to nlohmann). Strings may match too (the caller then just takes the slower path).
bool hasMinusZeroInteger(std::string_view text)
{
    for (auto at = text.find("-0"); at != std::string_view::npos; at = text.find("-0", at + 2)) {
        // A number token ends at a delimiter ("-01" is no JSON number: a date in a string, say).
        const char after = at + 2 < text.size() ? text[at + 2] : ' ';
        if (after == ',' || after == ']' || after == '}' || after == ' ' || after == '\t' || after == '\r'
            || after == '\n')
            return true;
    }
    return false;
}

// Files up to this size go through simdjson (its tokenizer is several times nlohmann's; the small files of a
// 1,024-rank cluster are read thousands of times). Larger ones go to nlohmann alone, so the text is not held
// three times (text, simdjson's tape, the nlohmann value).
constexpr std::size_t kSimdjsonMaxBytes = 4u << 20;

} // namespace

bool parseJsonText(
    ImportContext& ctx, const std::string& text, nlohmann::json& out, const nlohmann::json::parser_callback_t& keep)
{
    try {
        out = nlohmann::json::parse(text, keep);
    } catch (const nlohmann::json::parse_error& e) {
        reportJsonError(ctx, text, e.byte > 0 ? e.byte - 1 : 0, e.what());
        return false;
    }
    return true;
}

bool readJsonFile(ImportContext& ctx, nlohmann::json& out)
{
    std::string text;
    if (!readTextFile(ctx, text))
        return false;
    if (text.size() <= kSimdjsonMaxBytes && !hasMinusZeroInteger(text)) {
        // One parser per thread, its buffers kept between the files. Anything it refuses (a syntax error, a BOM, a
        // number beyond a double or uint64) goes to nlohmann, whose value or error message is then the one used.
        thread_local simdjson::dom::parser parser;
        const simdjson::padded_string padded(text);
        simdjson::dom::element root;
        if (parser.parse(padded).get(root) == simdjson::SUCCESS) {
            try {
                out = toJson(root);
            } catch (const simdjson::simdjson_error&) {
                out = nullptr;
            }
            if (!out.is_null()) {
                if (!out.is_object()) {
                    ctx.error(std::nullopt,
                        issueText(QT_TRANSLATE_NOOP("ParseIssue", "expected a JSON object at the top level")));
                    return false;
                }
                return true;
            }
        }
    }
    if (!parseJsonText(ctx, text, out))
        return false;
    if (!out.is_object()) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "expected a JSON object at the top level")));
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

std::optional<nlohmann::json> peekJsonObject(const std::filesystem::path& path)
{
    std::ifstream in(path);
    if (!in)
        return std::nullopt;
    auto j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return std::nullopt;
    return j;
}

namespace {

// object[key], nullptr when object is not an object or has no such key.
const nlohmann::json* memberOf(const nlohmann::json& object, const char* key)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

// object[key] as T: a JSON value of the kind isKind accepts, or a string that parse reads; nullopt otherwise.
template <class T, class IsKind, class Parse>
std::optional<T> memberAs(const nlohmann::json& object, const char* key, IsKind isKind, Parse parse)
{
    const nlohmann::json* v = memberOf(object, key);
    if (v && isKind(*v))
        return v->get<T>();
    if (v && v->is_string())
        return parse(v->get<std::string>());
    return std::nullopt;
}

} // namespace

std::optional<double> jsonNumber(const nlohmann::json& object, const char* key)
{
    return memberAs<double>(
        object, key, [](const nlohmann::json& v) { return v.is_number(); },
        [](const std::string& s) { return parseDouble(s); });
}

std::optional<int64_t> jsonInt(const nlohmann::json& object, const char* key)
{
    return memberAs<int64_t>(
        object, key, [](const nlohmann::json& v) { return v.is_number_integer(); },
        [](const std::string& s) { return parseInt(s); });
}

} // namespace npuscope::io

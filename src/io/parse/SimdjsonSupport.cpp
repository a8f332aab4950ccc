// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/SimdjsonSupport.h"

#include <charconv>

namespace npuscope::io {

namespace od = simdjson::ondemand;

std::string_view trimToken(std::string_view t)
{
    while (!t.empty() && (t.back() == ' ' || t.back() == '\n' || t.back() == '\r' || t.back() == '\t'))
        t.remove_suffix(1);
    return t;
}

bool isJsonNumber(std::string_view t, bool& integral, bool& exponent)
{
    std::size_t i = 0;
    const std::size_t n = t.size();
    auto digits = [&] {
        const std::size_t from = i;
        while (i < n && t[i] >= '0' && t[i] <= '9')
            ++i;
        return i > from;
    };
    if (i < n && t[i] == '-')
        ++i;
    if (i < n && t[i] == '0')
        ++i;
    else if (!digits())
        return false;
    integral = true;
    exponent = false;
    if (i < n && t[i] == '.') {
        ++i;
        integral = false;
        if (!digits())
            return false;
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        integral = false;
        exponent = true;
        if (i < n && (t[i] == '+' || t[i] == '-'))
            ++i;
        if (!digits())
            return false;
    }
    return i == n;
}

std::optional<JsonNumber> readJsonNumber(std::string_view token)
{
    const std::string_view text = trimToken(token);
    bool integral = false, exponent = false;
    if (!isJsonNumber(text, integral, exponent))
        return std::nullopt;
    const char* begin = text.data();
    const char* end = begin + text.size();
    JsonNumber n;
    if (integral) {
        if (*begin == '-') {
            if (const auto r = std::from_chars(begin, end, n.integer); r.ec == std::errc() && r.ptr == end) {
                n.kind = JsonNumber::Kind::Integer;
                n.value = static_cast<double>(n.integer);
                return n;
            }
        } else if (const auto r = std::from_chars(begin, end, n.unsignedInteger);
                   r.ec == std::errc() && r.ptr == end) {
            n.kind = JsonNumber::Kind::Unsigned;
            n.value = static_cast<double>(n.unsignedInteger);
            return n;
        }
    }
    if (const auto r = std::from_chars(begin, end, n.value); r.ec != std::errc() || r.ptr != end)
        return std::nullopt;
    return n;
}

namespace {

void checkNumber(std::string_view token)
{
    bool integral = false, exponent = false;
    if (!isJsonNumber(trimToken(token), integral, exponent))
        throw simdjson::simdjson_error(simdjson::NUMBER_ERROR);
}

// simdjson's own limit; deeper input would overflow the stack of this recursion.
constexpr int kMaxDepth = 1024;

void validateAt(od::value v, int depth);

// Both od::value and od::document: the same walk.
template <class V> void validate(V& v, int depth)
{
    if (depth > kMaxDepth)
        throw simdjson::simdjson_error(simdjson::DEPTH_ERROR);
    switch (v.type().value()) {
    case od::json_type::object:
        for (auto field : v.get_object()) {
            std::string_view key = field.unescaped_key();
            static_cast<void>(key);
            validateAt(field.value(), depth + 1);
        }
        break;
    case od::json_type::array:
        for (auto element : v.get_array())
            validateAt(element.value(), depth + 1);
        break;
    case od::json_type::number:
        checkNumber(v.raw_json_token());
        break;
    case od::json_type::string: {
        std::string_view s = v.get_string();
        static_cast<void>(s);
        break;
    }
    case od::json_type::boolean: {
        bool b = v.get_bool();
        static_cast<void>(b);
        break;
    }
    case od::json_type::null:
        if (!v.is_null().value())
            throw simdjson::simdjson_error(simdjson::N_ATOM_ERROR);
        break;
    }
}

void validateAt(od::value v, int depth) { validate(v, depth); }

} // namespace

void validateValue(od::value v) { validate(v, 1); }

void validateDocument(od::document& doc)
{
    validate(doc, 0);
    requireEnd(doc);
}

void requireEnd(od::document& doc)
{
    if (doc.current_location().error() != simdjson::OUT_OF_BOUNDS)
        throw simdjson::simdjson_error(simdjson::TRAILING_CONTENT);
}

} // namespace npuscope::io

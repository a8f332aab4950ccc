// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/FastJsonSax.h"

#include "npuscope/io/parse/SimdjsonSupport.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <system_error>

namespace npuscope::io {

namespace {

namespace od = simdjson::ondemand;
using Json = nlohmann::json;

// Sends the events of a document simdjson validated, as nlohmann's parser sends them. Returns false
// when the handler stopped the parse.
class EventWalk {
public:
    explicit EventWalk(nlohmann::json_sax<Json>* sax)
        : m_sax(sax)
    {
    }

    template <class V> bool value(V& v)
    {
        switch (v.type().value()) {
        case od::json_type::object: {
            if (!m_sax->start_object(static_cast<std::size_t>(-1)))
                return false;
            for (auto field : v.get_object()) {
                std::string_view key = field.unescaped_key();
                m_text.assign(key);
                if (!m_sax->key(m_text))
                    return false;
                od::value member = field.value();
                if (!value(member))
                    return false;
            }
            return m_sax->end_object();
        }
        case od::json_type::array: {
            if (!m_sax->start_array(static_cast<std::size_t>(-1)))
                return false;
            for (auto element : v.get_array()) {
                od::value item = element.value();
                if (!value(item))
                    return false;
            }
            return m_sax->end_array();
        }
        case od::json_type::string: {
            std::string_view s = v.get_string();
            m_text.assign(s);
            return m_sax->string(m_text);
        }
        case od::json_type::boolean:
            return m_sax->boolean(v.get_bool().value());
        case od::json_type::null:
            return m_sax->null();
        case od::json_type::number:
            break;
        }
        return number(trimToken(v.raw_json_token()));
    }

private:
    // nlohmann's split: a non-negative integer that fits uint64 is unsigned, a negative one that fits
    // int64 is an integer, anything else a float with its own text.
    bool number(std::string_view text)
    {
        const char* begin = text.data();
        const char* end = begin + text.size();
        bool integral = false, exponent = false;
        isJsonNumber(text, integral, exponent); // validated before the walk
        if (integral) {
            if (*begin == '-') {
                int64_t i = 0;
                if (const auto r = std::from_chars(begin, end, i); r.ec == std::errc() && r.ptr == end)
                    return m_sax->number_integer(i);
            } else {
                uint64_t u = 0;
                if (const auto r = std::from_chars(begin, end, u); r.ec == std::errc() && r.ptr == end)
                    return m_sax->number_unsigned(u);
            }
        }
        double d = 0;
        if (std::from_chars(begin, end, d).ec != std::errc()) {
            // Out of range: infinity for an overflow (the range check rejects it), zero for an underflow.
            d = std::strtod(std::string(text).c_str(), nullptr);
            if (!std::isinf(d))
                d = *begin == '-' ? -0.0 : 0.0;
        }
        m_text.assign(text);
        return m_sax->number_float(d, m_text);
    }

    nlohmann::json_sax<Json>* m_sax;
    std::string m_text;
};

// True when simdjson accepts text as nlohmann would: every value checked, numbers within a double.
bool accepted(od::parser& parser, const simdjson::padded_string& text)
{
    try {
        od::document doc = parser.iterate(text);
        validateDocument(doc);
        // Number ranges: nlohmann rejects a float beyond a double; so does this.
        od::document again = parser.iterate(text);
        struct RangeCheck : AcceptAllSax {
            bool number_float(number_float_t v, const string_t&) override { return v - v == 0; }
        } check;
        EventWalk walk(&check);
        return walk.value(again);
    } catch (const simdjson::simdjson_error&) {
        return false;
    }
}

} // namespace

bool saxParse(std::string_view text, nlohmann::json_sax<Json>* sax)
{
    // simdjson leaves a UTF-8 BOM to the caller; nlohmann skips it. Such rare files go to nlohmann.
    if (!text.starts_with("\xef\xbb\xbf")) {
        const simdjson::padded_string padded(text.data(), text.size());
        od::parser parser;
        if (accepted(parser, padded)) {
            od::document doc = parser.iterate(padded);
            EventWalk walk(sax);
            return walk.value(doc);
        }
    }
    // Errors (and what simdjson cannot take, such as nesting deeper than 1024) get nlohmann's own
    // events and diagnostics.
    return Json::sax_parse(text, sax);
}

} // namespace npuscope::io

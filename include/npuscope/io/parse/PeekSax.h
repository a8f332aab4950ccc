// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace npuscope::io {

// The base of a SAX handler that looks at the start of a JSON file (a prefix, so the parse usually ends in an error
// mid-document) to tell what the file is: every event goes on, depth() counts the open objects and arrays, a parse
// error ends the look. A subclass overrides the events it watches, returns false from one to stop as soon as it
// knows, and calls the base for the depth. Scalars all go through value(). One parse at a time.
class PeekSax : public nlohmann::json_sax<nlohmann::json> {
public:
    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override
    {
        ++m_depth;
        return true;
    }
    bool key(string_t&) override { return true; }
    bool end_object() override
    {
        --m_depth;
        return true;
    }
    bool start_array(std::size_t) override
    {
        ++m_depth;
        return true;
    }
    bool end_array() override
    {
        --m_depth;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

protected:
    // Every scalar value; false stops the parse.
    virtual bool value() { return true; }
    // Objects and arrays open around the current event (0 at the top level).
    int depth() const { return m_depth; }

private:
    int m_depth = 0;
};

} // namespace npuscope::io

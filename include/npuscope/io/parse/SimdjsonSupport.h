// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace npuscope::io {

// Helpers shared by the simdjson On Demand readers (TraceViewImporter, saxParse). simdjson hands a
// number token over unchecked and does not validate what is skipped; these check what
// nlohmann::json (the project's other parser) checks. Any thread; no state.

// A number token's text without the whitespace raw_json_token() keeps after it.
std::string_view trimToken(std::string_view token);

// RFC 8259 number grammar. integral: no fraction and no exponent; exponent: has one.
bool isJsonNumber(std::string_view text, bool& integral, bool& exponent);

// A number token as nlohmann's parser splits it: a non-negative integer within uint64 is Unsigned, a negative one
// within int64 an Integer, anything else a Float (from_chars).
struct JsonNumber {
    enum class Kind { Integer, Unsigned, Float } kind = Kind::Float;
    int64_t integer = 0; // Integer
    uint64_t unsignedInteger = 0; // Unsigned
    double value = 0; // every kind, as a double
};
// token: a number token (trailing whitespace allowed). nullopt when it is not an RFC 8259 number or its value is
// beyond a double (the SAX readers then decide).
std::optional<JsonNumber> readJsonNumber(std::string_view token);

// Validates a value of any kind, touching every member and element; throws simdjson_error.
void validateValue(simdjson::ondemand::value v);
// Validates a whole document (value, then nothing but whitespace); throws simdjson_error.
void validateDocument(simdjson::ondemand::document& doc);
// Throws TRAILING_CONTENT unless only whitespace follows the document's value (simdjson 3.0 has no
// document::at_end()).
void requireEnd(simdjson::ondemand::document& doc);

// A SAX handler that accepts every event and stops at a parse error: the base of handlers that
// only watch a few events (nlohmann's error for a text, a range check).
struct AcceptAllSax : nlohmann::json_sax<nlohmann::json> {
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

} // namespace npuscope::io

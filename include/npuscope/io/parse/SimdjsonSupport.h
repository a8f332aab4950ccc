// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <string_view>

namespace npuscope::io {

// Helpers shared by the simdjson On Demand readers (TraceViewImporter, saxParse). simdjson hands a
// number token over unchecked and does not validate what is skipped; these check what
// nlohmann::json (the project's other parser) checks. Any thread; no state.

// A number token's text without the whitespace raw_json_token() keeps after it.
std::string_view trimToken(std::string_view token);

// RFC 8259 number grammar. integral: no fraction and no exponent; exponent: has one.
bool isJsonNumber(std::string_view text, bool& integral, bool& exponent);

// Validates a value of any kind, touching every member and element; throws simdjson_error.
void validateValue(simdjson::ondemand::value v);
// Validates a whole document (value, then nothing but whitespace); throws simdjson_error.
void validateDocument(simdjson::ondemand::document& doc);
// Throws TRAILING_CONTENT unless only whitespace follows the document's value (simdjson 3.0 has no
// document::at_end()).
void requireEnd(simdjson::ondemand::document& doc);

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

namespace npuscope::io {

// nlohmann::json::sax_parse for a whole small file in memory, with a fast path for the plain JSON
// the profilers write (ASCII strings without escapes, numbers that fit an int64 or a double).
// The fast path first checks that the whole text is such JSON, then sends the events nlohmann's
// parser would send (same order, same integer / unsigned / float split, a float's own text);
// anything else (escapes, non-ASCII bytes, a BOM, huge integers, syntax errors) goes to
// nlohmann's parser, so diagnostics and edge cases stay nlohmann's. Returns what sax_parse returns.
// Any thread.
bool saxParse(std::string_view text, nlohmann::json_sax<nlohmann::json>* sax);

} // namespace npuscope::io

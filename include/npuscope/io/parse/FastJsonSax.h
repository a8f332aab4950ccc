// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

namespace npuscope::io {

// nlohmann::json::sax_parse for a whole file in memory (communication.json, communication_matrix.json:
// KB to GB), driven by simdjson On Demand: the text is validated first (every value, number ranges
// as nlohmann has them), then the events nlohmann's parser would send are sent (same order, same
// integer / unsigned / float split, a float's own text). Anything simdjson rejects (syntax errors,
// a BOM, nesting deeper than 1024) goes to nlohmann's parser, so diagnostics and edge cases stay
// nlohmann's. Returns what sax_parse returns. Any thread.
bool saxParse(std::string_view text, nlohmann::json_sax<nlohmann::json>* sax);

} // namespace npuscope::io

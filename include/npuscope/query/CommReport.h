// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/CommAnalysisQuery.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

namespace npuscope::query {

// `npuscope-cli comm`: per-rank communication figures and the slowest links for a step / group.
// The "npuscope.comm/1" document: times ms, sizes MB, bandwidth GB/s, ranks global; absent = null.
class CommReport {
public:
    static constexpr size_t kSlowestLinks = 10;
    // Writes the document to out piece by piece (dump(2) formatting, no trailing newline).
    static void write(std::ostream& out, model::Database& db, const CommSelection& sel);
    // The same document, parsed back from write().
    static nlohmann::ordered_json json(model::Database& db, const CommSelection& sel);
    static std::string text(model::Database& db, const CommSelection& sel);
};

} // namespace npuscope::query

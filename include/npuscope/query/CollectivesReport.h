// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/BlameAnalysis.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace npuscope::query {

struct CollectivesFilter {
    std::optional<int64_t> step;
    std::optional<std::string> group; // a group hash or a group name
    std::optional<size_t> top; // the K instances of highest wait cost
};

// `npuscope-cli collectives` ("npuscope.collectives/1": instances by wait cost, times ms, starts µs, ranks global)
// and `npuscope-cli blame` ("npuscope.blame/1": per step, roots by induced wait). Any thread.
class CollectivesReport {
public:
    static nlohmann::ordered_json collectivesJson(
        model::Database& db, const BlameResult& blame, const CollectivesFilter& filter);
    static std::string collectivesText(model::Database& db, const BlameResult& blame, const CollectivesFilter& filter);
    static nlohmann::ordered_json blameJson(const BlameResult& blame, std::optional<int64_t> step);
    static std::string blameText(const BlameResult& blame, std::optional<int64_t> step);
    // The JSON object naming a root: {"rank": R} or {"link": {"src": A, "dst": B}}, with "cause".
    static nlohmann::ordered_json rootJson(const BlameRoot& root);
};

} // namespace npuscope::query

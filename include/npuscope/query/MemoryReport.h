// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace npuscope::query {

// `npuscope-cli memory`: each rank's memory peak (MemoryQuery::peaks). The "npuscope.memory/1" document
// (docs/metrics.md, "Memory peak"): {"schema", "ranks": [{"rank", "host", "device", "peak_reserved_mb",
// "peak_allocated_mb", "capacity_mb", "ratio", "peak_time_ns", "component"}]}; absent values are null.
class MemoryReport {
public:
    static constexpr const char* kSchema = "npuscope.memory/1";
    static nlohmann::ordered_json json(model::Database& db, std::optional<double> capacityMb = std::nullopt);
    static std::string text(model::Database& db, std::optional<double> capacityMb = std::nullopt);
};

} // namespace npuscope::query

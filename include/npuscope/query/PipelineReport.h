// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <nlohmann/json.hpp>

#include <string>

namespace npuscope::query {

// `npuscope-cli pipeline`: each rank's MindSpore data pipeline (PipelineQuery). The "npuscope.pipeline/1" document
// (docs/metrics.md, "Data pipeline"): {"schema", "ranks": [{"rank", "source", "ops": [{"op_id", "op_type",
// "num_workers", "parent_id", "queue_usage", "queue_capacity", "queue_avg_size", "queue_empty_rate", "queue_samples",
// "cpu_pct"}], "process_cpu_pct", "host_cpu": {...}, "device_queue": {...} | null, "bottleneck": {"op_id", "op_type",
// "rule", "usage", "input_usage", "explanation"} | null, "bottleneck_reason" (only when bottleneck is null)}]};
// absent values are null. The caller holds the database lock.
class PipelineReport {
public:
    static constexpr const char* kSchema = "npuscope.pipeline/1";
    static nlohmann::ordered_json json(model::Database& db);
    static std::string text(model::Database& db);
};

} // namespace npuscope::query

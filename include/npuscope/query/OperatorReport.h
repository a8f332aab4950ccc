// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/OperatorQuery.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace npuscope::query {

// What `npuscope-cli ops` shows: the grouping, one rank or every rank, and a rank to compare the first with.
struct OperatorSelection {
    OperatorGroupBy groupBy = OperatorGroupBy::Type;
    std::optional<int64_t> rank; // nullopt = every rank (not with compareRank)
    std::optional<int64_t> compareRank; // set: rows of rank matched with this rank's by key
};

// `npuscope-cli ops`: operator figures per rank and key over every loaded step (OperatorQuery). The
// "npuscope.ops/1" document (stable contract: fields are added, never renamed): {"schema", "group_by", "rows":
// [{"rank", "key", "count", "total_us", "mean_us", "min_us", "max_us", "wait_us"[, "flops", "flops_per_s"]}]} (the
// two optional fields only on rows a MindSpore FLOPs file gives them for), with a compare rank also
// "compare_rank", "compare_count", "compare_total_us" and "diff_us" per row; µs are the exact ns ÷ 1000 (mean
// rounded to the ns first); min/max/mean are null for a key the base rank does not have. Any thread; takes
// db.lock() only to build the kernel index.
class OperatorReport {
public:
    static nlohmann::ordered_json json(model::Database& db, const OperatorSelection& sel);
    // A table: rank, count, total, mean, min, max, wait (µs, 3 decimals), key; with a compare rank: both
    // counts and totals, difference, key.
    static std::string text(model::Database& db, const OperatorSelection& sel);
};

} // namespace npuscope::query

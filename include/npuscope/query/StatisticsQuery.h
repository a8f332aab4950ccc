// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

// One op type and core type of op_statistic.csv (the profiler's per-rank device totals by op type) over the chosen
// ranks: counts and times summed, the least min and the largest max; mean = total ÷ count; share = the type's total
// of the chosen ranks' total over every type (on one rank, the file's Ratio(%) up to its rounding).
struct OpStatisticRow {
    std::string opType;
    std::string coreType; // "" when the file has no Core Type
    int ranks = 0; // chosen ranks whose file lists the type
    int64_t count = 0;
    int64_t totalNs = 0;
    std::optional<int64_t> minNs, maxNs;
    std::optional<double> meanNs; // totalNs / count, nullopt for a count of 0
    double sharePct = 0;
};

// One level and API of api_statistic.csv (host API totals per rank) over the chosen ranks, summed as above.
struct ApiStatisticRow {
    std::string level; // acl, runtime, hccl, node, communication ("" when absent)
    std::string apiName;
    int ranks = 0;
    int64_t count = 0;
    int64_t totalNs = 0;
    std::optional<int64_t> minNs, maxNs;
    std::optional<double> meanNs;
    double sharePct = 0; // of the chosen ranks' total API time of the same level
};

// op_statistic and api_statistic rows of the model, as the Statistics view and its CSV export show them. Plain
// functions over SQL; the caller holds the database lock.
class StatisticsQuery {
public:
    // ranks: the ranks to sum over; empty = every rank. Largest total first, then by name.
    static std::vector<OpStatisticRow> ops(model::Database& db, const std::vector<int64_t>& ranks = {});
    static std::vector<ApiStatisticRow> apis(model::Database& db, const std::vector<int64_t>& ranks = {});
    // Ranks with op_statistic / api_statistic rows, ascending.
    static std::vector<int64_t> opRanks(model::Database& db);
    static std::vector<int64_t> apiRanks(model::Database& db);
};

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/model/Rows.h"
#include "npuscope/model/TableInsert.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::model {

// One parallel_group_info entry of a rank's metadata (profiler_metadata.json, or a db export's META_DATA).
struct ParallelGroupRow {
    int64_t rankId = 0;
    std::string rawName; // the entry's key: the raw group id, whose double hash is the '@' number of op names
    OptText name; // group_name when it is a string
    std::vector<int64_t> globalRanks; // the integer elements of global_ranks, ascending (local rank i = element i)
};

// The parallel_group table: parallel_group_info parsed once, at import, so group resolution reads
// typed rows instead of JSON text. Holds a prepared statement on db; one thread at a time.
class ParallelGroupTable {
public:
    // rank_info keys that name a parallel_group_info entry ("parallel_group_info.<raw id>").
    static constexpr std::string_view kRankInfoPrefix = "parallel_group_info.";

    explicit ParallelGroupTable(Database& db);

    void add(const ParallelGroupRow& row);

    // An entry's typed form: the last "global_ranks" when it is an array (its integer elements,
    // sorted), the last "group_name" when it is a string. nullopt when the entry is not an object or
    // has no global_ranks array (it names no members).
    static std::optional<ParallelGroupRow> fromJson(
        int64_t rankId, std::string_view rawName, const nlohmann::json& entry);
    // The same from the entry's JSON text; nullopt also when the text is not valid JSON.
    static std::optional<ParallelGroupRow> fromText(int64_t rankId, std::string_view rawName, std::string_view json);

    // Calls fn with every row in the order written (one row in memory at a time: a 1024-rank group
    // is listed by each of its 1024 ranks).
    static void forEach(Database& db, const std::function<void(const ParallelGroupRow&)>& fn);

private:
    TableInsert<4> m_insert;
};

} // namespace npuscope::model

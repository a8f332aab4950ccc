// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/model/Rows.h"
#include "npuscope/model/TableInsert.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

namespace npuscope::model {

// The parallel_group table: parallel_group_info parsed once, at import, so group resolution reads
// typed rows instead of JSON text. Importers write through ModelWriter::addParallelGroup. Holds a
// prepared statement on db; one thread at a time.
class ParallelGroupTable {
public:
    explicit ParallelGroupTable(Database& db);

    void add(const ParallelGroupRow& row);

    // An entry's typed form: the last "global_ranks" when it is an array (its integer elements,
    // sorted), the last "group_name" when it is a string. nullopt when the entry is not an object or
    // has no global_ranks array (it names no members).
    static std::optional<ParallelGroupRow> fromJson(
        int64_t rankId, std::string_view rawName, const nlohmann::json& entry);

    // Calls fn with every row in the order written (one row in memory at a time: a 1024-rank group
    // is listed by each of its 1024 ranks).
    static void forEach(Database& db, const std::function<void(const ParallelGroupRow&)>& fn);

    // What reading every row in order and letting the later rows win leaves per raw name: fn once per raw name, in
    // the order of each name's last row, with that row's rank and members and the last non-null name of any of its
    // rows. Every member rank repeats its group's entry (20,480 rows of 8 to 32 ranks on a 1,024-rank TP8xPP4
    // cluster): the members of the other rows are never parsed.
    static void forEachLatest(Database& db, const std::function<void(const ParallelGroupRow&)>& fn);

private:
    TableInsert<4> m_insert;
};

} // namespace npuscope::model

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/model/Rows.h"
#include "npuscope/model/TableInsert.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace npuscope::model {

// The rank_file table: every planned input file of a rank and its RankFileStatus. The loader's
// state machine (skipped -> loading -> loaded | failed, or back to skipped when cancelled) goes
// through these typed calls instead of SQL of its own. Holds prepared statements on db; used by one
// thread at a time (callers on other threads hold db.lock(), as for any Database use).
class RankFileTable {
public:
    explicit RankFileTable(Database& db);

    void add(const RankFileRow& row);
    // The row of (rank, kind, path): one file can be planned under two kinds (a db's summary and timeline).
    void setStatus(int64_t rankId, std::string_view kind, std::string_view path, RankFileStatus status);
    // A rank's rows with this status, in row order.
    std::vector<RankFileRow> withStatus(int64_t rankId, RankFileStatus status);
    // Sum of size_bytes of a rank's rows with this status (0 when none).
    int64_t bytesWithStatus(int64_t rankId, RankFileStatus status);
    // Every row of the rank with status `from` gets status `to`.
    void changeStatus(int64_t rankId, RankFileStatus from, RankFileStatus to);
    // Deletes the rank's rows with this status.
    void removeWithStatus(int64_t rankId, RankFileStatus status);

private:
    Database& m_db;
    TableInsert<5> m_insert;
    Statement m_setStatus;
};

} // namespace npuscope::model

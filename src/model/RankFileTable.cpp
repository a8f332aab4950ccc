// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/RankFileTable.h"

#include <string>

namespace npuscope::model {

RankFileTable::RankFileTable(Database& db)
    : m_db(db)
    , m_insert(db, "rank_file", { "rank_id", "kind", "path", "size_bytes", "status" })
    , m_setStatus(db.prepare("UPDATE rank_file SET status = ?4 WHERE rank_id = ?1 AND kind = ?2 AND path = ?3"))
{
}

void RankFileTable::add(const RankFileRow& r)
{
    m_insert.insert(r.rankId, r.kind, r.path, r.sizeBytes, rankFileStatusName(r.status));
}

void RankFileTable::setStatus(int64_t rankId, std::string_view kind, std::string_view path, RankFileStatus status)
{
    m_setStatus.bind(1, rankId).bind(2, kind).bind(3, path).bind(4, rankFileStatusName(status)).run();
}

std::vector<RankFileRow> RankFileTable::withStatus(int64_t rankId, RankFileStatus status)
{
    auto st = m_db.prepare("SELECT kind, path, size_bytes FROM rank_file WHERE rank_id = ?1 AND status = ?2");
    st.bind(1, rankId).bind(2, rankFileStatusName(status));
    std::vector<RankFileRow> rows;
    while (st.step())
        rows.push_back({ rankId, st.text(0), st.text(1), st.optInt(2), status });
    return rows;
}

int64_t RankFileTable::bytesWithStatus(int64_t rankId, RankFileStatus status)
{
    auto st = m_db.prepare("SELECT COALESCE(SUM(size_bytes), 0) FROM rank_file WHERE rank_id = ?1 AND status = ?2");
    st.bind(1, rankId).bind(2, rankFileStatusName(status));
    return st.scalarInt().value_or(0);
}

void RankFileTable::changeStatus(int64_t rankId, RankFileStatus from, RankFileStatus to)
{
    auto st = m_db.prepare("UPDATE rank_file SET status = ?3 WHERE rank_id = ?1 AND status = ?2");
    st.bind(1, rankId).bind(2, rankFileStatusName(from)).bind(3, rankFileStatusName(to)).run();
}

void RankFileTable::removeWithStatus(int64_t rankId, RankFileStatus status)
{
    auto st = m_db.prepare("DELETE FROM rank_file WHERE rank_id = ?1 AND status = ?2");
    st.bind(1, rankId).bind(2, rankFileStatusName(status)).run();
}

} // namespace npuscope::model

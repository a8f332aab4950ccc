// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/HugePageAllocator.h"
#include "npuscope/model/Database.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/StringTable.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace npuscope::query {

// Every comm_link row with known global ranks (or, for a group whose global ranks are unknown, its group-local
// ranks as written), loaded once into compact arrays grouped by step, plus
// the group membership, so the matrix and link table of a 1,024-rank cluster are filtered in memory
// instead of re-scanning SQLite on every selection change. Immutable after build; any thread.
class CommLinkIndex {
public:
    struct Row {
        int64_t step = 0;
        double sizeMb = 0;
        int64_t timeNs = 0;
        double bandwidthGbps = 0;
        int32_t reportedBy = 0, src = 0, dst = 0;
        bool hasStep = false;
        bool local = false; // src / dst are group-local ranks (CommQuery::localRankGroups)
        // Ids into strings(); -1 = NULL.
        int32_t matrixOp = -1, opType = -1, slot = -1, group = -1, transport = -1, opName = -1;
    };

    // Loads the index; the caller holds the database lock.
    static std::shared_ptr<const CommLinkIndex> build(model::Database& db);
    // The tables build() reads: a row change in one of them drops the cached index.
    static const std::vector<std::string>& tables();
    // The index of this database, held in the database's own cache slot (model::Database::cachedFor): built on
    // first use (taking db.lock() for the build), shared until a row of a table it reads changes (timelines and
    // kernels imported later keep it). Any thread; once built no database lock is taken. A slot reserved by
    // query::IndexPrebuild is waited for.
    static std::shared_ptr<const CommLinkIndex> forDatabase(model::Database& db);
    static std::shared_ptr<const CommLinkIndex> forDatabase(const std::shared_ptr<model::Database>& db)
    {
        return forDatabase(*db);
    }

    // Rows of one step (nullopt: every row), ordered by step.
    std::pair<const Row*, const Row*> rows(std::optional<int64_t> step) const;
    const std::string& text(int32_t id) const { return m_strings.text(id); }
    // Ids run from 0 to stringCount() - 1.
    size_t stringCount() const { return m_strings.size(); }
    // Id of a string, -1 when no row uses it.
    int32_t id(const std::string& s) const;
    const std::vector<Group>& groups() const { return m_groups; }
    // CommQuery::localRankGroups: groups whose rows hold group-local ranks.
    const std::vector<std::string>& localGroups() const { return m_localGroups; }
    size_t size() const { return m_rows.size(); }

private:
    core::HugeVector<Row> m_rows;
    std::vector<std::pair<int64_t, std::pair<size_t, size_t>>> m_steps; // step -> [begin, end)
    StringTable m_strings;
    std::vector<Group> m_groups; // names and members, without op counts
    std::vector<std::string> m_localGroups;
};

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

namespace npuscope::query {

// One immutable T per live database (an in-memory index), built on first use and shared by every
// thread while the database lives. Any thread. A hit takes only the cache's own mutex, never the
// database lock, so in-memory queries do not wait for SQL running elsewhere. A miss builds under
// db->lock() (recursive, so a caller may already hold it) and never holds the cache mutex while
// waiting for the database lock.
template <typename T> class DatabaseCache {
public:
    template <typename Build> std::shared_ptr<const T> get(const std::shared_ptr<model::Database>& db, Build build)
    {
        if (auto hit = find(db))
            return hit;
        auto guard = db->lock();
        // Another thread may have built it while this one waited for the lock.
        if (auto hit = find(db))
            return hit;
        std::shared_ptr<const T> value = build(*db);
        std::lock_guard lock(m_mutex);
        m_entries.push_back({ db, value });
        return value;
    }

private:
    struct Entry {
        std::weak_ptr<model::Database> db;
        std::shared_ptr<const T> value;
    };

    std::shared_ptr<const T> find(const std::shared_ptr<model::Database>& db)
    {
        std::lock_guard lock(m_mutex);
        std::erase_if(m_entries, [](const Entry& e) { return e.db.expired(); });
        for (const auto& e : m_entries) {
            if (!e.db.owner_before(db) && !db.owner_before(e.db))
                return e.value;
        }
        return nullptr;
    }

    std::mutex m_mutex;
    std::vector<Entry> m_entries;
};

} // namespace npuscope::query

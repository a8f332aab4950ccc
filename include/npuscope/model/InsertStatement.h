// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace npuscope::model {

// A prepared INSERT of the model writers (TableInsert) whose text values are bound without a copy (SQLITE_STATIC).
// The caller binds every parameter, then runs, with each bound string alive and unchanged until run() returns:
// SQLite copies the values into the record it builds while stepping, so the copy a transient binding makes (an
// allocation, a memcpy and a free per string: about 5 % of a 1,024-rank summary load) bought nothing. The bindings
// stay in place after run() (the next run binds every parameter again, and clearing them cost a few % of a trace
// import); SQLite reads bound values only while stepping (and in sqlite3_expanded_sql, which nothing here calls),
// so a stale pointer is never read. A failed run resets the statement and clears its bindings before it throws.
// Used by one thread at a time.
class InsertStatement {
public:
    InsertStatement(Database& db, std::string_view sql);
    ~InsertStatement();
    InsertStatement(const InsertStatement&) = delete;
    InsertStatement& operator=(const InsertStatement&) = delete;

    void bind(int index, int64_t value);
    void bind(int index, int value) { bind(index, static_cast<int64_t>(value)); }
    void bind(int index, double value);
    void bind(int index, std::string_view value); // not copied: alive until run() returns
    void bind(int index, const char* value) { bind(index, std::string_view(value)); }
    void bind(int index, const std::string& value) { bind(index, std::string_view(value)); }
    void bindNull(int index);
    template <typename T> void bind(int index, const std::optional<T>& value)
    {
        if (value)
            bind(index, *value);
        else
            bindNull(index);
    }

    // Steps the statement to completion and resets it (bindings kept).
    void run();

private:
    [[noreturn]] void fail(std::string_view what);

    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
};

} // namespace npuscope::model

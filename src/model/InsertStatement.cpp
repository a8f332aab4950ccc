// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/InsertStatement.h"

#include <sqlite3.h>

namespace npuscope::model {

InsertStatement::InsertStatement(Database& db, std::string_view sql)
    : m_db(db.handle())
{
    if (sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr) != SQLITE_OK)
        fail("prepare \"" + std::string(sql.substr(0, 80)) + "\"");
}

InsertStatement::~InsertStatement()
{
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

void InsertStatement::fail(std::string_view what)
{
    throw DbError(std::string(what) + ": " + (m_db ? sqlite3_errmsg(m_db) : "no database"));
}

void InsertStatement::bind(int index, int64_t value)
{
    if (sqlite3_bind_int64(m_stmt, index, value) != SQLITE_OK)
        fail("bind");
}

void InsertStatement::bind(int index, double value)
{
    if (sqlite3_bind_double(m_stmt, index, value) != SQLITE_OK)
        fail("bind");
}

void InsertStatement::bind(int index, std::string_view value)
{
    if (sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_STATIC) != SQLITE_OK)
        fail("bind");
}

void InsertStatement::bindNull(int index)
{
    if (sqlite3_bind_null(m_stmt, index) != SQLITE_OK)
        fail("bind");
}

void InsertStatement::run()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc != SQLITE_DONE) {
        const std::string message = sqlite3_errmsg(m_db);
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
        throw DbError("step: " + message);
    }
    sqlite3_reset(m_stmt);
}

} // namespace npuscope::model

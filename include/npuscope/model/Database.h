// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace npuscope::model {

// Thrown by Database/Statement on SQLite errors. Never crosses the Qt event loop: callers in the
// GUI catch it in the worker that ran the query.
class DbError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Statement;

// Owns one SQLite connection. A connection is used by one thread at a time: take lock() around
// any sequence of calls made from a thread other than the one that created the object.
class Database {
public:
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // A new empty in-memory database with the npuscope schema (resources/schema.sql) applied.
    static std::unique_ptr<Database> createModel();
    // Same, as a named shared in-memory database that another connection of this process can
    // ATTACH as "file:<sharedName>?mode=memory&cache=shared" (ModelMerger). The name must be unique.
    static std::unique_ptr<Database> createModel(const std::string& sharedName);
    // A new in-memory model holding a copy of a model saved in a file (the parse cache), copied
    // page by page with the SQLite backup API.
    static std::unique_ptr<Database> createModelFromFile(const std::string& path);
    // Opens an existing SQLite file read-only (exports; never modified).
    static std::unique_ptr<Database> openReadOnly(const std::string& path);
    // "file:<path>" with the characters a SQLite URI gives a meaning to ('?', '#', '%') escaped, so any folder
    // name opens the file it names; add the "?query" yourself.
    static std::string fileUri(const std::string& path);

    void exec(std::string_view sql);
    Statement prepare(std::string_view sql);
    int64_t lastInsertRowId() const;
    // One scalar from a query, or nullopt when there is no row or it is NULL.
    std::optional<int64_t> scalarInt(std::string_view sql);

    // Creates the secondary indexes; call once after bulk load.
    void createIndexes();
    // Writes a compacted copy of the whole database to a new file at path (VACUUM INTO); throws DbError.
    void saveTo(const std::string& path);
    // Throws DbError unless SQLite's quick_check finds the database intact.
    void quickCheck();
    // Rows of the rank table.
    int64_t rankCount();

    std::unique_lock<std::recursive_mutex> lock() { return std::unique_lock(m_mutex); }
    sqlite3* handle() const { return m_db; }

private:
    explicit Database(sqlite3* db);
    sqlite3* m_db = nullptr;
    std::recursive_mutex m_mutex;
};

// RAII prepared statement. Bind indexes are 1-based as in SQLite.
class Statement {
public:
    Statement(sqlite3* db, std::string_view sql);
    ~Statement();
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view value);
    Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
    Statement& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
    Statement& bindNull(int index);
    template <typename T> Statement& bind(int index, const std::optional<T>& value)
    {
        return value ? bind(index, *value) : bindNull(index);
    }

    // Steps once; true when a row is available.
    bool step();
    // Runs an insert/update to completion and resets for reuse (bindings cleared), also when step() throws.
    void run();
    void reset();

    int columnCount() const;
    bool isNull(int col) const;
    int64_t int64(int col) const;
    double real(int col) const;
    std::string text(int col) const;
    std::optional<int64_t> optInt(int col) const;
    std::optional<double> optReal(int col) const;
    std::optional<std::string> optText(int col) const;
    std::string columnName(int col) const;

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
};

} // namespace npuscope::model

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeindex>
#include <unordered_map>
#include <vector>

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
    struct CacheState; // Database.cpp

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
    // A read-only copy of this model on a connection of its own, for reads that should not queue on this connection
    // (the communication indexes after an open, query/IndexPrebuild.h): the pages are copied with
    // sqlite3_serialize under lock() (about 1 ms per MB), then the copy owns them (sqlite3_deserialize). Its
    // cachedFor() slots are its own. The copy costs sizeBytes() of memory while it lives.
    std::unique_ptr<Database> readOnlyCopy();
    // Another read-only connection over the pages of this readOnlyCopy(), without copying them: for a second thread
    // reading the copy at the same time (a connection serves one thread at a time). Must not outlive this Database.
    // Throws DbError for a model that is not such a copy.
    std::unique_ptr<Database> readOnlyView();
    // page_count × page_size: the bytes the model's pages take (and what readOnlyCopy() allocates).
    uint64_t sizeBytes();
    // Opens an existing SQLite file read-only (exports; never modified).
    static std::unique_ptr<Database> openReadOnly(const std::string& path);
    // The process-wide SQLite settings (memory statistics off), applied once: they only take effect before SQLite
    // initialises, so this runs before every connection this class opens; code opening SQLite connections of its
    // own calls it first. Any thread.
    static void configureSqlite();
    // "file:<path>" with the characters a SQLite URI gives a meaning to ('?', '#', '%') escaped, so any folder
    // name opens the file it names; add the "?query" yourself.
    static std::string fileUri(const std::string& path);

    void exec(std::string_view sql);
    Statement prepare(std::string_view sql);
    int64_t lastInsertRowId() const;
    // One scalar from a query, or nullopt when there is no row or it is NULL.
    std::optional<int64_t> scalarInt(std::string_view sql);

    // Creates the secondary indexes; call once after bulk load. sorterThreads: helper threads SQLite may sort the
    // keys on (0: none).
    void createIndexes(int sorterThreads = 0);
    // Writes a compacted copy of the whole database to a new file at path (VACUUM INTO); throws DbError.
    void saveTo(const std::string& path);
    // Throws DbError unless SQLite's quick_check finds the database intact.
    void quickCheck();
    // Rows of the rank table.
    int64_t rankCount();

    std::unique_lock<std::recursive_mutex> lock() { return std::unique_lock(m_mutex); }
    sqlite3* handle() const { return m_db; }

    // The value of type T derived from this model (one slot per type, e.g. an in-memory index), built by
    // build(Database&) -> std::shared_ptr<const T> on first use and shared until the model changes: any row
    // inserted, updated or deleted through this connection empties the slot, so the next call rebuilds. Any
    // thread. A hit takes only the slots' own mutex, never lock(), so in-memory queries do not wait for SQL running
    // elsewhere; a miss builds under lock() (recursive: the caller may hold it) and never holds the slots' mutex
    // while waiting for lock(). Writers hold lock() (see above), so no row changes during a build.
    template <typename T, typename Build> std::shared_ptr<const T> cached(Build build)
    {
        return cachedFor<T>({}, build);
    }
    // cached() for a value read from the given tables only: a row change elsewhere (a timeline imported while the
    // communication views are open) keeps it. Empty tables: any change empties the slot.
    // A slot reserved with reserveCached() is waited for, not built (see there).
    template <typename T, typename Build>
    std::shared_ptr<const T> cachedFor(std::vector<std::string> tables, Build build)
    {
        const std::type_index key(typeid(T));
        if (auto hit = findCached(key))
            return std::static_pointer_cast<const T>(hit);
        auto guard = lock();
        // Another thread may have built it while this one waited for the lock.
        if (auto hit = findCached(key))
            return std::static_pointer_cast<const T>(hit);
        std::shared_ptr<const T> value = build(*this);
        storeCached(key, value, std::move(tables));
        return value;
    }
    // A slot of cachedFor<T>() that another thread fills, typically with a value built on a readOnlyCopy() taken
    // under the same lock() as the reservation: until it is filled or dropped, cachedFor<T>() waits for it instead of
    // building T again (the waiter may hold lock(): whoever fills the slot must not need this connection). A row
    // change in one of its tables drops it, as it empties a filled slot, and so does destroying the Reservation
    // unfilled; a waiter then builds T itself. Take it, and the copy, with no other thread writing the model.
    class Reservation {
    public:
        Reservation() = default;
        Reservation(Reservation&& other) noexcept;
        Reservation& operator=(Reservation&& other) noexcept;
        Reservation(const Reservation&) = delete;
        Reservation& operator=(const Reservation&) = delete;
        ~Reservation();
        // Stores value in the slot; false when the slot was dropped meanwhile (the model changed or is gone).
        bool fill(std::shared_ptr<const void> value);
        explicit operator bool() const { return m_token != 0; }

    private:
        friend class Database;
        Reservation(std::weak_ptr<CacheState> state, std::type_index key, uint64_t token);
        void drop();
        std::weak_ptr<CacheState> m_state; // the slots', not the Database's: a Reservation may outlive the model
        std::type_index m_key = typeid(void);
        uint64_t m_token = 0; // 0 once filled or dropped
    };
    // Reserves T's slot for tables (the same list T's cachedFor() names); an empty Reservation when the slot is
    // already filled or reserved. The Reservation may outlive the Database (its fill() then returns false).
    template <typename T> Reservation reserveCached(std::vector<std::string> tables)
    {
        return reserveSlot(std::type_index(typeid(T)), std::move(tables));
    }
    // Empties every slot of cached(). Any thread. Row changes clear them through SQLite's update hook (which does not
    // see WITHOUT ROWID tables: the model has none, keep it so or call this after writing one).
    void clearCaches();

private:
    explicit Database(sqlite3* db);
    // The slot's value; waits while the slot is reserved and unfilled.
    std::shared_ptr<const void> findCached(std::type_index key);
    Reservation reserveSlot(std::type_index key, std::vector<std::string> tables);
    void storeCached(std::type_index key, std::shared_ptr<const void> value, std::vector<std::string> tables);
    // Empties the slots that depend on table (all when null); stableName: table is a main-schema table's name.
    void clearCachesOf(const char* table, bool stableName);
    static void onRowChange(void* self, int op, const char* database, const char* table, long long rowid);

    sqlite3* m_db = nullptr;
    std::recursive_mutex m_mutex;
    // The slots of cached()/cachedFor(), shared with the Reservations taken on them (Database.cpp).
    std::shared_ptr<CacheState> m_cache;
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
    // Steps once and gives the first column of the row as an integer: nullopt when there is no row or it is NULL
    // (SELECT COUNT(*) ..., a single id).
    std::optional<int64_t> scalarInt();
    // Runs an insert/update to completion and resets for reuse (bindings cleared), also when step() throws.
    void run();
    // run() for a statement whose every parameter is bound again before each run (TableInsert): the bindings are
    // left as they are instead of cleared (sqlite3_clear_bindings cost a few % of a trace import).
    void runRebound();
    void reset();

    int columnCount() const;
    bool isNull(int col) const;
    int64_t int64(int col) const;
    double real(int col) const;
    std::string text(int col) const;
    std::optional<int64_t> optInt(int col) const;
    std::optional<double> optReal(int col) const;
    std::optional<std::string> optText(int col) const;
    // The column's text without a copy, nullopt for NULL; valid until the next step(), reset() or column call on the
    // same column (an index build interns it without allocating a string per row).
    std::optional<std::string_view> textView(int col) const;
    // The column assigned to out, reusing out's buffer: a loop reading rows into one object allocates once.
    void readText(int col, std::string& out) const;
    void readText(int col, std::optional<std::string>& out) const;
    std::string columnName(int col) const;

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_stmt = nullptr;
};

} // namespace npuscope::model

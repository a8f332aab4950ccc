// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/Database.h"

#include <algorithm>
#include <cstring>

#include <sqlite3.h>

#include <string>
#include <utility>

namespace npuscope::model {

extern const std::string_view kSchemaSql;

namespace {
// sqlite3_open_v2 after the process-wide configuration.
int openConnection(const std::string& uri, sqlite3** db, int flags)
{
    Database::configureSqlite();
    return sqlite3_open_v2(uri.c_str(), db, flags, nullptr);
}

[[noreturn]] void fail(sqlite3* db, std::string_view what)
{
    throw DbError(std::string(what) + ": " + (db ? sqlite3_errmsg(db) : "no database"));
}

// Secondary indexes, created after bulk load so inserts stay fast. comm_bandwidth has none on comm_op_id: every
// reader scans it whole (CommOpIndex, CollectiveInstances, RunComparison), and building that index was 0.3 s of a
// 1,024-rank load, after the parse (691,200 rows). Nor has comm_op one on group_hash: its only reader was
// CommQuery::groups, which now counts ops in one GROUP BY.
constexpr std::string_view kIndexSql = R"(
CREATE INDEX IF NOT EXISTS idx_step_trace_rank ON step_trace(rank_id, step);
CREATE INDEX IF NOT EXISTS idx_kernel_rank_ts ON kernel(rank_id, ts);
CREATE INDEX IF NOT EXISTS idx_step_kernel_rank ON step_kernel(rank_id, ts);
CREATE INDEX IF NOT EXISTS idx_comm_op_rank ON comm_op(rank_id, step, group_hash);
CREATE INDEX IF NOT EXISTS idx_comm_link_step ON comm_link_op(step, group_hash, matrix_op);
CREATE INDEX IF NOT EXISTS idx_comm_group_rank ON comm_group_rank(group_hash, local_rank);
CREATE INDEX IF NOT EXISTS idx_slice_track ON slice(rank_id, pid, tid, ts);
CREATE INDEX IF NOT EXISTS idx_counter_track ON counter(rank_id, pid, name_id, ts);
CREATE INDEX IF NOT EXISTS idx_flow_rank ON flow(rank_id, cat);
CREATE INDEX IF NOT EXISTS idx_parse_issue_rank ON parse_issue(rank_id);
CREATE INDEX IF NOT EXISTS idx_rank_file_rank ON rank_file(rank_id, status);
CREATE INDEX IF NOT EXISTS idx_strategy_node_stage ON strategy_node(stage, rank_id, node_index);
CREATE INDEX IF NOT EXISTS idx_strategy_edge_rank ON strategy_edge(rank_id, dst_index);
)";
} // namespace

void Database::configureSqlite()
{
    // SQLite's memory statistics take one process-wide mutex on every allocation: with a model per parser thread
    // that lock is what the threads wait on. Nothing here reads the statistics. call_once: one call however many
    // threads open models at once (a call after SQLite initialised would only return SQLITE_MISUSE).
    static std::once_flag once;
    std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

// The slots of cached()/cachedFor(). A Reservation holds them weakly: it may outlive the Database (a prebuild still
// running when its load was cancelled), and then has nothing left to fill or drop.
struct Database::CacheState {
    std::mutex mutex;
    struct Slot {
        std::shared_ptr<const void> value;
        std::vector<std::string> tables; // empty: every table
        uint64_t reservation = 0; // non-zero while reserved and unfilled (the Reservation's token)
    };
    std::condition_variable filledOrDropped; // with mutex: a reserved slot was filled or dropped
    uint64_t nextToken = 0;
    std::unordered_map<std::type_index, Slot> slots;
    // The last table a row change was seen in that no slot depends on (SQLite passes the same name pointer for every
    // row of a table): a bulk insert into it costs one comparison per row, not the slots' mutex.
    std::atomic<const char*> unaffectedTable { nullptr };
    // Whether slots holds anything: the per-row change hook only takes the mutex when it does.
    std::atomic<bool> filled { false };
};

Database::Database(sqlite3* db)
    : m_db(db)
    , m_cache(std::make_shared<CacheState>())
{
    sqlite3_update_hook(m_db, &Database::onRowChange, this);
}

void Database::onRowChange(void* self, int, const char* schema, const char* table, long long)
{
    auto* database = static_cast<Database*>(self);
    const CacheState& cache = *database->m_cache;
    if (cache.filled.load(std::memory_order_relaxed) && table != cache.unaffectedTable.load(std::memory_order_relaxed))
        database->clearCachesOf(table, std::strcmp(schema, "main") == 0);
}

void Database::clearCaches() { clearCachesOf(nullptr, false); }

uint64_t Database::sizeBytes()
{
    auto guard = lock();
    const auto pages = scalarInt("PRAGMA main.page_count").value_or(0);
    const auto pageSize = scalarInt("PRAGMA main.page_size").value_or(0);
    return static_cast<uint64_t>(std::max<int64_t>(0, pages * pageSize));
}

std::unique_ptr<Database> Database::readOnlyCopy()
{
    sqlite3_int64 size = 0;
    unsigned char* pages = nullptr;
    {
        auto guard = lock();
        pages = sqlite3_serialize(m_db, "main", &size, 0);
    }
    if (!pages)
        throw DbError("cannot copy the model (out of memory?)");
    sqlite3* db = nullptr;
    if (openConnection(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX) != SQLITE_OK) {
        sqlite3_free(pages);
        sqlite3_close_v2(db);
        throw DbError("cannot open a connection for the model's copy");
    }
    std::unique_ptr<Database> copy(new Database(db));
    // FREEONCLOSE: the connection owns the pages from here, also when this fails.
    const int rc = sqlite3_deserialize(
        db, "main", pages, size, size, SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
    if (rc != SQLITE_OK)
        fail(db, "copy of the model");
    return copy;
}

std::unique_ptr<Database> Database::readOnlyView()
{
    // A deserialized database's pages are one buffer, which NOCOPY hands out as it is (null for any other).
    sqlite3_int64 size = 0;
    unsigned char* pages = nullptr;
    {
        auto guard = lock();
        pages = sqlite3_serialize(m_db, "main", &size, SQLITE_SERIALIZE_NOCOPY);
    }
    if (!pages)
        throw DbError("a view needs a copy of the model (readOnlyCopy)");
    sqlite3* db = nullptr;
    if (openConnection(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX) != SQLITE_OK) {
        sqlite3_close_v2(db);
        throw DbError("cannot open a connection for the view of the model's copy");
    }
    std::unique_ptr<Database> view(new Database(db));
    // Not FREEONCLOSE: the pages stay this copy's. Both connections only read them.
    if (sqlite3_deserialize(db, "main", pages, size, size, SQLITE_DESERIALIZE_READONLY) != SQLITE_OK)
        fail(db, "view of the model's copy");
    return view;
}

void Database::clearCachesOf(const char* table, bool stableName)
{
    CacheState& cache = *m_cache;
    std::lock_guard lock(cache.mutex);
    bool affected = false;
    for (auto it = cache.slots.begin(); it != cache.slots.end();) {
        const auto& tables = it->second.tables;
        if (!table || tables.empty() || std::find(tables.begin(), tables.end(), table) != tables.end()) {
            it = cache.slots.erase(it);
            affected = true;
        } else {
            ++it;
        }
    }
    // Remembered by its name's address only for the model's own tables, which live as long as the connection (a
    // temporary or attached table's name may be freed and its address reused by another table).
    cache.unaffectedTable.store(table && stableName && !affected ? table : nullptr, std::memory_order_relaxed);
    cache.filled.store(!cache.slots.empty(), std::memory_order_relaxed);
    // A reserved slot may have gone: its waiters build the value themselves.
    if (affected)
        cache.filledOrDropped.notify_all();
}

std::shared_ptr<const void> Database::findCached(std::type_index key)
{
    CacheState& cache = *m_cache;
    std::unique_lock lock(cache.mutex);
    for (;;) {
        auto it = cache.slots.find(key);
        if (it == cache.slots.end())
            return nullptr;
        if (it->second.reservation == 0)
            return it->second.value;
        cache.filledOrDropped.wait(lock);
    }
}

Database::Reservation Database::reserveSlot(std::type_index key, std::vector<std::string> tables)
{
    CacheState& cache = *m_cache;
    std::lock_guard lock(cache.mutex);
    if (cache.slots.count(key))
        return {};
    const uint64_t token = ++cache.nextToken;
    cache.slots[key] = CacheState::Slot { nullptr, std::move(tables), token };
    cache.filled.store(true, std::memory_order_relaxed);
    cache.unaffectedTable.store(nullptr, std::memory_order_relaxed);
    return Reservation(m_cache, key, token);
}

Database::Reservation::Reservation(std::weak_ptr<CacheState> state, std::type_index key, uint64_t token)
    : m_state(std::move(state))
    , m_key(key)
    , m_token(token)
{
}

Database::Reservation::Reservation(Reservation&& other) noexcept
    : m_state(std::move(other.m_state))
    , m_key(other.m_key)
    , m_token(std::exchange(other.m_token, 0))
{
}

Database::Reservation& Database::Reservation::operator=(Reservation&& other) noexcept
{
    if (this != &other) {
        drop();
        m_state = std::move(other.m_state);
        m_key = other.m_key;
        m_token = std::exchange(other.m_token, 0);
    }
    return *this;
}

Database::Reservation::~Reservation() { drop(); }

bool Database::Reservation::fill(std::shared_ptr<const void> value)
{
    const uint64_t token = std::exchange(m_token, 0);
    const auto cache = std::exchange(m_state, {}).lock();
    if (token == 0 || !cache)
        return false;
    bool filled = false;
    {
        std::lock_guard lock(cache->mutex);
        auto it = cache->slots.find(m_key);
        if (it != cache->slots.end() && it->second.reservation == token) {
            it->second.value = std::move(value);
            it->second.reservation = 0;
            filled = true;
        }
    }
    cache->filledOrDropped.notify_all();
    return filled;
}

void Database::Reservation::drop()
{
    const uint64_t token = std::exchange(m_token, 0);
    const auto cache = std::exchange(m_state, {}).lock();
    if (token == 0 || !cache)
        return;
    {
        std::lock_guard lock(cache->mutex);
        auto it = cache->slots.find(m_key);
        if (it != cache->slots.end() && it->second.reservation == token)
            cache->slots.erase(it);
        cache->filled.store(!cache->slots.empty(), std::memory_order_relaxed);
    }
    cache->filledOrDropped.notify_all();
}

void Database::storeCached(std::type_index key, std::shared_ptr<const void> value, std::vector<std::string> tables)
{
    CacheState& cache = *m_cache;
    std::lock_guard lock(cache.mutex);
    cache.slots[key] = CacheState::Slot { std::move(value), std::move(tables) };
    cache.filled.store(true, std::memory_order_relaxed);
    // The new slot may depend on the table the last unaffecting change was in.
    cache.unaffectedTable.store(nullptr, std::memory_order_relaxed);
}

Database::~Database()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

std::unique_ptr<Database> Database::createModel() { return createModel(std::string()); }

std::unique_ptr<Database> Database::createModel(const std::string& sharedName)
{
    sqlite3* db = nullptr;
    const std::string uri
        = sharedName.empty() ? std::string(":memory:") : "file:" + sharedName + "?mode=memory&cache=shared";
    if (openConnection(uri, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI)
        != SQLITE_OK) {
        std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close_v2(db);
        throw DbError("cannot create in-memory model: " + msg);
    }
    std::unique_ptr<Database> result(new Database(db));
    result->exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY;");
    result->exec(kSchemaSql);
    return result;
}

std::unique_ptr<Database> Database::createModelFromFile(const std::string& path)
{
    auto source = openReadOnly(path);
    sqlite3* db = nullptr;
    if (openConnection(
            ":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI)
        != SQLITE_OK) {
        sqlite3_close_v2(db);
        throw DbError("cannot create in-memory model");
    }
    std::unique_ptr<Database> result(new Database(db));
    sqlite3_backup* backup = sqlite3_backup_init(db, "main", source->handle(), "main");
    if (!backup)
        fail(db, "backup from " + path);
    const int rc = sqlite3_backup_step(backup, -1);
    sqlite3_backup_finish(backup);
    if (rc != SQLITE_DONE)
        throw DbError("cannot copy " + path + " into memory (SQLite error " + std::to_string(rc) + ")");
    result->exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY;");
    return result;
}

std::string Database::fileUri(const std::string& path)
{
    std::string uri = "file:";
    for (char c : path) {
        if (c == '?')
            uri += "%3f";
        else if (c == '#')
            uri += "%23";
        else if (c == '%')
            uri += "%25";
        else
            uri += c;
    }
    return uri;
}

std::unique_ptr<Database> Database::openReadOnly(const std::string& path)
{
    sqlite3* db = nullptr;
    // immutable=1: the file is never written, locked or journalled (user folders stay untouched).
    const std::string uri = fileUri(path) + "?mode=ro&immutable=1";
    if (openConnection(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX) != SQLITE_OK) {
        std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close_v2(db);
        throw DbError("cannot open " + path + ": " + msg);
    }
    return std::unique_ptr<Database>(new Database(db));
}

void Database::exec(std::string_view sql)
{
    std::string text(sql);
    char* err = nullptr;
    if (sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        throw DbError("SQL error: " + msg);
    }
}

Statement Database::prepare(std::string_view sql) { return Statement(m_db, sql); }

int64_t Database::lastInsertRowId() const { return sqlite3_last_insert_rowid(m_db); }

std::optional<int64_t> Database::scalarInt(std::string_view sql) { return prepare(sql).scalarInt(); }

void Database::createIndexes(int sorterThreads)
{
    // SQLite's sorter may sort an index's keys on helper threads (PRAGMA threads); the connection goes back to none
    // afterwards, so later queries run as before.
    if (sorterThreads > 0)
        exec("PRAGMA threads = " + std::to_string(sorterThreads));
    exec(kIndexSql);
    if (sorterThreads > 0)
        exec("PRAGMA threads = 0");
}

void Database::saveTo(const std::string& path)
{
    std::string literal;
    for (char c : path) {
        literal += c;
        if (c == '\'')
            literal += '\'';
    }
    exec("VACUUM INTO '" + literal + "'");
}

void Database::quickCheck()
{
    auto check = prepare("PRAGMA quick_check");
    if (!check.step() || check.text(0) != "ok")
        throw DbError("quick_check failed");
}

int64_t Database::rankCount() { return scalarInt("SELECT COUNT(*) FROM rank").value_or(0); }

Statement::Statement(sqlite3* db, std::string_view sql)
    : m_db(db)
{
    if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr) != SQLITE_OK)
        fail(db, "prepare \"" + std::string(sql.substr(0, 80)) + "\"");
}

Statement::~Statement()
{
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

Statement::Statement(Statement&& other) noexcept
    : m_db(other.m_db)
    , m_stmt(other.m_stmt)
{
    other.m_stmt = nullptr;
}

Statement& Statement::operator=(Statement&& other) noexcept
{
    if (this != &other) {
        if (m_stmt)
            sqlite3_finalize(m_stmt);
        m_db = other.m_db;
        m_stmt = other.m_stmt;
        other.m_stmt = nullptr;
    }
    return *this;
}

Statement& Statement::bind(int index, int64_t value)
{
    if (sqlite3_bind_int64(m_stmt, index, value) != SQLITE_OK)
        fail(m_db, "bind");
    return *this;
}

Statement& Statement::bind(int index, double value)
{
    if (sqlite3_bind_double(m_stmt, index, value) != SQLITE_OK)
        fail(m_db, "bind");
    return *this;
}

Statement& Statement::bind(int index, std::string_view value)
{
    if (sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT) != SQLITE_OK)
        fail(m_db, "bind");
    return *this;
}

Statement& Statement::bindNull(int index)
{
    if (sqlite3_bind_null(m_stmt, index) != SQLITE_OK)
        fail(m_db, "bind");
    return *this;
}

bool Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    fail(m_db, "step");
}

std::optional<int64_t> Statement::scalarInt()
{
    if (!step())
        return std::nullopt;
    return optInt(0);
}

void Statement::run()
{
    runRebound();
    sqlite3_clear_bindings(m_stmt);
}

void Statement::runRebound()
{
    // A statement left mid-step after a failure would keep its bindings and hold locks; reset it either way.
    try {
        step();
    } catch (...) {
        reset();
        throw;
    }
    sqlite3_reset(m_stmt);
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

int Statement::columnCount() const { return sqlite3_column_count(m_stmt); }
bool Statement::isNull(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_NULL; }
int64_t Statement::int64(int col) const { return sqlite3_column_int64(m_stmt, col); }
double Statement::real(int col) const { return sqlite3_column_double(m_stmt, col); }

std::string Statement::text(int col) const
{
    const auto* p = sqlite3_column_text(m_stmt, col);
    if (!p)
        return {};
    return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(m_stmt, col)));
}

std::optional<int64_t> Statement::optInt(int col) const
{
    if (isNull(col))
        return std::nullopt;
    return int64(col);
}

std::optional<double> Statement::optReal(int col) const
{
    if (isNull(col))
        return std::nullopt;
    return real(col);
}

std::optional<std::string> Statement::optText(int col) const
{
    if (isNull(col))
        return std::nullopt;
    return text(col);
}

std::optional<std::string_view> Statement::textView(int col) const
{
    const auto* p = sqlite3_column_text(m_stmt, col);
    if (!p)
        return std::nullopt;
    return std::string_view(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(m_stmt, col)));
}

void Statement::readText(int col, std::string& out) const
{
    const auto* p = sqlite3_column_text(m_stmt, col);
    if (!p)
        out.clear();
    else
        out.assign(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(m_stmt, col)));
}

void Statement::readText(int col, std::optional<std::string>& out) const
{
    if (isNull(col))
        out.reset();
    else
        readText(col, out ? *out : out.emplace());
}

std::string Statement::columnName(int col) const
{
    const char* n = sqlite3_column_name(m_stmt, col);
    return n ? n : "";
}

} // namespace npuscope::model

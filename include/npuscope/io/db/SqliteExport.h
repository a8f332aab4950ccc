// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

namespace npuscope::model {
struct CommOpRow;
}

namespace npuscope::io {

class ImportContext;

// A profiler SQLite export (ascend_pytorch_profiler_{rank}.db, analysis.db, cluster_analysis.db, msprof_*.db)
// opened read-only and immutable: the file is never written. Knows which tables and columns exist (PRAGMA
// table_info, so column-name drift between tool versions is handled by asking, not assuming), resolves the
// STRING_IDS indirection and ENUM_* tables. Used by the thread running one importer.
class SqliteExport {
public:
    // Opens path; throws model::DbError when it is not a readable SQLite file.
    explicit SqliteExport(const std::string& path);

    // The frame every db importer's run() shares: opens ctx's file and runs read on it. A file SQLite cannot open is
    // an error "not a readable SQLite export"; a read that fails part way is an error "reading the export failed"
    // (what was read before stays: the model is another connection), and ctx.finish() ends the import. Returns
    // whether the read completed.
    static bool importWith(ImportContext& ctx, const std::function<void(SqliteExport&)>& read);

    model::Database& db() { return *m_db; }

    bool hasTable(std::string_view table) const;
    // The first of names that is a column of table (exact match first, then case-insensitive), or "".
    std::string column(std::string_view table, std::initializer_list<std::string_view> names) const;
    // "col" when present, else "NULL" (for SELECT lists over drifting schemas).
    std::string columnOrNull(std::string_view table, std::initializer_list<std::string_view> names) const;

    // STRING_IDS.value for id (loaded on first use); nullopt for NULL ids or unknown ids.
    std::optional<std::string> string(std::optional<int64_t> id);
    // ENUM_<name>.name for id, e.g. enumName("ENUM_HCCL_TRANSPORT_TYPE", 0) == "SDMA".
    std::optional<std::string> enumName(const std::string& enumTable, std::optional<int64_t> id);
    // A coded column's text: the ENUM_* name when that table has the id, else the STRING_IDS value (some
    // msprof versions write STRING_IDS ids where torch_npu writes enum ids), else nullopt.
    std::optional<std::string> label(const std::string& enumTable, std::optional<int64_t> id);
    // STRING_IDS.value for one id by a point lookup, without loading the table (for one-off reads such as
    // a slice's details).
    std::optional<std::string> stringAt(std::optional<int64_t> id);
    // Whichever of tables exists first, or "" (e.g. CANN_API in torch_npu / newer msprof, API in report_N.db).
    std::string firstTable(std::initializer_list<std::string_view> tables) const;

    // Cell readers for NUMERIC columns that hold REAL, INTEGER or TEXT ("N/A", "" count as absent).
    static std::optional<int64_t> scaledNs(const model::Statement& st, int col, double nsPerUnit);
    static std::optional<double> real(const model::Statement& st, int col);
    // The '@' group number as written, or the double_hash of a raw HCCL group name; nullopt when empty.
    static std::optional<std::string> groupHashOf(const std::optional<std::string>& group);

private:
    void loadColumns();

    std::unique_ptr<model::Database> m_db;
    std::unordered_map<std::string, std::set<std::string>> m_columns; // table -> columns
    std::unordered_map<int64_t, std::string> m_strings;
    bool m_stringsLoaded = false;
    std::unordered_map<std::string, std::unordered_map<int64_t, std::string>> m_enums;
};

// The rows of msprof-analyze's CommAnalyzerBandwidth tables (analysis.db, cluster_analysis.db), which repeat an op's
// per-transport figures on every package-size row: one comm_bandwidth per (op, transport), the first time it is seen,
// and one comm_packet per package row; a (0, 0, 0) package row stands for "no packets" (the text export's empty Size
// Distribution). One object per table read.
class CommAnalyzerBandwidthRows {
public:
    // st's columns from first on: transit_size (MB), transit_time (ms), bandwidth (GB/s), large_packet_ratio,
    // package_size (MB), count, total_duration (ms); count as the caller reads it.
    void add(ImportContext& ctx, const model::Statement& st, int first, int64_t commOpId, const std::string& transport,
        std::optional<int64_t> count);

private:
    std::map<std::pair<int64_t, std::string>, int64_t> m_bandwidthIds; // (op, transport) -> comm_bandwidth id
};

// The times of a row of msprof-analyze's CommAnalyzerTime tables (analysis.db, cluster_analysis.db): st's columns from
// first on, elapse, transit, wait, synchronization and idle time in ms, into r's ns times (absent cells: nullopt).
void readCommAnalyzerTimes(const model::Statement& st, int first, model::CommOpRow& r);

} // namespace npuscope::io

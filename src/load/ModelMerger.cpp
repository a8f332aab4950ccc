// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/ModelMerger.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <vector>

namespace npuscope::load {

using namespace model;

namespace {

std::vector<std::string> columnsOf(Database& db, const std::string& table)
{
    std::vector<std::string> cols;
    auto st = db.prepare("PRAGMA main.table_info(" + table + ")");
    while (st.step())
        cols.push_back(st.text(1));
    return cols;
}

// Every table of the model except those merged otherwise, in schema order, so a table added to
// resources/schema.sql is copied without being listed here.
std::vector<std::string> copiedTables(Database& main)
{
    // string is merged by value (ids remapped); comm_group / comm_group_rank are built by PostLoad on the
    // main model only.
    static const std::set<std::string> kNotCopied { "string", "comm_group", "comm_group_rank" };
    std::vector<std::string> tables;
    auto st = main.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                           "ORDER BY rowid");
    while (st.step()) {
        if (!kNotCopied.count(st.text(0)))
            tables.push_back(st.text(0));
    }
    return tables;
}

// The tables whose row ids other tables refer to (shifted or reserved); each has an INTEGER PRIMARY KEY id.
const std::vector<std::string>& referencedTables()
{
    static const std::vector<std::string> kTables { "comm_op", "comm_bandwidth", "comm_link_op", "comm_link_row",
        "comm_link_name", "slice", "source_file" };
    return kTables;
}

std::string mapped(const std::string& column)
{
    return "(SELECT new_id FROM temp.string_map WHERE old_id = " + column + ")";
}

} // namespace

void ModelMerger::merge(Database& main, const std::string& workerName)
{
    mergeUri(main, "file:" + workerName + "?mode=memory&cache=shared");
}

int64_t ModelMerger::reserveIds(Database& worker)
{
    // Blocks of 2^36 ids: a model never holds that many rows of one table, and 2^27 blocks outlast any process.
    static std::atomic<int64_t> blocks { 0 };
    const int64_t base = (blocks.fetch_add(1) + 1) << 36;
    for (const auto& table : referencedTables()) {
        // A placeholder row at the base (NOT NULL columns get 0): SQLite gives the next row the largest id + 1.
        std::string names = "id";
        std::string values = std::to_string(base);
        auto st = worker.prepare("PRAGMA main.table_info(" + table + ")");
        while (st.step()) {
            if (st.int64(3) != 0 && st.int64(5) == 0) {
                names += ", " + st.text(1);
                values += ", 0";
            }
        }
        worker.exec("INSERT INTO main." + table + "(" + names + ") VALUES (" + values + ")");
    }
    return base;
}

void ModelMerger::releaseIds(Database& worker, int64_t base)
{
    for (const auto& table : referencedTables())
        worker.exec("DELETE FROM main." + table + " WHERE id = " + std::to_string(base));
}

void ModelMerger::mergeFile(
    Database& main, const std::string& path, const std::function<void(model::Database&)>& check, bool partial)
{
    // Quotes are doubled for the SQL literal by mergeUri.
    mergeUri(main, Database::fileUri(path) + "?mode=ro", check, partial);
}

void ModelMerger::mergeUri(
    Database& main, const std::string& uri, const std::function<void(model::Database&)>& check, bool partial)
{
    std::string literal;
    for (char c : uri) {
        literal += c;
        if (c == '\'')
            literal += '\'';
    }
    main.exec("ATTACH DATABASE '" + literal + "' AS w");
    bool inTransaction = false;
    try {
        if (check)
            check(main);
        // The tables the file has (all of a worker's or cache entry's model; an imported rank file's non-empty ones).
        std::set<std::string> present;
        if (partial) {
            auto st = main.prepare("SELECT name FROM w.sqlite_master WHERE type = 'table'");
            while (st.step())
                present.insert(st.text(0));
        }
        main.exec("BEGIN");
        inTransaction = true;
        // Interned strings by value; a file without a string table has no rows referring to one (the mapped
        // columns below then fail to prepare, which refuses the file).
        const bool strings = !partial || present.count("string") != 0;
        main.exec("DROP TABLE IF EXISTS temp.string_map;"
                  "CREATE TEMP TABLE string_map(old_id INTEGER PRIMARY KEY, new_id INTEGER);");
        if (strings)
            main.exec("CREATE INDEX IF NOT EXISTS main.idx_string_value ON string(value);"
                      "INSERT INTO main.string(value) SELECT value FROM w.string ws "
                      "  WHERE NOT EXISTS (SELECT 1 FROM main.string m WHERE m.value = ws.value);"
                      "INSERT INTO temp.string_map SELECT ws.id, m.id FROM w.string ws JOIN main.string m "
                      "  ON m.value = ws.value;");
        // Per referenced table: 0 when none of the file's ids is taken in main (a worker with reserved ids), else the
        // shift past main's largest id. One statement for all of them: a merge of many small files costs per
        // statement.
        std::map<std::string, int64_t> offsets;
        {
            std::string sql;
            std::vector<std::string> asked;
            for (const auto& table : referencedTables()) {
                offsets[table] = 0;
                if (partial && !present.count(table))
                    continue; // no rows in the file, nothing refers to them
                const std::string w = "w." + table;
                sql += std::string(sql.empty() ? "SELECT " : ", ") + "(SELECT COALESCE(MAX(id), 0) FROM main." + table
                    + "), EXISTS (SELECT 1 FROM main." + table + " WHERE id BETWEEN (SELECT MIN(id) FROM " + w
                    + ") AND (SELECT MAX(id) FROM " + w + "))";
                asked.push_back(table);
            }
            if (!asked.empty()) {
                auto st = main.prepare(sql);
                if (st.step()) {
                    for (size_t i = 0; i < asked.size(); ++i) {
                        if (st.int64(static_cast<int>(2 * i + 1)) != 0)
                            offsets[asked[i]] = st.int64(static_cast<int>(2 * i));
                    }
                }
            }
        }
        const int64_t opOffset = offsets["comm_op"];
        const int64_t bwOffset = offsets["comm_bandwidth"];
        const int64_t linkOpOffset = offsets["comm_link_op"];
        const int64_t linkRowOffset = offsets["comm_link_row"];
        const int64_t linkNameOffset = offsets["comm_link_name"];
        const int64_t sliceOffset = offsets["slice"];
        const int64_t fileOffset = offsets["source_file"];
        // A column shifted by 0 is copied as it is (no override: see below).
        auto shifted = [](const std::string& column, int64_t offset) {
            return offset == 0 ? std::string() : "(" + column + " + " + std::to_string(offset) + ")";
        };
        // Per table: the expressions that differ from a plain copy of the column.
        const std::map<std::string, std::map<std::string, std::string>> overrides {
            { "kernel",
                { { "name_id", mapped("name_id") }, { "type_id", mapped("type_id") },
                    { "pmu_file_id", shifted("pmu_file_id", fileOffset) } } },
            { "step_kernel", { { "name_id", mapped("name_id") }, { "type_id", mapped("type_id") } } },
            { "kernel_sum", { { "name_id", mapped("name_id") }, { "type_id", mapped("type_id") } } },
            { "comm_op", { { "id", shifted("id", opOffset) } } },
            { "comm_bandwidth",
                { { "id", shifted("id", bwOffset) }, { "comm_op_id", shifted("comm_op_id", opOffset) } } },
            { "comm_packet", { { "comm_bandwidth_id", shifted("comm_bandwidth_id", bwOffset) } } },
            { "comm_link_op",
                { { "id", shifted("id", linkOpOffset) }, { "first_row", shifted("first_row", linkRowOffset) },
                    { "last_row", shifted("last_row", linkRowOffset) } } },
            { "comm_link_row",
                { { "id", shifted("id", linkRowOffset) }, { "op_id", shifted("op_id", linkOpOffset) },
                    { "op_name_id", shifted("op_name_id", linkNameOffset) } } },
            { "comm_link_name", { { "id", shifted("id", linkNameOffset) } } },
            { "slice",
                { { "id", shifted("id", sliceOffset) }, { "name_id", mapped("name_id") },
                    { "cat_id", mapped("cat_id") }, { "args_file_id", shifted("args_file_id", fileOffset) } } },
            { "source_file", { { "id", shifted("id", fileOffset) } } },
            { "counter", { { "name_id", mapped("name_id") } } },
            { "flow",
                { { "src_slice_id", shifted("src_slice_id", sliceOffset) },
                    { "dst_slice_id", shifted("dst_slice_id", sliceOffset) } } },
            { "parse_issue", { { "id", "NULL" } } },
        };
        const auto tables = copiedTables(main);
        for (const auto& [table, columns] : overrides) {
            // A renamed table would otherwise be copied with its ids unshifted.
            if (std::find(tables.begin(), tables.end(), table) == tables.end())
                throw DbError("model merge: no table " + table + " to copy with remapped ids");
        }
        for (const auto& table : tables) {
            if (partial && !present.count(table))
                continue;
            const auto ov = overrides.find(table);
            const bool changed = ov != overrides.end()
                && std::any_of(ov->second.begin(), ov->second.end(), [](const auto& c) { return !c.second.empty(); });
            if (!changed) {
                // A plain copy: SQLite's transfer optimisation copies the stored records as they are
                // (new rowids, row order kept) instead of decoding and re-encoding every row when the
                // main table has no index (the summary merge); with indexes it copies row by row.
                main.exec("INSERT INTO main." + table + " SELECT * FROM w." + table);
                continue;
            }
            const auto cols = columnsOf(main, table);
            std::string names;
            std::string exprs;
            for (const auto& c : cols) {
                if (!names.empty()) {
                    names += ", ";
                    exprs += ", ";
                }
                names += c;
                if (auto it = ov->second.find(c); it != ov->second.end() && !it->second.empty()) {
                    exprs += it->second;
                    continue;
                }
                exprs += c;
            }
            main.exec("INSERT INTO main." + table + "(" + names + ") SELECT " + exprs + " FROM w." + table
                + " ORDER BY rowid");
        }
        main.exec("DROP TABLE temp.string_map");
        main.exec("COMMIT");
    } catch (...) {
        if (inTransaction)
            main.exec("ROLLBACK");
        main.exec("DETACH DATABASE w");
        throw;
    }
    main.exec("DETACH DATABASE w");
}

} // namespace npuscope::load

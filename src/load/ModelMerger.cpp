// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/ModelMerger.h"

#include <algorithm>
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

std::string mapped(const std::string& column)
{
    return "(SELECT new_id FROM temp.string_map WHERE old_id = " + column + ")";
}

} // namespace

void ModelMerger::merge(Database& main, const std::string& workerName)
{
    mergeUri(main, "file:" + workerName + "?mode=memory&cache=shared");
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
        // One statement for the five offsets: a merge of many small files costs per statement.
        int64_t opOffset = 0;
        int64_t linkOpOffset = 0;
        int64_t bwOffset = 0;
        int64_t sliceOffset = 0;
        int64_t fileOffset = 0;
        {
            auto st = main.prepare("SELECT (SELECT COALESCE(MAX(id), 0) FROM main.comm_op), "
                                   "(SELECT COALESCE(MAX(id), 0) FROM main.comm_bandwidth), "
                                   "(SELECT COALESCE(MAX(id), 0) FROM main.slice), "
                                   "(SELECT COALESCE(MAX(id), 0) FROM main.source_file), "
                                   "(SELECT COALESCE(MAX(id), 0) FROM main.comm_link_op)");
            if (st.step()) {
                opOffset = st.int64(0);
                bwOffset = st.int64(1);
                sliceOffset = st.int64(2);
                fileOffset = st.int64(3);
                linkOpOffset = st.int64(4);
            }
        }
        auto shifted = [](const std::string& column, int64_t offset) {
            return "(" + column + " + " + std::to_string(offset) + ")";
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
            { "comm_link_op", { { "id", shifted("id", linkOpOffset) } } },
            { "comm_link_row",
                { { "op_id", shifted("op_id", linkOpOffset) }, { "op_name_id", mapped("op_name_id") } } },
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
            if (ov == overrides.end()) {
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
                if (auto it = ov->second.find(c); it != ov->second.end()) {
                    exprs += it->second;
                    continue;
                }
                exprs += c;
            }
            // comm_link_row has no rowid: its key is the file order.
            const char* order = table == "comm_link_row" ? " ORDER BY op_id, seq" : " ORDER BY rowid";
            main.exec("INSERT INTO main." + table + "(" + names + ") SELECT " + exprs + " FROM w." + table + order);
        }
        main.exec("DROP TABLE temp.string_map");
        main.exec("COMMIT");
        main.clearCaches(); // comm_link_row is WITHOUT ROWID: SQLite's update hook did not see its rows
    } catch (...) {
        if (inTransaction)
            main.exec("ROLLBACK");
        main.exec("DETACH DATABASE w");
        throw;
    }
    main.exec("DETACH DATABASE w");
}

} // namespace npuscope::load

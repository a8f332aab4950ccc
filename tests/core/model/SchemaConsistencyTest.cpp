// SPDX-License-Identifier: Apache-2.0
// resources/schema.sql, docs/schema.md and the writers' INSERT statements checked against the model they
// describe: every column commented and documented, every prepared INSERT naming existing columns with one
// bound parameter per column (the C++ side binds one value per column: TableInsert checks it at compile time).
#include "npuscope/model/ClusterSummaryWriter.h"
#include "npuscope/model/CommGroupTable.h"
#include "npuscope/model/ModelWriter.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace npuscope::model {
extern const std::string_view kSchemaSql;
}

using namespace npuscope::model;

namespace {

using Columns = std::vector<std::string>;

// Every table of a fresh model and its columns, from SQLite itself.
std::map<std::string, Columns> modelTables(Database& db)
{
    std::map<std::string, Columns> tables;
    auto st = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
    while (st.step())
        tables[st.text(0)];
    for (auto& [name, columns] : tables) {
        auto info = db.prepare("SELECT name FROM pragma_table_info(?1)");
        info.bind(1, name);
        while (info.step())
            columns.push_back(info.text(0));
    }
    return tables;
}

std::string trim(std::string_view s)
{
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

struct SchemaText {
    std::set<std::string> commentedTables; // a "--" line right above CREATE TABLE
    std::map<std::string, std::set<std::string>> commentedColumns; // on a line with a "--" comment
};

SchemaText parseSchemaSql(std::string_view sql)
{
    SchemaText out;
    std::istringstream in { std::string(sql) };
    std::string line, previous, table;
    while (std::getline(in, line)) {
        const std::string t = trim(line);
        if (t.rfind("CREATE TABLE ", 0) == 0) {
            table = t.substr(13, t.find_first_of(" (", 13) - 13);
            if (previous.rfind("--", 0) == 0)
                out.commentedTables.insert(table);
        } else if (t.rfind(")", 0) == 0) {
            table.clear();
        } else if (!table.empty() && !t.empty() && t.rfind("--", 0) != 0 && t.find("--") != std::string::npos) {
            // Several columns may share a line and its comment: "a INTEGER, b INTEGER, -- ...".
            std::istringstream defs(t.substr(0, t.find("--")));
            for (std::string def; std::getline(defs, def, ',');) {
                const std::string d = trim(def);
                if (!d.empty())
                    out.commentedColumns[table].insert(d.substr(0, d.find_first_of(" \t")));
            }
        }
        if (!t.empty())
            previous = t;
    }
    return out;
}

// docs/schema.md: each "## `table`" section and the columns its table lists as "| `column` |".
std::map<std::string, std::set<std::string>> parseSchemaDoc(const std::string& path)
{
    std::map<std::string, std::set<std::string>> out;
    std::ifstream in(path);
    std::string line, table;
    while (std::getline(in, line)) {
        if (line.rfind("## `", 0) == 0) {
            table = line.substr(4, line.find('`', 4) - 4);
            out[table];
        } else if (line.rfind("## ", 0) == 0) {
            table.clear();
        } else if (!table.empty() && line.rfind("| `", 0) == 0) {
            out[table].insert(line.substr(3, line.find('`', 3) - 3));
        }
    }
    return out;
}

// What an INSERT prepared on the connection names: its table, column list, and the '?' count of each
// VALUES row.
struct InsertShape {
    std::string sql, table;
    Columns columns;
    std::vector<int> rowParameters;
    int boundParameters = 0;
};

std::vector<InsertShape> preparedInserts(Database& db)
{
    std::vector<InsertShape> out;
    for (sqlite3_stmt* st = sqlite3_next_stmt(db.handle(), nullptr); st; st = sqlite3_next_stmt(db.handle(), st)) {
        const std::string sql = sqlite3_sql(st);
        if (sql.rfind("INSERT", 0) != 0)
            continue;
        InsertShape shape;
        shape.sql = sql;
        shape.boundParameters = sqlite3_bind_parameter_count(st);
        const auto into = sql.find(" INTO ") + 6;
        const auto open = sql.find('(', into);
        const auto values = sql.find(" VALUES ", into);
        if (open == std::string::npos || values == std::string::npos || open > values) {
            out.push_back(shape); // no column list: reported by the test
            continue;
        }
        shape.table = trim(std::string_view(sql).substr(into, open - into));
        std::istringstream cols(sql.substr(open + 1, sql.find(')', open) - open - 1));
        for (std::string c; std::getline(cols, c, ',');)
            shape.columns.push_back(trim(c));
        const auto end = std::min(sql.size(), sql.find(" ON CONFLICT", values));
        int depth = 0;
        for (size_t i = values; i < end; ++i) {
            if (sql[i] == '(' && depth++ == 0)
                shape.rowParameters.push_back(0);
            else if (sql[i] == ')')
                --depth;
            else if (sql[i] == '?' && depth == 1)
                ++shape.rowParameters.back();
        }
        out.push_back(shape);
    }
    return out;
}

} // namespace

TEST(SchemaConsistency, EveryTableAndColumnIsCommentedInSchemaSql)
{
    auto db = Database::createModel();
    const auto tables = modelTables(*db);
    ASSERT_GE(tables.size(), 25u);
    const SchemaText text = parseSchemaSql(kSchemaSql);
    for (const auto& [table, columns] : tables) {
        EXPECT_TRUE(text.commentedTables.count(table)) << table << ": no comment above CREATE TABLE";
        const auto it = text.commentedColumns.find(table);
        ASSERT_NE(it, text.commentedColumns.end()) << table;
        for (const auto& c : columns)
            EXPECT_TRUE(it->second.count(c)) << table << "." << c << " has no comment in resources/schema.sql";
    }
}

TEST(SchemaConsistency, EveryTableAndColumnIsDocumented)
{
    auto db = Database::createModel();
    const auto doc = parseSchemaDoc(NPUSCOPE_TEST_DATA "/../../docs/schema.md");
    ASSERT_FALSE(doc.empty());
    for (const auto& [table, columns] : modelTables(*db)) {
        const auto it = doc.find(table);
        ASSERT_NE(it, doc.end()) << table << " has no section in docs/schema.md";
        for (const auto& c : columns)
            EXPECT_TRUE(it->second.count(c)) << table << "." << c << " is not in docs/schema.md";
        for (const auto& c : it->second) {
            EXPECT_NE(std::find(columns.begin(), columns.end(), c), columns.end())
                << "docs/schema.md documents " << table << "." << c << ", which the schema does not have";
        }
    }
}

TEST(SchemaConsistency, WriterInsertsNameExistingColumnsWithOneParameterEach)
{
    auto db = Database::createModel();
    ModelWriter writer(*db);
    ClusterSummaryWriter cluster(writer);
    CommGroupTable groups(*db);
    const auto tables = modelTables(*db);
    const auto inserts = preparedInserts(*db);
    std::set<std::string> written;
    for (const auto& ins : inserts) {
        SCOPED_TRACE(ins.sql);
        const auto it = tables.find(ins.table);
        ASSERT_NE(it, tables.end()) << "an INSERT without a column list, or into an unknown table";
        written.insert(ins.table);
        std::set<std::string> seen;
        for (const auto& c : ins.columns) {
            EXPECT_NE(std::find(it->second.begin(), it->second.end(), c), it->second.end()) << "no column " << c;
            EXPECT_TRUE(seen.insert(c).second) << c << " named twice";
        }
        ASSERT_FALSE(ins.rowParameters.empty());
        for (const int n : ins.rowParameters)
            EXPECT_EQ(n, static_cast<int>(ins.columns.size()));
        EXPECT_EQ(ins.boundParameters, static_cast<int>(ins.columns.size() * ins.rowParameters.size()));
    }
    // Every table of the model is filled through one of the typed inserts checked above.
    std::set<std::string> expected;
    for (const auto& [table, columns] : tables)
        expected.insert(table);
    EXPECT_EQ(written, expected);
}

TEST(SchemaConsistency, InsertedRowsReadBackInTheirColumns)
{
    // A row through a TableInsert lands in the columns it names, optional values as NULL.
    auto db = Database::createModel();
    ModelWriter writer(*db);
    writer.begin();
    StepTraceRow st;
    st.rankId = 3;
    st.step = 7;
    st.computing = 11;
    st.preparing = 12;
    st.sourceLine = 2;
    st.tail = 13;
    writer.addStepTrace(st);
    KernelRow k;
    k.rankId = 3;
    k.name = "MatMul";
    k.ts = 100;
    k.dur = 5;
    k.pmuLen = 9;
    writer.addKernel(k);
    writer.commit();
    auto row = db->prepare("SELECT rank_id, device_id, step, computing_ns, preparing_ns, source_line, tail_ns, "
                           "total_ns FROM step_trace");
    ASSERT_TRUE(row.step());
    EXPECT_EQ(row.int64(0), 3);
    EXPECT_TRUE(row.isNull(1));
    EXPECT_EQ(row.int64(2), 7);
    EXPECT_EQ(row.int64(3), 11);
    EXPECT_EQ(row.int64(4), 12);
    EXPECT_EQ(row.int64(5), 2);
    EXPECT_EQ(row.int64(6), 13);
    EXPECT_TRUE(row.isNull(7));
    auto kernel = db->prepare("SELECT s.value, k.type_id, k.ts, k.dur, k.pmu_len FROM kernel k JOIN string s ON "
                              "s.id = k.name_id");
    ASSERT_TRUE(kernel.step());
    EXPECT_EQ(kernel.text(0), "MatMul");
    EXPECT_TRUE(kernel.isNull(1));
    EXPECT_EQ(kernel.int64(2), 100);
    EXPECT_EQ(kernel.int64(3), 5);
    EXPECT_EQ(kernel.int64(4), 9);
}

// The step columns are defined once (model/StepColumns.h): step_trace has exactly the rank, device, step and source
// line plus every entry; cluster_stage_step every step_trace_time.csv entry and none of the iteration trace ones;
// titles, db names and JSON keys are distinct, so no two entries read or print as one.
TEST(SchemaConsistency, StepColumnsTableMatchesTheSchema)
{
    auto db = Database::createModel();
    const auto tables = modelTables(*db);
    std::set<std::string> stepTrace(tables.at("step_trace").begin(), tables.at("step_trace").end());
    std::set<std::string> expected { "rank_id", "device_id", "step", "source_line" };
    std::set<std::string> titles, dbNames, jsonKeys;
    const auto& stages = tables.at("cluster_stage_step");
    for (const auto& c : kStepColumns) {
        expected.insert(c.sql);
        EXPECT_TRUE(titles.insert(c.title).second) << c.title;
        EXPECT_TRUE(jsonKeys.insert(c.jsonKey).second) << c.jsonKey;
        EXPECT_EQ(c.dbName == nullptr, c.iterationTrace) << c.sql << ": db exports have the file columns only";
        if (c.dbName) {
            EXPECT_TRUE(dbNames.insert(c.dbName).second) << c.dbName;
        }
        EXPECT_EQ(std::count(stages.begin(), stages.end(), c.sql), c.iterationTrace ? 0 : 1)
            << "cluster_stage_step." << c.sql;
    }
    EXPECT_EQ(stepTrace, expected);

    // A row written through the table reads back column by column.
    ModelWriter writer(*db);
    writer.begin();
    StepTraceRow row;
    row.rankId = 3;
    int64_t value = 100;
    for (const auto& c : kStepColumns)
        row.*c.field = value++;
    writer.addStepTrace(row);
    ClusterStageRow stage;
    stage.stageIndex = 1;
    stage.ranks = { 0, 4 };
    for (int i = 0; i < kStepTraceFileColumnCount; ++i)
        stage.*kStepColumns[static_cast<size_t>(i)].field = 200 + i;
    ClusterSummaryWriter(writer).addStage(stage);
    writer.commit();
    value = 100;
    for (const auto& c : kStepColumns) {
        auto st = db->prepare(std::string("SELECT ") + c.sql + " FROM step_trace WHERE rank_id = 3");
        ASSERT_TRUE(st.step());
        EXPECT_EQ(st.int64(0), value++) << c.sql;
        if (c.iterationTrace)
            continue;
        auto sst = db->prepare(std::string("SELECT ") + c.sql + ", ranks FROM cluster_stage_step");
        ASSERT_TRUE(sst.step());
        EXPECT_EQ(sst.int64(0), 200 + static_cast<int>(c.column)) << c.sql;
        EXPECT_EQ(sst.text(1), "0,4");
    }
}

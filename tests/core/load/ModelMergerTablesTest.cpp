// SPDX-License-Identifier: Apache-2.0
// ModelMerger copies every table of resources/schema.sql (the list comes from the model, so a new table cannot be
// forgotten), except string (merged by value) and comm_group / comm_group_rank (built by PostLoad on the main model).
#include "npuscope/load/ModelMerger.h"
#include "npuscope/model/Database.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace npuscope;

namespace {

std::vector<std::string> tablesOf(model::Database& db)
{
    std::vector<std::string> tables;
    auto st = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
    while (st.step())
        tables.push_back(st.text(0));
    return tables;
}

// One row in table with every column 1: satisfies NOT NULL, and every id points at row 1 of its table.
void insertOnes(model::Database& db, const std::string& table)
{
    std::string names, values;
    auto info = db.prepare("SELECT name FROM pragma_table_info(?1)");
    info.bind(1, table);
    while (info.step()) {
        names += (names.empty() ? "" : ", ") + info.text(0);
        values += values.empty() ? "1" : ", 1";
    }
    db.exec("INSERT INTO " + table + "(" + names + ") VALUES (" + values + ")");
}

} // namespace

TEST(ModelMergerTables, EveryTableOfTheSchemaIsCopied)
{
    auto worker = model::Database::createModel("model-merger-tables-test");
    const auto tables = tablesOf(*worker);
    ASSERT_GE(tables.size(), 28u);
    for (const auto& t : tables)
        insertOnes(*worker, t);

    auto main = model::Database::createModel();
    load::ModelMerger::merge(*main, "model-merger-tables-test");

    const std::set<std::string> builtOnMain { "comm_group", "comm_group_rank" };
    std::map<std::string, int64_t> expected, copied;
    for (const auto& t : tables) {
        expected[t] = builtOnMain.count(t) ? 0 : 1;
        copied[t] = main->scalarInt("SELECT COUNT(*) FROM " + t).value_or(-1);
    }
    EXPECT_EQ(copied, expected);
    // Ids that point into the string table keep pointing at the same value.
    EXPECT_EQ(
        main->scalarInt("SELECT COUNT(*) FROM kernel k JOIN string s ON s.id = k.name_id WHERE s.value = '1'"), 1);
    EXPECT_EQ(main->scalarInt("SELECT COUNT(*) FROM slice s JOIN flow f ON f.src_slice_id = s.id"), 1);
}

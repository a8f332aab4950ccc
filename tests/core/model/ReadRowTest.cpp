// SPDX-License-Identifier: Apache-2.0
// model::readRow, firstRow and readInts (include/npuscope/model/ReadRow.h): columns into fields by type, in SELECT
// order, with NULL as each type's Statement accessor reads it; a lookup of one row; a column of integers.
#include "npuscope/model/ReadRow.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

using namespace npuscope::model;

namespace {

struct Fields {
    int64_t id = -1;
    double ratio = -1;
    bool flag = false;
    std::string name = "stale";
    std::optional<std::string> note = "stale";
    std::optional<int64_t> count = 7;
    std::optional<double> share = 7.0;
};

} // namespace

TEST(ReadRow, ColumnsIntoFieldsByType)
{
    auto db = Database::createModel();
    auto st = db->prepare("SELECT 42, 0.5, 3, 'rank', 'note', 9, 0.25 UNION ALL "
                          "SELECT NULL, NULL, 0, NULL, NULL, NULL, NULL");
    Fields f;
    ASSERT_TRUE(st.step());
    readRow(st, f.id, f.ratio, f.flag, f.name, f.note, f.count, f.share);
    EXPECT_EQ(f.id, 42);
    EXPECT_DOUBLE_EQ(f.ratio, 0.5);
    EXPECT_TRUE(f.flag);
    EXPECT_EQ(f.name, "rank");
    EXPECT_EQ(f.note, "note");
    EXPECT_EQ(f.count, 9);
    EXPECT_EQ(f.share, 0.25);
    // NULL: 0, 0.0, false and "" for the plain types, nullopt for the optionals (the same object read again).
    ASSERT_TRUE(st.step());
    readRow(st, f.id, f.ratio, f.flag, f.name, f.note, f.count, f.share);
    EXPECT_EQ(f.id, 0);
    EXPECT_DOUBLE_EQ(f.ratio, 0.0);
    EXPECT_FALSE(f.flag);
    EXPECT_EQ(f.name, "");
    EXPECT_EQ(f.note, std::nullopt);
    EXPECT_EQ(f.count, std::nullopt);
    EXPECT_EQ(f.share, std::nullopt);
}

TEST(ReadRow, FirstRowBindsInOrderAndSaysWhenThereIsNone)
{
    auto db = Database::createModel();
    db->exec("CREATE TEMP TABLE t(a INTEGER, b TEXT)");
    db->exec("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
    const auto st = firstRow(*db, "SELECT b FROM t WHERE a = ?1 AND b <> ?2", int64_t { 2 }, "x");
    ASSERT_TRUE(st);
    EXPECT_EQ(st->text(0), "two");
    EXPECT_FALSE(firstRow(*db, "SELECT b FROM t WHERE a = ?1", int64_t { 3 }));
}

TEST(ReadRow, ReadIntsKeepsTheRowOrder)
{
    auto db = Database::createModel();
    EXPECT_EQ(readInts(*db, "SELECT 3 UNION ALL SELECT 1 UNION ALL SELECT 2"), (std::vector<int64_t> { 3, 1, 2 }));
    EXPECT_TRUE(readInts(*db, "SELECT 1 WHERE 0").empty());
}

// SPDX-License-Identifier: Apache-2.0
// The FLOPs of MindSpore's per-op flops_N.txt joined to the operator rows (OperatorQuery, npuscope.ops/1): the real
// run_1 file of MindInsight (tests/data/mindspore_run1_profiler: 199 ops, each "333, 333, 33") with kernel rows
// written here under names taken from it, since no sample has both a FLOPs file and a kernel table.
#include "TestSupport.h"

#include "npuscope/model/ModelWriter.h"
#include "npuscope/query/OperatorQuery.h"
#include "npuscope/query/OperatorReport.h"

#include <gtest/gtest.h>

#include <string>

using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::openFolder;

namespace {

constexpr const char* kAssignAdd = "Default/AssignAdd-op414"; // line 2 of flops_1.txt
constexpr const char* kMul = "Default/network-TrainStepWrap/optimizer_d-Adam/Mul-op29"; // line 3

void addKernel(model::ModelWriter& w, int64_t rank, const std::string& name, const std::string& type, int64_t ts)
{
    model::KernelRow k;
    k.rankId = rank;
    k.name = name;
    k.type = type;
    k.ts = ts;
    k.dur = 1000;
    w.addKernel(k);
}

const query::OperatorRow* find(const std::vector<query::OperatorRow>& rows, const std::string& key)
{
    for (const auto& r : rows) {
        if (r.key == key)
            return &r;
    }
    return nullptr;
}

} // namespace

TEST(OperatorFlops, FlopsFileIsJoinedByKernelNameOncePerName)
{
    auto db = openFolder(dataDir() / "mindspore_run1_profiler");
    ASSERT_TRUE(db);
    ASSERT_EQ(db->scalarInt("SELECT COUNT(*) FROM op_flops WHERE rank_id = 1").value_or(0), 199);
    {
        model::ModelWriter w(*db);
        w.begin();
        addKernel(w, 1, kAssignAdd, "AssignAdd", 1000);
        addKernel(w, 1, kAssignAdd, "AssignAdd", 5000); // the same op again: its FLOPs count once
        addKernel(w, 1, kMul, "Mul", 2000);
        addKernel(w, 1, "Default/NotInTheFile-op1", "Mul", 3000);
        addKernel(w, 1, "Default/NotInTheFile-op2", "Cast", 4000);
        w.commit();
    }
    const auto index = query::OperatorQuery::build(*db);
    // Each op of the file: 333 MFLOPs at 333 GFLOPS.
    const auto byName = index->group(query::OperatorGroupBy::Name, 1);
    const auto* assign = find(byName, kAssignAdd);
    ASSERT_NE(assign, nullptr);
    EXPECT_EQ(assign->count, 2);
    EXPECT_DOUBLE_EQ(assign->flops.value_or(0), 333e6);
    EXPECT_DOUBLE_EQ(assign->flopsPerSecond.value_or(0), 333e9);
    const auto* missing = find(byName, "Default/NotInTheFile-op1");
    ASSERT_NE(missing, nullptr);
    EXPECT_FALSE(missing->flops.has_value());
    EXPECT_FALSE(missing->flopsPerSecond.has_value());
    // By type: Mul has one name in the file (the other is not), Cast none.
    const auto byType = index->group(query::OperatorGroupBy::Type, 1);
    EXPECT_DOUBLE_EQ(find(byType, "Mul")->flops.value_or(0), 333e6);
    EXPECT_DOUBLE_EQ(find(byType, "Mul")->flopsPerSecond.value_or(0), 333e9);
    EXPECT_DOUBLE_EQ(find(byType, "AssignAdd")->flops.value_or(0), 333e6);
    EXPECT_FALSE(find(byType, "Cast")->flops.has_value());
    const auto all = index->aggregate(query::OperatorGroupBy::Type);
    EXPECT_DOUBLE_EQ(find(all, "Mul")->flops.value_or(0), 333e6);

    // npuscope.ops/1: the two optional fields only where the file gives them.
    query::OperatorSelection sel;
    sel.groupBy = query::OperatorGroupBy::Type;
    const auto json = query::OperatorReport::json(*db, sel);
    int withFlops = 0;
    for (const auto& row : json["rows"]) {
        if (row["key"] == "Cast") {
            EXPECT_FALSE(row.contains("flops"));
            EXPECT_FALSE(row.contains("flops_per_s"));
        } else {
            EXPECT_DOUBLE_EQ(row["flops"].get<double>(), 333e6) << row.dump();
            EXPECT_DOUBLE_EQ(row["flops_per_s"].get<double>(), 333e9) << row.dump();
            ++withFlops;
        }
    }
    EXPECT_EQ(withFlops, 2);
}

TEST(OperatorFlops, RowsWithoutAFlopsFileHaveNoFields)
{
    auto db = openFolder(dataDir() / "msprof_advisor_flops", true);
    ASSERT_TRUE(db);
    const auto json = query::OperatorReport::json(*db, {});
    ASSERT_FALSE(json["rows"].empty());
    for (const auto& row : json["rows"])
        EXPECT_FALSE(row.contains("flops")) << row.dump();
}

// SPDX-License-Identifier: Apache-2.0
// parallel_group_info parsed at import: the typed rows keep the rules group resolution applied to the
// JSON text (last repeated key, integer elements only, name only when a string), and survive the model.
#include "npuscope/model/ParallelGroupTable.h"
#include "npuscope/load/PostLoad.h"
#include "npuscope/model/ModelWriter.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

using namespace npuscope::model;

namespace {

std::string dump(const std::optional<ParallelGroupRow>& row)
{
    if (!row)
        return "none";
    std::string out = row->rawName + "@" + std::to_string(row->rankId) + " " + row->name.value_or("<null>") + ":";
    for (const int64_t r : row->globalRanks)
        out += " " + std::to_string(r);
    return out;
}

// An entry given as JSON text; text that does not parse names no members.
std::optional<ParallelGroupRow> fromText(int64_t rankId, std::string_view rawName, std::string_view json)
{
    return ParallelGroupTable::fromJson(rankId, rawName, nlohmann::json::parse(json, nullptr, false));
}

} // namespace

TEST(ParallelGroupTable, FromJsonKeepsTheRulesOfTheJsonText)
{
    EXPECT_EQ(dump(fromText(1, "g1", R"({"group_name": "tp", "global_ranks": [4, 0, 2]})")), "g1@1 tp: 0 2 4");
    EXPECT_EQ(dump(fromText(0, "g2",
                  R"({"global_ranks": [9], "global_ranks": [3, [7], 1.5, 1, {"a": 2}, "4"], "group_name": 5})")),
        "g2@0 <null>: 1 3");
    EXPECT_EQ(dump(fromText(0, "g", R"({"global_ranks": [], "group_name": "dp"})")), "g@0 dp:");
    EXPECT_EQ(dump(fromText(0, "g", R"({"global_ranks": "0,1", "group_name": "x"})")), "none");
    EXPECT_EQ(dump(fromText(0, "g", R"({"global_ranks": [0, 1)")), "none");
    EXPECT_EQ(dump(fromText(0, "g", R"([{"global_ranks": [0, 1]}])")), "none");
    EXPECT_EQ(dump(fromText(0, "g", R"({"global_ranks": [0, 1], "global_ranks": null})")), "none");
    EXPECT_EQ(dump(ParallelGroupTable::fromJson(2, "h", nlohmann::json::parse(R"({"global_ranks": [-1, 7]})"))),
        "h@2 <null>: -1 7");
}

TEST(ParallelGroupTable, RowsReadBackInOrderAndResolveGroups)
{
    auto db = Database::createModel();
    ModelWriter writer(*db);
    writer.begin();
    {
        ParallelGroupTable table(*db);
        table.add({ 0, "ga", "tp", { 0, 1 } });
        table.add({ 1, "gb", std::nullopt, {} });
    }
    // A second rank's entry for the same group, written as the importers do.
    writer.addParallelGroup(*fromText(1, "ga", R"({"group_name": "tp", "global_ranks": [1, 0, 8]})"));
    // rank_info keys that look like a group entry stay plain facts.
    writer.addRankInfo(1, "parallel_group_info.gd", R"({"global_ranks": [0, 1]})");
    writer.commit();

    std::vector<std::string> rows;
    ParallelGroupTable::forEach(*db, [&](const ParallelGroupRow& r) { rows.push_back(dump(r)); });
    EXPECT_EQ(rows, (std::vector<std::string> { "ga@0 tp: 0 1", "gb@1 <null>:", "ga@1 tp: 0 1 8" }));
    EXPECT_EQ(db->scalarInt("SELECT COUNT(*) FROM rank_info WHERE key = 'parallel_group_info.gd'"), 1);

    writer.begin();
    npuscope::load::PostLoad::resolveGroups(*db, writer);
    writer.commit();
    auto members = db->prepare("SELECT g.raw_name, g.ranks_source, group_concat(r.global_rank) FROM comm_group g "
                               "LEFT JOIN (SELECT * FROM comm_group_rank ORDER BY local_rank) r USING (group_hash) "
                               "GROUP BY g.group_hash ORDER BY g.raw_name");
    std::string out;
    while (members.step())
        out += members.text(0) + "/" + members.text(1) + "=" + members.optText(2).value_or("") + " ";
    EXPECT_EQ(out, "ga/metadata=0,1,8 gb/metadata= ");
}

TEST(ParallelGroupTable, LatestPerRawNameIsWhatTheLaterRowsLeave)
{
    auto db = Database::createModel();
    ModelWriter writer(*db);
    writer.begin();
    {
        ParallelGroupTable table(*db);
        table.add({ 0, "ga", "tp", { 0, 1 } });
        table.add({ 0, "gb", "dp", { 0, 4 } });
        table.add({ 1, "ga", std::nullopt, { 0, 1, 2 } }); // no name: "tp" from the earlier row stays
        table.add({ 2, "gc", std::nullopt, { 5 } });
        table.add({ 3, "gb", "dp2", { 4, 8 } });
    }
    writer.commit();
    // The fold of every row in order, as group resolution did it.
    std::map<std::string, ParallelGroupRow> folded;
    std::vector<std::string> lastOrder;
    ParallelGroupTable::forEach(*db, [&](const ParallelGroupRow& r) {
        auto& f = folded[r.rawName];
        const auto name = r.name ? r.name : f.name;
        f = r;
        f.name = name;
        lastOrder.erase(std::remove(lastOrder.begin(), lastOrder.end(), r.rawName), lastOrder.end());
        lastOrder.push_back(r.rawName);
    });
    std::vector<std::string> expected, latest;
    for (const auto& rawName : lastOrder)
        expected.push_back(dump(folded[rawName]));
    ParallelGroupTable::forEachLatest(*db, [&](const ParallelGroupRow& r) { latest.push_back(dump(r)); });
    EXPECT_EQ(latest, expected);
    EXPECT_EQ(latest, (std::vector<std::string> { "ga@1 tp: 0 1 2", "gc@2 <null>: 5", "gb@3 dp2: 4 8" }));
}

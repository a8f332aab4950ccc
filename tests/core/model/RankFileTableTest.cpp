// SPDX-License-Identifier: Apache-2.0
// rank_file status: the enum's stored strings (unchanged, all listed in resources/schema.sql) and the
// transitions of the deferred-load state machine through RankFileTable.
#include "npuscope/model/RankFileTable.h"
#include "npuscope/model/ModelWriter.h"

#include <gtest/gtest.h>

#include <string>

namespace npuscope::model {
extern const std::string_view kSchemaSql;
}

using namespace npuscope::model;

namespace {

constexpr RankFileStatus kAll[] = { RankFileStatus::Planned, RankFileStatus::Skipped, RankFileStatus::Loading,
    RankFileStatus::Loaded, RankFileStatus::Failed };

std::string statuses(Database& db)
{
    auto st = db.prepare("SELECT rank_id, kind, status FROM rank_file ORDER BY rowid");
    std::string out;
    while (st.step())
        out += std::to_string(st.int64(0)) + ":" + st.text(1) + "=" + st.text(2) + " ";
    return out;
}

} // namespace

TEST(RankFileStatus, StoredStringsRoundTrip)
{
    EXPECT_STREQ(rankFileStatusName(RankFileStatus::Planned), "planned");
    EXPECT_STREQ(rankFileStatusName(RankFileStatus::Skipped), "skipped");
    EXPECT_STREQ(rankFileStatusName(RankFileStatus::Loading), "loading");
    EXPECT_STREQ(rankFileStatusName(RankFileStatus::Loaded), "loaded");
    EXPECT_STREQ(rankFileStatusName(RankFileStatus::Failed), "failed");
    for (const RankFileStatus s : kAll)
        EXPECT_EQ(rankFileStatusFromName(rankFileStatusName(s)), s);
    EXPECT_EQ(rankFileStatusFromName("Loaded"), std::nullopt);
    EXPECT_EQ(rankFileStatusFromName(""), std::nullopt);
}

TEST(RankFileStatus, EveryStatusIsListedInTheSchemaComment)
{
    const auto table = kSchemaSql.find("CREATE TABLE rank_file");
    ASSERT_NE(table, std::string_view::npos);
    const std::string_view body = kSchemaSql.substr(table, kSchemaSql.find(");", table) - table);
    const std::string_view comment = body.substr(body.find("status"));
    for (const RankFileStatus s : kAll)
        EXPECT_NE(comment.find(rankFileStatusName(s)), std::string_view::npos) << rankFileStatusName(s);
}

TEST(RankFileTable, DeferredImportTransitions)
{
    auto db = Database::createModel();
    RankFileTable table(*db);
    table.add({ 0, "trace_view", "/r0/trace_view.json", 100, RankFileStatus::Skipped });
    table.add({ 0, "kernel_details", "/r0/kernel_details.csv", 20, RankFileStatus::Skipped });
    table.add({ 0, "step_trace_time", "/r0/step_trace_time.csv", 5, RankFileStatus::Loaded });
    table.add({ 1, "trace_view", "/r1/trace_view.json", 300, RankFileStatus::Skipped });
    // One db file planned under two kinds: only the named kind's row changes.
    table.add({ 1, "profiler_db", "/r1/x.db", std::nullopt, RankFileStatus::Loaded });
    table.add({ 1, "profiler_db_timeline", "/r1/x.db", std::nullopt, RankFileStatus::Skipped });

    EXPECT_EQ(table.bytesWithStatus(0, RankFileStatus::Skipped), 120);
    EXPECT_EQ(table.bytesWithStatus(1, RankFileStatus::Skipped), 300); // NULL sizes count as nothing
    EXPECT_EQ(table.bytesWithStatus(2, RankFileStatus::Skipped), 0);

    const auto skipped = table.withStatus(0, RankFileStatus::Skipped);
    ASSERT_EQ(skipped.size(), 2u);
    EXPECT_EQ(skipped[0].kind, "trace_view");
    EXPECT_EQ(skipped[0].path, "/r0/trace_view.json");
    EXPECT_EQ(skipped[0].sizeBytes, 100);
    EXPECT_EQ(skipped[1].kind, "kernel_details");

    // Claim, then cancel: back to skipped.
    for (const auto& f : skipped)
        table.setStatus(0, f.kind, f.path, RankFileStatus::Loading);
    table.setStatus(1, "profiler_db_timeline", "/r1/x.db", RankFileStatus::Loading);
    EXPECT_EQ(statuses(*db),
        "0:trace_view=loading 0:kernel_details=loading 0:step_trace_time=loaded 1:trace_view=skipped "
        "1:profiler_db=loaded 1:profiler_db_timeline=loading ");
    table.changeStatus(0, RankFileStatus::Loading, RankFileStatus::Skipped);
    EXPECT_EQ(table.withStatus(0, RankFileStatus::Skipped).size(), 2u);
    EXPECT_EQ(table.withStatus(1, RankFileStatus::Loading).size(), 1u);

    // A finished import: the claimed rows are replaced by the merged rows with their final status.
    table.removeWithStatus(1, RankFileStatus::Loading);
    table.add({ 1, "profiler_db_timeline", "/r1/x.db", std::nullopt, RankFileStatus::Failed });
    EXPECT_EQ(statuses(*db),
        "0:trace_view=skipped 0:kernel_details=skipped 0:step_trace_time=loaded 1:trace_view=skipped "
        "1:profiler_db=loaded 1:profiler_db_timeline=failed ");
}

TEST(RankFileTable, WriterUsesTheSameStatuses)
{
    auto db = Database::createModel();
    ModelWriter writer(*db);
    writer.begin();
    writer.addRankFile({ 2, "communication", "/r2/communication.json", 7, RankFileStatus::Planned });
    writer.setRankFileStatus(2, "communication", "/r2/communication.json", RankFileStatus::Failed);
    writer.setRankFileStatus(2, "communication_matrix", "/r2/communication.json", RankFileStatus::Loaded);
    writer.commit();
    EXPECT_EQ(statuses(*db), "2:communication=failed ");
}

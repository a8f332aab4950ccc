// SPDX-License-Identifier: Apache-2.0
// MindInsight's rank table (hccl.json) as MindSporeRankTableImporter::run reads it for one rank: the On Demand walk
// to the rank's device, and the DOM read it falls back to for a table of another shape, give the same rows and issues.
#include "TestSupport.h"

#include "npuscope/io/mindspore/MindSporeRankTableImporter.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/model/ModelWriter.h"

#include <gtest/gtest.h>

#include <fstream>

namespace fs = std::filesystem;
using namespace npuscope;

namespace {

struct Result {
    bool ok = false;
    std::string rank; // "device|host|framework" of the rank row
    std::string issues; // "severity: message" lines
};

Result importTable(const std::string& table, int64_t rank, bool withMapping = true)
{
    test::ScratchDir dir;
    std::ofstream(dir.path() / "hccl.json") << table;
    if (withMapping)
        std::ofstream(dir.path() / "host_ips_mapping.txt") << "10.0.0.1 1\n10.0.0.2 2\n";
    auto db = model::Database::createModel();
    model::ModelWriter writer(*db);
    writer.begin();
    model::RankRow planned; // the loader adds every planned rank before its files are imported
    planned.rankId = rank;
    writer.addRank(planned);
    Result r;
    {
        io::ImportContext ctx(writer, rank, (dir.path() / "hccl.json").string());
        r.ok = io::MindSporeRankTableImporter::run(ctx);
        ctx.finish();
    }
    writer.commit();
    auto row = db->prepare("SELECT device_id, host, framework FROM rank WHERE rank_id = ?1");
    row.bind(1, rank);
    if (row.step())
        r.rank = row.optText(0).value_or("-") + "|" + row.optText(1).value_or("-") + "|" + row.optText(2).value_or("-");
    auto issues = db->prepare("SELECT severity, message FROM parse_issue ORDER BY id");
    while (issues.step())
        r.issues += issues.text(0) + ": " + issues.text(1) + "\n";
    return r;
}

constexpr const char* kTable = R"({"version": "1.0", "server_count": "2", "server_list": [
  {"server_id": "10.0.0.1", "device": [{"device_id": "0", "device_ip": "x", "rank_id": "0"},
                                       {"device_id": "1", "device_ip": "x", "rank_id": "1"}]},
  {"device": [{"rank_id": 2, "device_id": 0}, {"device_id": "1", "rank_id": "3"}], "server_id": "10.0.0.2"}],
  "status": "completed"})";

} // namespace

TEST(MindSporeRankTable, FindsTheRanksDeviceAndHost)
{
    EXPECT_EQ(importTable(kTable, 1).rank, "1|1|mindspore");
    // Integer ids, and a server whose address follows its devices.
    EXPECT_EQ(importTable(kTable, 2).rank, "0|2|mindspore");
    const auto r = importTable(kTable, 3);
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.rank, "1|2|mindspore");
    EXPECT_EQ(r.issues, "");
}

TEST(MindSporeRankTable, SaysWhatIsMissing)
{
    auto r = importTable(kTable, 7);
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.rank, "-|-|-"); // the planned rank, nothing added
    EXPECT_EQ(r.issues, "warning: rank 7 is not in the rank table\n");

    r = importTable(kTable, 0, false);
    EXPECT_EQ(r.rank, "0|server 1|mindspore");
    EXPECT_NE(r.issues.find("warning: no host_ips_mapping.txt"), std::string::npos) << r.issues;

    r = importTable(R"({"version": "1.0"})", 0);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.issues, "error: rank table has no server_list\n");

    r = importTable(R"({"server_list": [)", 0);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.issues.find("error:"), std::string::npos) << r.issues;
}

TEST(MindSporeRankTable, TablesOfAnotherShapeAreReadAsBefore)
{
    // A device that is no object and a server without devices: skipped, the rank after them still found.
    const auto r = importTable(R"({"server_list": [{"server_id": "10.0.0.1", "device": [7, {"rank_id": "4",
        "device_id": "3"}]}, {"server_id": "10.0.0.2"}, {"server_id": "10.0.0.2", "device": [{"rank_id": "5",
        "device_id": "6"}]}]})",
        5);
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.rank, "6|2|mindspore");
    EXPECT_EQ(r.issues, "");
}

// SPDX-License-Identifier: Apache-2.0
// Communication views: local-rank fallback, "Total Op Info" not double-counted, CLI = GUI on mixed folders,
// and the reason for an empty communication view.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/CommReport.h"
#include "npuscope/query/SummaryReport.h"
#include "npuscope/model/ModelWriter.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>

#include <unistd.h>

namespace fs = std::filesystem;
using namespace npuscope;
using namespace npuscope::query;

namespace {

std::unique_ptr<model::Database> openModel(const fs::path& path)
{
    return load::Loader::load(io::Detector::detect({ path.string() }), load::LoadOptions {});
}

const fs::path kLevel2 = fs::path(NPUSCOPE_TEST_DATA) / "torch_npu_2rank_level2";
const std::string kLevel2Group = "11022204950826225271";

} // namespace

// Defect 1: a single rank of an 8-rank group (no metadata, one self-link) still shows its links, in the
// group's local ranks, labelled as such, in the matrix, the link table and both JSON documents.
TEST(CommLinkRanks, SingleRankShowsLinksWithLocalRanks)
{
    auto db = openModel(kLevel2 / "rank0_ascend_pt");
    ASSERT_TRUE(db);
    EXPECT_EQ(CommQuery::localRankGroups(*db), std::vector<std::string> { kLevel2Group });

    const auto index = CommLinkIndex::build(*db);
    for (const auto& m : { CommAnalysisQuery::matrix(*db, {}), CommAnalysisQuery::matrix(*index, {}) }) {
        ASSERT_TRUE(m.localGroup.has_value());
        EXPECT_EQ(*m.localGroup, kLevel2Group);
        EXPECT_TRUE(m.hiddenLocalGroups.empty());
        EXPECT_EQ(m.ranks, (std::vector<int64_t> { 0, 1, 2, 3, 4, 5, 6, 7 }));
        EXPECT_EQ(m.offDiagonalCells(), 7u); // rank 0 wrote 0 -> 1..7 (local)
        EXPECT_TRUE(m.slowestCell.has_value());
    }
    // The selected group gives the same local-rank matrix.
    CommSelection sel;
    sel.groupHash = kLevel2Group;
    const auto g = CommAnalysisQuery::matrix(*index, sel);
    EXPECT_EQ(g.localGroup, std::optional<std::string>(kLevel2Group));
    EXPECT_EQ(g.cells.size(), CommAnalysisQuery::matrix(*db, sel).cells.size());

    const auto rows = CommAnalysisQuery::linkTable(*index, {});
    ASSERT_FALSE(rows.empty());
    for (const auto& r : rows)
        EXPECT_TRUE(r.localRanks);
    EXPECT_EQ(rows.size(), CommAnalysisQuery::linkTable(*db, {}).size());
    // The selected rank's links: the ones it wrote (its local index is not known in general).
    LinkFilter f;
    f.rank = 0;
    EXPECT_EQ(CommAnalysisQuery::linkTable(*index, f).size(), rows.size());

    const auto comm = CommReport::json(*db, {});
    ASSERT_FALSE(comm["slowest_links"].empty());
    for (const auto& l : comm["slowest_links"])
        EXPECT_EQ(l["ranks"], "local");
    EXPECT_EQ(comm["local_rank_groups"], nlohmann::ordered_json::array({ kLevel2Group }));

    const auto summary = SummaryReport::json(*db);
    ASSERT_FALSE(summary["links"].empty());
    for (const auto& l : summary["links"]) {
        EXPECT_EQ(l["ranks"], "local");
        EXPECT_FALSE(l["local_src"].is_null());
    }
}

// Both ranks loaded: the group resolves (self-links confirm local = global), no local fallback.
TEST(CommLinkRanks, BothRanksUseGlobalRanks)
{
    auto db = openModel(kLevel2);
    ASSERT_TRUE(db);
    EXPECT_TRUE(CommQuery::localRankGroups(*db).empty());
    const auto m = CommAnalysisQuery::matrix(*CommLinkIndex::build(*db), {});
    EXPECT_FALSE(m.localGroup.has_value());
    EXPECT_FALSE(m.cells.empty());
    for (const auto& r : CommAnalysisQuery::linkTable(*db, {}))
        EXPECT_FALSE(r.localRanks);
    const auto report = SummaryReport::json(*db);
    for (const auto& l : report["links"])
        EXPECT_EQ(l["ranks"], "global");
}

// Defect 3: "Total (all op types)" sums the per-type total slots; the "Total Op Info" rows of the same links
// are not added again (cluster_analysis.db of the 2024-03 msinsight sample, link 7 -> 3).
TEST(CommLinkRanks, MatrixTotalDoesNotAddTotalOpInfo)
{
    auto db = openModel(fs::path(NPUSCOPE_TEST_DATA) / "msprof_cluster_analysis" / "db");
    ASSERT_TRUE(db);
    double typeSize = 0, infoSize = 0;
    int64_t typeTime = 0, infoTime = 0;
    for (const auto& l : CommQuery::links(*db)) { // includeTotals by default
        if (l.src != 7 || l.dst != 3)
            continue;
        if (l.matrixOp == "Total Op Info") {
            infoSize += l.sizeMb.value_or(0);
            infoTime += l.timeNs.value_or(0);
        } else if (l.slot && *l.slot == "total") {
            typeSize += l.sizeMb.value_or(0);
            typeTime += l.timeNs.value_or(0);
        }
    }
    ASSERT_GT(infoTime, 0);
    ASSERT_GT(typeTime, 0);
    const auto index = CommLinkIndex::build(*db);
    for (const auto& m : { CommAnalysisQuery::matrix(*db, {}), CommAnalysisQuery::matrix(*index, {}) }) {
        EXPECT_FALSE(m.totalOpInfo);
        const MatrixCell* cell = nullptr;
        for (const auto& c : m.cells) {
            if (c.src == 7 && c.dst == 3)
                cell = &c;
        }
        ASSERT_NE(cell, nullptr);
        EXPECT_NEAR(cell->sizeMb, typeSize, 1e-6);
        EXPECT_EQ(cell->timeNs, typeTime);
        // What the view showed before: Total Op Info added to the per-type totals (17.996 GB/s).
        EXPECT_GT(std::abs(*cell->bandwidthGbps() - (typeSize + infoSize) / ((typeTime + infoTime) / 1e6)), 1e-3);
    }
    // With only "Total Op Info" rows left, Total falls back to them (805.33 MB / 44.84 ms = 17.9606 GB/s).
    db->exec("DELETE FROM comm_link_row WHERE op_id IN (SELECT id FROM comm_link_op WHERE matrix_op <> 'Total Op Info')");
    db->clearCaches(); // raw SQL on a WITHOUT ROWID table: SQLite's update hook does not see it
    const auto info = CommAnalysisQuery::matrix(*db, {});
    const auto infoIndexed = CommAnalysisQuery::matrix(*CommLinkIndex::build(*db), {});
    for (const auto* m : { &info, &infoIndexed }) {
        EXPECT_TRUE(m->totalOpInfo);
        bool found = false;
        for (const auto& c : m->cells) {
            if (c.src == 7 && c.dst == 3) {
                found = true;
                EXPECT_NEAR(*c.bandwidthGbps(), infoSize / (infoTime / 1e6), 1e-9);
                EXPECT_NEAR(*c.bandwidthGbps(), 17.9606, 1e-3);
            }
        }
        EXPECT_TRUE(found);
    }
}

// Defect 5: an empty communication view says why.
TEST(CommLinkRanks, NoCommReasonNamesLevel0)
{
    auto level0 = openModel(fs::path(NPUSCOPE_TEST_DATA) / "torch_npu_2rank_level0");
    ASSERT_TRUE(level0);
    const std::string reason = CommAnalysisQuery::noCommReason(*level0);
    EXPECT_NE(reason.find("communication.json"), std::string::npos) << reason;
    EXPECT_NE(reason.find("Level0"), std::string::npos) << reason;
    auto level1 = openModel(fs::path(NPUSCOPE_TEST_DATA) / "torch_npu_2rank_level1");
    ASSERT_TRUE(level1);
    EXPECT_TRUE(CommAnalysisQuery::noCommReason(*level1).empty());
}

// Defect 2: two runs hold rank 0 (a WAL-mode db export and a text export). Reading the db with any SQLite client
// that is not immutable creates and removes -wal/-shm files next to it, which moves its folder's time; the kept
// folder must not change with that, or the CLI (run after such a read) and the GUI (run before) show different
// ranks and figures.
TEST(CommLinkRanks, DuplicateRankChoiceIgnoresFolderTime)
{
    const fs::path root = fs::temp_directory_path() / ("npuscope_commfixes_" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "full_db");
    for (const char* f : { "msprof_0.db", "msprof_0.db-wal", "msprof_0.db-shm" }) {
        const fs::path from = fs::path(NPUSCOPE_TEST_DATA) / "cann_msprof_db" / f;
        if (fs::exists(from))
            fs::copy_file(from, root / "full_db" / f);
    }
    fs::copy(fs::path(NPUSCOPE_TEST_DATA) / "torch_npu_2023_2rank" / "test_rank_0", root / "test_rank_0",
        fs::copy_options::recursive);
    // Everything written at one time, as in the shared samples (a copy): the folder times tie.
    const auto t = fs::file_time_type::clock::now() - std::chrono::hours(24);
    std::vector<fs::path> all;
    for (const auto& e : fs::recursive_directory_iterator(root))
        all.push_back(e.path());
    for (auto it = all.rbegin(); it != all.rend(); ++it)
        fs::last_write_time(*it, t);
    fs::last_write_time(root, t);
    // The text export is the newer run (its profiler_info a minute later than the db file).
    fs::last_write_time(root / "test_rank_0" / "profiler_info_0.json", t + std::chrono::minutes(1));

    auto keptRank0 = [&] {
        const auto plan = io::Detector::detect({ root.string() });
        for (const auto& r : plan.ranks) {
            if (r.rank == 0)
                return r.path;
        }
        return std::string();
    };
    const std::string before = keptRank0();
    EXPECT_EQ(fs::path(before).filename(), "test_rank_0");
    auto dbBefore = openModel(root);

    // What a non-immutable SQLite reader does to a WAL database's folder.
    {
        std::ofstream(root / "full_db" / "msprof_0.db-journal-probe") << "x";
    }
    fs::remove(root / "full_db" / "msprof_0.db-journal-probe");
    ASSERT_GT(fs::last_write_time(root / "full_db"), t);

    EXPECT_EQ(keptRank0(), before);
    auto dbAfter = openModel(root);
    ASSERT_TRUE(dbBefore && dbAfter);
    // The CLI (SQL) and GUI (in-memory index) figures agree, before and after the read.
    const auto cli = CommAnalysisQuery::durations(*dbAfter, {});
    const auto gui = CommAnalysisQuery::durations(*CommOpIndex::build(*dbBefore), {});
    ASSERT_EQ(cli.size(), gui.size());
    for (size_t i = 0; i < cli.size(); ++i) {
        EXPECT_EQ(cli[i].rank, gui[i].rank);
        EXPECT_EQ(cli[i].opCount, gui[i].opCount);
        EXPECT_EQ(cli[i].elapseNs, gui[i].elapseNs);
    }
    fs::remove_all(root);
}

// forEachLink sorts each (step, group, op) block itself: the order must be the view's ORDER BY step, group_hash,
// matrix_op, src, dst, rank_id (NULLs first), ties in file order, with the filters applied.
TEST(CommLinkRanks, LinkOrderIsTheViewsOrderByWithNullsFirstAndTiesInFileOrder)
{
    auto db = model::Database::createModel();
    model::ModelWriter writer(*db);
    writer.begin();
    const auto link = [&](int64_t rank, std::optional<int64_t> step, const char* op, std::optional<std::string> group,
                          std::optional<int64_t> src, std::optional<int64_t> dst, double size) {
        model::CommLinkRow r;
        r.rankId = rank;
        r.step = step;
        r.kind = "collective";
        r.matrixOp = op;
        r.groupHash = std::move(group);
        r.localSrc = src;
        r.localDst = dst;
        r.src = src;
        r.dst = dst;
        r.transport = "HCCS";
        r.sizeMb = size;
        r.opName = std::string(op) + "_name";
        writer.addCommLink(r);
    };
    // Written in an order unlike the sorted one; several ops per block, NULL steps, groups and ranks, ties.
    link(3, 2, "allreduce-top1", "g2", 1, 0, 1);
    link(1, 2, "allreduce-top1", "g2", std::nullopt, 0, 2);
    link(0, 1, "allreduce-top1", "g1", 0, 1, 3);
    link(2, 2, "allreduce-top1", "g2", 1, std::nullopt, 4);
    link(0, 2, "allreduce-top1", "g2", 1, 0, 5); // ties with the first on (src, dst), a lower rank
    link(3, 2, "allreduce-top1", "g2", 1, 0, 6); // a tie on (src, dst, rank): after the first, in file order
    link(1, std::nullopt, "broadcast-top1", std::nullopt, 0, 0, 7);
    link(1, 2, "allreduce-middle", "g2", 0, 1, 8);
    link(0, 2, "allreduce-top1", "g1", 1, 0, 9);
    link(5, 2, "allreduce-top1", "g2", 0, 0, 10);
    writer.commit();
    const auto expected = [&](const std::string& where) {
        std::vector<double> sizes;
        auto st = db->prepare("SELECT size_mb FROM comm_link WHERE (slot IS NULL OR slot <> 'total') AND matrix_op <> "
                              "'Total Op Info'"
            + where + " ORDER BY step, group_hash, matrix_op, src, dst, rank_id, link_seq");
        while (st.step())
            sizes.push_back(st.real(0));
        return sizes;
    };
    // The same links and order whether the visits run on the caller's thread or on a second one.
    const auto actual = [&](const query::CommFilter& filter) {
        std::vector<double> sizes, otherThread;
        query::CommQuery::forEachLink(*db, filter, [&](const query::LinkRef& l) {
            sizes.push_back(*l.sizeMb);
            EXPECT_EQ(l.opName, std::string(l.matrixOp) + "_name");
        });
        query::CommQuery::forEachLink(
            *db, filter, [&](const query::LinkRef& l) { otherThread.push_back(*l.sizeMb); },
            query::LinkVisit::OtherThread);
        EXPECT_EQ(otherThread, sizes);
        return sizes;
    };
    EXPECT_EQ(actual({}), expected(""));
    EXPECT_EQ(actual({}), (std::vector<double> { 7, 3, 9, 8, 2, 10, 4, 5, 1, 6 }));
    query::CommFilter step2;
    step2.step = 2;
    EXPECT_EQ(actual(step2), expected(" AND step = 2"));
    query::CommFilter group;
    group.groupHash = "g2";
    group.rank = 3;
    EXPECT_EQ(actual(group), expected(" AND group_hash = 'g2' AND rank_id = 3"));
    // A visit that throws on the second thread: the exception reaches the caller, the model stays usable.
    EXPECT_THROW(query::CommQuery::forEachLink(
                     *db, {}, [](const query::LinkRef&) { throw std::runtime_error("stop"); }, query::LinkVisit::OtherThread),
        std::runtime_error);
    EXPECT_EQ(actual({}), expected(""));
}

// SPDX-License-Identifier: Apache-2.0
// npuscope-cli import (load::RankImport): a folder of imported rank files opens to the same model as the raw cluster.
#include "TestSupport.h"

#include "npuscope/load/Loader.h"
#include "npuscope/load/RankImport.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

using namespace npuscope;
using npuscope::test::count;
using npuscope::test::openFolder;
using npuscope::test::rows;
using npuscope::test::runCli;
using npuscope::test::ScratchDir;

namespace fs = std::filesystem;

namespace {

std::string generate(const fs::path& out, int ranks, int pp, int tp)
{
    testgen::GeneratorOptions o;
    o.outDir = out.string();
    o.ranks = ranks;
    o.pp = pp;
    o.tp = tp;
    o.traceMb = 0;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return o.outDir;
}

// Path -> size and mtime of every file under dir, to show a command wrote nothing there.
std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> listing(const fs::path& dir)
{
    std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (e.is_regular_file())
            out[e.path().string()] = { e.file_size(), e.last_write_time() };
    }
    return out;
}

const char* kTimelineRows
    = "SELECT s.pid, s.tid, s.ts, s.dur, s.depth, n.value, c.value, s.args_offset, s.args_len FROM slice s "
      "JOIN string n ON n.id = s.name_id LEFT JOIN string c ON c.id = s.cat_id WHERE s.rank_id = 5 "
      "ORDER BY s.pid, s.tid, s.ts, s.depth, s.dur, n.value";

} // namespace

// The docs/cluster.md xargs -P form over a generated 64-rank cluster (256 ranks take about 30 s on a loaded 2-core
// machine, most of it generating and opening the raw cluster twice; the import itself is per rank, so 64 ranks in 4
// processes exercise the same concurrency): summary --json of the imported folder is the raw cluster's byte for byte,
// one rank's timeline is the same row for row, and no input folder was written.
TEST(RankImport, XargsImportOpensLikeTheRawCluster)
{
    ScratchDir dir;
    const auto raw = generate(dir.path() / "raw", 64, 2, 8);
    const auto before = listing(raw);
    const fs::path out = dir.path() / "imported";
    const std::string cmd = "find '" + raw
        + "' -mindepth 1 -maxdepth 1 -name '*_ascend_pt' -print0 | xargs -0 -P 4 -n 4 " + std::string(NPUSCOPE_CLI)
        + " import --quiet --out '" + out.string() + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(out)) {
        EXPECT_TRUE(io::importedRankOf(e.path().filename().string())) << e.path() << " (a temporary file left?)";
        ++files;
    }
    EXPECT_EQ(files, 64u);
    EXPECT_EQ(listing(raw), before);

    const auto direct = runCli("summary --json --no-cache '" + raw + "'");
    const auto imported = runCli("summary --json --no-cache '" + out.string() + "'");
    ASSERT_EQ(direct.status, 0);
    ASSERT_EQ(imported.status, 0);
    EXPECT_GT(direct.out.size(), 100000u);
    EXPECT_TRUE(direct.out == imported.out) << "summary JSON differs";
    // Joined on the cluster (import --join): one model file, the same summary.
    ASSERT_EQ(runCli("import --join '" + out.string() + "'").status, 0);
    ASSERT_TRUE(load::RankImport::joinedFor(io::Detector::detect({ out.string() })));
    const auto joined = runCli("summary --json --no-cache '" + out.string() + "'");
    EXPECT_TRUE(direct.out == joined.out) << "summary JSON of the joined model differs";

    // Rank 5's timeline: from its original trace_view.json, named by the imported file's rank_file rows.
    auto a = openFolder(raw);
    auto b = openFolder(out);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(count(*b, "SELECT count(*) FROM rank"), 64);
    EXPECT_EQ(count(*b, "SELECT count(*) FROM slice"), 0);
    ASSERT_TRUE(load::Loader::loadDeferred(*a, 5, io::kTimelineGroup));
    ASSERT_TRUE(load::Loader::loadDeferred(*b, 5, io::kTimelineGroup));
    const auto ra = rows(*a, kTimelineRows);
    EXPECT_GT(ra.size(), 100u);
    EXPECT_EQ(ra, rows(*b, kTimelineRows));
    EXPECT_EQ(count(*a, "SELECT count(*) FROM flow"), count(*b, "SELECT count(*) FROM flow"));
}

// Each file describes itself; another importer version is read with a warning, another schema is refused with an
// error naming the folder to import again; the rank stays listed either way.
TEST(RankImport, FilesDescribeThemselvesAndOtherVersionsAreReported)
{
    ScratchDir dir;
    const auto raw = generate(dir.path() / "raw", 4, 1, 4);
    const fs::path out = dir.path() / "imported";
    std::vector<std::string> dirs;
    for (const auto& e : fs::directory_iterator(raw)) {
        if (e.is_directory())
            dirs.push_back(e.path().string());
    }
    const auto result = load::RankImport::importRanks(dirs, out.string());
    ASSERT_TRUE(result.errors.empty());
    ASSERT_EQ(result.written.size(), 4u);

    ASSERT_EQ(load::RankImport::join(out.string()), "");
    EXPECT_TRUE(load::RankImport::joinedFor(io::Detector::detect({ out.string() })));

    auto file = model::Database::createModelFromFile((out / "rank_2.nprank").string());
    EXPECT_EQ(npuscope::test::text(*file, "SELECT value FROM npuscope_import WHERE key = 'rank'"), "2");
    EXPECT_EQ(npuscope::test::text(*file, "SELECT value FROM npuscope_import WHERE key = 'schema'"),
        load::ParseCache::schemaHash());
    EXPECT_EQ(count(*file,
                  "SELECT count(*) FROM npuscope_import_input WHERE kind = 'trace_view' AND size > 0 "
                  "AND mtime_ns > 0 AND path LIKE '%rank2_%trace_view.json'"),
        1);
    file->exec("UPDATE npuscope_import SET value = '1' WHERE key = 'importer_version'");
    file->saveTo((out / ".edit").string());
    fs::rename(out / ".edit", out / "rank_2.nprank");
    file = model::Database::createModelFromFile((out / "rank_3.nprank").string());
    file->exec("UPDATE npuscope_import SET value = 'other' WHERE key = 'schema'");
    file->saveTo((out / ".edit").string());
    fs::rename(out / ".edit", out / "rank_3.nprank");

    // The joined model no longer matches the rank files: they are merged again, and their problems reported.
    EXPECT_FALSE(load::RankImport::joinedFor(io::Detector::detect({ out.string() })));
    auto db = openFolder(out);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT count(*) FROM rank"), 4);
    EXPECT_EQ(count(*db,
                  "SELECT count(*) FROM parse_issue WHERE severity = 'warning' AND rank_id = 2 AND message "
                  "LIKE 'made by another npuscope version (import format 1, schema %, importer version 1;%'"),
        1);
    EXPECT_EQ(count(*db,
                  "SELECT count(*) FROM parse_issue WHERE severity = 'error' AND rank_id = 3 AND message "
                  "LIKE '%schema other%run npuscope-cli import on %rank3_% again%'"),
        1);
    EXPECT_GT(count(*db, "SELECT count(*) FROM step_trace WHERE rank_id = 2"), 0);
    EXPECT_EQ(count(*db, "SELECT count(*) FROM step_trace WHERE rank_id = 3"), 0);

    // An output folder inside an input is refused before anything is written.
    const auto refused = load::RankImport::importRanks({ dirs[0] }, dirs[0] + "/imported");
    ASSERT_EQ(refused.errors.size(), 1u);
    EXPECT_NE(refused.errors[0].find("refusing to write into an input folder"), std::string::npos);
    EXPECT_FALSE(fs::exists(dirs[0] + "/imported"));
}

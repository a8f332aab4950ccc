// SPDX-License-Identifier: Apache-2.0
// npuscope-cli import (load::RankImport): a folder of imported rank files opens to the same model as the raw cluster.
#include "TestSupport.h"

#include "npuscope/load/Loader.h"
#include "npuscope/load/RankImport.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace npuscope;
using npuscope::test::count;
using npuscope::test::openFolder;
using npuscope::test::rows;
using npuscope::test::runCli;
using npuscope::test::ScratchDir;

namespace fs = std::filesystem;

namespace {

std::string generate(const fs::path& out, int ranks, int pp, int tp, int steps = 3, bool flops = false)
{
    testgen::GeneratorOptions o;
    o.outDir = out.string();
    o.ranks = ranks;
    o.pp = pp;
    o.tp = tp;
    o.traceMb = 0;
    o.steps = steps;
    o.flops = flops;
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

// The docs/cluster.md xargs -P form over a generated 256-rank cluster (one profiled step and tiny traces keep it
// quick): summary --json of the imported folder is the raw cluster's byte for byte, one rank's timeline is the same
// row for row, and no input folder was written.
TEST(RankImport, XargsImportOpensLikeTheRawCluster)
{
    ScratchDir dir;
    const auto raw = generate(dir.path() / "raw", 256, 4, 8, 1);
    const auto before = listing(raw);
    const fs::path out = dir.path() / "imported";
    const std::string cmd = "find '" + raw
        + "' -mindepth 1 -maxdepth 1 -name '*_ascend_pt' -print0 | xargs -0 -P 4 -n 16 " + std::string(NPUSCOPE_CLI)
        + " import --quiet --out '" + out.string() + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(out)) {
        const std::string name = e.path().filename().string();
        if (name.ends_with(".kernel-totals.npgroup"))
            continue; // written for every rank with kernel files
        if (name == load::RankImport::kJoinedName)
            continue; // a process that found only its own rank files there joined them (stale now: not used)
        EXPECT_TRUE(io::importedRankOf(name)) << e.path() << " (a temporary file left?)";
        ++files;
    }
    EXPECT_EQ(files, 256u);
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
    EXPECT_EQ(count(*b, "SELECT count(*) FROM rank"), 256);
    EXPECT_EQ(count(*b, "SELECT count(*) FROM slice"), 0);
    ASSERT_TRUE(load::Loader::loadDeferred(*a, 5, io::kTimelineGroup));
    ASSERT_TRUE(load::Loader::loadDeferred(*b, 5, io::kTimelineGroup));
    const auto ra = rows(*a, kTimelineRows);
    EXPECT_GT(ra.size(), 100u);
    EXPECT_EQ(ra, rows(*b, kTimelineRows));
    EXPECT_EQ(count(*a, "SELECT count(*) FROM flow"), count(*b, "SELECT count(*) FROM flow"));
}

// One import over every rank folder joins the whole folder (the first open reads one file, the same summary);
// --no-join, or rank files the import did not write, leave it out.
TEST(RankImport, OneImportOfEveryRankJoinsTheFolder)
{
    ScratchDir dir;
    const auto raw = generate(dir.path() / "raw", 16, 2, 4, 1);
    std::string dirs;
    std::string first;
    for (const auto& e : fs::directory_iterator(raw)) {
        if (e.is_directory()) {
            dirs += " '" + e.path().string() + "'";
            first = first.empty() ? e.path().string() : first;
        }
    }
    const fs::path out = dir.path() / "imported";
    const auto import = runCli("import" + dirs + " --out '" + out.string() + "'");
    ASSERT_EQ(import.status, 0);
    EXPECT_NE(import.out.find(std::string("joined ") + out.string()), std::string::npos) << import.out;
    ASSERT_TRUE(fs::is_regular_file(out / load::RankImport::kJoinedName));
    ASSERT_TRUE(load::RankImport::joinedFor(io::Detector::detect({ out.string() })));
    const auto direct = runCli("summary --json --no-cache '" + raw + "'");
    const auto joined = runCli("summary --json --no-cache '" + out.string() + "'");
    ASSERT_EQ(direct.status, 0);
    EXPECT_TRUE(direct.out == joined.out) << "summary JSON of the joined folder differs";

    // One byte of the joined model changed (past the header): its seal no longer matches, so the rank files are
    // merged instead (same summary rows) and a warning says why.
    {
        const fs::path joinedPath = out / load::RankImport::kJoinedName;
        const auto size = fs::file_size(joinedPath);
        std::fstream f(joinedPath, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(static_cast<std::streamoff>(size / 2));
        char c = 0;
        f.read(&c, 1);
        c = static_cast<char>(c ^ 0x5a);
        f.seekp(static_cast<std::streamoff>(size / 2));
        f.write(&c, 1);
    }
    ASSERT_TRUE(load::RankImport::joinedFor(io::Detector::detect({ out.string() })));
    auto damaged = openFolder(out);
    ASSERT_TRUE(damaged);
    EXPECT_EQ(count(*damaged, "SELECT count(*) FROM rank"), 16);
    EXPECT_EQ(count(*damaged,
                  "SELECT count(*) FROM parse_issue WHERE severity = 'warning' AND message LIKE 'joined model %"
                  "unusable (its checksum differs%merged the rank files instead'"),
        1);
    ASSERT_EQ(runCli("import --join '" + out.string() + "'").status, 0);
    EXPECT_TRUE(direct.out == runCli("summary --json --no-cache '" + out.string() + "'").out);

    // Importing one rank again into the folder: the others are not this import's, so no join (the old one no longer
    // matches and is not used).
    ASSERT_EQ(runCli("import --quiet '" + first + "' --out '" + out.string() + "'").status, 0);
    EXPECT_FALSE(load::RankImport::joinedFor(io::Detector::detect({ out.string() })));
    EXPECT_TRUE(direct.out == runCli("summary --json --no-cache '" + out.string() + "'").out);

    const fs::path plain = dir.path() / "plain";
    ASSERT_EQ(runCli("import --quiet --no-join" + dirs + " --out '" + plain.string() + "'").status, 0);
    EXPECT_FALSE(fs::exists(plain / load::RankImport::kJoinedName));
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
                  "LIKE 'made by another npuscope version (import format 2, schema %, importer version 1;%'"),
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

// Group files (import --keep all --ranks 5): rank 5's timeline, kernel and memory rows travel with the rank files, so
// its views work where the original files are not (here: moved away after the import); every rank's kernel totals
// (FLOPs heatmap) too. A rank without them reads its original files, and says they are missing.
TEST(RankImport, GroupFilesCarryTheDeferredRows)
{
    ScratchDir dir;
    const auto raw = generate(dir.path() / "raw", 8, 1, 8, 2, true);
    const fs::path out = dir.path() / "imported";
    std::vector<std::string> dirs;
    for (const auto& e : fs::directory_iterator(raw)) {
        if (e.is_directory())
            dirs.push_back(e.path().string());
    }
    load::RankImport::Options options;
    options.groups = io::kAllGroups;
    options.groupRanks = std::set<int64_t> { 5 };
    const auto result = load::RankImport::importRanks(dirs, out.string(), {}, nullptr, options);
    ASSERT_TRUE(result.errors.empty());
    for (const char* scope : { "timeline", "kernels", "memory", "kernel-totals" })
        EXPECT_TRUE(fs::exists(out / load::RankImport::groupFileName(5, scope))) << scope;
    EXPECT_TRUE(fs::exists(out / load::RankImport::groupFileName(3, "kernel-totals")));
    EXPECT_FALSE(fs::exists(out / load::RankImport::groupFileName(3, "timeline")));

    const char* kKernelRows = "SELECT k.step, k.ts, k.dur, n.value, t.value, k.flops FROM kernel k JOIN string n ON "
                              "n.id = k.name_id LEFT JOIN string t ON t.id = k.type_id WHERE k.rank_id = 5 "
                              "ORDER BY k.ts, n.value, k.dur";
    const char* kMemoryRows = "SELECT component, ts, allocated_mb, reserved_mb FROM memory_record WHERE rank_id = 5 "
                              "ORDER BY ts, component";
    const char* kOperatorMemory
        = "SELECT name, size_kb, alloc_ts, release_ts FROM operator_memory WHERE rank_id = 5 ORDER BY alloc_ts, name";
    const char* kTotals
        = "SELECT step, kernels, flops_kernels, flops, flops_dur_ns FROM kernel_total WHERE rank_id = 3 "
          "ORDER BY step";
    const char* kFiles = "SELECT kind, path, status FROM rank_file WHERE rank_id = 5 ORDER BY rowid";
    std::vector<std::string> timeline, kernels, memory, operatorMemory, totals, files, issues;
    {
        auto a = openFolder(raw);
        ASSERT_TRUE(a);
        ASSERT_TRUE(load::Loader::loadDeferred(*a, 5, io::kAllGroups));
        ASSERT_TRUE(load::Loader::loadKernelTotals(*a, 3));
        timeline = rows(*a, kTimelineRows);
        kernels = rows(*a, kKernelRows);
        memory = rows(*a, kMemoryRows);
        operatorMemory = rows(*a, kOperatorMemory);
        totals = rows(*a, kTotals);
        files = rows(*a, kFiles);
        issues = rows(*a, "SELECT severity, file, line, message FROM parse_issue WHERE rank_id = 5 ORDER BY id");
    }
    EXPECT_GT(timeline.size(), 100u);
    EXPECT_GT(kernels.size(), 20u);
    EXPECT_FALSE(memory.empty());
    EXPECT_FALSE(totals.empty());

    fs::rename(raw, dir.path() / "moved"); // the original files are not where the rank files say any more
    auto b = openFolder(out);
    ASSERT_TRUE(b);
    ASSERT_TRUE(load::Loader::loadDeferred(*b, 5, io::kAllGroups));
    ASSERT_TRUE(load::Loader::loadKernelTotals(*b, 3));
    EXPECT_EQ(rows(*b, kTimelineRows), timeline);
    EXPECT_EQ(rows(*b, kKernelRows), kernels);
    EXPECT_EQ(rows(*b, kMemoryRows), memory);
    EXPECT_EQ(rows(*b, kOperatorMemory), operatorMemory);
    EXPECT_EQ(rows(*b, kTotals), totals);
    EXPECT_EQ(rows(*b, kFiles), files);
    EXPECT_EQ(rows(*b, "SELECT severity, file, line, message FROM parse_issue WHERE rank_id = 5 ORDER BY id"), issues);
    // Rank 6 carries no timeline: its original trace_view.json is read, and it is gone.
    load::Loader::loadDeferred(*b, 6, io::kTimelineGroup);
    EXPECT_EQ(count(*b, "SELECT count(*) FROM slice WHERE rank_id = 6"), 0);
    EXPECT_GT(count(*b, "SELECT count(*) FROM parse_issue WHERE rank_id = 6 AND file LIKE '%trace_view.json'"), 0);
    // The Marey view's kernels of a step: rank 5's from its kernels group file.
    auto c = openFolder(out);
    ASSERT_TRUE(c);
    EXPECT_TRUE(load::Loader::loadStepKernels(*c, { 5 }, std::nullopt));
    EXPECT_EQ(rows(*c, kKernelRows), kernels);

    // Imported again without groups: the group files of the earlier import go, the kernel totals stay.
    fs::rename(dir.path() / "moved", raw);
    const auto again = load::RankImport::importRanks(dirs, out.string());
    ASSERT_TRUE(again.errors.empty());
    EXPECT_FALSE(fs::exists(out / load::RankImport::groupFileName(5, "timeline")));
    EXPECT_TRUE(fs::exists(out / load::RankImport::groupFileName(5, "kernel-totals")));
}

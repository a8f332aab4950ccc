// SPDX-License-Identifier: Apache-2.0
// npuscope-cli slim (load::ProfileSlim): the copy holds every file the chosen views read.
#include "TestSupport.h"

#include "npuscope/load/Loader.h"
#include "npuscope/load/ProfileSlim.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>

using namespace npuscope;
using npuscope::test::count;
using npuscope::test::dataDir;
using npuscope::test::openFolder;
using npuscope::test::rows;
using npuscope::test::runCli;
using npuscope::test::ScratchDir;

namespace fs = std::filesystem;

namespace {

std::map<std::string, uintmax_t> sizes(const fs::path& dir)
{
    std::map<std::string, uintmax_t> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (e.is_regular_file())
            out[e.path().lexically_relative(dir).string()] = e.file_size();
    }
    return out;
}

// summary --json of path with every occurrence of `from` replaced by `to` (the copy's root).
std::string summaryOf(const fs::path& path, const std::string& from = {}, const std::string& to = {})
{
    const auto r = runCli("summary --json --no-cache '" + path.string() + "'");
    EXPECT_EQ(r.status, 0) << path;
    std::string text = r.out;
    if (!from.empty()) {
        for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
    }
    return text;
}

// A summary without the detection warnings about folders a load ignores (older runs of a rank, a second cluster
// summary): slim copies only the folders a load reads, so its copy has none to warn about.
nlohmann::json withoutIgnoredFolders(nlohmann::json doc)
{
    auto& issues = doc["issues"];
    issues.erase(std::remove_if(issues.begin(), issues.end(),
                     [](const nlohmann::json& i) {
                         const std::string m = i["message"].get<std::string>();
                         return m.find("kept the newest by") != std::string::npos
                             || m.find("the input mixes several profiling runs") != std::string::npos
                             || m.find("this one was not imported") != std::string::npos;
                     }),
        issues.end());
    return doc;
}

const char* kTimelineRows
    = "SELECT s.pid, s.tid, s.ts, s.dur, s.depth, n.value FROM slice s JOIN string n ON n.id = s.name_id "
      "WHERE s.rank_id = 2 ORDER BY s.pid, s.tid, s.ts, s.depth, s.dur, n.value";

} // namespace

// --keep summary on a generated cluster: only the per-rank timeline, kernel and operator-memory files are left out;
// the summary is the original's except for the rank file lists; SRC is untouched.
TEST(ProfileSlim, SummaryKeepsTheClusterViews)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "src").string();
    o.ranks = 8;
    o.tp = 4;
    o.traceMb = 0.2;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    const auto before = sizes(o.outDir);
    const fs::path dst = dir.path() / "slim";
    const auto r = runCli("slim '" + o.outDir + "' '" + dst.string() + "'");
    ASSERT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("before: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("% of the bytes)"), std::string::npos) << r.out;
    EXPECT_EQ(sizes(o.outDir), before);

    const auto after = sizes(dst);
    for (const auto& [rel, size] : after) {
        ASSERT_TRUE(before.count(rel)) << rel;
        EXPECT_EQ(before.at(rel), size) << rel;
    }
    size_t kept = 0;
    for (const auto& [rel, size] : before) {
        const std::string name = fs::path(rel).filename().string();
        const bool deferred
            = name == "trace_view.json" || name == "kernel_details.csv" || name == "operator_memory.csv";
        if (name == ".npuscope-generated")
            continue;
        EXPECT_EQ(after.count(rel), deferred ? 0u : 1u) << rel;
        kept += deferred ? 0 : 1;
    }
    EXPECT_EQ(after.size(), kept);
    EXPECT_EQ(kept, 8u * 8u); // info, metadata, communication, matrix, memory_record, module mem, op stats, steps

    auto a = nlohmann::json::parse(summaryOf(o.outDir, o.outDir, dst.string()));
    auto b = nlohmann::json::parse(summaryOf(dst));
    ASSERT_EQ(a["ranks"].size(), 8u);
    for (auto* doc : { &a, &b }) {
        for (auto& rank : (*doc)["ranks"]) {
            auto& files = rank["files"];
            files.erase(std::remove_if(files.begin(), files.end(),
                            [](const nlohmann::json& f) {
                                return f == "trace_view.json" || f == "kernel_details.csv"
                                    || f == "operator_memory.csv";
                            }),
                files.end());
        }
    }
    EXPECT_EQ(a, b) << nlohmann::json::diff(a, b).dump().substr(0, 600);

    // DST inside SRC and SRC inside DST are refused; nothing is written.
    EXPECT_EQ(runCli("slim '" + o.outDir + "' '" + o.outDir + "/inner'").status, 1);
    EXPECT_FALSE(fs::exists(o.outDir + "/inner"));
    EXPECT_EQ(runCli("slim '" + o.outDir + "' '" + dir.path().string() + "'").status, 1);
    EXPECT_EQ(sizes(o.outDir), before);
}

// --keep timeline --ranks 2: rank 2's trace only, and its timeline is the original's row for row.
TEST(ProfileSlim, TimelineOfTheListedRanks)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "src").string();
    o.ranks = 4;
    o.tp = 4;
    o.traceMb = 0.2;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    load::ProfileSlim::Options s;
    s.source = o.outDir;
    s.destination = (dir.path() / "slim").string();
    s.keep = load::ProfileSlim::Keep::Timeline;
    s.ranks = std::set<int64_t> { 2 };
    const auto result = load::ProfileSlim::run(s);
    ASSERT_TRUE(result.error.empty()) << result.error;
    EXPECT_LT(result.copiedBytes, result.sourceBytes);
    size_t traces = 0;
    for (const auto& [rel, size] : sizes(s.destination)) {
        if (fs::path(rel).filename() == "trace_view.json") {
            ++traces;
            EXPECT_EQ(rel.rfind("rank2_", 0), 0u) << rel;
        }
        EXPECT_EQ(fs::path(rel).filename() == "kernel_details.csv", false) << rel;
    }
    EXPECT_EQ(traces, 1u);
    auto a = openFolder(o.outDir);
    auto b = openFolder(s.destination);
    ASSERT_TRUE(a && b);
    ASSERT_TRUE(load::Loader::loadDeferred(*a, 2, io::kTimelineGroup));
    ASSERT_TRUE(load::Loader::loadDeferred(*b, 2, io::kTimelineGroup));
    const auto ra = rows(*a, kTimelineRows);
    EXPECT_GT(ra.size(), 100u);
    EXPECT_EQ(ra, rows(*b, kTimelineRows));
}

// --keep all over every real sample in tests/data: the copy's summary is the original's, paths aside, so no file a
// load reads (importer companions included) is left out.
TEST(ProfileSlim, AllKeepsEverySampleSummary)
{
    ScratchDir dir;
    int checked = 0;
    for (const auto& e : fs::directory_iterator(dataDir())) {
        if (!e.is_directory())
            continue;
        const std::string name = e.path().filename().string();
        load::ProfileSlim::Options s;
        s.source = e.path().string();
        s.destination = (dir.path() / name).string();
        s.keep = load::ProfileSlim::Keep::All;
        const auto result = load::ProfileSlim::run(s);
        if (!result.error.empty())
            continue; // nothing npuscope reads (e.g. a fuzz corpus)
        const std::string src = fs::weakly_canonical(e.path()).string();
        auto a = withoutIgnoredFolders(nlohmann::json::parse(summaryOf(e.path(), src, s.destination)));
        auto b = nlohmann::json::parse(summaryOf(s.destination));
        EXPECT_EQ(a, b) << name << ": first difference " << nlohmann::json::diff(a, b).dump().substr(0, 600);
        ++checked;
    }
    EXPECT_GT(checked, 10);
}

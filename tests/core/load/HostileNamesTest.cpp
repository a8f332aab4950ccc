// SPDX-License-Identifier: Apache-2.0
// Input paths and contents never reach a shell or SQL unescaped; the parse cache is private to the user
// (docs/robustness.md). The MindInsight host-address test lives in MindSporeFormatsTest (MindInsightJob.*).
#include "TestSupport.h"

#include "npuscope/load/ParseCache.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

using namespace npuscope;
using namespace npuscope::test;
namespace fs = std::filesystem;

namespace {

// text as one word for /bin/sh: single quotes, each ' written as '\''.
std::string shellQuoted(const std::string& text)
{
    std::string out = "'";
    for (const char c : text)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

unsigned modeOf(const fs::path& p)
{
    struct stat st { };
    return ::stat(p.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0;
}

} // namespace

TEST(HostileNames, QuotesSemicolonsSubstitutionsAndNewlinesInPaths)
{
    ScratchDir scratch;
    // Everything a shell or a SQL string literal would interpret, and a newline.
    const std::string name = "we\"ird' name;$(touch pwned-sub);`touch pwned-tick`\nsecond line'); DROP TABLE rank;--";
    const fs::path job = scratch.path() / name;
    fs::copy(dataDir() / "torch_npu_2023_2rank", job, fs::copy_options::recursive);
    // The rank folder names carry them too (the path of every rank row and issue).
    fs::rename(job / "test_rank_1", job / "rank;1'$(id)");

    auto db = openFolder(job, true, 1);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank"), 2);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM kernel WHERE rank_id = 1"), 0);
    // Stored as written: the paths come back byte for byte.
    const auto paths = rows(*db, "SELECT path FROM rank ORDER BY rank_id");
    ASSERT_EQ(paths.size(), 2u);
    EXPECT_EQ(paths[0], (job / "test_rank_0").string());
    EXPECT_EQ(paths[1], (job / "rank;1'$(id)").string());

    // Through the CLI (the path is one shell word; npuscope-cli itself runs no shell).
    const auto run = runCli("summary --json --no-cache " + shellQuoted(job.string()));
    EXPECT_EQ(run.status, 0);
    EXPECT_NE(run.out.find("rank;1'$(id)"), std::string::npos);
    EXPECT_NE(run.out.find("\\nsecond line"), std::string::npos); // the newline escaped in JSON
    for (const char* marker : { "pwned-sub", "pwned-tick" }) {
        EXPECT_FALSE(fs::exists(scratch.path() / marker)) << marker;
        EXPECT_FALSE(fs::exists(fs::current_path() / marker)) << marker;
    }
}

TEST(HostileNames, ParseCacheIsPrivateToTheUser)
{
    ScratchDir scratch;
    load::ParseCache::Options options;
    options.dir = (scratch.path() / "xdg" / "npuscope" / "parse").string();
    const load::ParseCache cache(options);
    load::LoadOptions load;
    load.cache = &cache;
    load.loadTimelines = false;
    ASSERT_TRUE(load::Loader::load(io::Detector::detect({ (dataDir() / "torch_npu_2023_2rank").string() }), load));
    EXPECT_EQ(modeOf(options.dir), 0700u);
    int entries = 0;
    for (const auto& e : fs::directory_iterator(options.dir)) {
        ++entries;
        EXPECT_EQ(modeOf(e.path()), 0600u) << e.path();
    }
    EXPECT_EQ(entries, 1);
}

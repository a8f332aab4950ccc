// SPDX-License-Identifier: Apache-2.0
// Import problems in the translatable form (parse_issue.message_template, npuscope::TrText): the English rendering of
// every template is the stored message, exactly the text the importers wrote before, and the template survives the
// merge of the loader's worker models and a parse-cache round trip.
#include "TestSupport.h"

#include "npuscope/core/TrText.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"

#include <gtest/gtest.h>

#include <fstream>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::dump;
using npuscope::test::ScratchDir;

namespace {

constexpr const char* kIssues = "SELECT severity, rank_id, file, line, message, message_template FROM parse_issue "
                                "ORDER BY rank_id, file, line, message";

// A copy of the two-rank Level1 sample with damaged files: rank 1's step_trace_time.csv gets a short row and ends
// inside a quoted field, its kernel_details.csv a malformed number, rank 0's communication.json is cut short.
// Returns the number of fields of rank 1's step_trace_time.csv header.
size_t writeBrokenCopy(const fs::path& to)
{
    fs::copy(dataDir() / "torch_npu_2rank_level1", to, fs::copy_options::recursive);
    const fs::path out1 = to / "rank1_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
    const std::string steps = test::readFile(out1 / "step_trace_time.csv");
    const std::string header = steps.substr(0, steps.find('\n'));
    const size_t fields = static_cast<size_t>(std::count(header.begin(), header.end(), ',')) + 1;
    std::ofstream(out1 / "step_trace_time.csv", std::ios::app) << "1,2,3\n9,\"unterminated\n";
    const fs::path comm0 = to / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "communication.json";
    fs::resize_file(comm0, fs::file_size(comm0) / 2);
    return fields;
}

} // namespace

TEST(ParseIssueText, EnglishRenderingIsTheStoredMessage)
{
    ScratchDir dir;
    const size_t fields = writeBrokenCopy(dir.path() / "run");
    auto db = test::openFolder(dir.path() / "run", true, 1);
    ASSERT_TRUE(db);
    // The messages as the importers wrote them before they became templates, byte for byte.
    const std::string shortRow = "row has 3 fields, header has " + std::to_string(fields);
    EXPECT_EQ(test::count(*db, "SELECT COUNT(*) FROM parse_issue WHERE message = '" + shortRow + "'"), 1);
    EXPECT_EQ(test::count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE message = "
                  "'file ends inside a quoted field (truncated?), last record skipped'"),
        1);
    int64_t templated = 0;
    auto st = db->prepare("SELECT message, message_template FROM parse_issue");
    while (st.step()) {
        const std::string message = st.text(0);
        const auto json = st.optText(1);
        if (!json)
            continue;
        ++templated;
        const auto text = TrText::fromJson(*json);
        ASSERT_TRUE(text) << *json;
        EXPECT_EQ(text->english(), message) << *json;
        EXPECT_EQ(text->context, "ParseIssue") << *json;
    }
    // Every problem of this load is a template (none was left verbatim).
    EXPECT_GE(templated, 3);
    EXPECT_EQ(templated, test::count(*db, "SELECT COUNT(*) FROM parse_issue"));
    // The template of the short row keeps its numbers as arguments.
    const auto json = test::text(*db, "SELECT message_template FROM parse_issue WHERE message = '" + shortRow + "'");
    const auto text = TrText::fromJson(json);
    ASSERT_TRUE(text);
    EXPECT_EQ(text->source, "row has %1 fields, header has %2");
    ASSERT_EQ(text->args.size(), 2u);
    EXPECT_EQ(text->args[0].source, "3");
}

TEST(ParseIssueText, DetectionIssuesAreTemplates)
{
    ScratchDir dir;
    const std::string missing = (dir.path() / "no-such-folder").string();
    const auto plan = io::Detector::detect({ missing });
    ASSERT_FALSE(plan.issues.empty());
    const auto& issue = plan.issues.front();
    EXPECT_EQ(issue.message, "path does not exist");
    EXPECT_EQ(issue.text.english(), issue.message);
    EXPECT_EQ(issue.text.context, "ParseIssue");
    EXPECT_EQ(issue.text.source, "path does not exist");
}

TEST(ParseIssueText, WorkerMergeKeepsTheTemplate)
{
    ScratchDir dir;
    writeBrokenCopy(dir.path() / "run");
    auto one = test::openFolder(dir.path() / "run", false, 1);
    auto two = test::openFolder(dir.path() / "run", false, 2);
    ASSERT_TRUE(one && two);
    // With two threads rank 1 is parsed into a worker model the loader merges into the main one.
    EXPECT_GE(
        test::count(*two, "SELECT COUNT(*) FROM parse_issue WHERE rank_id = 1 AND message_template IS NOT NULL"), 2);
    EXPECT_GE(
        test::count(*two, "SELECT COUNT(*) FROM parse_issue WHERE rank_id = 0 AND message_template IS NOT NULL"), 1);
    EXPECT_EQ(dump(*one, kIssues), dump(*two, kIssues));
}

TEST(ParseIssueText, ParseCacheKeepsTheTemplate)
{
    ScratchDir dir;
    writeBrokenCopy(dir.path() / "run");
    ScratchDir cacheDir;
    load::ParseCache cache({ cacheDir.path().string(), 1ull << 30 });
    load::LoadOptions options;
    options.cache = &cache;
    const auto plan = io::Detector::detect({ (dir.path() / "run").string() });
    auto first = load::Loader::load(plan, options);
    ASSERT_TRUE(first);
    load::LoadReport report;
    options.report = &report;
    auto second = load::Loader::load(plan, options);
    ASSERT_TRUE(second);
    EXPECT_TRUE(report.parsedFiles.empty());
    EXPECT_EQ(report.cacheHits, 1);
    EXPECT_GE(test::count(*second, "SELECT COUNT(*) FROM parse_issue WHERE message_template IS NOT NULL"), 3);
    EXPECT_EQ(dump(*first, kIssues), dump(*second, kIssues));
}

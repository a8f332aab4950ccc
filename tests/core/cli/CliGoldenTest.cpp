// SPDX-License-Identifier: Apache-2.0
// Golden files of npuscope-cli: every report command of tests/golden/cli/COMMANDS on every real sample in tests/data,
// compared with what the command prints now (stdout, the data folder's path written <data>, then "# exit N"). They
// catch any change of a figure, a contract or a message; scripts/update-cli-golden.sh regenerates them after an
// intended change, and the commit's diff shows what changed. The figures in them are checked against independent
// readings elsewhere: msprof-analyze's own outputs (QueryNumbersTest, ClusterAnalysisTest, ClusterOutput*Test,
// CommLinkOracleTest's SQL oracle), the samples' own files (CsvImportersTest, TextVsDbTest) and hand-computed values
// (AdviceRuleValuesTest, AdviceDerivedValuesTest, MemoryQueryTest); the golden files only hold them in place.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace npuscope::test;

namespace {

const fs::path kGolden = dataDir().parent_path() / "golden" / "cli";

struct Case {
    std::string sample; // folder name in tests/data
    std::string file; // golden file name
    std::string args; // npuscope-cli arguments before the sample's path
};

// How gtest and ctest name a case ("torch_npu_2rank_level1: summary --no-cache"), not a dump of its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.sample << ": " << c.args; }

std::vector<Case> cases()
{
    std::vector<std::pair<std::string, std::string>> commands;
    std::ifstream in(kGolden / "COMMANDS");
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#')
            continue;
        const auto bar = line.find('|');
        if (bar != std::string::npos)
            commands.emplace_back(line.substr(0, bar), line.substr(bar + 1));
    }
    std::vector<std::string> samples;
    for (const auto& entry : fs::directory_iterator(dataDir())) {
        if (entry.is_directory() && entry.path().filename() != "fuzz-regressions")
            samples.push_back(entry.path().filename().string());
    }
    std::sort(samples.begin(), samples.end());
    std::vector<Case> out;
    for (const auto& s : samples) {
        for (const auto& [file, args] : commands)
            out.push_back({ s, file, args });
    }
    return out;
}

std::string replaceAll(std::string text, const std::string& from, const std::string& to)
{
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// The first line where a and b differ (1-based) with both lines, for the failure message.
std::string firstDifference(const std::string& a, const std::string& b)
{
    std::istringstream sa(a), sb(b);
    std::string la, lb;
    for (int line = 1;; ++line) {
        const bool ha = static_cast<bool>(std::getline(sa, la));
        const bool hb = static_cast<bool>(std::getline(sb, lb));
        if (!ha && !hb)
            return "no difference";
        if (!ha || !hb || la != lb)
            return "line " + std::to_string(line) + ":\n  golden: " + (ha ? la : "<end>") + "\n  now:    "
                + (hb ? lb : "<end>");
    }
}

// A copy of a sample whose files and folders all carry one fixed time. The detector keeps the newest of several
// folders of one rank by file time when nothing better tells them apart (mindspore_flat_profiler has rank 0 in two
// folders); a fresh clone writes its files in no fixed order, so the golden output must not depend on checkout times.
// With equal times the first folder in path order is kept. scripts/update-cli-golden.sh does the same (touch -d).
void copyWithFixedTimes(const fs::path& from, const fs::path& to)
{
    fs::copy(from, to, fs::copy_options::recursive);
    const auto fixed = fs::file_time_type::clock::now() - std::chrono::hours(24 * 365);
    // Setting a time writes no folder entry, so the order does not matter.
    fs::last_write_time(to, fixed);
    for (const auto& e : fs::recursive_directory_iterator(to))
        fs::last_write_time(e.path(), fixed);
}

class CliGolden : public testing::TestWithParam<Case> { };

} // namespace

TEST_P(CliGolden, OutputIsUnchanged)
{
    const Case& c = GetParam();
    const fs::path golden = kGolden / c.sample / c.file;
    ASSERT_TRUE(fs::exists(golden)) << golden << " is missing: run scripts/update-cli-golden.sh";
    // The parse cache of the run goes to a scratch folder (comm and collectives use the cache without --no-cache).
    ScratchDir cache, data;
    copyWithFixedTimes(dataDir() / c.sample, data.path() / c.sample);
    const char* previous = std::getenv("XDG_CACHE_HOME");
    const std::string saved = previous ? previous : "";
    setenv("XDG_CACHE_HOME", cache.path().c_str(), 1);
    const auto run = runCli(c.args + " '" + (data.path() / c.sample).string() + "'");
    if (previous)
        setenv("XDG_CACHE_HOME", saved.c_str(), 1);
    else
        unsetenv("XDG_CACHE_HOME");
    const std::string now
        = replaceAll(run.out, data.path().string(), "<data>") + "# exit " + std::to_string(run.status) + "\n";
    const std::string expected = readFile(golden);
    EXPECT_TRUE(now == expected) << "npuscope-cli " << c.args << " <data>/" << c.sample << " differs from " << golden
                                 << " at " << firstDifference(expected, now)
                                 << "\nIf the change is intended: scripts/update-cli-golden.sh, and say why in the commit.";
}

// Every sample has its golden files and no golden folder is left from a sample that is gone.
TEST(CliGoldenFiles, CoverEverySampleAndNothingElse)
{
    std::set<std::string> samples, golden;
    for (const auto& c : cases())
        samples.insert(c.sample);
    for (const auto& entry : fs::directory_iterator(kGolden)) {
        if (entry.is_directory())
            golden.insert(entry.path().filename().string());
    }
    EXPECT_EQ(samples, golden);
    EXPECT_GE(cases().size(), samples.size() * 8);
}

INSTANTIATE_TEST_SUITE_P(Samples, CliGolden, testing::ValuesIn(cases()), [](const testing::TestParamInfo<Case>& param) {
    std::string name = param.param.sample + "_" + param.param.file;
    for (char& ch : name) {
        if (!std::isalnum(static_cast<unsigned char>(ch)))
            ch = '_';
    }
    return name;
});

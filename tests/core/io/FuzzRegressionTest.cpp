// SPDX-License-Identifier: Apache-2.0
// Every input of tests/data/fuzz-regressions (crashes and hangs the fuzzers found, and hand-made hostile inputs)
// through every fuzz target's entry function (fuzz/FuzzTarget.h), in the normal build: a fixed bug stays fixed
// without libFuzzer, and under ASan + UBSan in build/asan (scripts/test.sh).
#include "FuzzTarget.h"

#include "npuscope/io/detect/FileKinds.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace npuscope;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> regressionInputs()
{
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(test::dataDir() / "fuzz-regressions")) {
        if (entry.is_regular_file() && entry.path().filename() != "README.md")
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string readAll(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::string bytes(fs::file_size(path), '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return bytes;
}

std::vector<std::string> targetNames()
{
    std::vector<std::string> names;
    for (const auto& t : fuzz::fuzzTargets())
        names.emplace_back(t.name);
    return names;
}

class FuzzRegression : public testing::TestWithParam<std::string> { };

} // namespace

TEST_P(FuzzRegression, ReplaysEveryInput)
{
    const auto* target = fuzz::findFuzzTarget(GetParam());
    ASSERT_NE(target, nullptr);
    const auto inputs = regressionInputs();
    ASSERT_GE(inputs.size(), 10u);
    for (const auto& input : inputs) {
        SCOPED_TRACE(input.string());
        const std::string bytes = readAll(input);
        target->run(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    }
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzRegression, testing::ValuesIn(targetNames()),
    [](const testing::TestParamInfo<std::string>& param) { return param.param; });

TEST(FuzzTargets, CoverEveryImporterEntryPoint)
{
    // One target per file kind that has one (io::FileKinds: every importer the loader dispatches to), plus reader,
    // detection, whole load and cache.
    size_t kinds = 0;
    for (const auto& spec : io::FileKinds::all())
        kinds += spec.fuzz.target != nullptr;
    EXPECT_GE(kinds, 32u);
    EXPECT_EQ(fuzz::fuzzTargets().size(), kinds + 4);
    for (const char* name : { "csv_reader", "trace_view", "communication", "communication_matrix", "profiler_metadata",
             "profiler_info", "profiler_db", "analysis_db", "cluster_analysis_db", "detect", "parse_cache" })
        EXPECT_NE(fuzz::findFuzzTarget(name), nullptr) << name;
}

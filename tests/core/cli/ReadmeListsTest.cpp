// SPDX-License-Identifier: Apache-2.0
// The README's lists follow the code: every npuscope-cli command and every npuscope-bench case is named in it, and
// every package scripts/deps.sh installs is accounted for in its set-up paragraph. (The --view list is checked against
// the window's docks in tests/gui/app/ReadmeViewsTest.cpp.)
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace npuscope::test;

namespace {

const fs::path kRoot = dataDir().parent_path().parent_path();

// stdout and stderr of a command line.
std::string capture(const std::string& command)
{
    std::string out;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe)
        return out;
    std::array<char, 4096> buf {};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
        out.append(buf.data(), n);
    pclose(pipe);
    return out;
}

// The README paragraph that starts with the bold title, up to the next list item or blank line.
std::string paragraph(const std::string& readme, const std::string& title)
{
    const auto start = readme.find("- **" + title + "**");
    if (start == std::string::npos)
        return {};
    auto end = readme.find("\n- ", start + 1);
    end = std::min(end, readme.find("\n\n", start + 1));
    return readme.substr(start, end - start);
}

} // namespace

TEST(ReadmeLists, NamesEveryCliCommand)
{
    const std::string readme = readFile(kRoot / "README.md");
    std::istringstream usage(capture(std::string(NPUSCOPE_CLI) + " --help"));
    std::set<std::string> commands;
    const std::regex command(R"(^  ([a-z]+)( |$))");
    for (std::string line; std::getline(usage, line);) {
        std::smatch m;
        if (std::regex_search(line, m, command) && m[1] != "help")
            commands.insert(m[1]);
    }
    EXPECT_GE(commands.size(), 13u);
    for (const auto& c : commands)
        EXPECT_NE(readme.find("npuscope-cli " + c), std::string::npos) << "README does not name npuscope-cli " << c;
}

TEST(ReadmeLists, NamesEveryBenchmark)
{
    const std::string benchmarks = paragraph(readFile(kRoot / "README.md"), "Benchmarks");
    ASSERT_FALSE(benchmarks.empty());
    const fs::path bench = fs::path(NPUSCOPE_CLI).parent_path() / "npuscope-bench";
    std::istringstream usage(capture(bench.string()));
    std::set<std::string> cases;
    const std::regex usageLine(R"(^(usage:| +)\s*npuscope-bench ([a-z-]+))");
    for (std::string line; std::getline(usage, line);) {
        std::smatch m;
        if (std::regex_search(line, m, usageLine))
            cases.insert(m[2]);
    }
    EXPECT_GE(cases.size(), 17u);
    for (const auto& c : cases) {
        const std::regex word("(^|[ `|])" + c + "([ `|]|$)");
        EXPECT_TRUE(std::regex_search(benchmarks, word)) << "README's Benchmarks item does not name " << c;
    }
}

TEST(ReadmeLists, AccountsForEveryDebianPackage)
{
    const std::string readme = readFile(kRoot / "README.md");
    const std::string deps = readFile(kRoot / "scripts" / "deps.sh");
    // Each package scripts/deps.sh installs, by the words the README's set-up paragraph uses for it.
    const std::vector<std::pair<std::string, std::string>> named {
        { "qt6-base-dev", "Qt 6 base" }, { "qt6-svg-dev", "SVG" }, { "qt6-l10n-tools", "translation tools" },
        { "libsqlite3-dev", "SQLite" }, { "nlohmann-json3-dev", "nlohmann/json" }, { "libsimdjson-dev", "simdjson" },
        { "libspdlog-dev", "spdlog" }, { "libfmt-dev", "fmt" }, { "zlib1g-dev", "zlib" },
        { "libgtest-dev", "GoogleTest" }, { "cmake", "CMake" }, { "ninja-build", "Ninja" }, { "ccache", "ccache" },
        { "fonts-noto-cjk", "Noto CJK" }, { "clang-14", "clang 14" },
    };
    for (const auto& [package, words] : named) {
        EXPECT_NE(deps.find(package), std::string::npos) << package << " is no longer installed: update this list";
        EXPECT_NE(readme.find(words), std::string::npos) << "README does not mention " << words << " (" << package
                                                         << ")";
    }
}

// docs/architecture.md's folder list names every source folder (two levels: src/io/torch_npu, src/gui/marey, ...), so
// a new view family or format family is placed in it.
TEST(ArchitectureDoc, NamesEverySourceFolder)
{
    const std::string doc = readFile(kRoot / "docs" / "architecture.md");
    size_t folders = 0;
    for (const auto& top : fs::directory_iterator(kRoot / "src")) {
        if (!top.is_directory())
            continue;
        ++folders;
        const std::string name = "src/" + top.path().filename().string();
        EXPECT_NE(doc.find(name), std::string::npos) << "docs/architecture.md does not name " << name;
        for (const auto& sub : fs::directory_iterator(top.path())) {
            if (!sub.is_directory())
                continue;
            ++folders;
            const std::string subName = name + "/" + sub.path().filename().string();
            EXPECT_NE(doc.find(subName), std::string::npos) << "docs/architecture.md does not name " << subName;
        }
    }
    EXPECT_GE(folders, 30u);
    EXPECT_EQ(doc.find("../shared"), std::string::npos) << "a link outside the repository";
}

// SPDX-License-Identifier: Apache-2.0
// `npuscope-cli advise --html FILE`: writes the self-contained report and keeps stdout as without it; a file that
// cannot be written is an error (exit 1). The report's markup itself is checked in tests/gui/advice/AdviceReportTest.cpp.
#include "TestSupport.h"

#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace npuscope;

TEST(AdviseHtmlCli, WritesTheReportAndKeepsStdout)
{
    test::ScratchDir dir;
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "gen").string();
    o.traceMb = 0;
    o.ranks = 16;
    o.pp = 2;
    o.tp = 2;
    o.slowRank = 5;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;

    const std::string out = (dir.path() / "report.html").string();
    const auto plain = test::runCli("advise --no-cache --json " + o.outDir);
    const auto withHtml = test::runCli("advise --no-cache --json --html " + out + " " + o.outDir);
    ASSERT_EQ(withHtml.status, 0);
    EXPECT_EQ(withHtml.out, plain.out);

    std::ifstream in(out, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string html = ss.str();
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("</html>"), std::string::npos);
    EXPECT_EQ(html.find("http://"), std::string::npos);
    EXPECT_EQ(html.find("https://"), std::string::npos);
    const auto doc = nlohmann::json::parse(plain.out);
    ASSERT_FALSE(doc["findings"].empty());
    bool slowRank = false;
    for (const auto& f : doc["findings"]) {
        EXPECT_NE(html.find("<span class=\"rule\">" + f["id"].get<std::string>() + "</span>"), std::string::npos);
        slowRank = slowRank || f["id"] == "slow_rank";
    }
    EXPECT_TRUE(slowRank);

    // The critical path of every step, as `critical-path` computes it (the step kernels loaded the same way); the
    // planted slow rank is on it in every step.
    const auto path = test::runCli("critical-path --no-cache --json " + o.outDir);
    ASSERT_EQ(path.status, 0);
    const auto steps = nlohmann::json::parse(path.out)["steps"];
    ASSERT_FALSE(steps.empty());
    const size_t section = html.find("<h2>Critical path</h2>");
    ASSERT_NE(section, std::string::npos);
    for (const auto& s : steps) {
        char length[64];
        std::snprintf(length, sizeof length, "%.3f", s["length_ms"].get<double>());
        const std::string step = std::to_string(s["step"].get<int64_t>());
        const size_t at = html.find(": critical path " + std::string(length) + " ms", section);
        ASSERT_NE(at, std::string::npos) << "step " << step;
        EXPECT_EQ(html.rfind("<h3 id=\"critical-path-" + step + "\">Step " + step, at),
            html.find("<h3 id=\"critical-path-" + step + "\">", section))
            << "step " << step;
        const size_t next = html.find("<h3", at);
        const size_t slow = html.find("<tr><td class=\"n\">" + std::to_string(*o.slowRank) + "</td>", at);
        EXPECT_LT(slow, next) << "step " << step;
    }

    const auto failed = test::runCli(
        "advise --no-cache --html " + (dir.path() / "no" / "such" / "r.html").string() + " " + o.outDir, true);
    EXPECT_EQ(failed.status, 1);
    EXPECT_NE(failed.out.find("cannot write"), std::string::npos);
    const auto missing = test::runCli("advise --html", true);
    EXPECT_EQ(missing.status, 2);
}

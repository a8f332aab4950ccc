// SPDX-License-Identifier: Apache-2.0
// Dynamic-profiler windows (issue 38, item 6): a rank profiled in two windows (rank0_start51_stop52 beside
// rank0_start54_stop55, MindSpore's DynamicProfilerMonitor layout) is one rank whose windows are separate step
// ranges, not "found in 2 folders; kept the newest". Inputs are the generator's --windows form; expected steps and
// operators are read from each window's files here.
#include "TestSupport.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/MareyQuery.h"
#include "npuscope/query/ParallelLayoutQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::count;
using npuscope::test::ScratchDir;

namespace {

constexpr int kRanks = 4;

std::vector<std::vector<std::string>> readCsv(const fs::path& p)
{
    CsvReader reader;
    std::string error;
    EXPECT_TRUE(reader.open(p.string(), error)) << p << ": " << error;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    while (reader.next(row))
        rows.push_back(row);
    return rows;
}

// The ASCEND_PROFILER_OUTPUT folder of rank r's window folder.
fs::path outputOf(const fs::path& root, int rank, const std::string& window)
{
    const fs::path parent = root / ("rank" + std::to_string(rank) + "_" + window);
    for (const auto& e : fs::directory_iterator(parent))
        return e.path() / "ASCEND_PROFILER_OUTPUT";
    return {};
}

} // namespace

TEST(DynamicWindows, EachWindowIsAStepRangeOfTheOneRank)
{
    ScratchDir scratch;
    testgen::GeneratorOptions o;
    o.outDir = (scratch.path() / "job").string();
    o.ranks = kRanks;
    o.tp = 2;
    o.steps = 6; // 50..55
    o.traceMb = 0;
    o.format = testgen::OutputFormat::MindSpore;
    o.windows = { { 51, 52 }, { 54, 55 } };
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    const fs::path root(o.outDir);

    const auto plan = io::Detector::detect({ root.string() });
    ASSERT_EQ(plan.ranks.size(), static_cast<size_t>(kRanks));
    EXPECT_FALSE(test::hasIssue(plan, "kept the newest"));
    for (int r = 0; r < kRanks; ++r)
        EXPECT_TRUE(test::hasIssue(plan,
            "rank " + std::to_string(r) + " has 2 dynamic-profiler windows (steps 51\u201352, 54\u201355)", "info"));

    auto db = load::Loader::load(plan);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity <> 'info'"), 0)
        << test::dump(*db, "SELECT file, line, message FROM parse_issue");
    for (int r = 0; r < kRanks; ++r) {
        // Steps: both windows' step_trace_time.csv rows.
        std::set<int64_t> want;
        for (const std::string window : { "start51_stop52", "start54_stop55" }) {
            const auto rows = readCsv(outputOf(root, r, window) / "step_trace_time.csv");
            for (size_t i = 1; i < rows.size(); ++i)
                want.insert(std::stoll(rows[i][0]));
        }
        EXPECT_EQ(want, (std::set<int64_t> { 51, 52, 54, 55 }));
        std::set<int64_t> got;
        for (const auto& s : test::rows(*db, "SELECT step FROM step_trace WHERE rank_id = " + std::to_string(r)))
            got.insert(std::stoll(s));
        EXPECT_EQ(got, want) << "rank " << r;
        // Communication: every window's communication.json ops, step by step.
        int64_t ops = 0;
        for (const std::string window : { "start51_stop52", "start54_stop55" }) {
            std::ifstream in(outputOf(root, r, window) / "communication.json");
            const auto comm = nlohmann::json::parse(in);
            for (const auto& [step, kinds] : comm.items())
                for (const auto& [kind, list] : kinds.items())
                    ops += static_cast<int64_t>(list.size()) - (list.contains("Total Op Info") ? 1 : 0);
        }
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op WHERE is_total = 0 AND rank_id = " + std::to_string(r)), ops)
            << "rank " << r;
    }
    // Marey: each window's steps, each device's operators of a step are its window's kernel_details rows of it, on a
    // lazy open too (kernel tables not imported: the view loads the step's kernel rows, as here).
    auto lazy = test::openFolder(root);
    ASSERT_TRUE(lazy);
    std::vector<int64_t> ranks;
    for (int r = 0; r < kRanks; ++r)
        ranks.push_back(r);
    for (const int64_t step : { 51, 55 }) {
        load::Loader::loadStepKernels(*lazy, ranks, step);
        const auto marey = query::MareyQuery::step(*lazy, query::ParallelLayoutQuery::layout(*lazy), step);
        ASSERT_EQ(marey.devices.size(), static_cast<size_t>(kRanks));
        for (const auto& dev : marey.devices) {
            const auto rows
                = readCsv(outputOf(root, static_cast<int>(dev.rank), step < 53 ? "start51_stop52" : "start54_stop55")
                    / "kernel_details.csv");
            size_t want = 0;
            for (size_t i = 1; i < rows.size(); ++i)
                want += std::stoll(rows[i][0]) == step ? 1 : 0;
            EXPECT_EQ(dev.ops.size(), want) << "lazy: rank " << dev.rank << " step " << step;
        }
    }
    const auto steps = query::MareyQuery::steps(*db);
    EXPECT_EQ(steps, (std::vector<int64_t> { 51, 52, 54, 55 }));
    const auto layout = query::ParallelLayoutQuery::layout(*db);
    for (const int64_t step : { 51, 55 }) {
        const auto marey = query::MareyQuery::step(*db, layout, step);
        ASSERT_EQ(marey.devices.size(), static_cast<size_t>(kRanks));
        for (const auto& dev : marey.devices) {
            const auto rows
                = readCsv(outputOf(root, static_cast<int>(dev.rank), step < 53 ? "start51_stop52" : "start54_stop55")
                    / "kernel_details.csv");
            size_t want = 0;
            for (size_t i = 1; i < rows.size(); ++i)
                want += std::stoll(rows[i][0]) == step ? 1 : 0;
            EXPECT_GT(want, 0u);
            EXPECT_EQ(dev.ops.size(), want) << "rank " << dev.rank << " step " << step;
        }
    }
}

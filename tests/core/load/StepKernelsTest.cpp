// SPDX-License-Identifier: Apache-2.0
// Loader::loadStepKernels: the step_kernel rows of a step equal the kernel table's rows of that step, rank by rank;
// a second load is one cache hit; ranks with imported kernels are skipped; a later Kernels-group import leaves no
// duplicate; MareyQuery gives the same step either way; a truncated file is a parse issue naming file and line.

#include "TestSupport.h"

#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/query/FlopsQuery.h"
#include "npuscope/query/MareyQuery.h"
#include "npuscope/query/ParallelLayoutQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace npuscope;
using npuscope::test::count;
using npuscope::test::dataDir;
using npuscope::test::openFolder;
using npuscope::test::rows;
using npuscope::test::ScratchDir;
namespace fs = std::filesystem;

namespace {

std::string generatePp4(const ScratchDir& dir)
{
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "pp4").string();
    o.ranks = 32;
    o.pp = 4;
    o.tp = 8;
    o.steps = 2;
    o.traceMb = 1;
    o.slowRank = 9;
    o.flops = true;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return o.outDir;
}

std::vector<int64_t> ranksOf(model::Database& db)
{
    std::vector<int64_t> out;
    auto st = db.prepare("SELECT rank_id FROM rank ORDER BY rank_id");
    while (st.step())
        out.push_back(st.int64(0));
    return out;
}

// A rank's kernels of a step as text rows, file order, from one table.
std::vector<std::string> kernelsOf(model::Database& db, const std::string& table, int64_t rank, int64_t step)
{
    return rows(db,
        "SELECT s.value, COALESCE(t.value, 'NULL'), COALESCE(k.accelerator_core, 'NULL'), k.ts, k.dur FROM " + table
            + " k JOIN string s ON s.id = k.name_id LEFT JOIN string t ON t.id = k.type_id WHERE k.rank_id = "
            + std::to_string(rank) + " AND k.step = " + std::to_string(step) + " ORDER BY k.rowid");
}

void expectSameStep(const query::MareyStep& a, const query::MareyStep& b)
{
    ASSERT_EQ(a.devices.size(), b.devices.size());
    EXPECT_EQ(a.opCount, b.opCount);
    EXPECT_EQ(a.unmatchedOps, b.unmatchedOps);
    EXPECT_EQ(a.p2p.size(), b.p2p.size());
    for (size_t d = 0; d < a.devices.size(); ++d) {
        const auto& x = a.devices[d];
        const auto& y = b.devices[d];
        EXPECT_EQ(x.rank, y.rank);
        ASSERT_EQ(x.ops.size(), y.ops.size()) << "rank " << x.rank;
        for (size_t i = 0; i < x.ops.size(); ++i) {
            EXPECT_EQ(a.names[x.ops[i].name], b.names[y.ops[i].name]) << "rank " << x.rank << " op " << i;
            EXPECT_EQ(x.ops[i].kind, y.ops[i].kind) << "rank " << x.rank << " op " << i;
            EXPECT_EQ(x.ops[i].start, y.ops[i].start) << "rank " << x.rank << " op " << i;
            EXPECT_EQ(x.ops[i].end, y.ops[i].end) << "rank " << x.rank << " op " << i;
            EXPECT_EQ(x.ops[i].occurrence, y.ops[i].occurrence) << "rank " << x.rank << " op " << i;
            EXPECT_EQ(x.ops[i].matched, y.ops[i].matched) << "rank " << x.rank << " op " << i;
        }
    }
}

} // namespace

TEST(StepKernels, GeneratedPp4EqualsTheKernelTableAndMareyStepIsTheSame)
{
    ScratchDir dir;
    const std::string cluster = generatePp4(dir);
    auto full = openFolder(cluster, true);
    auto lazy = openFolder(cluster);
    ASSERT_TRUE(full && lazy);
    const auto ranks = ranksOf(*lazy);
    ASSERT_EQ(ranks.size(), 32u);
    const auto steps = query::MareyQuery::steps(*lazy); // from step_trace before any kernel is loaded
    ASSERT_EQ(steps, query::MareyQuery::steps(*full));
    ASSERT_EQ(steps.size(), 2u);
    const int64_t step = steps.back();
    ASSERT_TRUE(load::Loader::loadStepKernels(*lazy, ranks, step, {}, nullptr, nullptr, nullptr, 3));
    EXPECT_EQ(count(*lazy, "SELECT COUNT(*) FROM kernel"), 0);
    EXPECT_EQ(count(*lazy, "SELECT COUNT(*) FROM step_kernel WHERE step <> " + std::to_string(step)), 0);
    EXPECT_EQ(count(*lazy, "SELECT COUNT(*) FROM step_kernel"),
        count(*full, "SELECT COUNT(*) FROM kernel WHERE step = " + std::to_string(step)));
    for (const int64_t rank : ranks) {
        const auto expected = kernelsOf(*full, "kernel", rank, step);
        EXPECT_GT(expected.size(), 100u) << rank;
        EXPECT_EQ(kernelsOf(*lazy, "step_kernel", rank, step), expected) << "rank " << rank;
    }
    const auto layout = query::ParallelLayoutQuery::layout(*full);
    expectSameStep(query::MareyQuery::step(*lazy, query::ParallelLayoutQuery::layout(*lazy), step),
        query::MareyQuery::step(*full, layout, step));
    // The Marey view's FLOPs blocks: the step's sums from step_kernel equal those over the kernel table.
    const auto flopsFull = query::FlopsQuery::perRank(*full, step);
    const auto flopsLazy = query::FlopsQuery::perRank(*lazy, step);
    ASSERT_TRUE(flopsFull.recorded);
    ASSERT_EQ(flopsLazy.ranks.size(), flopsFull.ranks.size());
    for (size_t i = 0; i < flopsFull.ranks.size(); ++i) {
        EXPECT_EQ(flopsLazy.ranks[i].rank, flopsFull.ranks[i].rank);
        EXPECT_EQ(flopsLazy.ranks[i].flops, flopsFull.ranks[i].flops) << flopsFull.ranks[i].rank;
        EXPECT_GT(flopsFull.ranks[i].flops, 0) << flopsFull.ranks[i].rank;
    }
    // Loaded already: nothing to do.
    EXPECT_FALSE(load::Loader::loadStepKernels(*lazy, ranks, step));
}

TEST(StepKernels, RealSampleSecondLoadIsOneCacheHitAndImportedRanksAreSkipped)
{
    const fs::path sample = dataDir() / "torch_npu_2rank_level2";
    auto full = openFolder(sample, true);
    ASSERT_TRUE(full);
    ScratchDir cacheDir;
    const load::ParseCache cache({ cacheDir.path().string(), 1ull << 30 });
    for (int pass = 0; pass < 2; ++pass) {
        auto db = openFolder(sample);
        ASSERT_TRUE(db);
        load::LoadReport report;
        ASSERT_TRUE(load::Loader::loadStepKernels(*db, { 0, 1 }, 50, {}, nullptr, &cache, &report)) << pass;
        EXPECT_EQ(report.cacheHits, pass) << pass;
        EXPECT_EQ(report.cacheMisses, 1 - pass) << pass;
        EXPECT_EQ(report.parsedFiles.size(), pass == 0 ? 2u : 0u) << pass; // both ranks' kernel_details.csv
        for (const int64_t rank : { 0, 1 }) {
            const auto expected = kernelsOf(*full, "kernel", rank, 50);
            EXPECT_EQ(expected.size(), rank == 1 ? 191u : expected.size()); // rank 1: 191 rows of step 50
            EXPECT_EQ(kernelsOf(*db, "step_kernel", rank, 50), expected) << "rank " << rank << " pass " << pass;
        }
    }
    // Rank 0's kernels imported first: skipped (the kernel table has them); rank 1 scanned.
    auto db = openFolder(sample);
    ASSERT_TRUE(load::Loader::loadDeferred(*db, 0, io::kKernelsGroup));
    load::LoadReport report;
    ASSERT_TRUE(load::Loader::loadStepKernels(*db, { 0, 1 }, 50, {}, nullptr, nullptr, &report));
    ASSERT_EQ(report.parsedFiles.size(), 1u);
    EXPECT_NE(report.parsedFiles.front().find("rank1"), std::string::npos) << report.parsedFiles.front();
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_kernel WHERE rank_id = 0"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_kernel WHERE rank_id = 1"), 191);
    // Rank 1's kernels imported later: its step_kernel rows go, MareyQuery counts each kernel once.
    const auto layout = query::ParallelLayoutQuery::layout(*db);
    const auto before = query::MareyQuery::step(*db, layout, 50);
    const int64_t issuesBefore = count(*db, "SELECT COUNT(*) FROM parse_issue");
    ASSERT_TRUE(load::Loader::loadDeferred(*db, 1, io::kKernelsGroup));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_kernel"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue"), issuesBefore);
    expectSameStep(query::MareyQuery::step(*db, layout, 50), before);
    expectSameStep(before, query::MareyQuery::step(*full, query::ParallelLayoutQuery::layout(*full), 50));
}

TEST(StepKernels, TruncatedKernelDetailsIsAParseIssueWithFileAndLine)
{
    ScratchDir dir;
    const fs::path source = dataDir() / "torch_npu_2rank_level2" / "rank1_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
    const fs::path out = dir.path() / "rank1_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
    fs::create_directories(out);
    fs::copy_file(source / "step_trace_time.csv", out / "step_trace_time.csv");
    std::ifstream in(source / "kernel_details.csv");
    std::ofstream csv(out / "kernel_details.csv");
    std::string line;
    for (int n = 1; n <= 11 && std::getline(in, line); ++n)
        csv << (n == 11 ? line.substr(0, line.find(',', line.find(',') + 1)) : line) << '\n'; // line 11: 2 cells
    csv.close();
    auto db = openFolder(dir.path());
    ASSERT_TRUE(db);
    const std::string file = (out / "kernel_details.csv").string();
    ASSERT_TRUE(load::Loader::loadStepKernels(*db, { 1 }, 50));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_kernel"), 9);
    const std::string issues
        = "SELECT line || ': ' || message FROM parse_issue WHERE file = '" + file + "' AND severity <> 'info'";
    const std::vector<std::string> expected { "11: row has 2 fields, header has 46",
        "11: row skipped: no value in required column \"Name\"" };
    EXPECT_EQ(rows(*db, issues), expected);
    // The Kernels group imported later: the same rows in the kernel table, the issue once, no step_kernel row.
    ASSERT_TRUE(load::Loader::loadDeferred(*db, 1, io::kKernelsGroup));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel"), 9);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_kernel"), 0);
    EXPECT_EQ(rows(*db, issues), expected); // the same issues, once
}

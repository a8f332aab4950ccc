// SPDX-License-Identifier: Apache-2.0
// The memory guard's lean mode (docs/robustness.md, "Memory guard"): a load that may not fit in the memory the
// process may use leaves out the communication matrices' per-op slots and the deferred files, says so in a warning,
// and keeps every figure of the text summary.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/MemoryGuard.h"
#include "npuscope/query/SummaryReport.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using namespace npuscope;

namespace {

// The text summary up to its parse issues (lean mode adds one).
std::string figures(model::Database& db)
{
    const std::string text = query::SummaryReport::text(db);
    return text.substr(0, text.find("\nParse issues:"));
}

} // namespace

TEST(LeanLoad, ForcedByASmallBudgetKeepsTheSummaryFigures)
{
    test::ScratchDir dir;
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "a2a").string();
    o.ranks = 16;
    o.tp = 8;
    o.steps = 2;
    // Timelines large enough that the estimate (which counts them) stays above what the lean load grows by, so the
    // watch switches lean mode on and never has to leave ranks out.
    o.traceMb = 3;
    o.allToAllGroups = true;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    const auto plan = io::Detector::detect({ o.outDir });

    const auto budget = [](uint64_t bytes) { ::setenv("NPUSCOPE_MEMORY_AVAILABLE", std::to_string(bytes).c_str(), 1); };
    const uint64_t estimate = load::MemoryGuard::estimate(plan, true, io::kAllGroups);
    // A budget the load fits in: no lean mode.
    budget(estimate * 4);
    const auto full = load::Loader::load(plan);
    // One byte less than the estimate: lean from the start.
    budget(estimate - 1);
    const auto lean = load::Loader::load(plan);
    ::unsetenv("NPUSCOPE_MEMORY_AVAILABLE");
    ASSERT_TRUE(full && lean);

    // Said once, with what lean mode leaves out.
    EXPECT_EQ(test::count(*lean,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'warning' AND message LIKE "
                  "'this load may need about%lean mode%per-op slots%'"),
        1);
    EXPECT_EQ(test::count(*full, "SELECT COUNT(*) FROM parse_issue WHERE message LIKE '%lean mode%'"), 0);

    // Per-op slots gone, every total slot kept row for row; no deferred file read.
    const std::string perOp = "SELECT COUNT(*) FROM comm_link WHERE slot IS NOT NULL AND slot <> 'total'";
    EXPECT_GT(test::count(*full, perOp), 0);
    EXPECT_EQ(test::count(*lean, perOp), 0);
    const std::string totals = "SELECT rank_id, step, matrix_op, group_hash, src, dst, transport, size_mb, time_ns, "
                               "bandwidth_gbps FROM comm_link WHERE slot IS NULL OR slot = 'total' ORDER BY 1, 2, 3, "
                               "4, 5, 6";
    EXPECT_EQ(test::rows(*lean, totals), test::rows(*full, totals));
    EXPECT_GT(test::count(*full, "SELECT COUNT(*) FROM slice"), 0);
    EXPECT_EQ(test::count(*lean, "SELECT COUNT(*) FROM slice"), 0);

    // The text summary: the same figures (steps, groups, slowest links and their count).
    EXPECT_EQ(figures(*lean), figures(*full));
}

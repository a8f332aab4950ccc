// SPDX-License-Identifier: Apache-2.0
// `npuscope-cli summary --json` on every input generation of issue 6, and the "nothing found" message.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <fstream>
#include <sys/wait.h>

namespace fs = std::filesystem;
using npuscope::test::dataDir;
using npuscope::test::ScratchDir;

namespace {

using Run = npuscope::test::CliRun;
using npuscope::test::runCli;

struct Case {
    const char* path;
    size_t ranks;
    bool steps;
};

} // namespace

TEST(FormatsCli, SummaryJsonOnEveryGeneration)
{
    const Case cases[] = {
        { "torch_npu_2rank_db/level0", 2, true },
        { "torch_npu_2rank_db/level1", 2, true },
        { "msprof_cluster_analysis/text", 16, true },
        { "msprof_cluster_analysis/db", 8, true },
        { "msprof_cluster_analysis/text_no_step", 8, true },
        { "mindinsight_r13_job/run", 4, true },
        { "mindspore_flat_profiler/cluster_propose", 4, true },
        { "cann_prof_2023", 2, true }, // Iteration <N> events of step_trace_*.json
        { "cann_msprof_db", 1, false },
    };
    for (const auto& c : cases) {
        const auto run = runCli("summary --no-cache --json '" + (dataDir() / c.path).string() + "'");
        EXPECT_EQ(run.status, 0) << c.path;
        const auto j = nlohmann::json::parse(run.out, nullptr, false);
        ASSERT_FALSE(j.is_discarded()) << c.path;
        EXPECT_EQ(j["ranks"].size(), c.ranks) << c.path;
        EXPECT_EQ(!j["steps"].empty(), c.steps) << c.path;
        for (const auto& issue : j["issues"])
            EXPECT_NE(issue["severity"], "error") << c.path << ": " << issue.dump();
    }
}

TEST(FormatsCli, NothingFoundListsEveryGeneration)
{
    ScratchDir dir;
    std::ofstream(dir.path() / "notes.txt") << "hello";
    const auto plan = npuscope::io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.issues.size(), 1u);
    for (const char* what : { "ASCEND_PROFILER_OUTPUT", "ascend_pytorch_profiler", "analysis.db", "cluster_analysis.db",
             "step_trace_raw_", "hccl_raw_", "cluster_profiler", "PROF_", "msprof_" })
        EXPECT_NE(plan.issues[0].message.find(what), std::string::npos) << what;
}

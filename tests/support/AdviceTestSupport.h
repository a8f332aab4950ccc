// SPDX-License-Identifier: Apache-2.0
// Helpers of the advice tests.
#pragma once

#include "TestSupport.h"

#include "npuscope/query/advice/Finding.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace npuscope::test {

// The findings of one rule id, in their order.
inline std::vector<query::advice::Finding> withId(
    const std::vector<query::advice::Finding>& findings, const std::string& id)
{
    std::vector<query::advice::Finding> out;
    for (const auto& f : findings) {
        if (f.id == id)
            out.push_back(f);
    }
    return out;
}

// Generates o into dir/gen with tiny traces (traceMb 0); returns the folder.
inline std::string generate(const ScratchDir& dir, testgen::GeneratorOptions o)
{
    o.outDir = (dir.path() / "gen").string();
    o.traceMb = 0;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return o.outDir;
}

// A 16-rank cluster (pp 2, tp 2) with one anomaly of each kind planted: a slow rank, a slow link, a memory-heavy rank,
// a FLOPs-light rank and a rank launching late; with its timelines loaded, a capacity and a peak most rules speak.
inline testgen::GeneratorOptions plantedAnomalies()
{
    testgen::GeneratorOptions o;
    o.ranks = 16;
    o.pp = 2;
    o.tp = 2;
    o.slowRank = 5;
    o.slowLink = std::make_pair(8, 10);
    o.memoryHeavyRank = 3;
    o.flopsLightRank = 9;
    o.lateLaunchRank = 1;
    return o;
}

// The file named name in a generated rank's folder (rank<r>_..._ascend_pt/ASCEND_PROFILER_OUTPUT/name); empty when
// the rank has no folder.
inline std::filesystem::path rankFile(const std::string& root, int rank, const std::string& name)
{
    const std::string prefix = "rank" + std::to_string(rank) + "_";
    for (const auto& e : std::filesystem::directory_iterator(root)) {
        if (e.is_directory() && e.path().filename().string().starts_with(prefix))
            return e.path() / "ASCEND_PROFILER_OUTPUT" / name;
    }
    return {};
}

inline std::string readAll(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace npuscope::test

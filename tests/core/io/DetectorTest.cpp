// SPDX-License-Identifier: Apache-2.0
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using npuscope::io::Detector;
using npuscope::io::FileKind;
using npuscope::io::LoadPlan;
using npuscope::test::dataDir;
using npuscope::test::ScratchDir;

namespace {

bool hasIssueContaining(const LoadPlan& plan, const std::string& text)
{
    for (const auto& i : plan.issues) {
        if (i.message.find(text) != std::string::npos)
            return true;
    }
    return false;
}

void writeFile(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

const char* kStepCsv = "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                       "Communication(Not Overlapped and Exclude Receive),Preparing\n1,10,5,2,7,3,18,0,5,1\n";

} // namespace

TEST(Detector, ClusterFolderFindsBothRanksFromFileNames)
{
    const auto plan = Detector::detect({ (dataDir() / "torch_npu_2rank_level1").string() });
    ASSERT_EQ(plan.ranks.size(), 2u);
    EXPECT_EQ(plan.layout, LoadPlan::Layout::Cluster);
    EXPECT_EQ(plan.ranks[0].rank, 0);
    EXPECT_EQ(plan.ranks[1].rank, 1);
    EXPECT_EQ(plan.ranks[0].rankSource, "file_name");
    // profiler_info, profiler_metadata and 10 ASCEND_PROFILER_OUTPUT files npuscope imports.
    int stepFiles = 0;
    for (const auto& f : plan.ranks[0].files)
        stepFiles += f.kind == FileKind::StepTraceTime;
    EXPECT_EQ(stepFiles, 1);
    EXPECT_EQ(plan.ranks[0].files.size(), 12u);
    EXPECT_TRUE(plan.issues.empty());
}

TEST(Detector, OutputFolderGivenDirectlyUsesParentRank)
{
    const auto out = dataDir() / "torch_npu_2rank_level1" / "rank1_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
    const auto plan = Detector::detect({ out.string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.layout, LoadPlan::Layout::SingleRank);
    EXPECT_EQ(plan.ranks[0].rank, 1);
    EXPECT_EQ(fs::path(plan.ranks[0].path).filename(), "rank1_ascend_pt");
}

TEST(Detector, SeveralPathsAtOnce)
{
    const auto base = dataDir() / "torch_npu_2rank_level2";
    const auto plan = Detector::detect({ (base / "rank0_ascend_pt").string(), (base / "rank1_ascend_pt").string() });
    ASSERT_EQ(plan.ranks.size(), 2u);
    EXPECT_EQ(plan.layout, LoadPlan::Layout::Cluster);
}

TEST(Detector, DuplicateRankKeepsNewestAndReportsMixedRuns)
{
    ScratchDir dir;
    writeFile(dir.path() / "job_100_ascend_pt" / "profiler_info_0.json", "{\"rank_id\": 0}");
    writeFile(dir.path() / "job_100_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv", kStepCsv);
    writeFile(dir.path() / "job_200_ascend_pt" / "profiler_info_0.json", "{\"rank_id\": 0}");
    writeFile(dir.path() / "job_200_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv", kStepCsv);
    const auto plan = Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(fs::path(plan.ranks[0].path).filename(), "job_200_ascend_pt");
    EXPECT_EQ(plan.layout, LoadPlan::Layout::Mixed);
    EXPECT_TRUE(hasIssueContaining(plan, "kept the newest"));
}

TEST(Detector, RankFromFieldStringAndFromFolderName)
{
    ScratchDir dir;
    writeFile(dir.path() / "a_ascend_ms" / "profiler_info.json", "{\"rank_id\": \"3\"}");
    writeFile(dir.path() / "a_ascend_ms" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv", kStepCsv);
    writeFile(dir.path() / "worker_rank_7" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv", kStepCsv);
    writeFile(dir.path() / "x" / "y" / "z" / "noname" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv", kStepCsv);
    const auto plan = Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 3u);
    EXPECT_EQ(plan.ranks[0].rank, 0); // unnamed folder gets the smallest free id
    EXPECT_EQ(plan.ranks[0].rankSource, "default");
    EXPECT_EQ(plan.ranks[1].rank, 3);
    EXPECT_EQ(plan.ranks[1].rankSource, "rank_id_field");
    EXPECT_EQ(plan.ranks[2].rank, 7);
    EXPECT_EQ(plan.ranks[2].rankSource, "folder_name");
    EXPECT_TRUE(hasIssueContaining(plan, "rank id not found"));
}

TEST(Detector, SymlinkLoopEnds)
{
    ScratchDir dir;
    writeFile(dir.path() / "cluster" / "r_ascend_pt" / "profiler_info_2.json", "{}");
    writeFile(dir.path() / "cluster" / "r_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv", kStepCsv);
    fs::create_directory_symlink(dir.path() / "cluster", dir.path() / "cluster" / "loop");
    const auto plan = Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 2);
}

TEST(Detector, NothingFoundSaysWhatWasLookedFor)
{
    ScratchDir dir;
    writeFile(dir.path() / "notes.txt", "hello");
    const auto plan = Detector::detect({ dir.path().string(), (dir.path() / "missing").string() });
    EXPECT_TRUE(plan.ranks.empty());
    EXPECT_EQ(plan.layout, LoadPlan::Layout::Empty);
    EXPECT_TRUE(hasIssueContaining(plan, "looked for ASCEND_PROFILER_OUTPUT"));
    EXPECT_TRUE(hasIssueContaining(plan, "does not exist"));
}

TEST(Detector, NonUtf8FolderName)
{
    ScratchDir dir;
    const std::string odd = std::string("r\xff\xfe_rank_4");
    writeFile(dir.path() / odd / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv", kStepCsv);
    const auto plan = Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 4);
}

// Duplicate ranks: the profiles' own end time (profiler_info end_info.collectionTimeEnd) decides, not file times.
// The db level1 run ended at 1736410576713429440 ns, the text level1 run at 1736408884023552840 ns.
TEST(Detector, DuplicateRankKeepsTheProfileThatEndedLast)
{
    namespace fs = std::filesystem;
    ScratchDir dir;
    const fs::path older = dir.path() / "text" / "rank0_ascend_pt";
    const fs::path newer = dir.path() / "db" / "rank0_ascend_pt";
    fs::create_directories(older.parent_path());
    fs::create_directories(newer.parent_path());
    fs::copy(dataDir() / "torch_npu_2rank_level1" / "rank0_ascend_pt", older, fs::copy_options::recursive);
    fs::copy(dataDir() / "torch_npu_2rank_db" / "level1" / "rank0_ascend_pt", newer, fs::copy_options::recursive);
    // Make the older profile's files the most recently written: file times must not decide.
    const auto later = fs::file_time_type::clock::now() + std::chrono::hours(1);
    for (const auto& e : fs::recursive_directory_iterator(older))
        fs::last_write_time(e.path(), later);
    const LoadPlan plan = Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(fs::path(plan.ranks[0].path).parent_path().filename(), "db");
    bool said = false;
    for (const auto& i : plan.issues)
        said = said || i.message.find("kept the newest by profiler_info collectionTimeEnd") != std::string::npos;
    EXPECT_TRUE(said);
}


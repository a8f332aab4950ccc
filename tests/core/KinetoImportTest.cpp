// SPDX-License-Identifier: Apache-2.0
// PyTorch profiler (Kineto) GPU traces: detection by content, and what the importer writes (counts and spot values
// read from the HTA sample files).
#include "TestSupport.h"
#include "npuscope/core/GroupHash.h"
#include "npuscope/io/detect/FileSniffer.h"
#include "npuscope/io/kineto/KinetoKernelClass.h"
#include "npuscope/query/OperatorQuery.h"

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::test;

TEST(KinetoImport, DetectedByContentWithTheRankOfDistributedInfo)
{
    std::vector<io::PlanIssue> issues;
    const auto s = io::FileSniffer::sniff(dataDir() / "kineto_trace_diff" / "control" / "control.json.gz", issues);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->kind, io::FileKind::KinetoTrace);
    EXPECT_EQ(s->rank, 3);
    const auto plan = io::Detector::detect({ (dataDir() / "kineto_trace_diff").string() });
    ASSERT_EQ(plan.ranks.size(), 2u); // control (rank 3) and test (rank 1): two folders, one trace each
    EXPECT_EQ(plan.ranks[0].rank, 1);
    EXPECT_EQ(plan.ranks[1].rank, 3);
    EXPECT_EQ(plan.ranks[1].rankSource, "rank_id_field");
}

TEST(KinetoImport, SeveralTracesInOneFolderAreOneRankEach)
{
    ScratchDir dir;
    std::filesystem::copy_file(
        dataDir() / "kineto_trace_diff" / "control" / "control.json.gz", dir.path() / "a.pt.trace.json.gz");
    std::filesystem::copy_file(
        dataDir() / "kineto_trace_diff" / "test" / "test.json.gz", dir.path() / "b.pt.trace.json.gz");
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 2u);
    EXPECT_EQ(plan.ranks[0].rank, 1);
    EXPECT_EQ(plan.ranks[1].rank, 3);
    for (const auto& r : plan.ranks)
        EXPECT_EQ(kindsOf(r), std::vector<io::FileKind> { io::FileKind::KinetoTrace });
}

TEST(KinetoImport, KernelsStepsCollectivesAndFlows)
{
    auto db = openFolder(dataDir() / "kineto_trace_diff" / "control");
    ASSERT_TRUE(db);
    EXPECT_EQ(text(*db, "SELECT framework FROM rank"), "pytorch_gpu");
    EXPECT_EQ(count(*db, "SELECT device_id FROM rank"), 3);
    EXPECT_EQ(count(*db, "SELECT world_size FROM rank"), 8);
    // 8568 kernels, 654 memsets, 228 memcpys in the file.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel"), 8568 + 654 + 228);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel WHERE accelerator_core = 'GPU_MEMSET'"), 654);
    EXPECT_EQ(rows(*db, "SELECT step FROM step_trace ORDER BY step"),
        (std::vector<std::string> { "1009", "1010", "1011", "1012", "1013", "1014" }));
    // Every NCCL kernel is a communication op of its step.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op"),
        count(*db, "SELECT COUNT(*) FROM kernel WHERE accelerator_core = 'NCCL'"));
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM comm_op WHERE op_type = 'allReduce' AND kind = 'collective'"), 0);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM comm_op WHERE op_type = 'sendRecv' AND kind = 'p2p'"), 0);
    // The earliest run of this GEMM kernel: 8 µs at 1661203462641746 µs (python3 json over the file).
    EXPECT_EQ(rows(*db,
                  "SELECT k.ts, k.dur, k.accelerator_core FROM kernel k JOIN string s ON s.id = k.name_id WHERE "
                  "s.value LIKE '%cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4%' ORDER BY k.ts LIMIT 1"),
        (std::vector<std::string> { "1661203462641746000|8000|GPU_GEMM" }));
    // Step 1009 (its ProfilerStep range) as the GPU breakdown: computing + not overlapped + free = the GPU window.
    EXPECT_EQ(count(*db,
                  "SELECT computing_ns + communication_not_overlapped_ns + free_ns - "
                  "(SELECT MAX(ts + dur) - MIN(ts) FROM kernel WHERE step = 1009) FROM step_trace WHERE step = 1009"),
        0);
    // One launch arrow per GPU activity whose runtime call is in the trace.
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM flow WHERE cat = 'ac2g' AND src_slice_id IS NOT NULL AND "
                  "dst_slice_id IS NOT NULL"),
        count(*db, "SELECT COUNT(*) FROM flow"));
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM flow"), 9000);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM slice"), 70000);
}

TEST(KinetoImport, TraceWithoutStepMarkersIsOneUnnumberedStep)
{
    auto db = openFolder(dataDir() / "kineto_alexnet_1rank");
    ASSERT_TRUE(db);
    EXPECT_EQ(rows(*db, "SELECT COALESCE(step, 'NULL') FROM step_trace"), (std::vector<std::string> { "NULL" }));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel"), 79 + 16 + 3);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel WHERE step IS NOT NULL"), 0);
}

TEST(KinetoImport, KernelClassesMapOntoTheOperatorCategories)
{
    using K = io::KinetoKernelClass;
    EXPECT_EQ(K::ofKernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"), K::kNccl);
    EXPECT_EQ(K::ofKernel("volta_sgemm_128x32_nt"), K::kGemm);
    EXPECT_EQ(K::ofKernel("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align4>"), K::kGemm);
    EXPECT_EQ(K::ofKernel("sm80_xmma_fprop_implicit_gemm_indexed_tf32f32"), K::kConv);
    EXPECT_EQ(K::ofKernel("flash_fwd_kernel<Flash_fwd_kernel_traits>"), K::kFlashAttention);
    EXPECT_EQ(K::ofKernel("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>"),
        K::kVector);
    EXPECT_EQ(K::ofKernel("void bounds_check_indices_kernel<long>"), K::kUnmapped); // "indices" is not "index"
    EXPECT_EQ(K::ofKernel("void epilogue::impl::globalKernel<float>"), K::kUnmapped);
    EXPECT_EQ(query::coreClassOf(K::kGemm), query::CoreClass::AiCore);
    EXPECT_EQ(query::coreClassOf(K::kFlashAttention), query::CoreClass::Mix);
    EXPECT_EQ(query::coreClassOf(K::kVector), query::CoreClass::AiVector);
    EXPECT_EQ(query::coreClassOf(K::kNccl), query::CoreClass::Communication);
    EXPECT_EQ(query::coreClassOf(K::kUnmapped), query::CoreClass::Other);
}

// The 2-rank NCCL trace's distributedInfo.pg_config (pg_name "0", pg_desc "default_pg", ranks [0, 1]) becomes the
// group of its NCCL ops: a parallel_group row, the ops tagged with the double hash of the pg_name as Ascend ops are,
// and comm_group / comm_group_rank resolved from it. The control trace has no pg_config and no group args.
TEST(KinetoImport, ProcessGroupsFromPgConfig)
{
    auto db = openFolder(dataDir() / "kineto_nccl_2rank");
    ASSERT_TRUE(db);
    EXPECT_EQ(rows(*db, "SELECT raw_name, name, global_ranks FROM parallel_group"),
        (std::vector<std::string> { "0|default_pg|0,1" }));
    const std::string hash = groupDoubleHashText("0");
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op WHERE group_hash = '" + hash + "'"),
        count(*db, "SELECT COUNT(*) FROM comm_op WHERE group_hash IS NOT NULL"));
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM comm_op WHERE group_hash = '" + hash + "'"), 0);
    EXPECT_EQ(rows(*db, "SELECT name, ranks_source FROM comm_group WHERE group_hash = '" + hash + "'"),
        (std::vector<std::string> { "default_pg|metadata" }));
    EXPECT_EQ(rows(*db,
                  "SELECT local_rank || ':' || global_rank FROM comm_group_rank WHERE group_hash = '" + hash
                      + "' ORDER BY local_rank"),
        (std::vector<std::string> { "0:0", "1:1" }));

    auto control = openFolder(dataDir() / "kineto_trace_diff" / "control");
    ASSERT_TRUE(control);
    EXPECT_EQ(count(*control, "SELECT COUNT(*) FROM parallel_group"), 0);
}

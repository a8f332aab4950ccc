// SPDX-License-Identifier: Apache-2.0
// PyTorch profiler (Kineto) GPU traces: detection by content, and what the importer writes (counts and spot values
// read from the HTA sample files).
#include "GzJson.h"
#include "TestSupport.h"
#include "npuscope/core/GroupHash.h"
#include "npuscope/io/detect/FileSniffer.h"
#include "npuscope/io/kineto/KinetoKernelClass.h"
#include "npuscope/query/MemoryQuery.h"
#include "npuscope/query/OperatorQuery.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

using namespace npuscope;
using namespace npuscope::test;

namespace {

int64_t nsOf(const nlohmann::json& us) { return std::llround(us.get<double>() * 1000.0); }

// The name of the innermost complete event of the thread (pid, tid) holding ts: the shortest one, then the latest.
std::string innermostAt(const nlohmann::json& events, int64_t pid, int64_t tid, int64_t ts)
{
    std::string name = "<none>";
    int64_t bestDur = INT64_MAX, bestTs = INT64_MIN;
    for (const auto& e : events) {
        if (e.value("ph", "") != "X" || !e["pid"].is_number_integer() || e["pid"].get<int64_t>() != pid
            || !e["tid"].is_number_integer() || e["tid"].get<int64_t>() != tid)
            continue;
        const int64_t start = nsOf(e["ts"]);
        const int64_t dur = e.contains("dur") ? nsOf(e["dur"]) : 0;
        // ±1 ns: the double reading of a 13-digit µs value with 3 decimals.
        const bool holds = (start <= ts + 1 && ts < start + dur) || (dur == 0 && std::llabs(start - ts) <= 1);
        if (holds && (dur < bestDur || (dur == bestDur && start > bestTs))) {
            bestDur = dur;
            bestTs = start;
            name = e.value("name", "");
        }
    }
    return name;
}

// The importer's flows of one category: "flow_id|src_ts|dst_ts|src slice name|dst slice name", by id.
std::map<std::string, std::vector<std::string>> flowsOf(model::Database& db, const std::string& cat)
{
    std::map<std::string, std::vector<std::string>> out;
    for (auto& r : rows(db,
             "SELECT f.flow_id, f.src_pid, f.src_tid, f.src_ts, f.dst_pid, f.dst_tid, f.dst_ts, ss.value, ds.value "
             "FROM flow f LEFT JOIN slice a ON a.id = f.src_slice_id LEFT JOIN string ss ON ss.id = a.name_id "
             "LEFT JOIN slice b ON b.id = f.dst_slice_id LEFT JOIN string ds ON ds.id = b.name_id WHERE f.cat = '"
                 + cat + "'")) {
        const std::string id = r.substr(0, r.find('|'));
        out[id].push_back(r);
    }
    return out;
}

} // namespace

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

// fwdbwd flows (forward op -> backward op) of the 2-rank NCCL sample: one arrow per s / f pair of the file, with the
// times of its two events and the slices the independent reading finds at them.
TEST(KinetoImport, FwdBwdFlowsAreThoseOfTheFile)
{
    const auto path = dataDir() / "kineto_nccl_2rank" / "nccl_data.json.gz";
    const nlohmann::json trace = readJsonMaybeGz(path);
    const auto& events = trace["traceEvents"];
    std::map<std::string, const nlohmann::json*> starts, finishes;
    for (const auto& e : events) {
        if (e.value("cat", "") != "fwdbwd")
            continue;
        const std::string id = std::to_string(e["id"].get<int64_t>());
        (e["ph"] == "s" ? starts : finishes)[id] = &e;
    }
    ASSERT_EQ(starts.size(), 543u);
    ASSERT_EQ(finishes.size(), 543u);

    auto db = openFolder(path.parent_path());
    ASSERT_TRUE(db);
    const auto flows = flowsOf(*db, "fwdbwd");
    ASSERT_EQ(flows.size(), starts.size());
    int checked = 0;
    for (const auto& [id, s] : starts) {
        const auto f = finishes.find(id);
        ASSERT_NE(f, finishes.end()) << id;
        const auto it = flows.find(id);
        ASSERT_NE(it, flows.end()) << id;
        ASSERT_EQ(it->second.size(), 1u) << id;
        std::vector<std::string> cells;
        std::stringstream row(it->second.front());
        for (std::string cell; std::getline(row, cell, '|');)
            cells.push_back(cell);
        ASSERT_EQ(cells.size(), 9u) << it->second.front();
        const int64_t srcPid = (*s)["pid"].get<int64_t>(), srcTid = (*s)["tid"].get<int64_t>();
        const int64_t dstPid = (*f->second)["pid"].get<int64_t>(), dstTid = (*f->second)["tid"].get<int64_t>();
        const int64_t srcTs = nsOf((*s)["ts"]), dstTs = nsOf((*f->second)["ts"]);
        EXPECT_EQ(std::stoll(cells[1]), srcPid) << id;
        EXPECT_EQ(std::stoll(cells[2]), srcTid) << id;
        EXPECT_LE(std::llabs(std::stoll(cells[3]) - srcTs), 1) << id;
        EXPECT_EQ(std::stoll(cells[4]), dstPid) << id;
        EXPECT_EQ(std::stoll(cells[5]), dstTid) << id;
        EXPECT_LE(std::llabs(std::stoll(cells[6]) - dstTs), 1) << id;
        EXPECT_EQ(cells[7], innermostAt(events, srcPid, srcTid, srcTs)) << id;
        EXPECT_EQ(cells[8], innermostAt(events, dstPid, dstTid, dstTs)) << id;
        ++checked;
        if (checked >= 60)
            break; // innermostAt scans every event: a sample of the ids is enough for the binding
    }
    // Every arrow has both ends on a slice; the launch arrows are still one per launched GPU activity.
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM flow WHERE cat = 'fwdbwd' AND src_slice_id IS NOT NULL AND dst_slice_id IS "
                  "NOT NULL"),
        543);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM flow WHERE cat NOT IN ('fwdbwd', 'ac2g')"), 0);
}

// "[memory]" instant events: the GPU's samples are memory_record rows (MB of 2^20 bytes) with their peaks; the CPU's
// are not imported. Expected values from an nlohmann reading of the file.
TEST(KinetoImport, MemoryEventsAreMemoryRecords)
{
    const auto dir = dataDir() / "kineto_memory";
    const nlohmann::json trace = readJsonMaybeGz(dir / "memory.pt.trace.json");
    std::vector<std::string> expected;
    double peakReserved = 0, peakAllocated = 0;
    int cpu = 0;
    for (const auto& e : trace["traceEvents"]) {
        if (e.value("name", "") != "[memory]")
            continue;
        const auto& a = e["args"];
        if (a["Device Type"].get<int>() == 0) {
            ++cpu;
            continue;
        }
        const double allocated = a["Total Allocated"].get<double>() / (1024.0 * 1024.0);
        const double reserved = a["Total Reserved"].get<double>() / (1024.0 * 1024.0);
        peakReserved = std::max(peakReserved, reserved);
        peakAllocated = std::max(peakAllocated, allocated);
        std::ostringstream row;
        row << nsOf(e["ts"]) << "|" << allocated << "|" << reserved << "|GPU:" << a["Device Id"].get<int>();
        expected.push_back(row.str());
    }
    ASSERT_EQ(expected.size(), 3u);
    ASSERT_EQ(cpu, 2);

    auto db = openFolder(dir);
    ASSERT_TRUE(db);
    std::vector<std::string> got;
    auto st = db->prepare(
        "SELECT ts, allocated_mb, reserved_mb, device FROM memory_record WHERE component = 'PTA' ORDER BY ts");
    while (st.step()) {
        std::ostringstream row;
        row << st.int64(0) << "|" << st.real(1) << "|" << st.real(2) << "|" << st.text(3);
        got.push_back(row.str());
    }
    EXPECT_EQ(got, expected);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM memory_record"), 3);
    // The peak the memory views and npuscope-cli diff read, from memory_peak and from the rows alike.
    for (auto source : { query::MemoryQuery::Source::Aggregate, query::MemoryQuery::Source::Records }) {
        const auto peaks = query::MemoryQuery::peaks(*db, std::nullopt, source);
        ASSERT_EQ(peaks.size(), 1u);
        ASSERT_TRUE(peaks[0].peakReservedMb.has_value());
        EXPECT_DOUBLE_EQ(*peaks[0].peakReservedMb, peakReserved);
        ASSERT_TRUE(peaks[0].peakAllocatedMb.has_value());
        EXPECT_DOUBLE_EQ(*peaks[0].peakAllocatedMb, peakAllocated);
    }
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE message LIKE '2 [memory] events of the CPU%'"), 1);

    // Its fwdbwd arrow: from the forward aten::mm to MmBackward0 on the autograd thread; the ac2g events of the file
    // are not read (the launch arrow is rebuilt from the correlation id: one).
    EXPECT_EQ(rows(*db,
                  "SELECT f.flow_id, ss.value, ds.value FROM flow f JOIN slice a ON a.id = f.src_slice_id JOIN string "
                  "ss ON ss.id = a.name_id JOIN slice b ON b.id = f.dst_slice_id JOIN string ds ON ds.id = b.name_id "
                  "WHERE f.cat = 'fwdbwd'"),
        (std::vector<std::string> { "7|aten::mm|MmBackward0" }));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM flow WHERE cat = 'ac2g'"), 1);
}

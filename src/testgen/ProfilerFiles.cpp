// SPDX-License-Identifier: Apache-2.0
// The small per-rank files of the cluster generator: writeText (one whole file through Out), the timestamp in a
// rank folder's name, profiler_info_<rank>.json, profiler_metadata.json (parallel_group_info) and
// step_trace_time.csv.
#include "ClusterGeneratorParts.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>

namespace npuscope::testgen::detail {

namespace {

using Json = nlohmann::ordered_json;

} // namespace

bool writeText(const fs::path& path, const std::string& text, std::string& error)
{
    Out out(path);
    if (!out.ok()) {
        error = "cannot create " + path.string();
        return false;
    }
    out << text;
    return out.close(error);
}

std::string folderTimestamp(int64_t epochNs)
{
    using namespace std::chrono;
    const sys_time<milliseconds> tp { milliseconds(epochNs / kMs) };
    const auto day = floor<days>(tp);
    const year_month_day ymd { day };
    const hh_mm_ss<milliseconds> hms { tp - day };
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d%02u%02u%02lld%02lld%02lld%03lld", static_cast<int>(ymd.year()),
        static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
        static_cast<long long>(hms.hours().count()), static_cast<long long>(hms.minutes().count()),
        static_cast<long long>(hms.seconds().count()), static_cast<long long>(hms.subseconds().count()));
    return buf;
}

std::string profilerInfo(int rank, int64_t endNs, uint64_t seed)
{
    Json j;
    j["config"]["common_config"]["activities"] = { "ProfilerActivity.CPU", "ProfilerActivity.NPU" };
    j["config"]["common_config"]["schedule"]
        = Json { { "wait", 0 }, { "active", 1 }, { "warmup", 10 }, { "repeat", 1 }, { "skip_first", 40 } };
    j["config"]["common_config"]["record_shapes"] = true;
    j["config"]["common_config"]["profile_memory"] = true;
    j["config"]["common_config"]["with_stack"] = false;
    j["config"]["common_config"]["with_flops"] = false;
    j["config"]["common_config"]["with_modules"] = false;
    auto& e = j["config"]["experimental_config"];
    e["_profiler_level"] = "Level1";
    e["_aic_metrics"] = "ACL_AICORE_PIPE_UTILIZATION";
    e["_l2_cache"] = false;
    e["_msprof_tx"] = false;
    e["_data_simplification"] = true;
    e["record_op_args"] = false;
    e["_export_type"] = "text";
    e["_op_attr"] = false;
    e["_gc_detect_threshold"] = nullptr;
    const int64_t monotonicEnd
        = 172164265133640 + static_cast<int64_t>(mix(seed, static_cast<uint64_t>(rank)) % 1000000000u);
    const int64_t duration = 700 * kMs;
    j["start_info"] = Json { { "syscnt_enable", true }, { "freq", 100 },
        { "start_cnt", (monotonicEnd - duration) / 10 }, { "start_monotonic", monotonicEnd - duration } };
    j["end_info"] = Json { { "collectionTimeEnd", endNs }, { "MonotonicTimeEnd", monotonicEnd } };
    j["rank_id"] = rank;
    return j.dump(4);
}

std::string profilerMetadata(const Cluster& c, int rank)
{
    const auto& L = c.layout;
    Json j;
    j["distributed_args"] = Json { { "tensor_model_parallel_size", L.tp }, { "pipeline_model_parallel_size", L.pp },
        { "data_parallel_size", L.dp }, { "context_parallel_size", 1 }, { "expert_model_parallel_size", 1 },
        { "sequence_parallel", false }, { "rank", rank }, { "world_size", L.world } };
    j["ENV_VARIABLES"] = Json { { "ASCEND_GLOBAL_LOG_LEVEL", "3" }, { "HCCL_RDMA_TC", "" }, { "HCCL_RDMA_SL", "" },
        { "ACLNN_CACHE_LIMIT", "" }, { "HOST_CACHE_CAPACITY", "" }, { "ASCEND_ENHANCE_ENABLE", "" },
        { "PYTORCH_NPU_ALLOC_CONF", "expandable_segments:True" }, { "ASCEND_LAUNCH_BLOCKING", "" } };
    auto entry = [&](const Group& g) {
        return Json { { "group_name", g.name }, { "group_rank", g.localOf(rank) }, { "global_ranks", g.ranks } };
    };
    Json groups = Json::object();
    groups[L.defaultGroup.raw] = entry(L.defaultGroup);
    for (int gi : L.rankGroups[static_cast<size_t>(rank)]) {
        if (gi >= 0)
            groups[L.groups[static_cast<size_t>(gi)].raw] = entry(L.groups[static_cast<size_t>(gi)]);
    }
    j["parallel_group_info"] = std::move(groups);
    return j.dump(4);
}

std::string stepTraceCsv(const std::vector<StepPlan>& steps)
{
    std::string s = "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                    "Communication(Not Overlapped and Exclude Receive),Preparing\n";
    for (const auto& sp : steps) {
        const int64_t stage = sp.computing + sp.notOverlapped + sp.free - sp.bubble;
        s += std::to_string(sp.step) + "," + usText(sp.computing) + "," + usText(sp.notOverlapped) + ","
            + usText(sp.overlapped) + "," + usText(sp.comm) + "," + usText(sp.free) + "," + usText(stage) + ","
            + usText(sp.bubble) + "," + usText(sp.notOverlapped - sp.receive) + "," + usText(sp.prep) + "\n";
    }
    return s;
}

} // namespace npuscope::testgen::detail

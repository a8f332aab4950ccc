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

namespace {

// The UTC date and time of epochNs: year, month, day, hours, minutes, seconds, milliseconds.
struct DateParts {
    int year;
    unsigned month, day;
    long long hours, minutes, seconds, millis;
};

DateParts dateParts(int64_t epochNs)
{
    using namespace std::chrono;
    const sys_time<milliseconds> tp { milliseconds(epochNs / kMs) };
    const auto day = floor<days>(tp);
    const year_month_day ymd { day };
    const hh_mm_ss<milliseconds> hms { tp - day };
    return { static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
        static_cast<long long>(hms.hours().count()), static_cast<long long>(hms.minutes().count()),
        static_cast<long long>(hms.seconds().count()), static_cast<long long>(hms.subseconds().count()) };
}

// "2025-01-09 07:48:00", as the old profiler writes its times.
std::string dateTimeText(int64_t epochNs)
{
    const auto d = dateParts(epochNs);
    char buf[64];
    std::snprintf(
        buf, sizeof buf, "%04d-%02u-%02u %02lld:%02lld:%02lld", d.year, d.month, d.day, d.hours, d.minutes, d.seconds);
    return buf;
}

} // namespace

std::string folderTimestamp(int64_t epochNs)
{
    const auto d = dateParts(epochNs);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d%02u%02u%02lld%02lld%02lld%03lld", d.year, d.month, d.day, d.hours, d.minutes,
        d.seconds, d.millis);
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

// MindSpore 2.x (FORMATS.md §2.3): the rank under ms_profiler_info, the versions at the top level.
std::string msProfilerInfo(const Cluster& c, int rank, int64_t endNs)
{
    Json j;
    j["profiler_parameters"] = Json { { "output_path", "./profiler_data" }, { "profiler_level", "Level1" },
        { "activities", { "CPU", "NPU" } }, { "profile_memory", true }, { "with_stack", false },
        { "data_process", true }, { "parallel_strategy", false }, { "aic_metrics", "PipeUtilization" },
        { "l2_cache", false }, { "export_type", Json::array({ "text" }) }, { "data_simplification", true } };
    j["ms_profiler_info"] = Json { { "context_mode", "GRAPH" }, { "rank_id", rank },
        { "device_id", rank % kRanksPerServer }, { "rank_size", c.layout.world } };
    j["cann_profiler_info"] = Json { { "collectionTimeEnd", endNs } };
    j["analysis_cost_time"] = 12.5;
    j["ms_version"] = "2.5.0";
    j["cann_version"] = "8.0.0";
    j["jit_level"] = "O0";
    return j.dump(4);
}

// The old profiler (FORMATS.md §2.2): rank_id as a string, the parallel layout as MindSpore describes it.
std::string legacyProfilerInfo(const Cluster& c, int rank, int64_t endNs)
{
    Json j;
    j["context_mode"] = "graph";
    j["rank_id"] = std::to_string(rank);
    j["rank_size"] = c.layout.world;
    j["parallel_mode"] = c.layout.world > 1 ? "semi_auto_parallel" : "stand_alone";
    j["stage_num"] = c.layout.pp;
    j["profiling_stop_time"] = dateTimeText(endNs);
    j["graph_ids"] = Json::array({ 0 });
    j["analyse_end_time"] = dateTimeText(endNs + 30000 * kMs);
    return j.dump();
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

// SPDX-License-Identifier: Apache-2.0
// What the parts of the cluster generator share: the seeded hash helpers and time units, the cluster layout (groups
// of ranks), the planned steps (kernels, communication ops and their links) the two planners produce and every file
// writer reads, the buffered output file, and the entry points of the planners (RankPlanner.cpp, PipelinePlanner.cpp)
// and of the per-file writers that ClusterGenerator.cpp calls for each rank. Private to src/testgen.
#pragma once

#include "npuscope/testgen/ClusterGenerator.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace npuscope::testgen::detail {

namespace fs = std::filesystem;

constexpr int kFirstStep = 50;
constexpr int kRanksPerServer = 8;
constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000000;
constexpr int kDpOps = 2;

inline uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

inline uint64_t mix(uint64_t a, uint64_t b) { return splitmix(a ^ splitmix(b + 0x632be59bd9b4e019ull)); }

// [0, 1) from 53 random bits; avoids std::uniform_real_distribution, whose output differs by library.
inline double unit(uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

// ---- text formatting ----

// ClusterModel.cpp
std::string usText(int64_t ns);
std::string fixed(double v, int decimals);

inline double round4(double v) { return static_cast<double>(static_cast<int64_t>(v * 10000.0 + 0.5)) / 10000.0; }
inline double nsToMs(int64_t ns) { return static_cast<double>(ns) / 1e6; }

// ---- cluster layout ----

enum GroupKind { TpGroup = 0, DpGroup = 1, PpGroup = 2 };

struct Group {
    std::string raw, name, hash;
    uint64_t hashValue = 0;
    int code3 = 100;
    std::vector<int> ranks; // ascending global ranks; local rank = index
    int localOf(int global) const // ranks.size() when global is not in the group
    {
        const auto it = std::lower_bound(ranks.begin(), ranks.end(), global);
        return static_cast<int>((it != ranks.end() && *it == global ? it : ranks.end()) - ranks.begin());
    }
};

struct Layout {
    int pp = 1, tp = 1, dp = 1, world = 1;
    Group defaultGroup;
    std::vector<Group> groups;
    std::vector<std::array<int, 3>> rankGroups; // per rank: group index for tp/dp/pp, -1 when size 1
    int stage(int r) const { return r / (tp * dp); }
};

// ClusterModel.cpp
Layout buildLayout(int pp, int tp, int dp);

// ---- per rank plan ----

struct KernelType {
    const char* type;
    const char* core;
    double weight;
    const char* inShapes;
    const char* inTypes;
    const char* inFormats;
    const char* outShapes;
    const char* fullName = nullptr; // torch_npu's aclnn<Api>_<Impl>_<Type> name (pipeline schedule kernels)
};

// The first kRandomKernelTypes entries are the ones the flat (pp = 1) step draws at random; the rest only appear in
// the pipeline schedule.
constexpr size_t kRandomKernelTypes = 10;
enum PipeKernelType {
    kMatMulV2 = 0,
    kFlashAttentionScore = 1,
    kAdd = 2,
    kMul = 3,
    kCast = 4,
    kLayerNormV3 = 10,
    kFastGelu,
    kFlashAttentionScoreGrad,
    kLayerNormGradV3,
    kFastGeluGrad,
    kApplyAdamWV2,
};

inline constexpr std::array<KernelType, 16> kKernelTypes { {
    { "MatMulV2", "AI_CORE", 3.0, "4096,4096;4096,11008", "BF16;BF16", "ND;ND", "4096,11008" },
    { "FlashAttentionScore", "MIX_AIC", 4.0, "4096,1,4096;4096,1,4096;4096,1,4096", "BF16;BF16;BF16", "ND;ND;ND",
        "4096,1,4096" },
    { "Add", "AI_VECTOR_CORE", 0.4, "4096,1,4096;4096,1,4096", "BF16;BF16", "ND;ND", "4096,1,4096" },
    { "Mul", "AI_VECTOR_CORE", 0.4, "4096,1,4096;4096,1,4096", "BF16;BF16", "ND;ND", "4096,1,4096" },
    { "Cast", "AI_VECTOR_CORE", 0.3, "4096,1,4096", "FLOAT", "ND", "4096,1,4096" },
    { "RmsNorm", "AI_VECTOR_CORE", 0.6, "4096,1,4096;4096", "BF16;BF16", "ND;ND", "4096,1,4096" },
    { "SoftmaxV2", "AI_VECTOR_CORE", 0.8, "32,4096,4096", "BF16", "ND", "32,4096,4096" },
    { "SwiGlu", "AI_VECTOR_CORE", 0.7, "4096,1,22016", "BF16", "ND", "4096,1,11008" },
    { "TransData", "AI_VECTOR_CORE", 0.3, "32,3,224,224", "FLOAT", "NCHW", "32,1,224,224,16" },
    { "GroupedMatmul", "AI_CORE", 2.5, "4096,4096;8,4096,1408", "BF16;BF16", "ND;ND", "4096,1408" },
    { "LayerNormV3", "AI_VECTOR_CORE", 0.5, "4096,1,4096;4096;4096", "BF16;BF16;BF16", "ND;ND;ND", "4096,1,4096",
        "aclnnLayerNorm_LayerNormV3_LayerNormV3" },
    { "FastGelu", "AI_VECTOR_CORE", 0.7, "4096,1,11008", "BF16", "ND", "4096,1,11008",
        "aclnnFastGelu_FastGelu_FastGelu" },
    { "FlashAttentionScoreGrad", "MIX_AIC", 8.0, "4096,1,4096;4096,1,4096;4096,1,4096;4096,1,4096",
        "BF16;BF16;BF16;BF16", "ND;ND;ND;ND", "4096,1,4096",
        "aclnnFlashAttentionScoreGrad_FlashAttentionScoreGrad_FlashAttentionScoreGrad" },
    { "LayerNormGradV3", "AI_VECTOR_CORE", 1.0, "4096,1,4096;4096,1,4096;4096", "BF16;BF16;FLOAT", "ND;ND;ND",
        "4096,1,4096", "aclnnLayerNormBackward_LayerNormGradV3_LayerNormGradV3" },
    { "FastGeluGrad", "AI_VECTOR_CORE", 0.9, "4096,1,11008;4096,1,11008", "BF16;BF16", "ND;ND", "4096,1,11008",
        "aclnnFastGeluBackward_FastGeluGrad_FastGeluGrad" },
    { "ApplyAdamWV2", "AI_VECTOR_CORE", 3.0, "16777216;16777216;16777216;16777216", "FLOAT;FLOAT;FLOAT;FLOAT",
        "ND;ND;ND;ND", "16777216", "aclnnApplyAdamWV2_ApplyAdamWV2_ApplyAdamWV2" },
} };

struct Kernel {
    int64_t ts = 0, dur = 0, waitNs = 0;
    int type = 0;
    int taskId = 0;
    int nameIndex = 0; // < 0: the type's full aclnn name without a counter (pipeline schedule)
    bool lateLaunch = false; // --late-launch-rank: the host launched it late (see lateLaunchDelay)
};

// --late-launch-rank keeps the rank's timing (its collectives stay in step with its peers'): the idle time a late
// launch adds is taken back from the durations of the kernel and those after it in the run, each giving up to half.
struct LateLaunchDebt {
    int64_t owed = 0;
    int64_t pay(int64_t late, int64_t dur)
    {
        owed += late;
        const int64_t paid = std::min(owed, dur / 2);
        owed -= paid;
        return dur - paid;
    }
};

struct LinkInst {
    int srcLocal = 0, dstLocal = 0, srcGlobal = 0, dstGlobal = 0;
    std::string transport;
    double sizeMb = 0;
    int64_t timeNs = 0;
    double bandwidth() const { return timeNs > 0 ? sizeMb / nsToMs(timeNs) : 0.0; } // MB/ms = GB/s
};

struct CommOp {
    std::string type; // allReduce, send, receive
    int group = 0; // index into Layout::groups
    bool p2p = false;
    int index = 0; // op counter inside the group (key "_<index>_1")
    int64_t ts = 0, wait = 0, transit = 0, sync = 0, idle = 0;
    int64_t elapse() const { return wait + transit + idle; }
    std::vector<LinkInst> links; // first entry is the LOCAL self link (pipeline p2p ops too)
    int64_t overlapped = 0;
    std::vector<std::pair<int64_t, int64_t>> notOverlapped; // [start, end) segments
};

struct StepPlan {
    int step = 0;
    int64_t start = 0, prep = 0, end = 0;
    std::vector<Kernel> kernels; // sorted by ts, never overlapping
    std::vector<CommOp> ops; // sorted by ts, never overlapping
    int64_t computing = 0, comm = 0, overlapped = 0, notOverlapped = 0, free = 0, bubble = 0, receive = 0;
};

struct Cluster {
    GeneratorOptions options; // microbatches resolved (2 * pp when 0)
    Layout layout;
    int kernelsPerStep = 24;
    int64_t epochBase = 0;
    std::vector<std::vector<int64_t>> compute; // [rank][step] ns
    std::vector<int64_t> rankStart; // first step start per rank
};

// ClusterModel.cpp: the late-launch delay, op names, links, and the overlap analysis that ends every planned step.
int64_t lateLaunchDelay(const GeneratorOptions& o, int rank, size_t index);
std::string opKey(const Cluster& c, const CommOp& op);
std::string lowerType(const std::string& t);
LinkInst makeLink(const Cluster& c, const Group& g, int srcGlobal, int dstGlobal, double sizeMb, uint64_t opSalt);
void allReduceLinks(const Cluster& c, const Group& g, int rank, double dataMb, uint64_t salt, CommOp& op);
void finishStep(StepPlan& sp);

// ---- planners ----

// RankPlanner.cpp: one rank's steps of a flat (pp = 1) cluster.
std::vector<StepPlan> planRank(const Cluster& c, int rank);
// PipelinePlanner.cpp: every rank's steps of a pp > 1 cluster at once, [rank][step].
std::vector<std::vector<StepPlan>> planPipeline(const Cluster& c);

// ---- file writers ----

// A file written through a 1 MB buffer; bytes() counts everything written so far, flushed or not.
class Out {
public:
    explicit Out(const fs::path& path)
        : m_stream(path, std::ios::binary | std::ios::trunc)
        , m_path(path)
    {
        m_buf.reserve(1 << 20);
    }
    bool ok() const { return m_stream.good(); }
    Out& operator<<(const std::string& s)
    {
        m_buf += s;
        maybeFlush();
        return *this;
    }
    Out& operator<<(const char* s)
    {
        m_buf += s;
        maybeFlush();
        return *this;
    }
    Out& operator<<(char ch)
    {
        m_buf += ch;
        return *this;
    }
    Out& operator<<(int64_t v) { return *this << std::to_string(v); }
    Out& operator<<(int v) { return *this << std::to_string(v); }
    uint64_t bytes() const { return m_flushed + m_buf.size(); }
    bool close(std::string& error)
    {
        flush();
        m_stream.close();
        if (!m_stream) {
            error = "cannot write " + m_path.string();
            return false;
        }
        return true;
    }

private:
    void maybeFlush()
    {
        if (m_buf.size() >= (1u << 20))
            flush();
    }
    void flush()
    {
        m_stream.write(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
        m_flushed += m_buf.size();
        m_buf.clear();
    }
    std::ofstream m_stream;
    fs::path m_path;
    std::string m_buf;
    uint64_t m_flushed = 0;
};

// ProfilerFiles.cpp: writeText, the rank folder's timestamp, profiler_info_<rank>.json, profiler_metadata.json and
// step_trace_time.csv.
bool writeText(const fs::path& path, const std::string& text, std::string& error);
std::string folderTimestamp(int64_t epochNs);
std::string profilerInfo(int rank, int64_t endNs, uint64_t seed);
std::string profilerMetadata(const Cluster& c, int rank);
std::string stepTraceCsv(const std::vector<StepPlan>& steps);

// KernelDetails.cpp: kernel_details.csv and op_statistic.csv, and the FLOPs of a kernel (its ArithmeticUtilization
// PMU columns; MindSpore's FLOPs files use the same figures).
std::string kernelName(const Kernel& k);
struct KernelFlops {
    int64_t aicCube = 0, aicVector = 0, aivVector = 0; // floating-point operations of one execution
};
KernelFlops kernelFlops(const Cluster& c, int rank, const Kernel& k);
bool writeKernelDetails(
    const fs::path& path, const Cluster& c, int rank, const std::vector<StepPlan>& steps, std::string& error);
std::string opStatisticCsv(const std::vector<StepPlan>& steps);

// CommunicationJson.cpp: communication.json and communication_matrix.json.
std::string communicationJson(const Cluster& c, const std::vector<StepPlan>& steps);
std::string matrixJson(const Cluster& c, const std::vector<StepPlan>& steps);

// MemoryFiles.cpp: memory_record.csv and npu_module_mem.csv.
std::string memoryRecordCsv(int device, const std::vector<StepPlan>& steps, uint64_t salt, double factor);
std::string npuModuleMemCsv(int device, const std::vector<StepPlan>& steps, double factor);

// TraceView.cpp: trace_view.json, streamed to out (with MindSpore's framework process and flows when
// c.options.format is MindSpore).
void writeTraceView(Out& out, const Cluster& c, int rank, const std::vector<StepPlan>& steps);

// AnalysisDb.cpp: analysis.db, from the text exports of the same rank.
bool writeAnalysisDb(const fs::path& path, const std::string& stepCsv, const std::string& commJson,
    const std::string& matrixJson, std::string& error);

// ---- MindSpore forms ----

// MindSporeFiles.cpp: what both MindSpore forms share. A kernel's MindSpore names: "MatMulV2-op12" (its type and
// 1-based place in the step, the same every step as in graph mode) and its full scope name
// ("Default/network-WithLossCell/_backbone-Transformer/layer1-TransformerLayer/MatMulV2-op12"; backward kernels under
// "Gradients/...", the optimizer's under "Default/optimizer-AdamWeightDecay/"). Forward, backward and optimizer are
// told apart by the share of the step's kernel time done (kForwardShare, kBackwardEndShare: the planners' split).
constexpr double kForwardShare = 0.32;
constexpr double kBackwardEndShare = 0.92;
struct MsKernelName {
    std::string name, fullName;
};
std::vector<MsKernelName> msKernelNames(const StepPlan& sp);
// Where backward ends (MindSpore's bp_point): the end of the kernel that completes kBackwardEndShare of the step's
// kernel time; the step's first task when it has no kernels.
int64_t backwardEndNs(const StepPlan& sp);
// The data pipeline of a rank (the same dataset chain on every rank; queue sizes from the rank's own steps):
// minddata_pipeline_raw_{id}.csv, minddata_cpu_utilization_{id}.json and device_queue_profiling_{id}.txt.
std::string minddataPipelineCsv(const Cluster& c, int rank, const std::vector<StepPlan>& steps);
std::string minddataCpuJson(const Cluster& c, int rank, const std::vector<StepPlan>& steps);
std::string deviceQueueText(const Cluster& c, int rank, const std::vector<StepPlan>& steps);
// flops_{id}.txt (cube / vector form, one line per distinct op), flops_summary_{id}.json (old and new keys) and
// flops_scope_{id}.json (the FLOPs under each name scope).
std::string opFlopsText(const Cluster& c, int rank, const std::vector<StepPlan>& steps);
std::string flopsSummaryJson(const Cluster& c, int rank, const std::vector<StepPlan>& steps);
std::string flopsScopeJson(const Cluster& c, int rank, const std::vector<StepPlan>& steps);
// MindSpore's memory files of the old layout (MemoryUsageParser's form, one line each): the details hold one graph
// (id 0) whose nodes are the first step's ops in order with the memory in use at each (GiB: the static memory plus
// activations that grow through forward and are freed through backward); the summary gives the capacity (64 GiB),
// the largest line value as peak_mem, the static memory, and one allocation and one free per node.
std::string memoryUsageDetailsJson(const Cluster& c, int rank, const std::vector<StepPlan>& steps);
std::string memoryUsageSummaryJson(const Cluster& c, int rank, const std::vector<StepPlan>& steps);
// A double as Python's json module writes it (shortest round trip, "1.0" for whole numbers).
std::string pyFloat(double v);

// ProfilerFiles.cpp: profiler_info_{rank}.json of MindSpore 2.x (ms_profiler_info) and of the old profiler (rank_id
// as a string, rank_size, parallel_mode, stage_num).
std::string msProfilerInfo(const Cluster& c, int rank, int64_t endNs);
std::string legacyProfilerInfo(const Cluster& c, int rank, int64_t endNs);

// StrategyFiles.cpp: the rank's parallel_strategy_{rank}.json (GeneratorOptions::strategyNodes nodes per stage).
bool writeStrategyFile(const Cluster& c, int rank, const fs::path& path, std::string& error);

// MindSporeLegacy.cpp: one rank's files in its host's cluster_profiler/<host>/profiler/ folder, and the job's rank
// table (hccl.json) and host_ips_mapping.txt.
std::string legacyHostId(int rank); // the host_ips_mapping.txt id of the rank's server ("1" for ranks 0-7)
bool writeLegacyRank(
    const Cluster& c, int rank, const std::vector<StepPlan>& steps, const fs::path& root, std::string& error);
bool writeLegacyJobFiles(const Cluster& c, const fs::path& root, std::string& error);

} // namespace npuscope::testgen::detail

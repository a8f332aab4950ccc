// SPDX-License-Identifier: Apache-2.0
// kernel_details.csv and op_statistic.csv of a generated rank: the kernel and communication rows of every step in
// time order with plausible PMU columns (PipeUtilization, or ArithmeticUtilization with FLOPs for --flops), and
// the per-type kernel statistics.
#include "ClusterGeneratorParts.h"

#include <limits>
#include <map>

namespace npuscope::testgen::detail {

namespace {

// Full names of the flat step's types when the pipeline schedule uses them.
constexpr std::array<const char*, 5> kPipeBaseNames { "aclnnMatmul_MatMulCommon_MatMulV2",
    "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore", "aclnnAdd_AddAiCore_Add",
    "aclnnMul_MulAiCore_Mul", "aclnnCast_CastAiCore_Cast" };

const char* kKernelHeader
    = "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait "
      "Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output "
      "Data Types,Output Formats,Context "
      "ID,aicore_time(us),aic_total_cycles,aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,aic_"
      "mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,aic_icache_"
      "miss_rate,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,aiv_"
      "mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,cube_utilization(%)\n";

// The same columns with aic_metrics=ArithmeticUtilization (FORMATS.md §6.1, the early-2024 33-column header's PMU
// part): FLOPs per kernel in aic/aiv_cube_fops and aic/aiv_vector_fops.
const char* kKernelHeaderFlops
    = "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait "
      "Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output "
      "Data Types,Output Formats,Context ID,aicore_time(us),aic_total_cycles,aic_mac_fp16_ratio,aic_mac_int8_ratio,"
      "aic_cube_fops,aic_vector_fops,aiv_time(us),aiv_total_cycles,aiv_vec_fp32_ratio,aiv_vec_fp16_ratio,"
      "aiv_vec_int32_ratio,aiv_vec_misc_ratio,aiv_cube_fops,aiv_vector_fops\n";
constexpr int kPmuColumns = 25; // PipeUtilization columns after Context ID
constexpr int kPmuColumnsFlops = 14; // ArithmeticUtilization columns after Context ID

} // namespace

std::string kernelName(const Kernel& k)
{
    const auto& kt = kKernelTypes[static_cast<size_t>(k.type)];
    if (k.nameIndex < 0)
        return kt.fullName ? kt.fullName : kPipeBaseNames[static_cast<size_t>(k.type)];
    return std::string(kt.type) + "_" + std::to_string(k.nameIndex);
}

namespace {

// The PMU columns of one kernel row as both column sets write them: which units the kernel ran on, its seeded
// ratios, and the text the columns are appended to (each with its leading comma).
struct PmuColumns {
    PmuColumns(const Kernel& k, uint64_t seed)
        : us(static_cast<double>(k.dur) / 1000.0)
        , aic(std::string(kKernelTypes[static_cast<size_t>(k.type)].core) != "AI_VECTOR_CORE")
        , aiv(std::string(kKernelTypes[static_cast<size_t>(k.type)].core) != "AI_CORE")
        , salt(seed)
    {
    }
    double r(int i) const { return 0.05 + 0.9 * unit(mix(salt, static_cast<uint64_t>(i))); }
    void add(const std::string& v) { text += "," + v; }
    // Appends a unit's time (µs: share of the kernel's duration) and total cycles (1.8 GHz times cores); returns
    // the time.
    double addTime(double share, int cores)
    {
        const double t = us * share;
        add(fixed(t, 3));
        add(std::to_string(static_cast<int64_t>(t * 1800.0 * cores)));
        return t;
    }

    double us;
    bool aic, aiv;
    uint64_t salt;
    std::string text;
};

// 13 aic + 11 aiv PMU columns + cube_utilization, plausible for the core type.
std::string pmuColumns(const Kernel& k, uint64_t salt)
{
    PmuColumns p(k, salt);
    // A unit's time, cycles, `pairs` (time, ratio) pairs from ratio `first` on and icache miss rate (ratio `miss`);
    // zeros when the kernel did not run on it.
    const auto unitColumns = [&p](bool ran, double share, int cores, int pairs, int first, int miss) {
        if (!ran) {
            p.add("0.0");
            p.add("0");
            for (int i = 0; i < 2 * pairs + 1; ++i)
                p.add("0.0");
            return;
        }
        const double t = p.addTime(share, cores);
        for (int i = first; i < first + pairs; ++i) {
            p.add(fixed(t * p.r(i), 3));
            p.add(fixed(p.r(i), 3));
        }
        p.add(fixed(p.r(miss) * 0.01, 3));
    };
    unitColumns(p.aic, 0.97, 24, 5, 0, 9);
    unitColumns(p.aiv, 0.95, 48, 4, 10, 20);
    p.add(p.aic ? fixed(40.0 + 50.0 * p.r(21), 3) : "0");
    return p.text;
}

// The seeded salt of a kernel's PMU figures: the same for its kernel_details row and MindSpore's FLOPs files.
uint64_t kernelSalt(const Cluster& c, int rank, const Kernel& k)
{
    return mix(c.options.seed, static_cast<uint64_t>(rank) * 1000003u + static_cast<uint64_t>(k.taskId));
}

// 14 ArithmeticUtilization columns: times and cycles as pmuColumns, the FLOPs of kernelFlops.
std::string pmuColumnsFlops(const Kernel& k, uint64_t salt, const KernelFlops& f)
{
    PmuColumns p(k, salt);
    if (p.aic) {
        p.addTime(0.97, 24);
        p.add(fixed(p.r(0), 3));
        p.add("0.0");
        p.add(std::to_string(f.aicCube));
        p.add(std::to_string(f.aicVector));
    } else {
        for (const char* v : { "0.0", "0", "0.0", "0.0", "0", "0" })
            p.add(v);
    }
    if (p.aiv) {
        p.addTime(0.95, 48);
        for (int i = 0; i < 4; ++i)
            p.add(fixed(p.r(10 + i) * 0.25, 3));
        p.add("0");
        p.add(std::to_string(f.aivVector));
    } else {
        for (const char* v : { "0.0", "0", "0.0", "0.0", "0.0", "0.0", "0", "0" })
            p.add(v);
    }
    return p.text;
}

} // namespace

// FLOPs from the kernel's duration (a cube kernel at ~60 % of a 910B-class AI Core's ~300 TFLOPS fp16 peak per 24
// cores, vector kernels far lower), times kFlopsLightFactor on --flops-light-rank.
KernelFlops kernelFlops(const Cluster& c, int rank, const Kernel& k)
{
    const GeneratorOptions& o = c.options;
    const double flopsFactor
        = o.flopsLightRank && *o.flopsLightRank == rank ? GeneratorOptions::kFlopsLightFactor : 1.0;
    const auto& kt = kKernelTypes[static_cast<size_t>(k.type)];
    const uint64_t salt = kernelSalt(c, rank, k);
    const double us = static_cast<double>(k.dur) / 1000.0;
    auto r = [&](int i) { return 0.05 + 0.9 * unit(mix(salt, static_cast<uint64_t>(i))); };
    auto fops = [&](double perUs) { return static_cast<int64_t>(us * perUs * flopsFactor); };
    KernelFlops f;
    if (std::string(kt.core) != "AI_VECTOR_CORE") {
        f.aicCube = fops(1.8e8 * (0.8 + 0.2 * r(1)));
        f.aicVector = fops(2.0e6 * r(2));
    }
    if (std::string(kt.core) != "AI_CORE")
        f.aivVector = fops(6.0e6 * (0.8 + 0.2 * r(14)));
    return f;
}

bool writeKernelDetails(
    const fs::path& path, const Cluster& c, int rank, const std::vector<StepPlan>& steps, std::string& error)
{
    Out out(path);
    if (!out.ok()) {
        error = "cannot create " + path.string();
        return false;
    }
    const GeneratorOptions& o = c.options;
    const bool flops = o.flops || o.flopsLightRank;
    out << (flops ? kKernelHeaderFlops : kKernelHeader);
    // A communication row leaves Mix Block Dim .. Context ID (9 columns) and every PMU column N/A.
    std::string na;
    for (int i = 0; i < 9 + (flops ? kPmuColumnsFlops : kPmuColumns); ++i)
        na += ",N/A";
    for (const auto& sp : steps) {
        size_t ki = 0;
        size_t oi = 0;
        while (ki < sp.kernels.size() || oi < sp.ops.size()) {
            const bool kernelNext
                = oi >= sp.ops.size() || (ki < sp.kernels.size() && sp.kernels[ki].ts <= sp.ops[oi].ts);
            std::string row = std::to_string(sp.step) + ",4294967295,";
            if (kernelNext) {
                const Kernel& k = sp.kernels[ki++];
                const auto& kt = kKernelTypes[static_cast<size_t>(k.type)];
                const uint64_t salt = kernelSalt(c, rank, k);
                row += std::to_string(k.taskId) + ",2," + kernelName(k) + "," + kt.type + ",dynamic," + kt.core + ","
                    + usText(k.ts) + "\t," + usText(k.dur) + "," + usText(k.waitNs) + ","
                    + std::to_string(std::string(kt.core) == "AI_CORE" ? 24 : 48) + ","
                    + (std::string(kt.core).rfind("MIX", 0) == 0 ? "48" : "0") + ","
                    + (std::string(kt.core) == "AI_CORE" ? "YES" : "NO") + ",\"\"\"" + kt.inShapes + "\"\"\","
                    + kt.inTypes + "," + kt.inFormats + ",\"\"\"" + kt.outShapes + "\"\"\"," + "BF16,ND,N/A"
                    + (flops ? pmuColumnsFlops(k, salt, kernelFlops(c, rank, k)) : pmuColumns(k, salt));
            } else {
                const CommOp& op = sp.ops[oi++];
                row += "N/A,N/A," + opKey(c, op) + ",hcom_" + op.type + "_,N/A,HCCL," + usText(op.ts) + "\t,"
                    + usText(op.elapse()) + ",0.0,0" + na;
            }
            out << row << "\n";
        }
    }
    return out.close(error);
}

std::string opStatisticCsv(const std::vector<StepPlan>& steps)
{
    struct Stat {
        int64_t count = 0, total = 0, min = std::numeric_limits<int64_t>::max(), max = 0;
    };
    std::map<int, Stat> stats;
    int64_t all = 0;
    for (const auto& sp : steps) {
        for (const auto& k : sp.kernels) {
            auto& st = stats[k.type];
            ++st.count;
            st.total += k.dur;
            st.min = std::min(st.min, k.dur);
            st.max = std::max(st.max, k.dur);
            all += k.dur;
        }
    }
    std::vector<std::pair<int, Stat>> rows(stats.begin(), stats.end());
    std::stable_sort(
        rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.total > b.second.total; });
    std::string s = "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n";
    for (const auto& [type, st] : rows) {
        const auto& kt = kKernelTypes[static_cast<size_t>(type)];
        s += std::string(kt.type) + "," + kt.core + "," + std::to_string(st.count) + "," + usText(st.total) + ","
            + usText(st.min) + "," + usText(st.total / st.count) + "," + usText(st.max) + ","
            + fixed(100.0 * static_cast<double>(st.total) / static_cast<double>(std::max<int64_t>(1, all)), 3) + "\n";
    }
    return s;
}

} // namespace npuscope::testgen::detail

// SPDX-License-Identifier: Apache-2.0
// The memory files of a generated rank: memory_record.csv (PTA allocation and APP reservation curves, scaled up
// on --memory-heavy-rank) and npu_module_mem.csv (the CANN modules' reservations).
#include "ClusterGeneratorParts.h"

namespace npuscope::testgen::detail {

std::string memoryRecordCsv(int device, const std::vector<StepPlan>& steps, uint64_t salt, double factor)
{
    std::string s
        = "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n";
    const std::string dev = "NPU:" + std::to_string(device);
    int i = 0;
    for (const auto& sp : steps) {
        for (int q = 0; q < 4; ++q, ++i) {
            const int64_t ts = sp.start + (sp.end - sp.start) * q / 4;
            const double alloc = factor
                * (18000.0 + 9000.0 * (q == 2 ? 1.0 : 0.4) + 200.0 * unit(mix(salt, static_cast<uint64_t>(i))));
            s += "PTA," + usText(ts) + "\t," + fixed(alloc, 4) + "," + fixed(32768.0 * factor, 4) + ","
                + fixed(alloc + 512.0, 4) + ",187651225116672," + dev + "\n";
            s += "APP," + usText(ts + 20 * kUs) + "\t,," + fixed(factor * 34000.0 + alloc / 100.0, 4) + ",,," + dev
                + "\n";
        }
    }
    return s;
}

// The CANN modules of the real sample, except APP, which reserves what memory_record.csv's APP rows reach (factor ×
// 34,000 MB plus at most 1 % of the PTA allocation). The two files do not measure the same thing: on rank 0 of the real
// sample (tests/data/torch_npu_2rank_level1) npu_module_mem's APP peaks at 1,452 MB and memory_record's APP reserved at
// 2,113.7 MB. Here they are equal, so that a generated rank's module table is at least of the curve's size (it was
// the real 2,109.6 MB beside a 34,000 MB curve).
std::string npuModuleMemCsv(int device, const std::vector<StepPlan>& steps, double factor)
{
    std::string s = "Component,Timestamp(us),Total Reserved(MB),Device\n";
    const std::array<std::pair<const char*, double>, 5> modules { { { "SLOG", 0.0 }, { "HCCL", 612.5 },
        { "RUNTIME", 301.25 }, { "GE", 96.0 }, { "APP", factor * (34000.0 + 272.0) } } };
    for (const auto& sp : steps) {
        for (const auto& [name, mb] : modules)
            s += std::string(name) + "," + usText(sp.start) + "\t," + fixed(mb, 4) + ",NPU:" + std::to_string(device)
                + "\n";
    }
    return s;
}

} // namespace npuscope::testgen::detail

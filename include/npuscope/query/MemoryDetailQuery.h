// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/Downsample.h"
#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

// The three memory_record columns drawn as curves.
enum class MemoryMetric { Allocated, Reserved, Active };
constexpr int kMemoryMetricCount = 3;
const char* memoryMetricName(MemoryMetric m); // "Allocated", "Reserved", "Active"

// One memory_record series of a rank: one component (APP, PTA, GE, PTA+GE, as the data holds them) and one metric,
// sorted by time (epoch ns); values in MB (2^20 bytes). Samples whose cell is empty are left out.
struct MemoryCurve {
    std::string component;
    MemoryMetric metric = MemoryMetric::Allocated;
    std::vector<core::CurvePoint> points;
};

// One step of a rank on the profile clock: the "ProfilerStep#N" slice of its timeline (trace_view.json or a db
// export's timeline), [begin, end) epoch ns.
struct MemoryStep {
    int64_t step = 0;
    int64_t begin = 0;
    int64_t end = 0;
};

// Flags of an operator_memory row (bit set; docs/metrics.md "Inefficient memory blocks").
enum OperatorMemoryFlag : uint32_t {
    // The block went back to the pool (Active Release Time) well after the tensor was freed (Release Time):
    // active release − release ≥ kLateReturnMinNs and ≥ kLateReturnFraction × (release − allocation).
    LateReturn = 1u << 0,
    // Allocated inside the profile but not freed before it ended (no release time), and at least
    // kHeldToEndMinKb large: it stays on the device for the rest of the run (weights, caches, or a leak).
    HeldToEnd = 1u << 1,
};
constexpr int64_t kLateReturnMinNs = 1'000'000; // 1 ms
constexpr double kLateReturnFraction = 0.25;
constexpr double kHeldToEndMinKb = 1024.0; // 1 MB

// One operator_memory row (operator_memory.csv). Times epoch ns, durations ns, absent = nullopt.
struct OperatorMemoryRow {
    std::string name;
    std::optional<double> sizeKb;
    std::optional<int64_t> allocTs;
    std::optional<int64_t> releaseTs; // the tensor was freed (nullopt: not inside the profile)
    std::optional<int64_t> activeReleaseTs; // the block went back to the allocator's pool
    std::optional<int64_t> dur; // Duration: release − allocation
    std::optional<int64_t> activeDur; // Active Duration: active release − allocation
    std::optional<double> allocAllocatedMb, allocReservedMb; // Allocation Total Allocated / Reserved
    std::optional<double> releaseAllocatedMb, releaseReservedMb; // Release Total Allocated / Reserved
    std::string component; // "GE" for torch_npu's "cann::" rows (CANN / GE memory), else "PTA"
    std::string device; // Device Type, e.g. NPU:0
    uint32_t flags = 0; // OperatorMemoryFlag bits
};

// Flags of one row by the rules above.
uint32_t operatorMemoryFlags(const OperatorMemoryRow& row);
// "late return, held to end" style text of flags ("" for none).
std::string operatorMemoryFlagText(uint32_t flags);

// One CANN module of npu_module_mem (SLOG, HCCL, RUNTIME, ...): its Total Reserved series (MB, epoch ns), the
// largest sample and the last one.
struct ModuleMemory {
    std::string module;
    std::vector<core::CurvePoint> points;
    double peakMb = 0;
    int64_t peakTs = 0; // the first sample of the peak
    double lastMb = 0;
};

// Everything the memory detail view shows of one rank.
struct MemoryDetail {
    int64_t rank = 0;
    std::vector<MemoryCurve> curves; // by component then metric
    std::vector<MemoryStep> steps; // by step
    std::vector<OperatorMemoryRow> blocks; // by allocation time
    std::vector<ModuleMemory> modules; // by peak, largest first
    bool hasTimeline = false; // the rank's timeline is imported (else steps are empty because it is not)
};

// The memory_record, operator_memory and npu_module_mem rows of one rank (and its step boundaries). memory_record and
// operator_memory rows are deferred: import the rank's Memory group first (load::Loader::loadDeferred with
// io::kMemoryGroup). Caller holds the database lock (or owns the database); any thread.
class MemoryDetailQuery {
public:
    static std::vector<MemoryCurve> curves(model::Database& db, int64_t rank);
    // Steps from the rank's "ProfilerStep#N" slices; empty while its timeline is not imported.
    static std::vector<MemoryStep> steps(model::Database& db, int64_t rank);
    // operator_memory rows, flagged; with a window [begin, end) only the blocks allocated or released (Release Time
    // or Active Release Time) inside it.
    static std::vector<OperatorMemoryRow> blocks(
        model::Database& db, int64_t rank, std::optional<std::pair<int64_t, int64_t>> window = std::nullopt);
    static std::vector<ModuleMemory> modules(model::Database& db, int64_t rank);
    // True when a block was allocated or released inside [begin, end).
    static bool inWindow(const OperatorMemoryRow& row, int64_t begin, int64_t end);
    static MemoryDetail detail(model::Database& db, int64_t rank);
};

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/StepQuery.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

// The step components a comparison reports, in report order (docs/metrics.md, "Comparing two runs").
enum class DiffComponent { Step, Computing, CommunicationNotOverlapped, Overlapped, Free, Bubble, Preparing };
constexpr std::size_t kDiffComponentCount = 7;
// JSON key: "step_ms", "computing_ms", "communication_not_overlapped_ms", "overlapped_ms", "free_ms", "bubble_ms",
// "preparing_ms".
const char* diffComponentKey(DiffComponent c);
// Words for the text form: "step", "computing", "communication not overlapped", ...
const char* diffComponentTitle(DiffComponent c);

// One side's step figures (ms) by DiffComponent; nullopt when the side's files do not have the column.
struct DiffBreakdown {
    std::array<std::optional<double>, kDiffComponentCount> ms {};
    std::optional<double> value(DiffComponent c) const { return ms[static_cast<std::size_t>(c)]; }
};

// new − base; nullopt when either side lacks the value.
std::optional<double> diffDelta(const DiffBreakdown& base, const DiffBreakdown& neu, DiffComponent c);
// (new − base) ÷ base × 100; nullopt when either side lacks the value or base is 0.
std::optional<double> diffDeltaPct(const DiffBreakdown& base, const DiffBreakdown& neu, DiffComponent c);

// The step split (StepSplit parts, ns) of one side's figures, as the overview's donut draws it: computing not
// overlapped = computing − overlapped (at least 0), absent parts 0.
StepSplit splitOfDiff(const DiffBreakdown& b);

struct RankDiff {
    int64_t rank = 0; // the base rank id (= the new rank id unless two single-rank inputs were paired)
    int64_t newRank = 0;
    DiffBreakdown base, neu;
};

// One operator key (a category, an op type or a kernel name) of both sides: per rank and per step, over the steps
// chosen for each side (docs/metrics.md). count is a mean, so it can be fractional.
struct OperatorDiff {
    std::string key;
    std::string category; // kernels and types: the category of the first kernel seen with the key
    double baseMs = 0, newMs = 0;
    double baseCount = 0, newCount = 0;
    double deltaMs() const { return newMs - baseMs; }
};

// Communication ops of one op type and group, per rank and per step (ms); bandwidth = Σ size ÷ Σ transit time of the
// ops' bandwidth rows (GB/s, 10^3-based as the Ascend files), nullopt without any.
struct CommDiff {
    std::string opType;
    std::string group; // the '@' group hash (Ascend) / process group name (Kineto), "" when absent
    double baseCount = 0, newCount = 0;
    double baseElapseMs = 0, newElapseMs = 0;
    double baseTransitMs = 0, newTransitMs = 0;
    double baseWaitMs = 0, newWaitMs = 0;
    std::optional<double> baseBandwidthGbps, newBandwidthGbps;
};

struct MemoryDiff {
    int64_t rank = 0;
    std::optional<double> basePeakMb, newPeakMb; // query::MemoryQuery peak reserved
};

// The allocations of one operator name on one rank (operator_memory rows: Σ Size and the row count) over each side's
// whole profiled window (operator_memory rows carry no step), MB = 2^20 bytes; 0 on a side without rows of the name.
struct MemoryOperatorDiff {
    int64_t rank = 0; // the base rank id
    std::string name;
    double baseMb = 0, newMb = 0;
    int64_t baseCount = 0, newCount = 0;
    double deltaMb() const { return newMb - baseMb; }
};

// What was compared on one side.
struct DiffSide {
    std::vector<int64_t> ranks; // ranks with step rows, ascending
    std::optional<int64_t> step; // the chosen step, nullopt: the mean per step over stepCount steps
    int64_t stepCount = 0; // numbered steps averaged (0: the input has no step numbers, its whole range is one step)
    int64_t kernelRanks = 0; // ranks with kernel rows in the chosen steps
    int64_t kernelRows = 0;
    std::vector<std::string> profilerLevels; // distinct rank.profiler_level values (Level0, Level1, ...), ascending
};

// The comparison of two loaded inputs. Times in ms.
struct RunDiff {
    DiffSide base, neu;
    DiffBreakdown clusterBase, clusterNew; // mean over the matched ranks
    std::vector<RankDiff> ranks; // matched ranks, by base rank id
    std::vector<int64_t> unmatchedBase, unmatchedNew; // ranks only one side has
    std::vector<OperatorDiff> categories, types, kernels; // every key, ordered by |Δ| descending, then key
    std::vector<OperatorDiff> unmapped; // GPU kernels no category rule matched (GPU_UNMAPPED), either side
    std::vector<CommDiff> communication; // by |Δ elapse| descending
    std::vector<MemoryDiff> memory; // matched ranks with a peak on either side
    // Every (matched rank, operator name) with operator_memory rows on either side, by |Δ MB| descending, then rank and
    // name: the operators whose allocation changed most come first.
    std::vector<MemoryOperatorDiff> memoryOperators;
};

// Compares a base and a new input, each already loaded (summary and, for the operator level, the Kernels group; for
// the memory operators, the Memory group) in its own database. Ranks are matched by rank id; when each side has exactly
// one rank the two are compared whatever their ids. Without a step each side is the mean per step over all its numbered
// steps. Both databases are read at the same time, on two threads, each under its own lock (taken here); call from
// any thread but the GUI thread (it runs SQL).
class RunComparison {
public:
    struct Options {
        std::optional<int64_t> stepBase, stepNew;
    };
    static RunDiff compare(model::Database& base, model::Database& neu, const Options& options);
};

} // namespace npuscope::query

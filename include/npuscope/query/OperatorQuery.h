// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npuscope::query {

// What an operator row is keyed by: the kernel's Type, its Name, or its Name and Input Shapes.
enum class OperatorGroupBy { Type, Name, Shape };

// "type" / "name" / "shape", the CLI's --group-by values and the JSON "group_by".
std::string_view groupByName(OperatorGroupBy by);
std::optional<OperatorGroupBy> groupByFromName(std::string_view name);

// The accelerator core classes of the operator pie, from kernel.accelerator_core (kernel_details.csv "Accelerator
// Core", op_summary "Task Type", the db exports' task type): AI_CORE; AI_VECTOR_CORE; MIX_AIC and MIX_AIV; AI_CPU;
// HCCL and COMMUNICATION; anything else (DSA_SQE, N/A, absent) is Other. PyTorch Kineto GPU kernels map onto the
// same classes (docs/metrics.md, "GPU kernels"): GPU_GEMM and GPU_CONV -> AI Core (cube), GPU_VECTOR -> AI Vector,
// GPU_FLASH_ATTENTION -> MIX, NCCL -> communication; GPU_UNMAPPED, GPU_MEMCPY and GPU_MEMSET -> Other.
enum class CoreClass { AiCore, AiVector, Mix, AiCpu, Communication, Other };
constexpr size_t kCoreClassCount = 6;
CoreClass coreClassOf(std::string_view acceleratorCore);
// "AI Core", "AI Vector", "MIX", "AI CPU", "communication", "other".
std::string_view coreClassName(CoreClass c);

// The rank of a row aggregated over every rank (OperatorQuery::aggregate).
constexpr int64_t kAllRanks = -1;

// One key of one rank (or of every rank: rank kAllRanks) over every loaded step. Times in ns; a kernel whose Wait
// Time is absent counts 0 wait.
struct OperatorRow {
    int64_t rank = 0;
    std::string key;
    int64_t count = 0;
    int64_t totalNs = 0;
    int64_t minNs = 0;
    int64_t maxNs = 0;
    int64_t waitNs = 0; // sum of the kernels' Wait Time
    // Smallest and largest Block Dim of the key's kernels; -1 when none has one.
    int64_t blockDimMin = -1;
    int64_t blockDimMax = -1;
    // The key's Input Shapes when grouped by name + shapes (empty otherwise, and for a kernel without shapes).
    std::string shapes;
    // The distinct accelerator_core values of the key's kernels, in first-seen order, joined with ", " (empty when
    // none has one).
    std::string accelerator;
    // From MindSpore's per-op FLOPs file (op_flops), joined by kernel Name = the file's op full name on the same rank
    // (docs/metrics.md, "FLOPs per op"): Σ over the row's distinct kernel names found in the file of their FLOPs, and
    // that ÷ Σ of each name's FLOPs ÷ its FLOPS (FLOP/s). nullopt when none of the names is in a FLOPs file (or, for
    // the rate, when a name has no positive FLOPS).
    std::optional<double> flops;
    std::optional<double> flopsPerSecond;
    // total ÷ count rounded to the nearest ns (half away from zero); 0 when count is 0.
    int64_t meanNs() const;
};

// A key of the base rank matched with the same key of the compare rank. A key only one rank has is still a row: the
// other side has count 0 and total 0 (base is then a row of count 0 whose min/max/mean mean nothing).
struct OperatorCompareRow {
    OperatorRow base; // base.rank is the base rank
    int64_t compareRank = 0;
    int64_t compareCount = 0;
    int64_t compareTotalNs = 0;
    int64_t diffNs() const { return compareTotalNs - base.totalNs; }
};

// One slice of an operator pie: a key (or "other") and its total (ns).
struct OperatorShare {
    std::string label;
    int64_t totalNs = 0;
};

// Operator figures from the kernel table (kernel_details.csv, op_summary, the db exports' kernel tables): count, total,
// mean, min, max and wait per rank and key, and the comparison of two ranks. The kernel rows are read once into a
// compact index (ids instead of strings) kept in the database's cache slot (model::Database::cached), so a regroup or a
// compare is one pass over the rows with a hash map and no SQL. Immutable after build; any thread.
class OperatorQuery {
public:
    // Loads the index; the caller holds the database lock.
    static std::shared_ptr<const OperatorQuery> build(model::Database& db);
    // The index of this database, built on first use (taking db.lock()) and shared until the model changes. Any
    // thread; once built no database lock is taken.
    static std::shared_ptr<const OperatorQuery> forDatabase(model::Database& db);

    // Rows per rank and key over every loaded step, of one rank or every rank: ordered by rank, then total
    // descending, then key.
    std::vector<OperatorRow> group(OperatorGroupBy by, std::optional<int64_t> rank = std::nullopt) const;
    // The keys of baseRank and compareRank matched (the union of both ranks' keys), ordered by difference descending
    // (the compare rank's extra time first), then key.
    std::vector<OperatorCompareRow> compare(OperatorGroupBy by, int64_t baseRank, int64_t compareRank) const;

    // Rows per key summed over every rank (rank kAllRanks): count, total and wait summed, min / max over all ranks;
    // ordered by total descending, then key. Equals summing group(by)'s rows of each key.
    std::vector<OperatorRow> aggregate(OperatorGroupBy by) const;
    // Σ Duration per CoreClass (indexed by the enum) of one rank's kernels, or of every rank's.
    std::array<int64_t, kCoreClassCount> coreTotals(std::optional<int64_t> rank = std::nullopt) const;

    // The n rows with the largest total (ties: key ascending), in rows' order; all rows when n is 0 or >= the count.
    static std::vector<OperatorRow> largest(std::vector<OperatorRow> rows, size_t n);
    // The n compare rows with the largest |difference| (ties: key ascending), in rows' order: both the keys the
    // comparison rank spends more on and those it spends less on stay; all rows when n is 0 or >= the count.
    static std::vector<OperatorCompareRow> largest(std::vector<OperatorCompareRow> rows, size_t n);
    // A pie of the rows' totals: the n largest keys by total (descending), then "other" with the sum of the rest
    // when there is a rest. Rows with total <= 0 fold into "other"; the shares sum to the rows' total.
    static std::vector<OperatorShare> topShares(const std::vector<OperatorRow>& rows, size_t n);

    // Kernel rows in the index.
    size_t size() const { return m_kernels.size(); }
    // Ranks that have kernel rows, ascending.
    std::vector<int64_t> ranks() const;

private:
    struct Kernel {
        int32_t rank = 0;
        int32_t key[3] = { -1, -1, -1 }; // key id per OperatorGroupBy, into m_keys
        int32_t blockDim = -1;
        int32_t core = -1; // index into m_cores, -1 when absent
        int64_t durNs = 0;
        int64_t waitNs = 0;
    };
    struct Accumulator {
        int64_t count = 0, totalNs = 0, minNs = 0, maxNs = 0, waitNs = 0;
        int64_t blockDimMin = -1, blockDimMax = -1;
        // Bit i: a kernel with m_cores[i] (the last bit stands for every value from index 63 on).
        uint64_t cores = 0;
        void add(const Kernel& k);
        void merge(const Accumulator& a);
    };
    // Per (rank, key id) accumulators of the kernels that pass the rank filter, in first-seen order.
    template <typename Keep>
    std::vector<std::pair<uint64_t, Accumulator>> accumulate(OperatorGroupBy by, Keep keep) const;
    OperatorRow row(uint64_t packed, const Accumulator& a, OperatorGroupBy by) const;
    int32_t intern(std::string s);
    // Joins op_flops to the kernels' names (m_keyFlops); after the kernels are read.
    void joinFlops(model::Database& db);
    void fillFlops(OperatorRow& r, uint64_t packed, OperatorGroupBy by) const;

    std::vector<Kernel> m_kernels;
    std::vector<std::string> m_keys;
    // Input Shapes of a name + shapes key id (empty for the other keys), parallel to m_keys.
    std::vector<std::string> m_keyShapes;
    // Distinct accelerator_core values, and their CoreClass.
    std::vector<std::string> m_cores;
    std::vector<CoreClass> m_coreClass;
    std::unordered_map<std::string, int32_t> m_keyIds;
    // FLOPs of a key on a rank (rank kAllRanks: every rank), per OperatorGroupBy, from op_flops.
    struct FlopsSum {
        double flops = 0;
        double seconds = 0;
        bool rateKnown = true;
    };
    std::array<std::unordered_map<uint64_t, FlopsSum>, 3> m_keyFlops;
};

} // namespace npuscope::query

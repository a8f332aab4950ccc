// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

class CommLinkIndex;
class CommOpIndex;

// The communication selection the analysis views share. Every field nullopt = no restriction.
struct CommSelection {
    std::optional<int64_t> step; // nullopt: every step (sums over steps)
    std::optional<std::string> groupHash; // the "@<number>" group id
    // One concrete op, the op key without "@hash" (e.g. "hcom_allReduce__586_0_1"); nullopt: all ops.
    std::optional<std::string> opName;
};

// What the matrix aggregates when no concrete op is selected.
struct MatrixOp {
    std::optional<std::string> opType; // nullopt: "Total" = every op type's total slot
    std::string slot = "total"; // with opType: total | top1 | middle | bottom1 | bottom2 | bottom3
};

// Bandwidth of sizeMb moved in timeNs, in GB/s (MB / ms); nullopt when the time is not positive.
std::optional<double> bandwidthGbpsOf(double sizeMb, int64_t timeNs);

// One src → dst cell of the matrix (global ranks, or group-local ones when CommMatrix::localGroup is set). Several
// links summed: size and time are sums, bandwidth is Σsize / Σtime (MB/ms = GB/s).
struct MatrixCell {
    int64_t src = 0;
    int64_t dst = 0;
    std::string transport; // LOCAL | HCCS | SDMA | RDMA | ...; "mixed" when the summed links differ
    double sizeMb = 0;
    int64_t timeNs = 0;
    std::string opName; // concrete op of the link (slot links), empty for totals
    int links = 0; // file links summed into the cell
    std::optional<double> bandwidthGbps() const;
};

// A run of consecutive axis positions that belong to one group.
struct AxisBlock {
    size_t begin = 0, end = 0; // [begin, end) into CommMatrix::ranks
    std::string label; // group name or hash
    std::string hash {}; // the group's hash ("" when unknown)
};

struct CommMatrix {
    std::vector<int64_t> ranks; // axis order, shared by rows (src) and columns (dst)
    std::vector<AxisBlock> blocks; // group blocks along the axis (empty when ordered by rank)
    std::string orderedBy; // group name used for the order ("" = rank order)
    std::vector<MatrixCell> cells; // sparse, sorted by (src, dst)
    // Index of the non-LOCAL cell with the lowest bandwidth, nullopt when none.
    std::optional<size_t> slowestCell;
    // Set when the cells are the group-local ranks of this group as written in communication_matrix.json: its
    // global ranks are unknown (no profiler_metadata.json / group list, not every member loaded). "" = no group.
    std::optional<std::string> localGroup;
    // Groups with unknown global ranks whose links are left out because they cannot share an axis with the shown
    // links (global ranks, or another group's local ranks); select one of them to see its local-rank matrix.
    std::vector<std::string> hiddenLocalGroups;
    // "Total Op Info" rows were used because the selection has no per-type total slot (docs/metrics.md).
    bool totalOpInfo = false;
    // Non-LOCAL, off-diagonal cells: what the view shows with the diagonal hidden.
    size_t offDiagonalCells() const;
};

// Entries of the matrix op chooser for one step / group.
struct MatrixOpChoices {
    std::vector<std::string> opTypes; // lower case, e.g. allreduce, send
    std::vector<std::vector<std::string>> typeSlots; // per op type, in top1, middle, bottom1.., total order
    std::vector<std::string> opNames; // concrete ops seen in communication.json (sorted)
};

// Per-rank communication figures over the selected ops (communication.json, non-total ops).
struct RankDuration {
    int64_t rank = 0;
    int64_t opCount = 0;
    int64_t elapseNs = 0, transitNs = 0, waitNs = 0, syncNs = 0, idleNs = 0; // Σ over ops (NULL counts 0)
    // Whether any selected op has the figure at all: MindSpore <= 2.2 hccl_raw gives communication and wait cost
    // only, so its transit, sync and idle sums are "not in these files", not 0.
    bool hasTransit = false, hasWait = false, hasSync = false, hasIdle = false;
    std::optional<double> waitRatio; // Σwait / (Σwait + Σtransit); nullopt without both figures
    std::optional<double> syncRatio; // Σsync / (Σsync + Σtransit); nullopt without both figures
    double sdmaSizeMb = 0, rdmaSizeMb = 0;
    int64_t sdmaTimeNs = 0, rdmaTimeNs = 0;
    std::optional<double> sdmaBandwidthGbps, rdmaBandwidthGbps; // Σsize / Σtime, nullopt when Σtime = 0
};

struct PacketBin {
    double packageMb = 0;
    int64_t count = 0;
    int64_t totalNs = 0;
};

// Size Distribution of one transport summed over the selected ops (and ranks).
struct PacketDistribution {
    std::string transport;
    std::vector<PacketBin> bins; // ascending package size
    int64_t packets = 0;
    // Σ(Large Packet Ratio_op × packets_op) / Σ packets_op over ops that write a ratio: the share of
    // large packets, with each op's own threshold as written by the profiler.
    std::optional<double> largePacketRatio;
};

// One communication op of one rank on the time axis.
struct OpSpan {
    int64_t rank = 0;
    int64_t startNs = 0, elapseNs = 0, waitNs = 0, transitNs = 0;
    int nameIndex = 0; // into OpStrip::names: the same op on every rank shares the index
    std::string groupHash;
};

struct OpStrip {
    std::vector<int64_t> ranks; // ascending
    std::vector<std::string> names;
    std::vector<OpSpan> ops; // by rank, then start
    int64_t beginNs = 0, endNs = 0;
};

struct LinkFilter {
    std::optional<int64_t> step;
    std::optional<std::string> groupHash;
    std::optional<int64_t> rank; // src or dst equals rank (links with local ranks: the rank that wrote them)
    std::optional<int64_t> src, dst;
    std::optional<std::string> transport;
};

// One link of the cluster link table: a (step, group, op type, src, dst) total, or summed over
// steps when no step is selected.
struct LinkRow {
    std::optional<int64_t> step; // nullopt when summed over steps
    std::optional<std::string> groupHash;
    std::string opType; // allreduce, send, ... (or the op name in 2023 builds)
    int64_t src = 0, dst = 0;
    std::string transport;
    double sizeMb = 0;
    int64_t timeNs = 0;
    std::optional<double> bandwidthGbps; // Σsize / Σtime
    std::string slowestOp; // the bottom1 op of the link when the file names one
    // src / dst are group-local ranks as written (the group's global ranks are unknown), not global ranks.
    bool localRanks = false;
};

struct StepOverview {
    int64_t step = 0;
    int ranks = 0;
    int64_t minNs = 0, medianNs = 0, maxNs = 0; // step wall time over ranks
    int64_t minRank = 0, maxRank = 0;
    std::optional<int64_t> slowestRankNs; // TimeOverview::slowestRank's time in this step
    std::optional<double> meanCommNs, meanWaitNs; // mean over ranks of Σ elapse / Σ wait of its ops
};

struct TimeOverview {
    std::optional<int64_t> slowestRank; // largest step time summed over steps
    std::vector<StepOverview> steps;
};

// The communication analysis behind the matrix, duration, links and time overview views and
// `npuscope-cli comm`. Plain functions; the figures are computed once, over the in-memory indexes
// (CommOpIndex, CommLinkIndex): the views call the index overloads, and each model::Database& overload is the
// same function over the database's cached index (built on first use). The SQL these figures were first written
// in is kept as the test oracle (tests/core/query/CommSqlOracle.h). The Database& overloads: any thread holding the
// database lock; the index overloads: any thread, no lock.
class CommAnalysisQuery {
public:
    // sel.opName set: that op's links; else op.opType / op.slot. orderBy: group name whose groups
    // become contiguous axis blocks; "auto" picks the name holding most non-LOCAL volume, "" = rank.
    static CommMatrix matrix(const CommLinkIndex& index, const CommSelection& sel, const MatrixOp& op = {},
        const std::string& orderBy = "auto");
    static CommMatrix matrix(
        model::Database& db, const CommSelection& sel, const MatrixOp& op = {}, const std::string& orderBy = "auto");
    // Sorted by bandwidth ascending (slowest first); links with no time last.
    static std::vector<LinkRow> linkTable(const CommLinkIndex& index, const LinkFilter& filter);
    static std::vector<LinkRow> linkTable(model::Database& db, const LinkFilter& filter);
    static MatrixOpChoices matrixOps(const CommLinkIndex& links, const CommOpIndex& ops, const CommSelection& sel);
    static MatrixOpChoices matrixOps(model::Database& db, const CommSelection& sel);
    // MatrixOpChoices::opNames alone: the concrete ops of the step / group (sel.opName ignored), sorted.
    static std::vector<std::string> opNames(const CommOpIndex& index, const CommSelection& sel);

    static std::vector<RankDuration> durations(const CommOpIndex& index, const CommSelection& sel);
    static std::vector<RankDuration> durations(model::Database& db, const CommSelection& sel);
    static std::vector<PacketDistribution> packets(
        const CommOpIndex& index, const CommSelection& sel, std::optional<int64_t> rank = std::nullopt);
    static std::vector<PacketDistribution> packets(
        model::Database& db, const CommSelection& sel, std::optional<int64_t> rank = std::nullopt);
    static OpStrip opStrip(const CommOpIndex& index, const CommSelection& sel);
    static OpStrip opStrip(model::Database& db, const CommSelection& sel);

    static TimeOverview timeOverview(model::Database& db);
    // Why the model has no communication ops at all (empty when it has some): e.g. a Level0 torch_npu export
    // writes no communication.json. One sentence for the empty communication views.
    static std::string noCommReason(model::Database& db);
};

} // namespace npuscope::query

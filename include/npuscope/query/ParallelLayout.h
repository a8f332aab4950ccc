// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/TrText.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

// Where a ParallelLayout's coordinates came from, in the order ParallelLayoutQuery::layout prefers them
// (docs/metrics.md, "Parallel layout").
enum class LayoutSource {
    UserSizes, // sizes the user entered (override), Megatron order
    ParallelGroups, // profiler_metadata.json parallel_group_info (table parallel_group)
    DistributedArgs, // profiler_metadata.json distributed_args.*_size (table rank_info), Megatron order
    MindSporeStages, // MindSpore parallel_strategy_{rank}.json config.stageDevices (rank_info)
    ClusterAnalyseFiles, // MindInsight ascend_cluster_analyse_pipeline-parallel_{stages}_{ranks}_{id}.csv names
    Fallback, // nothing says otherwise: one stage, DP = world size
};

// "user sizes", "parallel groups", "distributed_args", "MindSpore stageDevices", "pipeline-parallel file names", "fallback".
const char* layoutSourceName(LayoutSource source);

// Parallel degrees. world() = pp × dp × cp × tp; ep splits the dp × cp ranks of a stage for the experts and does
// not multiply the world (Megatron's expert rank generator).
struct ParallelSizes {
    int pp = 1, dp = 1, cp = 1, tp = 1, ep = 1;
    int64_t world() const { return int64_t(pp) * dp * cp * tp; }
    bool operator==(const ParallelSizes&) const = default;
};

// A sentence of the layout (a detail, a note, a reason) in context "ParallelLayout": tmpl is marked with
// QT_TRANSLATE_NOOP("ParallelLayout", ...) at the call, so the GUI shows it translated and the CLI as written.
inline TrText layoutText(const char* tmpl, std::vector<TrText> args = {})
{
    return TrText("ParallelLayout", tmpl, std::move(args));
}

// One rank's position in the job. All indexes 0-based.
struct RankCoord {
    int64_t rank = 0;
    int pp = 0, dp = 0, cp = 0, tp = 0, ep = 0;
    bool loaded = false; // the model holds this rank (a rank of the world whose profile was not opened: false)
};

// One pipeline stage: its ranks ordered by (dp, cp, tp).
struct PipelineStage {
    int index = 0; // pp coordinate
    std::vector<int64_t> ranks; // every rank of the stage in the world
    std::vector<int64_t> loadedRanks; // the subset the model holds, same order
};

struct ParallelLayout {
    LayoutSource source = LayoutSource::Fallback;
    TrText detail; // one sentence: what was read (e.g. "tp/dp/pp groups of profiler_metadata.json"), translatable
    ParallelSizes sizes;
    int64_t worldSize = 0; // sizes.world(), the ranks laid out
    // Every rank of the world, ascending. The world is 0 .. worldSize−1; loaded ranks outside it (a world size that
    // does not cover every loaded rank) make the layout fall back.
    std::vector<RankCoord> ranks;
    std::vector<PipelineStage> stages; // by pp index
    // Why preferred sources were not used (e.g. the entered sizes do not match the world size), one sentence each.
    std::vector<TrText> notes;

    const RankCoord* find(int64_t rank) const; // nullptr when the rank is not in the world
    // The rank at a coordinate (ep ignored), nullopt outside the sizes.
    std::optional<int64_t> rankAt(int pp, int dp, int cp, int tp) const;
};

// A communication group as the layout reads it: its name (tp, dp, pp, cp, exp, dp_cp, ...) and global ranks.
struct NamedGroup {
    std::string name;
    std::vector<int64_t> ranks; // ascending; local rank i is ranks[i]
};

// The layout arithmetic, no database: pure functions, any thread.
class ParallelLayoutMath {
public:
    // Megatron-LM's default order "tp-cp-ep-dp-pp" (parallel_state.initialize_model_parallel, RankGenerator):
    // rank = tp + TP·(cp + CP·(dp + DP·pp)); ep = (rank / TP) mod EP (expert generator with ETP = TP).
    static RankCoord megatronCoord(int64_t rank, const ParallelSizes& sizes);
    static int64_t megatronRank(int pp, int dp, int cp, int tp, const ParallelSizes& sizes);
    // Empty when sizes fit worldSize; else the message the user sees, e.g. "PP 4 × DP 2 × CP 1 × TP 4 = 32 ranks,
    // but the profile has 64 (world size)". Every size must be ≥ 1 and ep must divide dp × cp.
    static TrText validate(const ParallelSizes& sizes, int64_t worldSize, const TrText& worldWhat);
    // The layout of sizes in Megatron order; loadedRanks (ascending) mark RankCoord::loaded.
    static ParallelLayout megatron(
        const ParallelSizes& sizes, const std::vector<int64_t>& loadedRanks, LayoutSource source, TrText detail);
    // Coordinates from the tp / cp / dp / pp / exp groups (other names ignored; dp_cp stands for dp when there is no
    // dp group and CP = 1). A rank that no group of a dimension lists gets the coordinate the groups' common stride
    // gives ((rank / stride) mod size), so one rank's metadata lays out the whole world when the groups are regular.
    // nullopt with *why set when the groups do not make a consistent layout of worldSize ranks.
    static std::optional<ParallelLayout> fromGroups(const std::vector<NamedGroup>& groups,
        const std::vector<int64_t>& loadedRanks, int64_t worldSize, TrText* why);
    // One stage per stageDevices entry (MindSpore), ranks of a stage as DP replicas in listed order.
    static std::optional<ParallelLayout> fromStages(const std::vector<std::vector<int64_t>>& stageDevices,
        const std::vector<int64_t>& loadedRanks, TrText* why);
    // One stage, DP = worldSize.
    static ParallelLayout fallback(const std::vector<int64_t>& loadedRanks, int64_t worldSize);
};

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/ParallelLayout.h"
#include "npuscope/core/EnumNames.h"
#include "npuscope/query/TranslationMarker.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>

namespace npuscope::query {

namespace {

constexpr EnumName<LayoutSource> kSourceNames[] {
    { LayoutSource::UserSizes, QT_TRANSLATE_NOOP("LayoutSource", "user sizes") },
    { LayoutSource::ParallelGroups, QT_TRANSLATE_NOOP("LayoutSource", "parallel groups") },
    { LayoutSource::DistributedArgs, QT_TRANSLATE_NOOP("LayoutSource", "distributed_args") },
    { LayoutSource::MindSporeStages, QT_TRANSLATE_NOOP("LayoutSource", "MindSpore stageDevices") },
    { LayoutSource::ClusterAnalyseFiles, QT_TRANSLATE_NOOP("LayoutSource", "pipeline-parallel file names") },
    { LayoutSource::Fallback, QT_TRANSLATE_NOOP("LayoutSource", "fallback") },
};

} // namespace

const char* layoutSourceName(LayoutSource source) { return nameOf(kSourceNames, source, "fallback"); }

const RankCoord* ParallelLayout::find(int64_t rank) const
{
    // ranks holds 0 .. worldSize-1 in order, so the rank is its index.
    if (rank < 0 || rank >= static_cast<int64_t>(ranks.size()))
        return nullptr;
    return &ranks[static_cast<size_t>(rank)];
}

std::optional<int64_t> ParallelLayout::rankAt(int pp, int dp, int cp, int tp) const
{
    if (pp < 0 || dp < 0 || cp < 0 || tp < 0 || pp >= sizes.pp || dp >= sizes.dp || cp >= sizes.cp || tp >= sizes.tp
        || static_cast<size_t>(pp) >= stages.size())
        return std::nullopt;
    // A complete layout is a bijection, so a stage's ranks ordered by (dp, cp, tp) are indexed by that tuple.
    const auto& stage = stages[static_cast<size_t>(pp)].ranks;
    const auto i = static_cast<size_t>((int64_t(dp) * sizes.cp + cp) * sizes.tp + tp);
    if (i >= stage.size())
        return std::nullopt;
    return stage[i];
}

namespace {

bool isLoaded(const std::vector<int64_t>& loaded, int64_t rank)
{
    return std::binary_search(loaded.begin(), loaded.end(), rank);
}

// Fills stages from ranks (every coordinate set) and checks the layout is a bijection onto the sizes.
bool finish(ParallelLayout& layout, TrText* why)
{
    const auto& s = layout.sizes;
    layout.stages.assign(static_cast<size_t>(s.pp), {});
    for (int p = 0; p < s.pp; ++p)
        layout.stages[static_cast<size_t>(p)].index = p;
    std::vector<const RankCoord*> sorted;
    sorted.reserve(layout.ranks.size());
    for (const auto& c : layout.ranks)
        sorted.push_back(&c);
    std::sort(sorted.begin(), sorted.end(), [](const RankCoord* a, const RankCoord* b) {
        return std::tie(a->pp, a->dp, a->cp, a->tp) < std::tie(b->pp, b->dp, b->cp, b->tp);
    });
    for (size_t i = 0; i < sorted.size(); ++i) {
        const auto* c = sorted[i];
        if (c->pp >= s.pp || c->dp >= s.dp || c->cp >= s.cp || c->tp >= s.tp || c->pp < 0 || c->dp < 0 || c->cp < 0
            || c->tp < 0) {
            if (why)
                *why = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "rank %1 falls outside the sizes"), { std::to_string(c->rank) });
            return false;
        }
        if (i > 0
            && std::tie(c->pp, c->dp, c->cp, c->tp)
                == std::tie(sorted[i - 1]->pp, sorted[i - 1]->dp, sorted[i - 1]->cp, sorted[i - 1]->tp)) {
            if (why)
                *why = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "ranks %1 and %2 get the same coordinates"), { std::to_string(sorted[i - 1]->rank), std::to_string(c->rank) });
            return false;
        }
        auto& stage = layout.stages[static_cast<size_t>(c->pp)];
        stage.ranks.push_back(c->rank);
        if (c->loaded)
            stage.loadedRanks.push_back(c->rank);
    }
    layout.worldSize = static_cast<int64_t>(layout.ranks.size());
    return true;
}

std::string sizesText(const ParallelSizes& s)
{
    std::string t = "PP " + std::to_string(s.pp) + " \u00d7 DP " + std::to_string(s.dp) + " \u00d7 CP "
        + std::to_string(s.cp) + " \u00d7 TP " + std::to_string(s.tp);
    return t;
}

} // namespace

RankCoord ParallelLayoutMath::megatronCoord(int64_t rank, const ParallelSizes& s)
{
    RankCoord c;
    c.rank = rank;
    c.tp = static_cast<int>(rank % s.tp);
    c.cp = static_cast<int>((rank / s.tp) % s.cp);
    c.dp = static_cast<int>((rank / (int64_t(s.tp) * s.cp)) % s.dp);
    c.pp = static_cast<int>(rank / (int64_t(s.tp) * s.cp * s.dp));
    c.ep = static_cast<int>((rank / s.tp) % s.ep);
    return c;
}

int64_t ParallelLayoutMath::megatronRank(int pp, int dp, int cp, int tp, const ParallelSizes& s)
{
    return tp + int64_t(s.tp) * (cp + int64_t(s.cp) * (dp + int64_t(s.dp) * pp));
}

TrText ParallelLayoutMath::validate(const ParallelSizes& s, int64_t worldSize, const TrText& worldWhat)
{
    if (s.pp < 1 || s.dp < 1 || s.cp < 1 || s.tp < 1 || s.ep < 1)
        return layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "every size must be at least 1"));
    if ((int64_t(s.dp) * s.cp) % s.ep != 0)
        return layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "EP %1 must divide DP \u00d7 CP = %2"), { std::to_string(s.ep), std::to_string(int64_t(s.dp) * s.cp) });
    if (s.world() != worldSize)
        return layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "%1 = %2 ranks, but the profile has %3 (%4)"), { sizesText(s), std::to_string(s.world()), std::to_string(worldSize), worldWhat });
    return {};
}

ParallelLayout ParallelLayoutMath::megatron(
    const ParallelSizes& sizes, const std::vector<int64_t>& loadedRanks, LayoutSource source, TrText detail)
{
    ParallelLayout layout;
    layout.source = source;
    layout.detail = std::move(detail);
    layout.sizes = sizes;
    const int64_t world = std::max<int64_t>(sizes.world(), 0);
    layout.ranks.reserve(static_cast<size_t>(world));
    for (int64_t r = 0; r < world; ++r) {
        auto c = megatronCoord(r, sizes);
        c.loaded = isLoaded(loadedRanks, r);
        layout.ranks.push_back(c);
    }
    finish(layout, nullptr); // Megatron order is a bijection by construction
    return layout;
}

std::optional<ParallelLayout> ParallelLayoutMath::fromGroups(
    const std::vector<NamedGroup>& groups, const std::vector<int64_t>& loadedRanks, int64_t worldSize, TrText* why)
{
    enum Dim { Pp, Dp, Cp, Tp, Ep, DimCount };
    static const std::array<const char*, DimCount> kNames { "pp", "dp", "cp", "tp", "exp" };
    std::array<std::set<std::vector<int64_t>>, DimCount> byDim;
    std::set<std::vector<int64_t>> dpCp;
    for (const auto& g : groups) {
        if (g.ranks.empty())
            continue;
        for (int d = 0; d < DimCount; ++d) {
            if (g.name == kNames[static_cast<size_t>(d)])
                byDim[static_cast<size_t>(d)].insert(g.ranks);
        }
        if (g.name == "dp_cp")
            dpCp.insert(g.ranks);
    }
    const bool cpTrivial = std::all_of(byDim[Cp].begin(), byDim[Cp].end(), [](const auto& r) { return r.size() == 1; });
    if (byDim[Dp].empty() && cpTrivial)
        byDim[Dp] = dpCp;
    if (byDim[Pp].empty() && byDim[Dp].empty() && byDim[Tp].empty() && byDim[Cp].empty()) {
        if (why)
            *why = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "no tp, dp, cp or pp group"));
        return std::nullopt;
    }
    std::array<int, DimCount> size {};
    std::array<std::optional<int64_t>, DimCount> stride {};
    std::array<bool, DimCount> known {};
    for (int d = 0; d < DimCount; ++d) {
        const auto& set = byDim[static_cast<size_t>(d)];
        known[static_cast<size_t>(d)] = !set.empty();
        size[static_cast<size_t>(d)] = set.empty() ? 1 : static_cast<int>(set.begin()->size());
        bool regular = true;
        std::optional<int64_t> common;
        for (const auto& ranks : set) {
            if (static_cast<int>(ranks.size()) != size[static_cast<size_t>(d)]) {
                if (why)
                    *why = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "the %1 groups differ in size"), { kNames[static_cast<size_t>(d)] });
                return std::nullopt;
            }
            for (size_t i = 1; i < ranks.size(); ++i) {
                const int64_t step = ranks[i] - ranks[i - 1];
                if (!common)
                    common = step;
                else if (*common != step)
                    regular = false;
            }
        }
        if (regular)
            stride[static_cast<size_t>(d)] = common.value_or(1);
    }
    // Groups of one rank are often not written (and a dimension of size 1 has none); a missing pp, dp or tp takes
    // what the world size leaves when exactly one is missing.
    int64_t product = int64_t(size[Pp]) * size[Dp] * size[Cp] * size[Tp];
    if (product != worldSize && product > 0 && worldSize % product == 0) {
        std::vector<int> missing;
        for (int d : { Pp, Dp, Tp }) {
            if (!known[static_cast<size_t>(d)])
                missing.push_back(d);
        }
        if (missing.size() == 1) {
            size[static_cast<size_t>(missing[0])] = static_cast<int>(worldSize / product);
            product = worldSize;
        }
    }
    ParallelSizes sizes { size[Pp], size[Dp], size[Cp], size[Tp], size[Ep] };
    if (product != worldSize) {
        if (why)
            *why = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "the groups give %1 = %2 ranks, world size %3"), { sizesText(sizes), std::to_string(product), std::to_string(worldSize) });
        return std::nullopt;
    }
    // A dimension without groups is laid out with Megatron's stride for it.
    const std::array<int64_t, DimCount> megatronStride { int64_t(sizes.tp) * sizes.cp * sizes.dp,
        int64_t(sizes.tp) * sizes.cp, sizes.tp, 1, sizes.tp };
    for (int d = 0; d < DimCount; ++d) {
        if (!known[static_cast<size_t>(d)])
            stride[static_cast<size_t>(d)] = megatronStride[static_cast<size_t>(d)];
    }
    // Listed membership first: the index of the rank in its group.
    std::array<std::map<int64_t, int>, DimCount> listed;
    for (int d = 0; d < DimCount; ++d) {
        for (const auto& ranks : byDim[static_cast<size_t>(d)]) {
            for (size_t i = 0; i < ranks.size(); ++i)
                listed[static_cast<size_t>(d)][ranks[i]] = static_cast<int>(i);
        }
    }
    ParallelLayout layout;
    layout.source = LayoutSource::ParallelGroups;
    layout.sizes = sizes;
    layout.ranks.reserve(static_cast<size_t>(worldSize));
    for (int64_t r = 0; r < worldSize; ++r) {
        std::array<int, DimCount> coord {};
        for (int d = 0; d < DimCount; ++d) {
            const auto& m = listed[static_cast<size_t>(d)];
            if (auto it = m.find(r); it != m.end())
                coord[static_cast<size_t>(d)] = it->second;
            else if (const auto s = stride[static_cast<size_t>(d)]; s && *s > 0)
                coord[static_cast<size_t>(d)] = static_cast<int>((r / *s) % size[static_cast<size_t>(d)]);
            else if (d == Ep)
                coord[static_cast<size_t>(d)] = 0;
            else {
                if (why)
                    *why = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "rank %1 is in no %2 group and the groups have no common stride"), { std::to_string(r), kNames[static_cast<size_t>(d)] });
                return std::nullopt;
            }
        }
        layout.ranks.push_back(
            RankCoord { r, coord[Pp], coord[Dp], coord[Cp], coord[Tp], coord[Ep], isLoaded(loadedRanks, r) });
    }
    if (!finish(layout, why))
        return std::nullopt;
    std::string read;
    for (int d = 0; d < DimCount; ++d) {
        if (known[static_cast<size_t>(d)])
            read += (read.empty() ? "" : "/") + std::string(kNames[static_cast<size_t>(d)]);
    }
    layout.detail = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "%1 groups of profiler_metadata.json"), { read });
    return layout;
}

std::optional<ParallelLayout> ParallelLayoutMath::fromStages(
    const std::vector<std::vector<int64_t>>& stageDevices, const std::vector<int64_t>& loadedRanks, TrText* why)
{
    if (stageDevices.empty() || stageDevices.front().empty()) {
        if (why)
            *why = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "stageDevices is empty"));
        return std::nullopt;
    }
    ParallelLayout layout;
    layout.source = LayoutSource::MindSporeStages;
    layout.sizes.pp = static_cast<int>(stageDevices.size());
    layout.sizes.dp = static_cast<int>(stageDevices.front().size());
    std::map<int64_t, RankCoord> coords;
    for (size_t p = 0; p < stageDevices.size(); ++p) {
        if (stageDevices[p].size() != stageDevices.front().size()) {
            if (why)
                *why = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "the stages of stageDevices differ in size"));
            return std::nullopt;
        }
        for (size_t i = 0; i < stageDevices[p].size(); ++i) {
            const int64_t r = stageDevices[p][i];
            if (!coords.emplace(r, RankCoord { r, static_cast<int>(p), static_cast<int>(i), 0, 0, 0, false }).second) {
                if (why)
                    *why = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "rank %1 is in two stages"), { std::to_string(r) });
                return std::nullopt;
            }
        }
    }
    const auto world = static_cast<int64_t>(coords.size());
    if (coords.begin()->first != 0 || coords.rbegin()->first != world - 1) {
        if (why)
            *why = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "stageDevices does not list ranks 0 .. %1"), { std::to_string(world - 1) });
        return std::nullopt;
    }
    for (auto& [r, c] : coords) {
        c.loaded = isLoaded(loadedRanks, r);
        layout.ranks.push_back(c);
    }
    if (!finish(layout, why))
        return std::nullopt;
    layout.detail = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "%1 stage(s) of parallel_strategy stageDevices"), { std::to_string(layout.sizes.pp) });
    return layout;
}

ParallelLayout ParallelLayoutMath::fallback(const std::vector<int64_t>& loadedRanks, int64_t worldSize)
{
    ParallelSizes sizes;
    sizes.dp = static_cast<int>(std::max<int64_t>(worldSize, 1));
    return megatron(sizes, loadedRanks, LayoutSource::Fallback,
        layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "nothing in the data names the parallel layout")));
}

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/ParallelLayoutQuery.h"
#include "npuscope/model/ReadRow.h"
#include "npuscope/query/TranslationMarker.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string_view>

namespace npuscope::query {

namespace {

std::vector<int64_t> loadedRanks(model::Database& db)
{
    return model::readInts(db, "SELECT rank_id FROM rank ORDER BY rank_id");
}

// The integer lists of a text: "0,1,2" or "[0,1,2]" is one list, "[[0,1],[2,3]]" two (each inner bracket one).
std::vector<std::vector<int64_t>> integerLists(std::string_view text)
{
    std::vector<std::vector<int64_t>> lists;
    std::vector<int64_t> current;
    int depth = 0;
    for (size_t i = 0; i < text.size();) {
        const char ch = text[i];
        if (ch >= '0' && ch <= '9') {
            int64_t v = 0;
            const auto [end, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
            if (ec == std::errc())
                current.push_back(v);
            i = static_cast<size_t>(end - text.data());
            continue;
        }
        if (ch == '[')
            ++depth;
        else if (ch == ']' && depth-- == 2) {
            lists.push_back(std::move(current));
            current.clear();
        }
        ++i;
    }
    if (!current.empty())
        lists.push_back(std::move(current));
    return lists;
}

std::vector<NamedGroup> namedGroups(model::Database& db)
{
    std::vector<NamedGroup> out;
    auto st = db.prepare("SELECT DISTINCT name, global_ranks FROM parallel_group WHERE name IS NOT NULL");
    while (st.step()) {
        auto lists = integerLists(st.text(1));
        out.push_back(NamedGroup { st.text(0), lists.empty() ? std::vector<int64_t> {} : std::move(lists.front()) });
    }
    return out;
}

// rank_info values of one key prefix, of the lowest rank that has any (every rank writes the same arguments).
std::map<std::string, std::string> infoOfFirstRank(model::Database& db, const char* prefix)
{
    std::map<std::string, std::string> out;
    auto st = db.prepare("SELECT key, value FROM rank_info WHERE rank_id = (SELECT MIN(rank_id) FROM rank_info "
                         "WHERE substr(key, 1, length(?1)) = ?1) AND substr(key, 1, length(?1)) = ?1");
    st.bind(1, std::string(prefix));
    while (st.step())
        out[st.text(0).substr(std::string_view(prefix).size())] = st.optText(1).value_or("");
    return out;
}

std::optional<int> positiveInt(const std::map<std::string, std::string>& info, const char* key)
{
    const auto it = info.find(key);
    if (it == info.end())
        return std::nullopt;
    int v = 0;
    const auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
    if (ec != std::errc() || v < 1)
        return std::nullopt;
    return v;
}

} // namespace

int64_t ParallelLayoutQuery::worldSize(model::Database& db)
{
    int64_t world = 0;
    for (const auto& g : namedGroups(db)) {
        if (g.name == "default_group")
            world = std::max<int64_t>(world, static_cast<int64_t>(g.ranks.size()));
    }
    if (world == 0)
        world = db.scalarInt("SELECT MAX(world_size) FROM rank").value_or(0);
    // A world size that leaves out a loaded rank is wrong for this view: every loaded rank needs a place.
    return std::max<int64_t>(world, db.scalarInt("SELECT MAX(rank_id) + 1 FROM rank").value_or(0));
}

ParallelLayout ParallelLayoutQuery::layout(model::Database& db, std::optional<ParallelSizes> userSizes)
{
    const auto loaded = loadedRanks(db);
    const int64_t world = worldSize(db);
    std::vector<TrText> notes;
    const TrText worldWhat(QT_TRANSLATE_NOOP("ParallelLayout", "world size"));
    auto withNotes = [&notes](ParallelLayout l) {
        l.notes.insert(l.notes.begin(), notes.begin(), notes.end());
        return l;
    };
    if (userSizes) {
        const auto error = ParallelLayoutMath::validate(*userSizes, world, worldWhat);
        if (error.source.empty())
            return ParallelLayoutMath::megatron(*userSizes, loaded, LayoutSource::UserSizes,
                layoutText(
                    QT_TRANSLATE_NOOP("ParallelLayout", "sizes entered by the user, Megatron order tp-cp-dp-pp")));
        notes.push_back(layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "Entered sizes not used: %1."), { error }));
    }
    TrText why;
    if (auto l = ParallelLayoutMath::fromGroups(namedGroups(db), loaded, world, &why))
        return withNotes(std::move(*l));
    if (!why.source.empty())
        notes.push_back(layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "Parallel groups not used: %1."), { why }));

    const auto args = infoOfFirstRank(db, "distributed_args.");
    if (const auto tp = positiveInt(args, "tensor_model_parallel_size"),
        pp = positiveInt(args, "pipeline_model_parallel_size");
        tp || pp) {
        ParallelSizes s;
        s.tp = tp.value_or(1);
        s.pp = pp.value_or(1);
        s.cp = positiveInt(args, "context_parallel_size").value_or(1);
        s.ep = positiveInt(args, "expert_model_parallel_size").value_or(1);
        const int64_t rest = int64_t(s.tp) * s.pp * s.cp;
        s.dp = positiveInt(args, "data_parallel_size").value_or(static_cast<int>(rest > 0 ? world / rest : 1));
        const auto error = ParallelLayoutMath::validate(s, world, worldWhat);
        if (error.source.empty())
            return withNotes(ParallelLayoutMath::megatron(s, loaded, LayoutSource::DistributedArgs,
                layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "distributed_args sizes, Megatron order tp-cp-dp-pp"))));
        notes.push_back(layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "distributed_args not used: %1."), { error }));
    }

    const auto strategy = infoOfFirstRank(db, "parallel_strategy.");
    if (const auto it = strategy.find("stageDevices"); it != strategy.end()) {
        if (auto l = ParallelLayoutMath::fromStages(integerLists(it->second), loaded, &why)) {
            if (l->worldSize == world)
                return withNotes(std::move(*l));
            why = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "it lists %1 ranks, world size %2"),
                { std::to_string(l->worldSize), std::to_string(world) });
        }
        notes.push_back(
            layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "MindSpore stageDevices not used: %1."), { why }));
    }
    // MindInsight's ascend_cluster_analyse_pipeline-parallel_{stages}_{ranks}_{id}.csv: contiguous stages.
    const auto analyse = infoOfFirstRank(db, "cluster_analyse.");
    if (const auto stages = positiveInt(analyse, "pipeline_stages"), ranks = positiveInt(analyse, "rank_size");
        stages && ranks) {
        if (*ranks == world && *ranks % *stages == 0) {
            const int perStage = *ranks / *stages;
            std::vector<std::vector<int64_t>> stageDevices(static_cast<size_t>(*stages));
            for (int r = 0; r < *ranks; ++r)
                stageDevices[static_cast<size_t>(r / perStage)].push_back(r);
            if (auto l = ParallelLayoutMath::fromStages(stageDevices, loaded, &why)) {
                l->source = LayoutSource::ClusterAnalyseFiles;
                l->detail
                    = layoutText(QT_TRANSLATE_NOOP("ParallelLayout",
                                     "%1 pipeline stage(s) of %2 contiguous ranks, from the names of MindInsight's "
                                     "ascend_cluster_analyse_pipeline-parallel files"),
                        { std::to_string(*stages), std::to_string(perStage) });
                return withNotes(std::move(*l));
            }
        } else {
            why = layoutText(QT_TRANSLATE_NOOP("ParallelLayout", "%1 stages of %2 ranks, world size %3"),
                { std::to_string(*stages), std::to_string(*ranks), std::to_string(world) });
        }
        notes.push_back(layoutText(
            QT_TRANSLATE_NOOP("ParallelLayout", "ascend_cluster_analyse_pipeline-parallel files not used: %1."),
            { why }));
    }
    return withNotes(ParallelLayoutMath::fallback(loaded, world));
}

std::vector<std::pair<int64_t, int64_t>> ParallelLayoutQuery::p2pPairs(model::Database& db)
{
    std::vector<std::pair<int64_t, int64_t>> out;
    auto st = db.prepare("SELECT DISTINCT src, dst FROM comm_link WHERE kind = 'p2p' AND src IS NOT NULL AND dst IS "
                         "NOT NULL AND src <> dst ORDER BY src, dst");
    while (st.step())
        out.emplace_back(st.int64(0), st.int64(1));
    return out;
}

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/PostLoad.h"

#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/parse/IssueText.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/GroupHash.h"
#include "npuscope/io/mindspore/MsParallelStrategyImporter.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/model/CommGroupSources.h"
#include "npuscope/model/CommGroupTable.h"
#include "npuscope/model/ParallelGroupTable.h"
#include "npuscope/model/RankDeviceHints.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace npuscope::load {

using namespace model;

namespace {

struct GroupInfo {
    std::optional<std::string> rawName, name;
    std::string source = "unknown";
    std::map<int64_t, int64_t> localToGlobal;
};

// ranks_source of a group taken from msprof-analyze's group list (cluster_comm_group.source).
bool isGroupListSource(const std::string& source)
{
    return source == "communication_group.json" || source == "cluster_analysis.db";
}

} // namespace

bool GroupFacts::Link::operator<(const Link& o) const
{
    return std::tie(hash, rank, localSrc, localDst) < std::tie(o.hash, o.rank, o.localSrc, o.localDst);
}

void GroupFacts::append(const GroupFacts& later)
{
    hashes.insert(later.hashes.begin(), later.hashes.end());
    unresolvedLinks += later.unresolvedLinks;
    std::set<Link> seen(links.begin(), links.end());
    for (const auto& l : later.links) {
        if (seen.insert(l).second)
            links.push_back(l);
    }
}

GroupFacts PostLoad::collectGroupFacts(Database& db, CommGroupSources::After after)
{
    GroupFacts facts;
    CommGroupSources::forEachOpGroupHash(
        db, [&](const std::string& hash) { facts.hashes.insert(hash); }, after);
    // The links' hashes, then the rows that matter below (self-links and links still without global ranks): a
    // flat all-to-all cluster has millions of resolved links, which stay in SQL.
    CommGroupSources::forEachLinkGroupHash(
        db, [&](const std::string& hash) { facts.hashes.insert(hash); }, after);
    std::set<GroupFacts::Link> seen;
    CommGroupSources::forEachSelfOrUnresolvedLink(
        db,
        [&](const GroupLinkRow& link) {
            facts.unresolvedLinks += !link.resolved;
            GroupFacts::Link l { link.groupHash, link.rankId, link.localSrc, link.localDst };
            if (seen.insert(l).second)
                facts.links.push_back(std::move(l));
        },
        after);
    return facts;
}

void PostLoad::resolveGroups(Database& db, ModelWriter& writer) { resolveGroups(db, writer, collectGroupFacts(db)); }

void PostLoad::resolveGroups(Database& db, ModelWriter& writer, const GroupFacts& facts)
{
    std::map<std::string, GroupInfo> groups;
    for (const auto& hash : facts.hashes)
        groups[hash];

    // profiler_metadata.json parallel_group_info, parsed at import: the raw id hashes to the '@' number.
    // Every member rank repeats its group's entry; the last one read wins (its members; the last name given).
    ParallelGroupTable::forEachLatest(db, [&](const ParallelGroupRow& entry) {
        auto& g = groups[groupDoubleHashText(entry.rawName)];
        g.rawName = entry.rawName;
        if (entry.name)
            g.name = entry.name;
        g.source = "metadata";
        g.localToGlobal.clear();
        for (size_t i = 0; i < entry.globalRanks.size(); ++i)
            g.localToGlobal[static_cast<int64_t>(i)] = entry.globalRanks[i];
    });

    // msprof-analyze communication_group.json (or cluster_analysis.db CommunicationGroup) with hashes: the group's
    // pg_name, raw id and members (sorted rank_set, local i = i-th rank, as for metadata). Metadata wins if both exist.
    CommGroupSources::forEachListedGroup(db, [&](const ClusterCommGroupRow& listed) {
        auto& g = groups[*listed.groupHash];
        if (g.source == "metadata" || isGroupListSource(g.source))
            return;
        g.rawName = listed.rawName;
        g.name = listed.name;
        g.source = listed.source;
        g.localToGlobal.clear();
        for (size_t i = 0; i < listed.ranks.size(); ++i)
            g.localToGlobal[static_cast<int64_t>(i)] = listed.ranks[i];
    });

    // Self-links: the rank that wrote "k-k" is local rank k of that group.
    std::map<std::string, std::set<int64_t>> localsSeen;
    for (const auto& link : facts.links) {
        const std::string& hash = link.hash;
        const int64_t rank = link.rank;
        const auto& src = link.localSrc;
        const auto& dst = link.localDst;
        if (src)
            localsSeen[hash].insert(*src);
        if (dst)
            localsSeen[hash].insert(*dst);
        auto& g = groups[hash];
        if (g.source == "metadata" || isGroupListSource(g.source) || !src || !dst || *src != *dst)
            continue;
        auto [it, inserted] = g.localToGlobal.emplace(*src, rank);
        if (!inserted && it->second != rank) {
            writer.addIssue({ Severity::Warning, rank, std::nullopt, std::nullopt,
                io::issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                  "group %1: local rank %2 claimed by ranks %3 and %4; keeping the first"),
                    { hash, std::to_string(*src), std::to_string(it->second), std::to_string(rank) }) });
            continue;
        }
        g.source = "self_link";
    }
    for (auto& [hash, g] : groups) {
        if (g.source != "self_link")
            continue;
        const bool identity = std::all_of(
            g.localToGlobal.begin(), g.localToGlobal.end(), [](const auto& kv) { return kv.first == kv.second; });
        const auto& seen = localsSeen[hash];
        // clang 14 (the fuzz and sanitizer builds) cannot capture a structured binding: capture its map instead.
        const auto& mapped = g.localToGlobal;
        const bool complete = std::all_of(seen.begin(), seen.end(), [&](int64_t l) { return mapped.count(l); });
        if (complete)
            continue;
        // Identity is only assumed when at least two loaded ranks confirm it: a single rank at local 0
        // says nothing about where the group's other members sit (e.g. pp = [0, 8]).
        if (identity && g.localToGlobal.size() >= 2) {
            const size_t known = g.localToGlobal.size();
            for (int64_t l : seen)
                g.localToGlobal.emplace(l, l);
            g.source = "self_link_identity";
            writer.addIssue({ Severity::Info, std::nullopt, std::nullopt, std::nullopt,
                io::issueText(
                    QT_TRANSLATE_NOOP("ParseIssue",
                        "group %1: no profiler_metadata.json membership; the loaded ranks' self-links map local ranks "
                        "to equal global ranks, so the other %2 local ranks of its links are assumed global as well"),
                    { hash, std::to_string(g.localToGlobal.size() - known) }) });
        } else {
            writer.addIssue({ Severity::Warning, std::nullopt, std::nullopt, std::nullopt,
                io::issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                  "group %1: global ranks unknown for some local ranks (no profiler_metadata.json and "
                                  "no self-link from those ranks); their links have no global src/dst"),
                    { hash }) });
        }
    }

    {
        CommGroupTable table(db);
        for (const auto& [hash, g] : groups) {
            table.add({ hash, g.rawName, g.name, g.source });
            for (const auto& [local, global] : g.localToGlobal)
                table.addMember({ hash, local, global });
        }
    }
    CommGroupTable::indexMembers(db);
    // Importers fill src/dst from the rank's own metadata: most often nothing is left to resolve,
    // and the update would still scan every link.
    if (facts.unresolvedLinks > 0)
        CommGroupTable::fillLinkRanks(db);
}

void PostLoad::fillDevices(Database& db)
{
    // One pass per source, the first row of each rank in row order (what the per-rank "... LIMIT 1"
    // subqueries of an unindexed table return), instead of a scan per rank; step_trace first.
    std::map<int64_t, int64_t> device;
    for (const auto source : { RankDeviceHints::Source::StepTrace, RankDeviceHints::Source::NpuModuleMem,
             RankDeviceHints::Source::MemoryRecord })
        RankDeviceHints::forEach(db, source, [&](int64_t rank, int64_t id) { device.emplace(rank, id); });
    RankDeviceHints::fillUnknown(db, device);
}

std::vector<int64_t> PostLoad::strategyGraphFallback(Database& db, ModelWriter& writer, const io::LoadPlan& plan)
{
    std::vector<int64_t> read;
    std::set<int64_t> withGraph;
    auto graphs = db.prepare("SELECT DISTINCT stage FROM strategy_node");
    while (graphs.step())
        withGraph.insert(graphs.int64(0));
    // Per stage without a graph, its ranks in rank order whose file was read (a node count) and not yet tried for the
    // graph (no graphNodes fact), with at least one node.
    std::map<int64_t, std::vector<int64_t>> candidates;
    auto facts
        = db.prepare("SELECT rank_id, MAX(CASE WHEN key = 'parallel_strategy.stageId' THEN value END), "
                     "MAX(CASE WHEN key = 'parallel_strategy.nodeCount' THEN value END), "
                     "MAX(CASE WHEN key = 'parallel_strategy.graphNodes' THEN 1 END) FROM rank_info WHERE key IN "
                     "('parallel_strategy.stageId', 'parallel_strategy.nodeCount', "
                     "'parallel_strategy.graphNodes') GROUP BY rank_id ORDER BY rank_id");
    while (facts.step()) {
        const int64_t stage = parseInt(facts.optText(1).value_or("")).value_or(0);
        const int64_t nodes = parseInt(facts.optText(2).value_or("")).value_or(0);
        if (!withGraph.count(stage) && nodes > 0 && !facts.optInt(3))
            candidates[stage].push_back(facts.int64(0));
    }
    if (candidates.empty())
        return read;
    std::map<int64_t, std::string> fileOf;
    for (const auto& rank : plan.ranks) {
        for (const auto& file : rank.files) {
            if (file.kind == io::FileKind::MsParallelStrategy)
                fileOf.emplace(rank.rank, file.path);
        }
    }
    for (const auto& [stage, ranks] : candidates) {
        for (const int64_t rank : ranks) {
            const auto file = fileOf.find(rank);
            if (file == fileOf.end())
                continue;
            io::ImportContext ctx(writer, rank, file->second);
            if (io::MsParallelStrategyImporter::importGraph(ctx, stage) > 0) {
                read.push_back(rank);
                break;
            }
        }
    }
    return read;
}

} // namespace npuscope::load

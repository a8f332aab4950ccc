// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/msprof_analyze/ClusterAnalysisImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/db/SqliteExport.h"
#include "npuscope/io/parse/CommOpInfoWriter.h"
#include "npuscope/io/parse/CsvImport.h"
#include "npuscope/io/parse/JsonFile.h"
#include "npuscope/io/parse/StepTraceColumns.h"
#include "npuscope/io/torch_npu/CommunicationImporter.h"

#include "npuscope/model/ClusterSummaryWriter.h"

#include <algorithm>
#include <set>
#include <utility>

namespace npuscope::io {

namespace {

using model::ClusterSummaryWriter;

bool importStepRows(CsvImport& csv)
{
    if (!csv.open({ "Type", "Index", "Computing" }))
        return false;
    const int typeCol = csv.column({ "Type" });
    const int indexCol = csv.column({ "Index" });
    const StepTraceColumns columns(csv);
    auto& ctx = csv.context();
    int64_t otherRows = 0;
    std::vector<model::ClusterStageRow> stages;
    while (csv.next()) {
        const auto type = csv.text(typeCol);
        if (type == "stage") {
            model::ClusterStageRow s;
            s.ranks = ClusterSummaryWriter::parseRanks(csv.text(indexCol).value_or(std::string()));
            columns.read(csv, s);
            s.sourceLine = csv.line();
            if (csv.skipped())
                continue;
            stages.push_back(std::move(s));
            csv.countImported();
            continue;
        }
        if (type != "rank") {
            ++otherRows;
            continue;
        }
        const auto rank = csv.optInt(indexCol);
        if (!rank) {
            ctx.warning(
                csv.line(), issueText(QT_TRANSLATE_NOOP("ParseIssue", "rank row without a numeric Index; skipped")));
            continue;
        }
        if (ctx.rankState().skipsSummaryRank(*rank))
            continue; // its own per-rank folder gives this rank's figures
        model::StepTraceRow r;
        r.rankId = *rank;
        columns.read(csv, r);
        r.sourceLine = csv.line();
        if (csv.skipped())
            continue;
        ctx.writer().addStepTrace(r);
        csv.countImported();
    }
    ClusterAnalysisImporter::writeStages(ctx, stages);
    if (otherRows > 0)
        ctx.info(std::nullopt,
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "%1 rows of a Type other than \"rank\" or \"stage\" were not imported"),
                { std::to_string(otherRows) }));
    return csv.result();
}

std::optional<std::vector<int64_t>> rankArray(const nlohmann::json& j)
{
    if (!j.is_array())
        return std::nullopt;
    std::vector<int64_t> ranks;
    for (const auto& r : j) {
        if (!r.is_number_integer())
            return std::nullopt;
        ranks.push_back(r.get<int64_t>());
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

std::optional<std::string> nonEmptyText(const nlohmann::json& entry, const char* key)
{
    const auto it = entry.find(key);
    if (it == entry.end() || !it->is_string() || it->get<std::string>().empty())
        return std::nullopt;
    return it->get<std::string>();
}

// Walks {rank_set|"p2p": {step: {op: value}}}.
template <typename Fn> void forEachClusterOp(ImportContext& ctx, const nlohmann::json& root, Fn&& fn)
{
    for (auto setIt = root.begin(); setIt != root.end(); ++setIt) {
        if (!setIt->is_object()) {
            ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "\"%1\" is not an object; skipped"), { setIt.key() }));
            continue;
        }
        const std::string kind = setIt.key() == "p2p" ? "p2p" : "collective";
        for (auto stepIt = setIt->begin(); stepIt != setIt->end(); ++stepIt) {
            if (ctx.cancelled())
                return;
            if (!stepIt->is_object())
                continue;
            const auto step = stepFromKey(stepIt.key());
            for (auto opIt = stepIt->begin(); opIt != stepIt->end(); ++opIt) {
                if (opIt->is_object())
                    fn(step, kind, opIt.key(), opIt.value());
            }
        }
    }
}

} // namespace

bool ClusterAnalysisImporter::runStepTrace(ImportContext& ctx) { return CsvImport::run(ctx, importStepRows); }

void ClusterAnalysisImporter::writeStages(ImportContext& ctx, std::vector<model::ClusterStageRow>& stages)
{
    if (stages.empty())
        return;
    // Stage numbers: the distinct rank sets by lowest rank (Megatron's pipeline order); the "()" set of ranks in no
    // stage goes last.
    std::vector<std::vector<int64_t>> sets;
    for (const auto& s : stages)
        sets.push_back(s.ranks);
    std::sort(sets.begin(), sets.end(), [](const auto& a, const auto& b) {
        if (a.empty() != b.empty())
            return b.empty();
        return a < b;
    });
    sets.erase(std::unique(sets.begin(), sets.end()), sets.end());
    ClusterSummaryWriter writer(ctx.writer());
    for (auto& s : stages) {
        s.stageIndex = std::find(sets.begin(), sets.end(), s.ranks) - sets.begin();
        writer.addStage(s);
    }
}

void ClusterAnalysisImporter::writeCommGroups(ImportContext& ctx, std::vector<model::ClusterCommGroupRow>& groups)
{
    // One row per hash; hashless rows once per (kind, ranks), and not when a hashed row of that kind has those ranks
    // (newer builds list every parallel-info group again in the plain "collective" / "p2p" arrays).
    std::set<std::string> hashes;
    std::set<std::pair<std::string, std::vector<int64_t>>> covered;
    for (const auto& g : groups) {
        if (g.groupHash)
            covered.emplace(g.kind, g.ranks);
    }
    ClusterSummaryWriter writer(ctx.writer());
    int64_t duplicates = 0;
    for (const auto& g : groups) {
        const bool fresh = g.groupHash ? hashes.insert(*g.groupHash).second : covered.emplace(g.kind, g.ranks).second;
        if (!fresh) {
            duplicates += g.groupHash ? 1 : 0;
            continue;
        }
        writer.addCommGroup(g);
    }
    if (duplicates > 0)
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 groups repeat a group_name hash; the first is kept"),
                { std::to_string(duplicates) }));
}

bool ClusterAnalysisImporter::runCommunicationGroup(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    std::vector<model::ClusterCommGroupRow> groups;
    int64_t bad = 0;
    // Newer builds: comm_group_parallel_info names each group (pg_name) and gives its hash (group_name).
    if (const auto info = root.find("comm_group_parallel_info"); info != root.end() && info->is_array()) {
        for (const auto& entry : *info) {
            const auto ranks
                = entry.is_object() && entry.contains("rank_set") ? rankArray(entry["rank_set"]) : std::nullopt;
            if (!ranks) {
                ++bad;
                continue;
            }
            model::ClusterCommGroupRow g;
            g.kind = nonEmptyText(entry, "type") == "p2p" ? "p2p" : "collective";
            g.rawName = nonEmptyText(entry, "group_id");
            // group_name is the '@' number (double_hash of group_id); without it the raw id gives the same hash.
            g.groupHash = SqliteExport::groupHashOf(nonEmptyText(entry, "group_name"));
            if (!g.groupHash)
                g.groupHash = SqliteExport::groupHashOf(g.rawName);
            g.name = nonEmptyText(entry, "pg_name");
            g.ranks = *ranks;
            g.source = "communication_group.json";
            groups.push_back(std::move(g));
        }
    }
    for (const char* kind : { "collective", "p2p" }) {
        const auto it = root.find(kind);
        if (it == root.end())
            continue;
        if (!it->is_array()) {
            ctx.warning(
                std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "\"%1\" is not an array; skipped"), { kind }));
            continue;
        }
        for (const auto& set : *it) {
            const auto ranks = rankArray(set);
            if (!ranks) {
                ++bad;
                continue;
            }
            model::ClusterCommGroupRow g;
            g.kind = kind;
            g.ranks = *ranks;
            g.source = "communication_group.json";
            groups.push_back(std::move(g));
        }
    }
    if (bad > 0)
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 rank sets are not arrays of integers; skipped"),
                { std::to_string(bad) }));
    writeCommGroups(ctx, groups);
    ctx.finish();
    return true;
}

bool ClusterAnalysisImporter::runCommunication(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    forEachClusterOp(ctx, root,
        [&](std::optional<int64_t> step, const std::string& kind, const std::string& key, const nlohmann::json& ranks) {
            for (auto it = ranks.begin(); it != ranks.end(); ++it) {
                const auto rank = parseInt(it.key());
                if (!rank || !it->is_object()) {
                    ctx.warning(std::nullopt,
                        issueText(QT_TRANSLATE_NOOP("ParseIssue", "op \"%1\": \"%2\" is not a rank id; skipped"),
                            { key, it.key() }));
                    continue;
                }
                if (!ctx.rankState().skipsSummaryRank(*rank))
                    CommOpInfoWriter::write(ctx, *rank, step, kind, key, *it);
            }
        });
    ctx.finish();
    return true;
}

bool ClusterAnalysisImporter::runMatrix(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    std::vector<model::CommLinkRow> links;
    forEachClusterOp(ctx, root,
        [&](std::optional<int64_t> step, const std::string& kind, const std::string& key,
            const nlohmann::json& opLinks) {
            const OpKey parsed = parseOpKey(key);
            model::CommLinkRow base;
            base.step = step;
            base.kind = kind;
            base.groupHash = parsed.groupHash;
            setMatrixOp(base, key, parsed);
            for (auto it = opLinks.begin(); it != opLinks.end(); ++it) {
                const std::string& linkKey = it.key();
                const auto sep = linkKey.find_first_of("-_");
                const auto src = sep == std::string::npos ? std::nullopt : parseInt(linkKey.substr(0, sep));
                const auto dst = sep == std::string::npos ? std::nullopt : parseInt(linkKey.substr(sep + 1));
                if (!src || !dst || !it->is_object()) {
                    ctx.warning(std::nullopt,
                        issueText(QT_TRANSLATE_NOOP("ParseIssue", "op \"%1\": link key \"%2\" is not \"src-dst\""),
                            { key, linkKey }));
                    continue;
                }
                model::CommLinkRow row = base;
                row.rankId = *src;
                row.localSrc = src;
                row.localDst = dst;
                row.src = src; // already global; PostLoad re-derives them for links with a group hash
                row.dst = dst;
                const auto& l = *it;
                if (auto t = l.find("Transport Type"); t != l.end() && t->is_string())
                    row.transport = t->get<std::string>();
                row.sizeMb = jsonNumber(l, "Transit Size(MB)");
                if (auto ms = jsonNumber(l, "Transit Time(ms)"))
                    row.timeNs = doubleToNs(*ms, 1.0e6);
                row.bandwidthGbps = jsonNumber(l, "Bandwidth(GB/s)");
                for (const char* nameKey : { "Op Name", "op_name" }) {
                    if (auto n = l.find(nameKey); n != l.end() && n->is_string())
                        row.opName = n->get<std::string>();
                }
                links.push_back(std::move(row));
            }
        });
    writeGlobalLinks(ctx, links);
    ctx.finish();
    return true;
}

void ClusterAnalysisImporter::writeGlobalLinks(ImportContext& ctx, std::vector<model::CommLinkRow>& links)
{
    // src/dst are set, so PostLoad::resolveGroups leaves these links alone; their self-links "k-k" still give each
    // group its members (local k = global k).
    // Links of a rank whose own folder gives its matrix are skipped (RankState::summaryReplaced).
    for (const auto& l : links) {
        if (!ctx.rankState().skipsSummaryRank(l.rankId))
            ctx.writer().addCommLink(l);
    }
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/ClusterAnalysisImporter.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/CommOpInfoWriter.h"
#include "npuscope/io/CommunicationImporter.h"
#include "npuscope/io/CsvImport.h"
#include "npuscope/io/JsonFile.h"

#include <algorithm>
#include <cctype>

namespace npuscope::io {

namespace {

bool importStepRows(CsvImport& csv)
{
    if (!csv.open({ "Type", "Index", "Computing" }))
        return false;
    const int stepCol = csv.column({ "Step" });
    const int typeCol = csv.column({ "Type" });
    const int indexCol = csv.column({ "Index" });
    const int computingCol = csv.column({ "Computing" });
    const int notOverlappedCol = csv.column({ "Communication(Not Overlapped)" });
    const int overlappedCol = csv.column({ "Overlapped" });
    const int communicationCol = csv.column({ "Communication" });
    const int freeCol = csv.column({ "Free" });
    const int stageCol = csv.column({ "Stage" });
    const int bubbleCol = csv.column({ "Bubble" });
    const int excludeReceiveCol = csv.column({ "Communication(Not Overlapped and Exclude Receive)" });
    const int preparingCol = csv.column({ "Preparing" });
    auto& ctx = csv.context();
    int64_t stageRows = 0;
    while (csv.next()) {
        const auto type = csv.text(typeCol);
        if (type != "rank") {
            ++stageRows;
            continue;
        }
        const auto rank = csv.optInt(indexCol);
        if (!rank) {
            ctx.warning(csv.line(), "rank row without a numeric Index; skipped");
            continue;
        }
        model::StepTraceRow r;
        r.rankId = *rank;
        r.step = csv.optInt(stepCol);
        r.computing = csv.usNs(computingCol);
        r.communicationNotOverlapped = csv.usNs(notOverlappedCol);
        r.overlapped = csv.usNs(overlappedCol);
        r.communication = csv.usNs(communicationCol);
        r.free = csv.usNs(freeCol);
        r.stage = csv.usNs(stageCol);
        r.bubble = csv.usNs(bubbleCol);
        r.communicationNotOverlappedExcludeReceive = csv.usNs(excludeReceiveCol);
        r.preparing = csv.usNs(preparingCol);
        r.sourceLine = csv.line();
        if (csv.skipped())
            continue;
        ctx.writer().addStepTrace(r);
        csv.countImported();
    }
    if (stageRows > 0)
        ctx.info(std::nullopt,
            std::to_string(stageRows) + " rows of Type other than \"rank\" (stage aggregates) were not imported");
    return csv.result();
}

// Walks {rank_set|"p2p": {step: {op: value}}}.
template <typename Fn> void forEachClusterOp(ImportContext& ctx, const nlohmann::json& root, Fn&& fn)
{
    for (auto setIt = root.begin(); setIt != root.end(); ++setIt) {
        if (!setIt->is_object()) {
            ctx.warning(std::nullopt, "\"" + setIt.key() + "\" is not an object; skipped");
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

bool ClusterAnalysisImporter::runCommunication(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    if (!root.is_object()) {
        ctx.error(std::nullopt, "top level is not an object");
        return false;
    }
    forEachClusterOp(ctx, root,
        [&](std::optional<int64_t> step, const std::string& kind, const std::string& key, const nlohmann::json& ranks) {
            for (auto it = ranks.begin(); it != ranks.end(); ++it) {
                const auto rank = parseInt(it.key());
                if (!rank || !it->is_object()) {
                    ctx.warning(std::nullopt, "op \"" + key + "\": \"" + it.key() + "\" is not a rank id; skipped");
                    continue;
                }
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
    if (!root.is_object()) {
        ctx.error(std::nullopt, "top level is not an object");
        return false;
    }
    std::vector<model::CommLinkRow> links;
    forEachClusterOp(ctx, root,
        [&](std::optional<int64_t> step, const std::string& kind, const std::string& key,
            const nlohmann::json& opLinks) {
            const OpKey parsed = parseOpKey(key);
            model::CommLinkRow base;
            base.step = step;
            base.kind = kind;
            base.matrixOp = parsed.name;
            base.groupHash = parsed.groupHash;
            if (parsed.type) {
                base.opType = *parsed.type;
                std::transform(base.opType->begin(), base.opType->end(), base.opType->begin(),
                    [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            } else if (const auto dash = parsed.name.rfind('-'); dash != std::string::npos) {
                base.opType = parsed.name.substr(0, dash);
                base.slot = parsed.name.substr(dash + 1);
            } else if (key == "Total Op Info") {
                base.slot = "total";
            }
            for (auto it = opLinks.begin(); it != opLinks.end(); ++it) {
                const std::string& linkKey = it.key();
                const auto sep = linkKey.find_first_of("-_");
                const auto src = sep == std::string::npos ? std::nullopt : parseInt(linkKey.substr(0, sep));
                const auto dst = sep == std::string::npos ? std::nullopt : parseInt(linkKey.substr(sep + 1));
                if (!src || !dst || !it->is_object()) {
                    ctx.warning(std::nullopt, "op \"" + key + "\": link key \"" + linkKey + "\" is not \"src-dst\"");
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
    for (const auto& l : links)
        ctx.writer().addCommLink(l);
}

} // namespace npuscope::io

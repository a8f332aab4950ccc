// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/CommunicationImporter.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/JsonFile.h"

#include <algorithm>
#include <cctype>

namespace npuscope::io {

namespace {

constexpr const char* kTotalOp = "Total Op Info";

std::optional<int64_t> msField(const nlohmann::json& o, const char* key)
{
    if (auto v = jsonNumber(o, key))
        return doubleToNs(*v, 1.0e6);
    return std::nullopt;
}

// Iterates "step<N>" -> {"p2p"|"collective" -> {op -> value}} and calls fn for each op.
template <typename Fn> void forEachOp(ImportContext& ctx, const nlohmann::json& root, Fn&& fn)
{
    for (auto stepIt = root.begin(); stepIt != root.end(); ++stepIt) {
        if (ctx.cancelled())
            return;
        const auto step = stepFromKey(stepIt.key());
        if (!stepIt->is_object()) {
            ctx.warning(std::nullopt, "\"" + stepIt.key() + "\" is not an object; skipped");
            continue;
        }
        for (auto kindIt = stepIt->begin(); kindIt != stepIt->end(); ++kindIt) {
            if (!kindIt->is_object()) {
                ctx.warning(std::nullopt, "\"" + stepIt.key() + "." + kindIt.key() + "\" is not an object; skipped");
                continue;
            }
            for (auto opIt = kindIt->begin(); opIt != kindIt->end(); ++opIt) {
                if (!opIt->is_object()) {
                    ctx.warning(std::nullopt, "op \"" + opIt.key() + "\" is not an object; skipped");
                    continue;
                }
                fn(step, kindIt.key(), opIt.key(), opIt.value());
            }
        }
    }
}

} // namespace

OpKey parseOpKey(const std::string& key)
{
    OpKey k;
    const auto at = key.rfind('@');
    k.name = at == std::string::npos ? key : key.substr(0, at);
    if (at != std::string::npos && at + 1 < key.size())
        k.groupHash = key.substr(at + 1);
    if (k.name.rfind("hcom_", 0) == 0) {
        const auto end = k.name.find('_', 5);
        k.type = k.name.substr(5, end == std::string::npos ? std::string::npos : end - 5);
    }
    return k;
}

bool CommunicationImporter::run(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    auto& w = ctx.writer();
    int ops = 0;
    forEachOp(ctx, root,
        [&](std::optional<int64_t> step, const std::string& kind, const std::string& key, const nlohmann::json& info) {
            model::CommOpRow row;
            row.rankId = ctx.rankId();
            row.step = step;
            row.kind = kind;
            row.opKey = key;
            row.isTotal = key == kTotalOp;
            const OpKey parsed = parseOpKey(key);
            row.opName = parsed.name;
            row.opType = parsed.type;
            row.groupHash = parsed.groupHash;
            const auto timeIt = info.find("Communication Time Info");
            if (timeIt == info.end() || !timeIt->is_object()) {
                ctx.warning(std::nullopt, "op \"" + key + "\" has no \"Communication Time Info\"");
            } else {
                const auto& t = *timeIt;
                if (auto start = jsonNumber(t, "Start Timestamp(us)")) {
                    // The file holds a JSON double of epoch µs; keep its printed digits.
                    const auto raw = t["Start Timestamp(us)"].dump();
                    row.startNs = usToNs(raw);
                    if (!row.startNs)
                        row.startNs = doubleToNs(*start, 1.0e3);
                }
                row.elapseNs = msField(t, "Elapse Time(ms)");
                row.transitNs = msField(t, "Transit Time(ms)");
                row.waitNs = msField(t, "Wait Time(ms)");
                row.syncNs = msField(t, "Synchronization Time(ms)");
                row.idleNs = msField(t, "Idle Time(ms)");
                if (!row.idleNs)
                    row.idleNs = msField(t, "Idel Time(ms)"); // MindSpore documentation spelling
                row.waitRatio = jsonNumber(t, "Wait Time Ratio");
                row.syncRatio = jsonNumber(t, "Synchronization Time Ratio");
            }
            const int64_t opId = w.addCommOp(row);
            ++ops;
            const auto bwIt = info.find("Communication Bandwidth Info");
            if (bwIt == info.end() || !bwIt->is_object())
                return;
            for (auto tIt = bwIt->begin(); tIt != bwIt->end(); ++tIt) {
                if (!tIt->is_object())
                    continue;
                model::CommBandwidthRow bw;
                bw.commOpId = opId;
                bw.transport = tIt.key();
                bw.sizeMb = jsonNumber(*tIt, "Transit Size(MB)");
                bw.transitNs = msField(*tIt, "Transit Time(ms)");
                bw.bandwidthGbps = jsonNumber(*tIt, "Bandwidth(GB/s)");
                bw.largePacketRatio = jsonNumber(*tIt, "Large Packet Ratio");
                const int64_t bwId = w.addCommBandwidth(bw);
                const auto distIt = tIt->find("Size Distribution");
                if (distIt == tIt->end() || !distIt->is_object())
                    continue;
                for (auto dIt = distIt->begin(); dIt != distIt->end(); ++dIt) {
                    const auto size = parseDouble(dIt.key());
                    if (!size || !dIt->is_array() || dIt->size() < 2 || !(*dIt)[0].is_number()
                        || !(*dIt)[1].is_number()) {
                        ctx.warning(std::nullopt,
                            "op \"" + key + "\" " + tIt.key() + ": bad Size Distribution entry \"" + dIt.key() + "\"");
                        continue;
                    }
                    model::CommPacketRow p;
                    p.commBandwidthId = bwId;
                    p.packageMb = *size;
                    p.count = (*dIt)[0].get<int64_t>();
                    p.totalNs = doubleToNs((*dIt)[1].get<double>(), 1.0e6);
                    w.addCommPacket(p);
                }
            }
        });
    if (ops == 0)
        ctx.info(std::nullopt, "no communication ops in this file");
    ctx.finish();
    return true;
}

bool CommunicationMatrixImporter::run(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    auto& w = ctx.writer();
    forEachOp(ctx, root,
        [&](std::optional<int64_t> step, const std::string& kind, const std::string& key, const nlohmann::json& links) {
            const OpKey parsed = parseOpKey(key);
            model::CommLinkRow base;
            base.rankId = ctx.rankId();
            base.step = step;
            base.kind = kind;
            base.matrixOp = parsed.name;
            base.groupHash = parsed.groupHash;
            if (parsed.type) {
                // 2023 builds key the matrix by the real op name.
                base.opType = *parsed.type;
                std::transform(base.opType->begin(), base.opType->end(), base.opType->begin(),
                    [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            } else if (const auto dash = parsed.name.rfind('-'); dash != std::string::npos) {
                base.opType = parsed.name.substr(0, dash);
                base.slot = parsed.name.substr(dash + 1);
            } else if (key == kTotalOp) {
                base.slot = "total";
            }
            const std::vector<int64_t>* members = nullptr;
            if (base.groupHash) {
                const auto& groups = ctx.rankState().groupRanks;
                if (auto g = groups.find(*base.groupHash); g != groups.end())
                    members = &g->second;
            }
            for (auto it = links.begin(); it != links.end(); ++it) {
                model::CommLinkRow row = base;
                const std::string& linkKey = it.key();
                const auto sep = linkKey.find_first_of("-_");
                row.localSrc = sep == std::string::npos ? std::nullopt : parseInt(linkKey.substr(0, sep));
                row.localDst = sep == std::string::npos ? std::nullopt : parseInt(linkKey.substr(sep + 1));
                if (!row.localSrc || !row.localDst || !it->is_object()) {
                    ctx.warning(std::nullopt, "op \"" + key + "\": link key \"" + linkKey + "\" is not \"src-dst\"");
                    continue;
                }
                const auto& l = *it;
                if (auto t = l.find("Transport Type"); t != l.end() && t->is_string())
                    row.transport = t->get<std::string>();
                row.sizeMb = jsonNumber(l, "Transit Size(MB)");
                if (auto ms = jsonNumber(l, "Transit Time(ms)"))
                    row.timeNs = doubleToNs(*ms, 1.0e6);
                row.bandwidthGbps = jsonNumber(l, "Bandwidth(GB/s)");
                // Global ranks from this rank's own profiler_metadata.json when it describes the group
                // (PostLoad fills the rest from other ranks' metadata or self-links).
                if (members) {
                    if (*row.localSrc >= 0 && static_cast<size_t>(*row.localSrc) < members->size())
                        row.src = (*members)[static_cast<size_t>(*row.localSrc)];
                    if (*row.localDst >= 0 && static_cast<size_t>(*row.localDst) < members->size())
                        row.dst = (*members)[static_cast<size_t>(*row.localDst)];
                }
                for (const char* nameKey : { "Op Name", "op_name" }) {
                    if (auto n = l.find(nameKey); n != l.end() && n->is_string())
                        row.opName = n->get<std::string>();
                }
                w.addCommLink(row);
            }
        });
    ctx.finish();
    return true;
}

} // namespace npuscope::io

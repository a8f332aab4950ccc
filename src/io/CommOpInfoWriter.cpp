// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/CommOpInfoWriter.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/CommunicationImporter.h"
#include "npuscope/io/JsonFile.h"

namespace npuscope::io {

namespace {

std::optional<int64_t> msField(const nlohmann::json& o, const char* key)
{
    if (auto v = jsonNumber(o, key))
        return doubleToNs(*v, 1.0e6);
    return std::nullopt;
}

} // namespace

void CommOpInfoWriter::write(ImportContext& ctx, int64_t rank, std::optional<int64_t> step, const std::string& kind,
    const std::string& key, const nlohmann::json& info)
{
    auto& w = ctx.writer();
    model::CommOpRow row;
    row.rankId = rank;
    row.step = step;
    row.kind = kind;
    row.opKey = key;
    row.isTotal = key == "Total Op Info";
    const OpKey parsed = parseOpKey(key);
    row.opName = parsed.name;
    row.opType = parsed.type;
    row.groupHash = parsed.groupHash;
    const auto timeIt = info.find("Communication Time Info");
    if (timeIt != info.end() && timeIt->is_object()) {
        const auto& t = *timeIt;
        if (auto start = jsonNumber(t, "Start Timestamp(us)")) {
            // A JSON double of epoch µs: keep its printed digits.
            row.startNs = usToNs(t["Start Timestamp(us)"].dump());
            if (!row.startNs)
                row.startNs = doubleToNs(*start, 1.0e3);
        }
        row.elapseNs = msField(t, "Elapse Time(ms)");
        row.transitNs = msField(t, "Transit Time(ms)");
        row.waitNs = msField(t, "Wait Time(ms)");
        row.syncNs = msField(t, "Synchronization Time(ms)");
        row.idleNs = msField(t, "Idle Time(ms)");
        if (!row.idleNs)
            row.idleNs = msField(t, "Idel Time(ms)");
        row.waitRatio = jsonNumber(t, "Wait Time Ratio");
        row.syncRatio = jsonNumber(t, "Synchronization Time Ratio");
    } else {
        ctx.warning(
            std::nullopt, "op \"" + key + "\" of rank " + std::to_string(rank) + " has no \"Communication Time Info\"");
    }
    const int64_t opId = w.addCommOp(row);
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
            if (!size || !dIt->is_array() || dIt->size() < 2 || !(*dIt)[0].is_number() || !(*dIt)[1].is_number()) {
                ctx.warning(std::nullopt, "op \"" + key + "\" " + tIt.key() + ": bad Size Distribution entry");
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
}

} // namespace npuscope::io

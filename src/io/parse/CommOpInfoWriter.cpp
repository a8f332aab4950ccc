// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/CommOpInfoWriter.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/torch_npu/CommunicationImporter.h"

namespace npuscope::io {

namespace {

std::optional<int64_t> msToNsField(const std::optional<double>& v)
{
    if (v)
        return doubleToNs(*v, 1.0e6);
    return std::nullopt;
}

} // namespace

void CommOpInfoWriter::write(ImportContext& ctx, int64_t rank, std::optional<int64_t> step, const std::string& kind,
    const std::string& key, const CommOpInfo& info)
{
    auto& w = ctx.writer();
    model::CommOpRow row;
    row.rankId = rank;
    row.step = step;
    row.kind = kind;
    row.opKey = key;
    row.isTotal = key == "Total Op Info";
    OpKey parsed = parseOpKey(key);
    row.opName = std::move(parsed.name);
    row.opType = std::move(parsed.type);
    row.groupHash = std::move(parsed.groupHash);
    if (info.hasTimeInfo) {
        if (info.start.value) {
            // A JSON double of epoch µs: keep its digits as written (a double holds ~16 of them).
            if (!info.start.text.empty())
                row.startNs = usToNs(info.start.text);
            if (!row.startNs)
                row.startNs = doubleToNs(*info.start.value, 1.0e3);
        }
        row.elapseNs = msToNsField(info.elapseMs);
        row.transitNs = msToNsField(info.transitMs);
        row.waitNs = msToNsField(info.waitMs);
        row.syncNs = msToNsField(info.syncMs);
        row.idleNs = msToNsField(info.idleMs);
        if (!row.idleNs)
            row.idleNs = msToNsField(info.idelMs);
        row.waitRatio = info.waitRatio;
        row.syncRatio = info.syncRatio;
    } else {
        ctx.warning(
            std::nullopt, "op \"" + key + "\" of rank " + std::to_string(rank) + " has no \"Communication Time Info\"");
    }
    const int64_t opId = w.addCommOp(row);
    // The op's transports in one statement, then their packet rows (ids known).
    std::vector<model::CommBandwidthRow> bandwidth;
    std::vector<const CommOpInfo::Transport*> transports;
    bandwidth.reserve(info.bandwidth.size());
    transports.reserve(info.bandwidth.size());
    for (const auto& [transport, t] : info.bandwidth) {
        if (!t.isObject)
            continue;
        model::CommBandwidthRow& bw = bandwidth.emplace_back();
        bw.commOpId = opId;
        bw.transport = transport;
        bw.sizeMb = t.sizeMb;
        bw.transitNs = msToNsField(t.transitMs);
        bw.bandwidthGbps = t.bandwidthGbps;
        bw.largePacketRatio = t.largePacketRatio;
        transports.push_back(&t);
    }
    std::vector<int64_t> ids(bandwidth.size());
    w.addCommBandwidths(bandwidth.data(), bandwidth.size(), ids.data());
    for (std::size_t i = 0; i < bandwidth.size(); ++i) {
        for (const auto& [sizeKey, packet] : transports[i]->sizeDistribution) {
            const auto size = parseDouble(sizeKey);
            if (!size || !packet.valid) {
                ctx.warning(
                    std::nullopt, "op \"" + key + "\" " + bandwidth[i].transport + ": bad Size Distribution entry");
                continue;
            }
            model::CommPacketRow p;
            p.commBandwidthId = ids[i];
            p.packageMb = *size;
            p.count = packet.count;
            p.totalNs = doubleToNs(packet.totalMs, 1.0e6);
            w.addCommPacket(p);
        }
    }
}

void CommOpInfoWriter::write(ImportContext& ctx, int64_t rank, std::optional<int64_t> step, const std::string& kind,
    const std::string& key, const nlohmann::json& info)
{
    write(ctx, rank, step, kind, key, CommOpInfoBuilder::fromJson(info));
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/CommOpInfoWriter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/torch_npu/CommunicationImporter.h"

#include <algorithm>

namespace npuscope::io {

namespace {

std::optional<int64_t> msToNsField(const std::optional<double>& v)
{
    if (v)
        return doubleToNs(*v, 1.0e6);
    return std::nullopt;
}

} // namespace

void CommOpInfoWriter::add(int64_t rank, std::optional<int64_t> step, const std::string& kind,
    const std::string& key, const CommOpInfo& info)
{
    // Ops queued before the queue is written: a file's ops in a few statements, its rows held briefly.
    constexpr std::size_t kMaxQueued = 1024;
    model::CommOpRow& row = m_ops.emplace_back();
    const int64_t opIndex = static_cast<int64_t>(m_ops.size() - 1);
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
        m_ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "op \"%1\" of rank %2 has no \"Communication Time Info\""),
                { key, std::to_string(rank) }));
    }
    const auto isZero = [](const std::optional<double>& v) { return v && *v == 0.0; };
    for (const auto& [transport, t] : info.bandwidth) {
        if (!t.isObject)
            continue;
        if (t.sizeDistribution.empty() && isZero(t.sizeMb) && isZero(t.transitMs) && isZero(t.bandwidthGbps)
            && isZero(t.largePacketRatio) && !transport.empty() && transport.find(',') == std::string::npos) {
            // Nothing a row would add: every reader sums sizes and times, and a bandwidth needs a time above 0.
            std::string& zero = row.zeroTransports.emplace(row.zeroTransports.value_or(std::string()));
            if (!zero.empty())
                zero += ',';
            zero += transport;
            continue;
        }
        model::CommBandwidthRow& bw = m_bandwidths.emplace_back();
        const int64_t bwIndex = static_cast<int64_t>(m_bandwidths.size() - 1);
        bw.commOpId = opIndex;
        bw.transport = transport;
        bw.sizeMb = t.sizeMb;
        bw.transitNs = msToNsField(t.transitMs);
        bw.bandwidthGbps = t.bandwidthGbps;
        bw.largePacketRatio = t.largePacketRatio;
        for (const auto& [sizeKey, packet] : t.sizeDistribution) {
            const auto size = parseDouble(sizeKey);
            if (!size || !packet.valid) {
                m_ctx.warning(std::nullopt,
                    issueText(QT_TRANSLATE_NOOP("ParseIssue", "op \"%1\" %2: bad Size Distribution entry"),
                        { key, transport }));
                continue;
            }
            model::CommPacketRow& p = m_packets.emplace_back();
            p.commBandwidthId = bwIndex;
            p.packageMb = *size;
            p.count = packet.count;
            p.totalNs = doubleToNs(packet.totalMs, 1.0e6);
        }
    }
    if (m_ops.size() >= kMaxQueued)
        flush();
}

void CommOpInfoWriter::flush()
{
    auto& w = m_ctx.writer();
    std::vector<int64_t> ids(std::max(m_ops.size(), m_bandwidths.size()));
    w.addCommOps(m_ops.data(), m_ops.size(), ids.data());
    for (auto& bw : m_bandwidths)
        bw.commOpId = ids[static_cast<std::size_t>(bw.commOpId)];
    w.addCommBandwidths(m_bandwidths.data(), m_bandwidths.size(), ids.data());
    for (auto& p : m_packets)
        p.commBandwidthId = ids[static_cast<std::size_t>(p.commBandwidthId)];
    w.addCommPackets(m_packets.data(), m_packets.size());
    m_ops.clear();
    m_bandwidths.clear();
    m_packets.clear();
}

void CommOpInfoWriter::write(ImportContext& ctx, int64_t rank, std::optional<int64_t> step, const std::string& kind,
    const std::string& key, const CommOpInfo& info)
{
    CommOpInfoWriter writer(ctx);
    writer.add(rank, step, kind, key, info);
    writer.flush();
}

void CommOpInfoWriter::write(ImportContext& ctx, int64_t rank, std::optional<int64_t> step, const std::string& kind,
    const std::string& key, const nlohmann::json& info)
{
    write(ctx, rank, step, kind, key, CommOpInfoBuilder::fromJson(info));
}

} // namespace npuscope::io

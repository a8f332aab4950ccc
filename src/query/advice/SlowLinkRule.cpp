// SPDX-License-Identifier: Apache-2.0
// slow_link: links compared like with like (op type, transport, size class; and per transport) after leaving out
// latency-bound transfers.
#include "AdviceRules.h"

#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/TranslationMarker.h"
#include "npuscope/query/advice/AdviceThresholds.h"
#include "npuscope/query/advice/OutlierTest.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

namespace npuscope::query::advice {

namespace {

using T = AdviceThresholds;

std::optional<double> peakGbps(const std::string& transport)
{
    if (transport == "RDMA")
        return T::kPeakRdmaGbps;
    if (transport == "HCCS")
        return T::kPeakHccsGbps;
    if (transport == "PCIE")
        return T::kPeakPcieGbps;
    return std::nullopt;
}

// Factor-of-4 byte classes: transfers within one class move comparable amounts.
int sizeClass(double sizeMb) { return static_cast<int>(std::floor(std::log2(sizeMb * 1e6) / 2)); }

} // namespace

void slowLinkRule(const AdviceContext& ctx, std::vector<Finding>& out)
{
    std::vector<LinkRow> links;
    for (auto& l : CommAnalysisQuery::linkTable(ctx.db, {})) {
        if (l.localRanks || l.src == l.dst || l.transport == "LOCAL" || !l.bandwidthGbps || l.timeNs <= 0
            || l.sizeMb < T::kLinkMinSizeMb)
            continue;
        links.push_back(std::move(l));
    }
    std::map<std::string, std::vector<double>> byTransport;
    std::map<std::tuple<std::string, std::string, int>, std::vector<double>> byGroup;
    for (const auto& l : links) {
        byTransport[l.transport].push_back(*l.bandwidthGbps);
        byGroup[{ l.opType, l.transport, sizeClass(l.sizeMb) }].push_back(*l.bandwidthGbps);
    }
    std::map<std::string, double> transportMedian;
    for (const auto& [t, v] : byTransport)
        transportMedian[t] = OutlierTest::median(v);
    // Each group's median and MAD once: per link they sorted the whole group again (a 1,024-rank cluster's advice
    // spent a quarter of its time sorting).
    std::map<std::tuple<std::string, std::string, int>, std::pair<double, double>> groupStats;
    for (const auto& [key, v] : byGroup) {
        if (v.size() >= 3)
            groupStats[key] = { OutlierTest::median(v), OutlierTest::mad(v) };
    }

    // One finding per unordered rank pair and transport: both directions of a slow link are usually slow.
    std::map<std::tuple<int64_t, int64_t, std::string>, Finding> found;
    std::map<std::tuple<int64_t, int64_t, std::string>, double> extraNs; // the largest of its links' extra time
    for (const auto& l : links) {
        const auto& all = byTransport[l.transport];
        const double bw = *l.bandwidthGbps;
        const double median = transportMedian[l.transport];
        const bool belowTransport = all.size() >= 3 && bw < T::kLinkMedianShare * median;
        bool groupOutlier = false;
        double groupMedian = 0;
        if (const auto stats = groupStats.find({ l.opType, l.transport, sizeClass(l.sizeMb) });
            stats != groupStats.end()) {
            groupMedian = stats->second.first;
            groupOutlier = OutlierTest::robustZ(bw, groupMedian, stats->second.second) < -T::kRobustZ
                && bw < T::kLinkMedianShare * groupMedian;
        }
        const auto peak = peakGbps(l.transport);
        if (!(belowTransport || groupOutlier) || (peak && bw >= *peak))
            continue;
        const auto key = std::make_tuple(std::min(l.src, l.dst), std::max(l.src, l.dst), l.transport);
        auto [it, fresh] = found.try_emplace(key);
        Finding& f = it->second;
        // The time the link took beyond moving its bytes at the transport's median bandwidth (MB ÷ GB/s = ms).
        double& extra = extraNs[key];
        extra = std::max(extra, static_cast<double>(l.timeNs) - l.sizeMb / median * 1e6);
        const FindingLink link { l.src, l.dst, l.transport };
        if (std::find(f.links.begin(), f.links.end(), link) == f.links.end())
            f.links.push_back(link);
        if (!l.slowestOp.empty() && std::find(f.ops.begin(), f.ops.end(), l.slowestOp) == f.ops.end())
            f.ops.push_back(l.slowestOp);
        if (!fresh && bw >= f.value)
            continue;
        f.id = "slow_link";
        f.category = "communication";
        f.severity = bw < T::kLinkCriticalShare * median ? Severity::Critical : Severity::Warning;
        f.threshold = T::kLinkMedianShare * median;
        f.setThreshold(text(QT_TRANSLATE_NOOP("Advice",
                                "bandwidth < %1 × the %2 median (%3 GB/s) or a robust z-score < −%4 among links of the "
                                "same op type, transport and size class; links under %5 MB ignored; and below the %6 "
                                "peak"),
            { fixed(T::kLinkMedianShare, 1), l.transport, fixed(median, 3), fixed(T::kRobustZ, 1),
                fixed(T::kLinkMinSizeMb, 0), l.transport }));
        f.value = bw;
        f.unit = "GB/s";
        f.ranks = { l.src, l.dst };
        f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                              "Link %1 → %2 (%3, %4) moves %5 MB at %6 GB/s: %7 % of the %8 median %9 GB/s over %10 "
                              "links%11."),
            { std::to_string(l.src), std::to_string(l.dst), l.transport, l.opType, fixed(l.sizeMb, 3), fixed(bw, 3),
                fixed(bw / median * 100, 0), l.transport, fixed(median, 3), std::to_string(all.size()),
                groupOutlier
                    ? text(QT_TRANSLATE_NOOP("Advice", "; median of its like links %1 GB/s"), { fixed(groupMedian, 3) })
                    : FindingText() }));
        f.setSuggestion(l.transport == "RDMA"
                ? text(QT_TRANSLATE_NOOP("Advice",
                    "Check the NICs, optics and switch ports of the two hosts (hccn_tool link status, error counters, "
                    "retransmissions) and the network topology / ECMP hashing."))
                : text(QT_TRANSLATE_NOOP("Advice",
                    "Check the intra-node link between the two devices (HCCS / PCIe link status, npu-smi health); a "
                    "degraded link slows every collective that crosses it.")));
        f.evidence.view = "links";
        f.evidence.link = link;
        f.evidence.rank = l.src;
    }
    for (auto& [key, f] : found) {
        // Summed over the steps: per step of the sending rank (docs/metrics.md, "Impact"). An upper bound, as the
        // transfer may overlap computing.
        const auto steps = ctx.stepsOf.find(f.ranks.front());
        if (steps != ctx.stepsOf.end() && steps->second.count > 0)
            setImpact(f, extraNs[key] / steps->second.count, steps->second.meanNs());
        out.push_back(std::move(f));
    }
}

} // namespace npuscope::query::advice

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CommReport.h"
#include "npuscope/query/ReportText.h"

#include "npuscope/query/CommQuery.h"
#include "npuscope/query/JsonStreamWriter.h"

#include <cstdio>
#include <sstream>

namespace npuscope::query {

namespace {

using ojson = nlohmann::ordered_json;

double ms(int64_t ns) { return static_cast<double>(ns) / 1.0e6; }
// A figure the files may not have (see RankDuration::hasTransit): nullopt prints as "—" / null.
std::optional<double> msIf(bool has, int64_t ns) { return has ? std::optional<double>(ms(ns)) : std::nullopt; }

template <typename T> ojson orNull(const std::optional<T>& v) { return v ? ojson(*v) : ojson(nullptr); }

std::string fmt(int decimals, double v) { return report::fixed(decimals, v); }

std::string fmt(int decimals, const std::optional<double>& v) { return v ? fmt(decimals, *v) : std::string("—"); }

using report::pad;

LinkFilter linkFilter(const CommSelection& sel)
{
    LinkFilter f;
    f.step = sel.step;
    f.groupHash = sel.groupHash;
    return f;
}

std::vector<LinkRow> slowestLinks(model::Database& db, const CommSelection& sel)
{
    std::vector<LinkRow> out;
    for (auto& l : CommAnalysisQuery::linkTable(db, linkFilter(sel))) {
        if (l.transport == "LOCAL" || l.src == l.dst || !l.bandwidthGbps)
            continue;
        out.push_back(std::move(l));
        if (out.size() == CommReport::kSlowestLinks)
            break;
    }
    return out;
}

std::string groupLabel(const std::vector<Group>& groups, const std::optional<std::string>& hash)
{
    if (!hash)
        return "?";
    if (hash->empty())
        return "(no group)";
    for (const auto& g : groups) {
        if (g.hash == *hash)
            return g.name ? *g.name + " (" + g.hash + ")" : g.hash;
    }
    return *hash;
}

} // namespace

void CommReport::write(std::ostream& out, model::Database& db, const CommSelection& sel)
{
    JsonStreamWriter w(out);
    w.beginObject();
    w.member("schema", "npuscope.comm/1");
    w.member("step", sel.step);
    w.member("group", sel.groupHash);
    w.key("ranks");
    w.beginArray();
    for (const auto& d : CommAnalysisQuery::durations(db, sel)) {
        w.value(ojson { { "rank", d.rank }, { "ops", d.opCount }, { "elapse_ms", ms(d.elapseNs) },
            { "transit_ms", orNull(msIf(d.hasTransit, d.transitNs)) }, { "wait_ms", orNull(msIf(d.hasWait, d.waitNs)) },
            { "sync_ms", orNull(msIf(d.hasSync, d.syncNs)) }, { "idle_ms", orNull(msIf(d.hasIdle, d.idleNs)) },
            { "wait_ratio", orNull(d.waitRatio) }, { "sync_ratio", orNull(d.syncRatio) },
            { "sdma_size_mb", d.sdmaSizeMb }, { "sdma_time_ms", ms(d.sdmaTimeNs) },
            { "sdma_bandwidth_gbps", orNull(d.sdmaBandwidthGbps) }, { "rdma_size_mb", d.rdmaSizeMb },
            { "rdma_time_ms", ms(d.rdmaTimeNs) }, { "rdma_bandwidth_gbps", orNull(d.rdmaBandwidthGbps) } });
    }
    w.endArray();
    // Groups whose links carry group-local ranks (global ranks unknown); "" = links without a group.
    w.member("local_rank_groups", ojson(CommQuery::localRankGroups(db)));
    w.key("slowest_links");
    w.beginArray();
    for (const auto& l : slowestLinks(db, sel)) {
        w.value(ojson { { "step", orNull(l.step) }, { "group", orNull(l.groupHash) }, { "op_type", l.opType },
            { "src", l.src }, { "dst", l.dst }, { "ranks", l.localRanks ? "local" : "global" },
            { "transport", l.transport }, { "size_mb", l.sizeMb }, { "time_ms", ms(l.timeNs) },
            { "bandwidth_gbps", orNull(l.bandwidthGbps) },
            { "slowest_op", l.slowestOp.empty() ? ojson(nullptr) : ojson(l.slowestOp) } });
    }
    w.endArray();
    w.endObject();
    w.finish();
}

nlohmann::ordered_json CommReport::json(model::Database& db, const CommSelection& sel)
{
    std::ostringstream out;
    write(out, db, sel);
    return ojson::parse(out.str());
}

std::string CommReport::text(model::Database& db, const CommSelection& sel)
{
    std::ostringstream out;
    const auto groups = CommQuery::groups(db);
    out << "Communication per rank (ms; step " << (sel.step ? std::to_string(*sel.step) : "all") << ", group "
        << (sel.groupHash ? groupLabel(groups, sel.groupHash) : "all") << ")\n";
    out << pad("rank", 6) << pad("ops", 6) << pad("Elapsed", 12) << pad("Transit", 12) << pad("Wait", 12)
        << pad("Sync", 12) << pad("Idle", 12) << pad("WaitRatio", 11) << pad("SyncRatio", 11) << pad("SDMA GB/s", 11)
        << pad("RDMA GB/s", 11) << "\n";
    const auto rows = CommAnalysisQuery::durations(db, sel);
    for (const auto& d : rows) {
        out << pad(std::to_string(d.rank), 6) << pad(std::to_string(d.opCount), 6) << pad(fmt(3, ms(d.elapseNs)), 12)
            << pad(fmt(3, msIf(d.hasTransit, d.transitNs)), 12) << pad(fmt(3, msIf(d.hasWait, d.waitNs)), 12)
            << pad(fmt(3, msIf(d.hasSync, d.syncNs)), 12) << pad(fmt(3, msIf(d.hasIdle, d.idleNs)), 12)
            << pad(fmt(4, d.waitRatio), 11) << pad(fmt(4, d.syncRatio), 11) << pad(fmt(3, d.sdmaBandwidthGbps), 11)
            << pad(fmt(3, d.rdmaBandwidthGbps), 11) << "\n";
    }
    if (rows.empty())
        out << "  (no communication ops)\n";
    const auto links = slowestLinks(db, sel);
    out << "\nSlowest links (excluding LOCAL, bandwidth = Σsize/Σtime): " << links.size() << "\n";
    for (const auto& g : CommQuery::localRankGroups(db))
        out << "  group-local ranks (L): global ranks unknown for group " << groupLabel(groups, g) << "\n";
    for (const auto& l : links) {
        out << "  " << pad(l.step ? "step " + std::to_string(*l.step) : "all steps", 10, false) << " "
            << pad(l.opType, 14, false)
            << pad((l.localRanks ? "L" : "") + std::to_string(l.src) + " -> " + (l.localRanks ? "L" : "")
                       + std::to_string(l.dst),
                   14, false)
            << pad(l.transport, 6, false) << pad(fmt(3, l.bandwidthGbps) + " GB/s", 14)
            << pad(fmt(3, l.sizeMb) + " MB", 14) << pad(fmt(3, ms(l.timeNs)) + " ms", 13) << "  "
            << groupLabel(groups, l.groupHash) << (l.slowestOp.empty() ? "" : "  slowest op " + l.slowestOp) << "\n";
    }
    return out.str();
}

} // namespace npuscope::query

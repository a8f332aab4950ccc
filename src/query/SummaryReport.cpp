// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/SummaryReport.h"
#include "npuscope/query/ReportText.h"

#include "npuscope/core/RunOnThreads.h"
#include "npuscope/query/ClusterMean.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/JsonStreamWriter.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/StepQuery.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <tuple>

namespace npuscope::query {

namespace {

using ojson = nlohmann::ordered_json;

template <typename T> ojson orNull(const std::optional<T>& v) { return v ? ojson(*v) : ojson(nullptr); }

ojson usOrNull(const std::optional<int64_t>& ns) { return ns ? ojson(static_cast<double>(*ns) / 1000.0) : ojson(); }

using report::pad;
const auto fmt = [](int decimals, double v, const char* suffix = "") { return report::fixed(decimals, v, suffix); };

std::string msText(const std::optional<int64_t>& ns)
{
    return ns ? fmt(3, static_cast<double>(*ns) / 1.0e6) : std::string("—");
}

// "0-7" / "0,8" / "0-3,8-11" for ascending ranks.
std::string rankRanges(const std::vector<int64_t>& ranks)
{
    std::string out;
    for (size_t i = 0; i < ranks.size();) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        out += (out.empty() ? "" : ",") + std::to_string(ranks[i]);
        if (j > i)
            out += (j > i + 1 ? "-" : ",") + std::to_string(ranks[j]);
        i = j + 1;
    }
    return out;
}

// A link's place in CommQuery::forEachLink's order (ORDER BY step, group_hash, matrix_op, src, dst, rank_id; NULL
// first, text by bytes as SQLite's BINARY collation), then its place in the file (comm_link's link_op, link_seq).
struct LinkOrder {
    std::optional<int64_t> step;
    std::optional<std::string> group;
    std::string matrixOp;
    int64_t src = 0, dst = 0, rank = 0, op = 0, seq = 0;
    bool operator<(const LinkOrder& o) const
    {
        return std::tie(step, group, matrixOp, src, dst, rank, op, seq)
            < std::tie(o.step, o.group, o.matrixOp, o.src, o.dst, o.rank, o.op, o.seq);
    }
};

} // namespace

void SummaryReport::write(std::ostream& out, model::Database& db, HostDisplay hosts)
{
    JsonStreamWriter w(out);
    w.beginObject();
    w.member("schema", "npuscope.summary/1");
    w.key("ranks");
    w.beginArray();
    for (const auto& r : RankQuery::ranks(db, hosts)) {
        ojson files = ojson::array();
        for (const auto& f : r.files)
            files.push_back(std::filesystem::path(f.path).filename().string());
        w.value(ojson { { "rank", r.rank }, { "device", orNull(r.device) }, { "path", r.path },
            { "rank_source", r.rankSource }, { "profiler_level", orNull(r.profilerLevel) }, { "files", files },
            { "host", orNull(r.host) } });
    }
    w.endArray();

    w.key("steps");
    w.beginArray();
    for (const auto& b : StepQuery::breakdown(db)) {
        ojson s;
        s["rank"] = b.rank;
        s["step"] = orNull(b.step);
        for (const auto& c : model::kStepColumns)
            s[c.jsonKey] = usOrNull(b.value(c.column));
        s["device"] = orNull(b.device);
        w.value(s);
    }
    w.endArray();

    // msprof-analyze pipeline stage rows (max over the stage's ranks); [] when the input has none.
    w.key("stages");
    w.beginArray();
    for (const auto& b : StepQuery::stages(db)) {
        ojson s;
        s["stage"] = b.stage;
        s["ranks"] = b.ranks;
        s["step"] = orNull(b.step);
        for (const auto& c : model::kStepColumns) {
            if (!c.iterationTrace)
                s[c.jsonKey] = usOrNull(b.value(c.column));
        }
        w.value(s);
    }
    w.endArray();

    w.key("groups");
    w.beginArray();
    for (const auto& g : CommQuery::groups(db)) {
        w.value(ojson { { "hash", g.hash }, { "name", orNull(g.name) }, { "ranks", g.ranks },
            { "raw_name", orNull(g.rawName) }, { "ranks_source", g.ranksSource }, { "op_count", g.opCount } });
    }
    w.endArray();

    // communication_group.json rank sets that carry no hash (and match no group above).
    w.key("listed_groups");
    w.beginArray();
    for (const auto& g : CommQuery::listedGroups(db))
        w.value(ojson { { "kind", orNull(g.kind) }, { "ranks", g.ranks }, { "ranks_source", g.ranksSource } });
    w.endArray();

    // "ranks": which pair the views show: "global" = src/dst, "local" = local_src/local_dst (the group's global
    // ranks are unknown, CommQuery::localRankGroups; src/dst then hold only what could be resolved, or null).
    const auto localGroups = CommQuery::localRankGroups(db);
    w.member("local_rank_groups", ojson(localGroups));
    // The links are written as they are read: the largest part of a big cluster's document is never held.
    w.key("links");
    w.beginArray();
    const auto keys = w.objectKeys({ "step", "group", "op", "src", "dst", "ranks", "transport", "size_mb", "time_ms",
        "bandwidth_gbps", "op_name", "local_src", "local_dst", "reported_by", "kind" });
    const auto print = [&w, &keys, &localGroups](const LinkRef& l) {
        const bool local = std::binary_search(localGroups.begin(), localGroups.end(), l.groupHash.value_or(""));
        w.beginObject();
        size_t k = 0;
        w.member(keys, k++, l.step);
        w.member(keys, k++, l.groupHash);
        w.member(keys, k++, l.matrixOp);
        w.member(keys, k++, l.src);
        w.member(keys, k++, l.dst);
        w.member(keys, k++, local ? "local" : "global");
        w.member(keys, k++, l.transport);
        w.member(keys, k++, l.sizeMb);
        w.member(keys, k++,
            l.timeNs ? std::optional<double>(static_cast<double>(*l.timeNs) / 1.0e6) : std::optional<double>());
        w.member(keys, k++, l.bandwidthGbps);
        w.member(keys, k++, l.opName);
        w.member(keys, k++, l.localSrc);
        w.member(keys, k++, l.localDst);
        w.member(keys, k++, l.reportedBy);
        w.member(keys, k++, l.kind);
        w.endObject();
    };
    // Printed on a second thread while the next ones are read from the model (each was about half of the links'
    // cost: 282,624 links on a 1,024-rank cluster).
    CommQuery::forEachLink(db, {}, print, hardwareThreads() > 1 ? LinkVisit::OtherThread : LinkVisit::CallerThread);
    w.endArray();

    w.key("issues");
    w.beginArray();
    for (const auto& i : IssueQuery::issues(db)) {
        w.value(ojson { { "severity", i.severity }, { "rank", orNull(i.rank) }, { "file", orNull(i.file) },
            { "line", orNull(i.line) }, { "message", i.message } });
    }
    w.endArray();
    w.endObject();
    w.finish();
}

nlohmann::ordered_json SummaryReport::json(model::Database& db, HostDisplay hosts)
{
    std::ostringstream out;
    write(out, db, hosts);
    return nlohmann::ordered_json::parse(out.str());
}

namespace {

// The text summary's sections, in their order; each writes to out.
void writeRanks(std::ostream& out, model::Database& db, HostDisplay hosts)
{
    const auto ranks = RankQuery::ranks(db, hosts);
    const bool anyHost = std::any_of(ranks.begin(), ranks.end(), [](const RankInfo& r) { return r.host.has_value(); });
    out << "Ranks: " << ranks.size() << "\n";
    out << pad("rank", 6) << pad("device", 8) << "  " << (anyHost ? pad("host", 16, false) : std::string())
        << pad("level", 8, false) << "path\n";
    for (const auto& r : ranks) {
        out << pad(std::to_string(r.rank), 6) << pad(r.device ? std::to_string(*r.device) : "—", 8) << "  "
            << (anyHost ? pad(r.host.value_or("—"), 16, false) : std::string())
            << pad(r.profilerLevel.value_or("—"), 8, false) << r.path << "\n";
    }
}

// The step columns the text tables show: those with a short title (model::kStepColumns), the old-generation iteration
// trace ones only when some row has them (all), and the step_trace_time.csv ones (file).
struct ShownColumns {
    std::vector<const model::StepColumnSpec*> all, file;
};

// The step breakdown per rank and step, then msprof-analyze's pipeline stages when the input has them.
ShownColumns writeSteps(std::ostream& out, model::Database& db)
{
    const auto rows = StepQuery::breakdown(db);
    out << "\nStep breakdown (ms)\n" << pad("rank", 6) << pad("step", 7);
    // The columns with a short title (model::kStepColumns); the old-generation iteration trace ones only when some
    // row has them.
    const bool iterationTrace = std::any_of(rows.begin(), rows.end(), [](const StepBreakdown& b) {
        return std::any_of(model::kStepColumns.begin(), model::kStepColumns.end(),
            [&b](const model::StepColumnSpec& c) { return c.iterationTrace && b.value(c.column).has_value(); });
    });
    ShownColumns columns;
    auto& shown = columns.all;
    auto& fileShown = columns.file;
    for (const auto& c : model::kStepColumns) {
        if (c.shortTitle && (!c.iterationTrace || iterationTrace))
            shown.push_back(&c);
        if (c.shortTitle && !c.iterationTrace)
            fileShown.push_back(&c);
    }
    for (const auto* c : shown)
        out << pad(c->shortTitle, 12);
    out << "\n";
    for (const auto& b : rows) {
        out << pad(std::to_string(b.rank), 6) << pad(b.step ? std::to_string(*b.step) : "—", 7);
        for (const auto* c : shown)
            out << pad(msText(b.value(c->column)), 12);
        out << "\n";
    }
    if (rows.empty())
        out << "  (no step_trace_time.csv rows)\n";

    const auto stages = StepQuery::stages(db);
    if (!stages.empty()) {
        out << "\nPipeline stages (msprof-analyze: per step, the max of each column over the stage's ranks; ms)\n"
            << pad("stage", 6) << pad("step", 7) << "  " << pad("ranks", 18, false);
        for (const auto* c : fileShown)
            out << pad(c->shortTitle, 12);
        out << "\n";
        for (const auto& b : stages) {
            out << pad(std::to_string(b.stage), 6) << pad(b.step ? std::to_string(*b.step) : "—", 7) << "  "
                << pad(rankRanges(b.ranks), 18, false);
            for (const auto* c : fileShown)
                out << pad(msText(b.value(c->column)), 12);
            out << "\n";
        }
    }

    return columns;
}

// min / max / mean / spread of each shown column over the ranks (mean of their steps), when there are several ranks.
void writeClusterStatistics(
    std::ostream& out, model::Database& db, const std::vector<const model::StepColumnSpec*>& shown)
{
    const auto averaged = StepQuery::averaged(db);
    if (averaged.size() > 1) {
        // The cluster-mean rule (docs/metrics.md): the ranks of the majority file generation.
        const auto mean = ClusterMean::of(averaged);
        const auto& stats = mean.stats;
        out << "\nCluster statistics over ranks (mean of steps, ms)\n";
        if (mean.otherGenerationRanks > 0)
            out << "  over the " << mean.ranks << " of " << mean.ranks + mean.otherGenerationRanks
                << " ranks of the majority file generation (docs/metrics.md, cluster mean); the other generation's "
                << (mean.otherGenerationRanks == 1 ? "rank is" : "ranks are") << " not in these statistics\n";
        out << pad("column", 14, false) << pad("min", 12) << pad("max", 12) << pad("mean", 12) << pad("spread", 9)
            << pad("min rank", 10) << pad("max rank", 10) << "\n";
        for (const auto* c : shown) {
            const char* name = c->shortTitle;
            const auto& s = stats[static_cast<size_t>(c->column)];
            auto ms = [](const std::optional<double>& v) { return v ? fmt(3, *v / 1.0e6) : std::string("—"); };
            out << pad(name, 14, false) << pad(ms(s.min), 12) << pad(ms(s.max), 12) << pad(ms(s.mean), 12)
                << pad(s.spread ? fmt(1, *s.spread * 100, "%") : "—", 9)
                << pad(s.minRank ? std::to_string(*s.minRank) : "—", 10)
                << pad(s.maxRank ? std::to_string(*s.maxRank) : "—", 10) << "\n";
        }
    }
}

// The communication groups with their members, then the groups communication_group.json lists without a hash.
void writeGroups(std::ostream& out, model::Database& db)
{
    const auto groups = CommQuery::groups(db);
    out << "\nCommunication groups: " << groups.size() << "\n";
    for (const auto& g : groups) {
        std::string members;
        for (auto r : g.ranks)
            members += (members.empty() ? "" : ",") + std::to_string(r);
        out << "  " << pad(g.name.value_or("?"), 14, false) << pad(g.hash, 22, false) << " ranks [" << members << "] ("
            << g.ranksSource << "), " << g.opCount << " ops\n";
    }
    const auto listed = CommQuery::listedGroups(db);
    if (!listed.empty()) {
        out << "Listed in communication_group.json without a group hash: " << listed.size() << "\n";
        for (const char* kind : { "collective", "p2p" }) {
            std::string line;
            int count = 0;
            for (const auto& g : listed) {
                if (g.kind != kind)
                    continue;
                const std::string item = "[" + rankRanges(g.ranks) + "]";
                if (line.size() + item.size() > 96) {
                    out << "  " << pad(count == 0 ? kind : "", 11, false) << line << "\n";
                    line.clear();
                    ++count;
                }
                line += (line.empty() ? "" : " ") + item;
            }
            if (!line.empty())
                out << "  " << pad(count == 0 ? kind : "", 11, false) << line << "\n";
        }
    }
}

void writeSlowestLinks(std::ostream& out, model::Database& db)
{
    // The ten slowest of possibly millions of links (12.6M on a flat 1,024-way all-to-all cluster): one pass over the
    // table in storage order with the filter in SQL (no index walk, no sort of every link), a bounded max-heap, ties
    // in the order summary --json lists the links (CommQuery::forEachLink), never the whole list. Kept: one row per
    // link and op, the "total" slot of newer builds or the real op keys of 2023 builds; links whose global ranks are
    // unknown cannot be named.
    constexpr size_t kSlowest = 10;
    struct Ranked {
        double bandwidth;
        LinkOrder order;
        Link link;
    };
    const auto slower = [](const Ranked& a, const Ranked& b) {
        return a.bandwidth != b.bandwidth ? a.bandwidth < b.bandwidth : a.order < b.order;
    };
    std::vector<Ranked> slowest;
    size_t linkCount = 0;
    // Columns 0-10 as below, 11: link_seq (link_op and link_seq are two columns: op ids are large, see ModelMerger).
    auto links
        = db.prepare("SELECT link_op, rank_id, step, group_hash, matrix_op, src, dst, transport, size_mb, "
                     "time_ns, bandwidth_gbps, link_seq FROM comm_link WHERE bandwidth_gbps IS NOT NULL AND src IS NOT "
                     "NULL AND dst IS NOT NULL AND src <> dst AND (transport IS NULL OR transport <> 'LOCAL') AND (slot IS "
                     "NULL OR (slot = 'total' AND group_hash IS NOT NULL))");
    while (links.step()) {
        ++linkCount;
        const double bandwidth = links.real(10);
        if (slowest.size() == kSlowest && bandwidth > slowest.front().bandwidth)
            continue;
        Ranked r { bandwidth, {}, {} };
        r.order = { links.optInt(2), links.optText(3), links.text(4), links.int64(5), links.int64(6), links.int64(1),
            links.int64(0), links.int64(11) };
        if (slowest.size() == kSlowest && !slower(r, slowest.front()))
            continue;
        r.link.step = r.order.step;
        r.link.matrixOp = r.order.matrixOp;
        r.link.src = r.order.src;
        r.link.dst = r.order.dst;
        r.link.transport = links.optText(7);
        r.link.sizeMb = links.optReal(8);
        r.link.timeNs = links.optInt(9);
        r.link.bandwidthGbps = bandwidth;
        if (slowest.size() == kSlowest) {
            std::pop_heap(slowest.begin(), slowest.end(), slower);
            slowest.pop_back();
        }
        slowest.push_back(std::move(r));
        std::push_heap(slowest.begin(), slowest.end(), slower);
    }
    std::sort_heap(slowest.begin(), slowest.end(), slower);
    out << "\nSlowest links (per op or total slot, global ranks known, excluding LOCAL and a rank's links to itself): " << linkCount << "\n";
    for (const auto& ranked : slowest) {
        const auto& l = ranked.link;
        auto rank = [](const std::optional<int64_t>& r) { return r ? std::to_string(*r) : std::string("?"); };
        out << "  step " << (l.step ? std::to_string(*l.step) : "—") << "  " << pad(l.matrixOp, 18, false) << " "
            << pad(rank(l.src) + " -> " + rank(l.dst), 10, false) << " " << pad(l.transport.value_or("?"), 6, false)
            << pad(fmt(3, *l.bandwidthGbps, " GB/s"), 14) << pad(l.sizeMb ? fmt(3, *l.sizeMb, " MB") : "—", 14)
            << pad(msText(l.timeNs) + " ms", 14) << "\n";
    }
}

// The first 20 parse issues.
void writeIssues(std::ostream& out, model::Database& db)
{
    const auto issues = IssueQuery::issues(db);
    out << "\nParse issues: " << issues.size() << "\n";
    for (size_t i = 0; i < issues.size() && i < 20; ++i) {
        const auto& is = issues[i];
        out << "  " << pad(is.severity, 8, false) << " " << (is.file ? *is.file : std::string("-"))
            << (is.line ? ":" + std::to_string(*is.line) : "") << "  " << is.message << "\n";
    }
    if (issues.size() > 20)
        out << "  ... " << issues.size() - 20 << " more (use --json)\n";
}

} // namespace

std::string SummaryReport::text(model::Database& db, HostDisplay hosts)
{
    std::ostringstream out;
    writeRanks(out, db, hosts);
    const ShownColumns columns = writeSteps(out, db);
    writeClusterStatistics(out, db, columns.all);
    writeGroups(out, db);
    writeSlowestLinks(out, db);
    writeIssues(out, db);
    return out.str();
}

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CriticalPathReport.h"
#include "npuscope/query/ReportText.h"

#include <algorithm>
#include <sstream>

namespace npuscope::query {

namespace {

using ojson = nlohmann::ordered_json;

double ms(int64_t ns) { return static_cast<double>(ns) / 1.0e6; }
double us(int64_t ns) { return static_cast<double>(ns) / 1.0e3; }
std::string fmt(int decimals, double v) { return report::fixed(decimals, v); }

ojson shareJson(const PathShare& s)
{
    return { { "compute_ms", ms(s.computeNs) }, { "communication_ms", ms(s.communicationNs) },
        { "host_ms", ms(s.hostNs) }, { "idle_ms", ms(s.idleNs) } };
}

ojson opName(const DependencyGraph& g, int32_t id) { return id >= 0 ? ojson(g.strings.text(id)) : ojson(nullptr); }

ojson segmentsJson(const DependencyGraph& g, const std::vector<PathSegment>& segments)
{
    ojson a = ojson::array();
    for (const auto& s : segments) {
        a.push_back({ { "rank", s.rank }, { "kind", pathKindName(s.kind) }, { "op", opName(g, s.op) },
            { "start_us", us(s.writtenStart) }, { "dur_ms", ms(s.durNs()) } });
    }
    return a;
}

ojson operatorJson(const DependencyGraph& g, const OperatorTime& o)
{
    return { { "name", opName(g, o.name) }, { "kind", o.kind == DepKind::Compute ? "compute" : "communication" },
        { "count", o.count }, { "dur_ms", ms(o.durNs) }, { "serial_ms", ms(o.serialNs) },
        { "parallel_ms", ms(o.parallelNs) } };
}

std::string shareText(const PathShare& s)
{
    const double total = static_cast<double>(std::max<int64_t>(1, s.totalNs()));
    auto pct = [&](int64_t ns) { return fmt(1, 100.0 * static_cast<double>(ns) / total) + " %"; };
    return "compute " + pct(s.computeNs) + ", communication " + pct(s.communicationNs) + ", host "
        + pct(s.hostNs) + ", idle " + pct(s.idleNs);
}

ojson visitsJson(const DependencyGraph& g, const std::vector<PathSegment>& segments)
{
    ojson a = ojson::array();
    for (const auto& v : CriticalPath::visits(segments)) {
        ojson o = { { "rank", v.rank }, { "start_us", us(v.writtenStart) }, { "dur_ms", ms(v.share.totalNs()) } };
        o.update(shareJson(v.share));
        o["longest_op"] = opName(g, v.longestOp);
        a.push_back(std::move(o));
    }
    return a;
}

void visitsText(std::ostringstream& out, const DependencyGraph& graph, const std::vector<PathSegment>& segments)
{
    for (const auto& v : CriticalPath::visits(segments)) {
        out << "    rank " << report::pad(std::to_string(v.rank), 5, false) << " "
            << report::pad(fmt(3, ms(v.share.totalNs())), 10) << " ms  (" << shareText(v.share) << ")";
        if (v.longestOp >= 0)
            out << "  longest " << graph.strings.text(v.longestOp) << " " << fmt(3, ms(v.longestNs)) << " ms";
        out << "\n";
    }
}

} // namespace

ojson CriticalPathReport::criticalPathJson(const DependencyGraph& graph, const std::vector<CriticalPathStep>& steps)
{
    ojson doc;
    doc["schema"] = "npuscope.critical_path/1";
    ojson a = ojson::array();
    for (const auto& s : steps) {
        ojson ranks = ojson::array();
        for (const auto& [rank, share] : s.ranks) {
            ojson r = { { "rank", rank } };
            r.update(shareJson(share));
            ranks.push_back(std::move(r));
        }
        ojson links = ojson::array();
        for (const auto& [link, ns] : s.links)
            links.push_back({ { "src", link.first }, { "dst", link.second }, { "ms", ms(ns) } });
        ojson ops = ojson::array();
        for (size_t i = 0; i < s.operators.size() && i < kOperators; ++i)
            ops.push_back(operatorJson(graph, s.operators[i]));
        ojson comm = ojson::array();
        for (const auto& o : s.topCommunication)
            comm.push_back(operatorJson(graph, o));
        a.push_back({ { "step", s.step }, { "slowest_rank", s.slowestRank }, { "step_ms", ms(s.stepNs) },
            { "length_ms", ms(s.lengthNs) }, { "share", shareJson(s.share) }, { "ranks", std::move(ranks) },
            { "links", std::move(links) }, { "top_communication", std::move(comm) }, { "operators", std::move(ops) },
            { "segments", segmentsJson(graph, s.segments) } });
    }
    doc["steps"] = std::move(a);
    return doc;
}

std::string CriticalPathReport::criticalPathText(const DependencyGraph& graph, const std::vector<CriticalPathStep>& steps)
{
    std::ostringstream out;
    if (steps.empty())
        out << "No step has device tasks or communication ops with a step id: no critical path.\n";
    for (const auto& s : steps) {
        out << "Step " << s.step << ": critical path " << fmt(3, ms(s.lengthNs)) << " ms, step "
            << fmt(3, ms(s.stepNs)) << " ms on its slowest rank " << s.slowestRank << "\n";
        out << "  share: " << shareText(s.share) << "\n";
        out << "  path by rank (each stay on a rank, in time order):\n";
        visitsText(out, graph, s.segments);
        if (!s.topCommunication.empty()) {
            out << "  communication ops with the most serial time:\n";
            for (const auto& o : s.topCommunication)
                out << "    " << graph.strings.text(o.name) << "  serial " << fmt(3, ms(o.serialNs)) << " ms, parallel "
                    << fmt(3, ms(o.parallelNs)) << " ms over " << o.count << "\n";
        }
    }
    return out.str();
}

ojson CriticalPathReport::whatIfJson(const DependencyGraph& graph, const WhatIfResult& result)
{
    ojson doc;
    doc["schema"] = "npuscope.whatif/1";
    ojson changes = ojson::array();
    for (size_t i = 0; i < result.changes.size(); ++i)
        changes.push_back({ { "spec", result.changes[i].spec }, { "matched", result.matched[i] } });
    doc["changes"] = std::move(changes);
    ojson a = ojson::array();
    for (const auto& s : result.steps) {
        ojson ranks = ojson::array();
        for (const auto& r : s.ranks)
            ranks.push_back(
                { { "rank", r.rank }, { "measured_ms", ms(r.measuredNs) }, { "predicted_ms", ms(r.predictedNs) } });
        a.push_back({ { "step", s.step }, { "measured_ms", ms(s.measuredNs) }, { "predicted_ms", ms(s.predictedNs) },
            { "gain_ms", ms(s.gainNs()) }, { "measured_rank", s.measuredRank },
            { "predicted_rank", s.predictedRank }, { "replay_out_of_order", s.cycles },
            { "critical_path",
                { { "length_ms", ms(s.path.lengthNs) }, { "share", shareJson(s.path.share) },
                    { "ranks", visitsJson(graph, s.path.segments) } } },
            { "ranks", std::move(ranks) } });
    }
    doc["steps"] = std::move(a);
    return doc;
}

std::string CriticalPathReport::whatIfText(const DependencyGraph& graph, const WhatIfResult& result)
{
    std::ostringstream out;
    if (result.changes.empty())
        out << "No change: the measured steps replayed on their dependency graph (a self-check).\n";
    for (size_t i = 0; i < result.changes.size(); ++i) {
        out << "Change " << result.changes[i].spec << ": " << result.matched[i] << " matched";
        if (result.matched[i] == 0)
            out << " (nothing in the loaded data: this change does nothing)";
        out << "\n";
    }
    for (const auto& s : result.steps) {
        const double gainPct = s.measuredNs > 0 ? 100.0 * static_cast<double>(s.gainNs()) / static_cast<double>(s.measuredNs) : 0.0;
        out << "Step " << s.step << ": measured " << fmt(3, ms(s.measuredNs)) << " ms (rank " << s.measuredRank
            << "), predicted " << fmt(3, ms(s.predictedNs)) << " ms (rank " << s.predictedRank << "), gain "
            << fmt(3, ms(s.gainNs())) << " ms (" << fmt(1, gainPct) << " %)\n";
        out << "  new critical path: " << shareText(s.path.share) << "\n";
        visitsText(out, graph, s.path.segments);
        if (s.cycles > 0)
            out << "  " << s.cycles << " tasks replayed in measured order (their ranks ran ops in different orders)\n";
    }
    return out.str();
}

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/advice/HtmlReport.h"
#include "npuscope/core/EnumNames.h"
#include "npuscope/query/ReportText.h"

#include "npuscope/query/ClusterMean.h"
#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/advice/AdviceThresholds.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sstream>

#ifndef NPUSCOPE_VERSION
#error "NPUSCOPE_VERSION is defined by CMakeLists.txt from the project version"
#endif

namespace npuscope::query::advice {

namespace {

using Esc = std::string (*)(std::string_view);
constexpr Esc esc = &HtmlReport::escape;

std::string number(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

// A figure with its unit; a share as a percentage.
std::string measured(double v, const std::string& unit)
{
    if (unit == "share")
        return number(v * 100) + " %";
    return unit.empty() ? number(v) : number(v) + " " + esc(unit);
}

std::string fixed(double v, int decimals) { return report::fixed(decimals, v); }

std::string ms(int64_t ns) { return fixed(static_cast<double>(ns) / 1e6, 3); }

std::string nowUtc()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm {};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
}

const char* severityColour(Severity s)
{
    static constexpr EnumName<Severity> kColours[] { { Severity::Critical, "#c62828" },
        { Severity::Warning, "#ef6c00" } };
    return nameOf(kColours, s, "#1565c0");
}

constexpr const char* kStyle = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1280px;color:#222;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:32px}
h3{font-size:15px;margin:0 0 8px}.meta{color:#555;font-size:13px}
table{border-collapse:collapse;font-size:13px;margin:8px 0}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left}
th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}
.finding{border:1px solid #ddd;border-left:6px solid #999;border-radius:4px;padding:10px 14px;margin:12px 0}
.badge{display:inline-block;color:#fff;border-radius:3px;padding:1px 7px;font-size:12px;font-weight:600;margin-right:8px}
.rule{font-family:monospace;font-size:14px}.cat{color:#666;font-size:13px;margin-left:8px}
.kv td:first-child{color:#555;width:130px}.suggest{background:#f6f8fa;padding:6px 10px;border-radius:3px}
.legend span{display:inline-block;margin-right:14px;font-size:12px}.legend i{display:inline-block;width:11px;
height:11px;margin-right:4px;vertical-align:-1px}svg text{font-size:11px;fill:#333}
)";

// Evidence lists are capped so a 1,024-rank finding stays readable; the count says how many there are.
constexpr size_t kListCap = 64;

template <class T, class F> std::string joined(const std::vector<T>& items, F text)
{
    std::string out;
    for (size_t i = 0; i < items.size() && i < kListCap; ++i)
        out += (i ? ", " : "") + text(items[i]);
    if (items.size() > kListCap)
        out += ", \u2026 (" + std::to_string(items.size()) + " in all)";
    return out;
}

std::string linkText(const FindingLink& l)
{
    return std::to_string(l.src) + " \u2192 " + std::to_string(l.dst) + (l.transport.empty() ? "" : " " + l.transport);
}

struct Part {
    const char* name;
    const char* colour;
    int64_t StepSplit::*member;
};
constexpr std::array<Part, 5> kNewParts {
    { { "Computing (not overlapped)", "#4e79a7", &StepSplit::computingNotOverlapped },
        { "Overlapped", "#76b7b2", &StepSplit::overlapped },
        { "Communication (not overlapped)", "#e15759", &StepSplit::communicationNotOverlapped },
        { "Free", "#bab0ac", &StepSplit::free }, { "Preparing", "#edc948", &StepSplit::preparing } }
};
constexpr std::array<Part, 3> kOldParts { { { "Iteration interval", "#bab0ac", &StepSplit::iterationInterval },
    { "FP + BP", "#4e79a7", &StepSplit::fpBp }, { "Tail", "#e15759", &StepSplit::tail } } };

struct SplitRow {
    std::string label;
    StepSplit split;
};

template <size_t N>
void splitChart(std::ostringstream& out, const std::vector<SplitRow>& rows, const std::array<Part, N>& parts)
{
    out << "<div class=\"legend\">";
    for (const Part& p : parts)
        out << "<span><i style=\"background:" << p.colour << "\"></i>" << p.name << "</span>";
    out << "</div>\n";
    int64_t longest = 1;
    for (const auto& r : rows)
        longest = std::max(longest, r.split.total());
    constexpr int kLabel = 80, kBarWidth = 1000, kRow = 14, kGap = 3, kAxis = 18;
    const int height = static_cast<int>(rows.size()) * (kRow + kGap) + kAxis;
    out << "<svg width=\"" << kLabel + kBarWidth + 20 << "\" height=\"" << height
        << "\" role=\"img\" aria-label=\"step split per rank\">\n";
    for (size_t i = 0; i < rows.size(); ++i) {
        const int y = static_cast<int>(i) * (kRow + kGap);
        out << "<text x=\"" << kLabel - 6 << "\" y=\"" << y + kRow - 3 << "\" text-anchor=\"end\">"
            << esc(rows[i].label) << "</text>";
        double x = kLabel;
        for (const Part& p : parts) {
            const double w = static_cast<double>(rows[i].split.*p.member) / static_cast<double>(longest) * kBarWidth;
            if (w <= 0)
                continue;
            out << "<rect x=\"" << fixed(x, 2) << "\" y=\"" << y << "\" width=\"" << fixed(w, 2) << "\" height=\""
                << kRow << "\" fill=\"" << p.colour << "\"><title>" << esc(rows[i].label) << ": " << p.name << " "
                << ms(rows[i].split.*p.member) << " ms</title></rect>";
            x += w;
        }
        out << "\n";
    }
    const int axisY = static_cast<int>(rows.size()) * (kRow + kGap);
    out << "<line x1=\"" << kLabel << "\" y1=\"" << axisY << "\" x2=\"" << kLabel + kBarWidth << "\" y2=\"" << axisY
        << "\" stroke=\"#999\"/>";
    for (int t = 0; t <= 4; ++t)
        out << "<text x=\"" << kLabel + kBarWidth * t / 4 << "\" y=\"" << axisY + 13 << "\" text-anchor=\""
            << (t == 0          ? "start"
                       : t == 4 ? "end"
                                : "middle")
            << "\">" << ms(longest * t / 4) << " ms</text>";
    out << "</svg>\n";
}

void overview(std::ostringstream& out, model::Database& db, bool skipFirstStep)
{
    out << "<h2>Overview</h2>\n";
    std::vector<StepBreakdown> averaged = StepQuery::averaged(db, skipFirstStep);
    if (averaged.empty()) {
        out << "<p>No step breakdown (step_trace_time.csv) was loaded.</p>\n";
    } else {
        const ClusterMean mean = ClusterMean::of(averaged);
        const bool old = mean.split && mean.split->iterationTrace;
        std::vector<StepBreakdown> shown = averaged;
        std::stable_sort(shown.begin(), shown.end(),
            [](const StepBreakdown& a, const StepBreakdown& b) { return splitOf(a).total() > splitOf(b).total(); });
        std::vector<StepBreakdown> slowest(shown.begin(), shown.begin() + std::min<size_t>(shown.size(), 10));
        const bool all = averaged.size() <= HtmlReport::kAllBarsUpTo;
        if (!all)
            shown.resize(HtmlReport::kSlowestBars);
        else
            shown = averaged;
        out << "<h3>Step split per rank ("
            << (skipFirstStep ? "mean over steps, first step left out" : "mean over steps")
            << (all ? ""
                    : "; the " + std::to_string(HtmlReport::kSlowestBars) + " slowest of "
                           + std::to_string(averaged.size()) + " ranks and the cluster mean")
            << ")</h3>\n";
        std::vector<SplitRow> rows;
        for (const auto& b : shown)
            rows.push_back({ "rank " + std::to_string(b.rank), splitOf(b) });
        if (mean.split)
            rows.push_back({ "mean", *mean.split });
        if (old)
            splitChart(out, rows, kOldParts);
        else
            splitChart(out, rows, kNewParts);

        out << "<h3>Slowest ranks</h3>\n<table><tr><th>Rank</th><th>Step (ms)</th><th>Computing (ms)</th>"
               "<th>Communication not overlapped (ms)</th><th>Free (ms)</th><th>Preparing (ms)</th>"
               "<th>vs mean</th></tr>\n";
        const double meanTotal = mean.split ? static_cast<double>(mean.split->total()) : 0;
        auto cell = [](std::optional<int64_t> v) { return v ? ms(*v) : std::string("\u2014"); };
        for (const auto& b : slowest) {
            const int64_t total = splitOf(b).total();
            out << "<tr><td class=\"n\">" << b.rank << "</td><td class=\"n\">" << ms(total) << "</td><td class=\"n\">"
                << cell(b.value(StepColumn::Computing)) << "</td><td class=\"n\">"
                << cell(b.value(StepColumn::CommunicationNotOverlapped)) << "</td><td class=\"n\">"
                << cell(b.value(StepColumn::Free)) << "</td><td class=\"n\">" << cell(b.value(StepColumn::Preparing))
                << "</td><td class=\"n\">"
                << (meanTotal > 0 ? (total >= meanTotal ? "+" : "")
                               + fixed((static_cast<double>(total) / meanTotal - 1) * 100, 1) + " %"
                                  : std::string("\u2014"))
                << "</td></tr>\n";
        }
        out << "</table>\n";
    }

    std::vector<LinkRow> links;
    for (auto& l : CommAnalysisQuery::linkTable(db, {})) {
        if (l.src != l.dst && l.bandwidthGbps && l.timeNs > 0 && l.sizeMb >= AdviceThresholds::kLinkMinSizeMb)
            links.push_back(std::move(l));
    }
    std::stable_sort(links.begin(), links.end(),
        [](const LinkRow& a, const LinkRow& b) { return *a.bandwidthGbps < *b.bandwidthGbps; });
    out << "<h3>Slowest links (summed over steps; links that moved less than "
        << number(AdviceThresholds::kLinkMinSizeMb) << " MB are latency-bound and left out)</h3>\n";
    if (links.empty()) {
        out << "<p>No link with a bandwidth was loaded.</p>\n";
        return;
    }
    out << "<table><tr><th>Src</th><th>Dst</th><th>Transport</th><th>Op type</th><th>Size (MB)</th><th>Time (ms)</th>"
           "<th>Bandwidth (GB/s)</th></tr>\n";
    for (size_t i = 0; i < links.size() && i < 10; ++i) {
        const auto& l = links[i];
        out << "<tr><td class=\"n\">" << l.src << "</td><td class=\"n\">" << l.dst
            << (l.localRanks ? " (group-local)" : "") << "</td><td>" << esc(l.transport) << "</td><td>" << esc(l.opType)
            << "</td><td class=\"n\">" << fixed(l.sizeMb, 2) << "</td><td class=\"n\">" << ms(l.timeNs)
            << "</td><td class=\"n\">" << fixed(*l.bandwidthGbps, 3) << "</td></tr>\n";
    }
    out << "</table>\n";
}

constexpr std::array<std::pair<const char*, const char*>, 4> kPathKinds { { { "Compute", "#4e79a7" },
    { "Communication", "#e15759" }, { "Host", "#f28e2b" }, { "Idle", "#bab0ac" } } };

std::array<int64_t, 4> kindTimes(const PathShare& s) { return { s.computeNs, s.communicationNs, s.hostNs, s.idleNs }; }

std::string sharePct(int64_t ns, int64_t total)
{
    return total > 0 ? fixed(100.0 * static_cast<double>(ns) / static_cast<double>(total), 1) + " %" : "\u2014";
}

// One stacked bar of the path's kinds.
void shareBar(std::ostringstream& out, const PathShare& share)
{
    constexpr int kWidth = 1000, kHeight = 16;
    const int64_t total = std::max<int64_t>(1, share.totalNs());
    out << "<svg width=\"" << kWidth << "\" height=\"" << kHeight
        << "\" role=\"img\" aria-label=\"critical path share\">";
    double x = 0;
    const auto times = kindTimes(share);
    for (size_t k = 0; k < kPathKinds.size(); ++k) {
        const double w = static_cast<double>(times[k]) / static_cast<double>(total) * kWidth;
        if (w <= 0)
            continue;
        out << "<rect x=\"" << fixed(x, 2) << "\" y=\"0\" width=\"" << fixed(w, 2) << "\" height=\"" << kHeight
            << "\" fill=\"" << kPathKinds[k].second << "\"><title>" << kPathKinds[k].first << " " << ms(times[k])
            << " ms</title></rect>";
        x += w;
    }
    out << "</svg>\n";
}

// Per step: the critical path's length and shares, its stays on each rank, the communication ops with the most serial
// time (docs/metrics.md, "Critical path").
void criticalPathSection(std::ostringstream& out, const HtmlReport::Input& input)
{
    out << "<h2>Critical path</h2>\n";
    if (!input.graph || !input.criticalPath) {
        out << "<p>Not computed for this report (npuscope-cli advise --html and npuscope-cli critical-path compute it "
               "from every rank's step kernels).</p>\n";
        return;
    }
    const auto& steps = *input.criticalPath;
    if (steps.empty()) {
        out << "<p>No step has device tasks or communication ops with a step id: no critical path.</p>\n";
        return;
    }
    const DependencyGraph& g = *input.graph;
    out << "<p>Per step, the chain of tasks across ranks that decided the step time, from the step\u2019s start to its "
           "end on the slowest rank: at a collective the path moves to the member that arrived last, at a receive to "
           "its send (docs/metrics.md, \u201cDependency graph, critical path and what-if\u201d).</p>\n<div "
           "class=\"legend\">";
    for (const auto& [name, colour] : kPathKinds)
        out << "<span><i style=\"background:" << colour << "\"></i>" << name << "</span>";
    out << "</div>\n";
    for (const auto& s : steps) {
        const int64_t total = s.share.totalNs();
        out << "<h3 id=\"critical-path-" << s.step << "\">Step " << s.step << ": critical path " << ms(s.lengthNs)
            << " ms (step " << ms(s.stepNs) << " ms on its slowest rank " << s.slowestRank << ")</h3>\n";
        shareBar(out, s.share);
        out << "<table class=\"kv\"><tr><th>Kind</th><th>Time (ms)</th><th>Share</th></tr>\n";
        const auto times = kindTimes(s.share);
        for (size_t k = 0; k < kPathKinds.size(); ++k)
            out << "<tr><td>" << kPathKinds[k].first << "</td><td class=\"n\">" << ms(times[k])
                << "</td><td class=\"n\">" << sharePct(times[k], total) << "</td></tr>\n";
        out << "</table>\n";

        const auto visits = CriticalPath::visits(s.segments);
        std::vector<size_t> shown(visits.size());
        for (size_t i = 0; i < shown.size(); ++i)
            shown[i] = i;
        if (shown.size() > HtmlReport::kPathStays) {
            std::stable_sort(shown.begin(), shown.end(),
                [&](size_t a, size_t b) { return visits[a].share.totalNs() > visits[b].share.totalNs(); });
            shown.resize(HtmlReport::kPathStays);
            std::sort(shown.begin(), shown.end());
        }
        out << "<p>Path by rank: " << visits.size() << (visits.size() == 1 ? " stay" : " stays")
            << (shown.size() < visits.size() ? ", the " + std::to_string(shown.size()) + " longest listed in time order"
                                             : std::string(" in time order"))
            << ".</p>\n<table><tr><th>Rank</th><th>Start (\u00b5s, rank clock)</th><th>Time (ms)</th>"
               "<th>Compute (ms)</th><th>Communication (ms)</th><th>Host (ms)</th><th>Idle (ms)</th>"
               "<th>Longest op</th></tr>\n";
        for (size_t i : shown) {
            const auto& v = visits[i];
            out << "<tr><td class=\"n\">" << v.rank << "</td><td class=\"n\">"
                << fixed(static_cast<double>(v.writtenStart) / 1e3, 3) << "</td><td class=\"n\">"
                << ms(v.share.totalNs()) << "</td>";
            for (const int64_t ns : kindTimes(v.share))
                out << "<td class=\"n\">" << ms(ns) << "</td>";
            out << "<td>"
                << (v.longestOp >= 0 ? esc(g.strings.text(v.longestOp)) + " (" + ms(v.longestNs) + " ms)"
                                     : std::string("\u2014"))
                << "</td></tr>\n";
        }
        out << "</table>\n";
        if (s.topCommunication.empty())
            continue;
        out << "<p>Communication ops with the most serial time (not overlapped by other work of the rank), over the "
               "step\u2019s ranks:</p>\n<table><tr><th>Op</th><th>Count</th><th>Serial (ms)</th><th>Parallel (ms)</th>"
               "<th>Duration (ms)</th></tr>\n";
        for (const auto& o : s.topCommunication)
            out << "<tr><td>" << esc(g.strings.text(o.name)) << "</td><td class=\"n\">" << o.count
                << "</td><td class=\"n\">" << ms(o.serialNs) << "</td><td class=\"n\">" << ms(o.parallelNs)
                << "</td><td class=\"n\">" << ms(o.durNs) << "</td></tr>\n";
        out << "</table>\n";
    }
}

// Two horizontal bars, the measured value and the threshold, on one scale.
void valueChart(std::ostringstream& out, const Finding& f)
{
    if (!std::isfinite(f.value) || !std::isfinite(f.threshold) || f.value < 0 || f.threshold < 0)
        return;
    const double top = std::max(f.value, f.threshold);
    if (top <= 0)
        return;
    constexpr int kLabel = 80, kWidth = 420;
    out << "<svg width=\"" << kLabel + kWidth + 110
        << "\" height=\"44\" role=\"img\" aria-label=\"value and threshold\">";
    auto bar = [&](int y, const char* label, double v, const char* colour) {
        const double w = std::max(1.0, v / top * kWidth);
        out << "<text x=\"" << kLabel - 6 << "\" y=\"" << y + 12 << "\" text-anchor=\"end\">" << label
            << "</text><rect x=\"" << kLabel << "\" y=\"" << y << "\" width=\"" << fixed(w, 2)
            << "\" height=\"16\" fill=\"" << colour << "\"/><text x=\"" << fixed(kLabel + w + 6, 2) << "\" y=\""
            << y + 12 << "\">" << measured(v, f.unit) << "</text>";
    };
    bar(2, "value", f.value, severityColour(f.severity));
    bar(24, "threshold", f.threshold, "#9e9e9e");
    out << "</svg>\n";
}

// The step time a finding explains (docs/metrics.md, "Impact"): "84.9 ms (26.0 % of the step)", or "not estimated".
std::string impactText(const Finding& f)
{
    if (!(f.impactNs > 0))
        return "not estimated";
    char buf[96];
    if (f.impactShare > 0)
        std::snprintf(buf, sizeof buf, "%.3f ms (%.1f %% of the step)", f.impactNs / 1e6, f.impactShare * 100);
    else
        std::snprintf(buf, sizeof buf, "%.3f ms", f.impactNs / 1e6);
    return buf;
}

void finding(std::ostringstream& out, const Finding& f, size_t index)
{
    out << "<div class=\"finding\" id=\"finding-" << index
        << "\" style=\"border-left-color:" << severityColour(f.severity)
        << "\">\n<h3><span class=\"badge\" style=\"background:" << severityColour(f.severity) << "\">"
        << severityName(f.severity) << "</span><span class=\"rule\">" << esc(f.id) << "</span><span class=\"cat\">"
        << esc(f.category) << "</span></h3>\n<p>" << esc(f.message) << "</p>\n";
    out << "<table class=\"kv\"><tr><td>Explains</td><td>" << impactText(f) << "</td></tr><tr><td>Value</td><td>"
        << measured(f.value, f.unit) << "</td></tr><tr><td>Threshold</td><td>" << measured(f.threshold, f.unit) << " ("
        << esc(f.thresholdText) << ")</td></tr>";
    if (!f.ranks.empty())
        out << "<tr><td>Ranks</td><td>" << esc(joined(f.ranks, [](int64_t r) { return std::to_string(r); }))
            << "</td></tr>";
    if (!f.links.empty())
        out << "<tr><td>Links</td><td>" << esc(joined(f.links, linkText)) << "</td></tr>";
    if (!f.ops.empty())
        out << "<tr><td>Ops</td><td>" << esc(joined(f.ops, [](const std::string& s) { return s; })) << "</td></tr>";
    if (!f.steps.empty())
        out << "<tr><td>Steps</td><td>" << esc(joined(f.steps, [](int64_t s) { return std::to_string(s); }))
            << "</td></tr>";
    const Evidence& e = f.evidence;
    std::string where = e.view;
    if (e.rank)
        where += ", rank " + std::to_string(*e.rank);
    if (e.step)
        where += ", step " + std::to_string(*e.step);
    if (e.stage)
        where += ", stage " + std::to_string(*e.stage);
    if (e.link)
        where += ", link " + linkText(*e.link);
    if (e.op)
        where += ", op " + *e.op;
    if (e.transport)
        where += ", transport " + *e.transport;
    out << "<tr><td>Evidence view</td><td>" << esc(where) << "</td></tr></table>\n";
    valueChart(out, f);
    out << "<p class=\"suggest\"><b>Suggestion:</b> " << esc(f.suggestion) << "</p>\n</div>\n";
}

void inputSection(std::ostringstream& out, model::Database& db)
{
    const auto ranks = RankQuery::ranks(db);
    size_t files = 0;
    for (const auto& r : ranks)
        files += r.files.size();
    out << "<h2>Input</h2>\n<p>" << ranks.size() << (ranks.size() == 1 ? " rank folder, " : " rank folders, ") << files
        << " files, " << IssueQuery::problemCount(db)
        << " parse problems (warnings and errors; the GUI's Parse issues dock lists them).</p>\n";
    out << "<table><tr><th>Rank</th><th>Device</th><th>Framework</th><th>Files</th><th>Folder</th></tr>\n";
    for (size_t i = 0; i < ranks.size() && i < kListCap; ++i) {
        const auto& r = ranks[i];
        out << "<tr><td class=\"n\">" << r.rank << "</td><td class=\"n\">"
            << (r.device ? std::to_string(*r.device) : std::string("\u2014")) << "</td><td>"
            << esc(r.framework.value_or("\u2014")) << "</td><td class=\"n\">" << r.files.size() << "</td><td>"
            << esc(r.path) << "</td></tr>\n";
    }
    out << "</table>\n";
    if (ranks.size() > kListCap)
        out << "<p>\u2026 and " << ranks.size() - kListCap << " more rank folders.</p>\n";
}

} // namespace

std::string HtmlReport::escape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            // Control characters other than tab and newlines are not allowed in XML; files may carry them.
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
                out += ' ';
            else
                out += c;
        }
    }
    return out;
}

std::string HtmlReport::build(model::Database& db, const std::vector<Finding>& findings, const Input& input)
{
    std::ostringstream out;
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
           "<title>npuscope advice report</title>\n<style>"
        << kStyle << "</style>\n</head>\n<body>\n<h1>npuscope advice report</h1>\n<p class=\"meta\">Input: "
        << esc(joined(input.paths, [](const std::string& s) { return s; })) << "<br/>Generated "
        << esc(input.generatedAt.empty() ? nowUtc() : input.generatedAt) << " by npuscope " << NPUSCOPE_VERSION
        << "</p>\n";

    size_t counts[3] = { 0, 0, 0 };
    for (const auto& f : findings)
        ++counts[static_cast<int>(f.severity)];
    out << "<p>" << findings.size() << (findings.size() == 1 ? " finding: " : " findings: ") << counts[2]
        << " critical, " << counts[1] << " warning, " << counts[0]
        << " info. Rules and thresholds: docs/metrics.md, \u201cAdvice rules\u201d.</p>\n";
    if (!findings.empty()) {
        out << "<table><tr><th>Severity</th><th>Explains</th><th>Rule</th><th>Category</th><th>Value</th>"
               "<th>Threshold</th><th>Ranks</th></tr>\n";
        for (size_t i = 0; i < findings.size(); ++i) {
            const Finding& f = findings[i];
            std::string ranks = joined(f.ranks, [](int64_t r) { return std::to_string(r); });
            if (ranks.size() > 60)
                ranks = ranks.substr(0, ranks.rfind(", ", 60)) + ", \u2026";
            out << "<tr><td><span class=\"badge\" style=\"background:" << severityColour(f.severity) << "\">"
                << severityName(f.severity) << "</span></td><td class=\"n\">" << impactText(f)
                << "</td><td><a href=\"#finding-" << i << "\">" << esc(f.id) << "</a></td><td>" << esc(f.category)
                << "</td><td class=\"n\">" << measured(f.value, f.unit) << "</td><td class=\"n\">"
                << measured(f.threshold, f.unit) << "</td><td>" << esc(ranks) << "</td></tr>\n";
        }
        out << "</table>\n";
    }

    overview(out, db, input.skipFirstStep);
    criticalPathSection(out, input);

    out << "<h2>Findings</h2>\n";
    if (findings.empty())
        out << "<p>No findings: no rule's threshold was crossed by the loaded data.</p>\n";
    for (size_t i = 0; i < findings.size(); ++i)
        finding(out, findings[i], i);

    inputSection(out, db);
    out << "</body>\n</html>\n";
    return out.str();
}

} // namespace npuscope::query::advice

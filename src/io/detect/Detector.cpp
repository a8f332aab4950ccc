// SPDX-License-Identifier: Apache-2.0
// Detector::detect: walks the inputs (Walker, DetectorWalker.cpp and DetectorRank.cpp), then assembles the plan:
// ids for ranks nobody named, the newest folder of a rank found more than once, the msprof-analyze cluster summary
// with the per-rank folders that join or replace its ranks (planSummary), imported rank files, the deferred timeline
// of db exports, and the layout.
#include "npuscope/io/detect/Detector.h"

#include "DetectorParts.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/detect/FileKinds.h"

#include "npuscope/io/msprof_analyze/ClusterSummary.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <regex>
#include <set>

namespace npuscope::io {

using namespace detect_detail;

namespace {

// Figures a cluster summary already holds for every rank; a rank's own file of these kinds would count them twice.
bool summaryGives(FileKind k)
{
    return k == FileKind::StepTraceTime || k == FileKind::Communication || k == FileKind::CommunicationMatrix
        || k == FileKind::AnalysisDb;
}

// A per-rank folder with summary files of its own (step trace, communication, an analysis db, old MindSpore step
// trace / hccl_raw): it gives its rank's step and communication figures itself.
bool hasOwnSummary(const PlannedRank& r)
{
    return std::any_of(r.files.begin(), r.files.end(), [](const PlannedFile& f) {
        return summaryGives(f.kind) || f.kind == FileKind::MsStepTraceRaw || f.kind == FileKind::MsHcclRaw;
    });
}

// A cluster summary (msprof-analyze cluster_analysis_output): one planned rank per rank its files name, the files on
// the first of them (each file holds every rank). Per-rank exports inside the summary's own folder (report_0.db next
// to cluster_analysis.db) join the summary's rank of the same id, which keeps the summary's figures. A per-rank
// folder elsewhere in the input replaces the summary's figures of its rank only when it has summary files of its own
// (hasOwnSummary; the summary importers skip that rank's rows, PlannedRank::summaryReplaced); otherwise its files
// (timeline, kernels, memory) are added to the summary's rank of the same id, or planned as an extra rank when the
// summary does not name that id. kept: one candidate per rank, by rank.
void planSummary(LoadPlan& plan, std::vector<ClusterSummary>& summaries, const std::vector<Candidate*>& kept)
{
    if (summaries.empty()) {
        for (auto* c : kept)
            plan.ranks.push_back(std::move(c->rank));
        return;
    }
    const auto& used = summaries.front();
    for (size_t i = 1; i < summaries.size(); ++i)
        plan.issues.push_back({ "warning", summaries[i].path,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "another msprof-analyze cluster summary was found first (%1); this one was not imported%2"),
                { used.path,
                    summaries[i].hadRankFiles
                        ? issueText(QT_TRANSLATE_NOOP("ParseIssue", ", nor the per-rank files next to it"))
                        : TrText() }) });
    plan.issues.insert(plan.issues.end(), used.issues.begin(), used.issues.end());
    std::map<int64_t, Candidate*> beside;
    std::map<int64_t, Candidate*> elsewhere;
    for (auto* c : kept)
        (c->besideSummary ? beside : elsewhere)[c->rank.rank] = c;
    if (used.ranks.empty()) {
        plan.issues.push_back({ "error", used.path,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                "msprof-analyze cluster summary names no rank (no Type=rank rows, no communication groups); nothing "
                "imported")) });
        for (auto* c : kept)
            plan.ranks.push_back(std::move(c->rank));
        return;
    }
    std::string joined;
    std::string attached;
    std::string replaced;
    std::set<int64_t> replacedRanks;
    auto add = [](std::string& list, int64_t id) { list += (list.empty() ? "" : ", ") + std::to_string(id); };
    for (const auto& [id, c] : beside) {
        if (used.ranks.count(id))
            add(joined, id);
    }
    for (const auto& [id, c] : elsewhere) {
        if (!used.ranks.count(id))
            continue;
        if (hasOwnSummary(c->rank)) {
            add(replaced, id);
            replacedRanks.insert(id);
        } else {
            add(attached, id);
        }
    }
    std::vector<TrText> message { issueText(
        QT_TRANSLATE_NOOP("ParseIssue",
            "msprof-analyze cluster summary (cluster_analysis_output): %1 ranks from the "
            "summary files"),
        { std::to_string(used.ranks.size()) }) };
    if (!joined.empty())
        message.push_back(issueText(
            QT_TRANSLATE_NOOP("ParseIssue", "; per-rank files next to it add the own data of rank %1"), { joined }));
    if (!replaced.empty())
        message.push_back(issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                        "; the step and communication figures of rank %1 come from their own per-rank "
                                        "folders (which have their own summary files), not from the summary"),
            { replaced }));
    if (!attached.empty())
        message.push_back(
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "; per-rank folders without summary files add their timelines / kernels to rank %1"),
                { attached }));
    if (joined.empty() && replaced.empty() && attached.empty())
        message.push_back(issueText(QT_TRANSLATE_NOOP("ParseIssue", "; no per-rank timelines, kernels or memory")));
    plan.issues.push_back({ "info", used.path, clauses(std::move(message)) });
    bool first = true;
    for (int64_t r : used.ranks) {
        PlannedRank rank;
        rank.rank = r;
        rank.rankSource = "cluster_analysis";
        rank.path = used.path;
        if (first) {
            rank.files = used.files;
            rank.summaryReplaced = replacedRanks;
        }
        first = false;
        if (const auto it = beside.find(r); it != beside.end()) {
            std::string dropped;
            for (auto& f : it->second->rank.files) {
                if (summaryGives(f.kind))
                    dropped += (dropped.empty() ? "" : ", ") + fs::path(f.path).filename().string();
                else
                    rank.files.push_back(std::move(f));
            }
            if (!dropped.empty())
                plan.issues.push_back({ "info", it->second->rank.path,
                    issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                  "rank %1: the cluster summary gives its step and communication figures; ignored its "
                                  "own %2"),
                        { std::to_string(r), dropped }) });
            beside.erase(it);
        } else if (const auto own = elsewhere.find(r); own != elsewhere.end()) {
            // Replaced or attached: either way the rank is the folder's, with all its files.
            auto& c = own->second->rank;
            rank.path = c.path;
            rank.rankSource = c.rankSource;
            for (auto& f : c.files)
                rank.files.push_back(std::move(f));
            elsewhere.erase(own);
        }
        plan.ranks.push_back(std::move(rank));
    }
    for (auto* list : { &beside, &elsewhere }) {
        for (auto& [id, c] : *list) {
            plan.issues.push_back({ "warning", c->rank.path,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "rank %1 (from %2) is not one of the cluster summary's ranks; shown beside them"),
                    { std::to_string(id), c->rank.rankSource }) });
            plan.ranks.push_back(std::move(c->rank));
        }
    }
}

// The rank_<id>.nprank files (npuscope-cli import) of an input: the file itself, or those directly inside a
// folder. Empty for any other input, which is walked as usual.
std::vector<PlannedRank> importedRanksOf(const std::string& input)
{
    std::vector<PlannedRank> ranks;
    const fs::path p(input);
    auto add = [&](const fs::path& f) {
        const auto rank = importedRankOf(f.filename().string());
        std::error_code ec;
        if (!rank || !fs::is_regular_file(f, ec))
            return;
        PlannedRank r;
        r.rank = *rank;
        r.rankSource = "imported";
        r.path = pathText(fs::absolute(f));
        r.files.push_back({ FileKind::ImportedRank, r.path, static_cast<uint64_t>(fs::file_size(f, ec)) });
        ranks.push_back(std::move(r));
    };
    if (!isDir(p)) {
        add(p);
        return ranks;
    }
    for (const auto& f : filesIn(p))
        add(f);
    return ranks;
}

// The dynamic profiler's window of a rank folder: the nearest enclosing folder named rank{r}_start{a}_stop{b}
// (MindSpore's DynamicProfilerMonitor writes each window of a rank there); nullopt when there is none.
std::optional<std::pair<int64_t, int64_t>> dynamicWindowOf(const std::string& path)
{
    static const std::regex kWindow(R"(^rank\d+_start(\d+)_stop(\d+)$)");
    for (fs::path p(path); p.has_relative_path() && p != p.parent_path(); p = p.parent_path()) {
        std::smatch m;
        const std::string name = p.filename().string();
        if (std::regex_match(name, m, kWindow)) {
            const auto a = parseInt(m[1].str()), b = parseInt(m[2].str());
            if (a && b && *a <= *b)
                return std::make_pair(*a, *b);
            return std::nullopt;
        }
    }
    return std::nullopt;
}

// Several folders of one rank that are dynamic-profiler windows of one run (each under its own
// rank{r}_start{a}_stop{b} folder, windows apart): one rank with the files of every window, so each window stays a
// step range of its own. The first window's folder is the rank's; the other windows give their data files (not their
// profiler_info / metadata facts, which the first one gives). False when list is not such a set (then the newest
// folder is kept as before).
bool mergeWindows(LoadPlan& plan, int64_t rank, std::vector<Candidate*>& list)
{
    std::vector<std::pair<std::pair<int64_t, int64_t>, Candidate*>> windows;
    for (auto* c : list) {
        const auto w = dynamicWindowOf(c->rank.path);
        if (!w)
            return false;
        windows.emplace_back(*w, c);
    }
    std::sort(windows.begin(), windows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 1; i < windows.size(); ++i) {
        if (windows[i].first.first <= windows[i - 1].first.second)
            return false; // overlapping windows: two runs, not one
    }
    Candidate* keep = windows.front().second;
    std::string ranges;
    for (size_t i = 0; i < windows.size(); ++i) {
        const auto& [w, c] = windows[i];
        ranges += (i ? ", " : "") + std::to_string(w.first) + "\u2013" + std::to_string(w.second);
        if (c == keep)
            continue;
        for (auto& f : c->rank.files) {
            const auto* spec = FileKinds::find(f.kind);
            if (spec && spec->facts)
                continue;
            keep->rank.files.push_back(std::move(f));
        }
    }
    list = { keep };
    plan.issues.push_back({ "info", keep->rank.path,
        issueText(QT_TRANSLATE_NOOP("ParseIssue",
                      "rank %1 has %2 dynamic-profiler windows (steps %3); each is kept as a step range of its own"),
            { std::to_string(rank), std::to_string(windows.size()), ranges }) });
    return true;
}

} // namespace

LoadPlan Detector::detect(const std::vector<std::string>& paths)
{
    LoadPlan plan;
    plan.inputs = paths;
    Walker walker(plan);
    std::vector<PlannedRank> imported;
    for (const auto& p : paths) {
        auto ranks = importedRanksOf(p);
        if (ranks.empty())
            walker.input(p);
        std::move(ranks.begin(), ranks.end(), std::back_inserter(imported));
    }
    auto& candidates = walker.candidates();
    // Per-rank files next to a summary that is not imported (only the first summary found is) go with it.
    auto& summaries = walker.summaries();
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                         [&](const Candidate& c) {
                             if (!c.besideSummary || *c.besideSummary == 0)
                                 return false;
                             summaries[*c.besideSummary].hadRankFiles = true;
                             return true;
                         }),
        candidates.end());

    // Ranks nobody could name get the smallest free ids, in path order.
    std::set<int64_t> used;
    for (const auto& c : candidates) {
        if (c.rankKnown)
            used.insert(c.rank.rank);
    }
    int64_t next = 0;
    for (auto& c : candidates) {
        if (c.rankKnown)
            continue;
        while (used.count(next))
            ++next;
        c.rank.rank = next;
        used.insert(next);
        if (candidates.size() > 1)
            plan.issues.push_back({ "warning", c.rank.path,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "rank id not found (no profiler_info_{rank}.json, rank_id field or rank number in the "
                              "folder name); assigned rank %1"),
                    { std::to_string(next) }) });
    }

    // Several folders for one rank: keep the newest: by the profiles' own end time (profiler_info
    // end_info.collectionTimeEnd) when every folder has one, else by the folder timestamp, else by file time.
    std::map<int64_t, std::vector<Candidate*>> byRank;
    for (auto& c : candidates)
        byRank[c.rank.rank].push_back(&c);
    bool severalRuns = false;
    std::vector<Candidate*> kept;
    for (auto& [rank, list] : byRank) {
        Candidate* keep = list.front();
        if (list.size() > 1 && mergeWindows(plan, rank, list)) {
            kept.push_back(list.front());
            continue;
        }
        if (list.size() > 1) {
            const bool allEnded = std::all_of(list.begin(), list.end(), [](auto* c) { return c->collectionEndNs; });
            const bool allStamped = std::all_of(list.begin(), list.end(), [](auto* c) { return c->folderTimestamp; });
            for (auto* c : list) {
                const bool newer = allEnded ? *c->collectionEndNs > *keep->collectionEndNs
                    : allStamped            ? *c->folderTimestamp > *keep->folderTimestamp
                                            : c->mtime > keep->mtime;
                if (newer)
                    keep = c;
            }
            std::string others;
            for (auto* c : list) {
                if (c == keep)
                    continue;
                if (!others.empty())
                    others += ", ";
                others += c->rank.path;
            }
            plan.issues.push_back({ "warning", keep->rank.path,
                issueText(QT_TRANSLATE_NOOP(
                              "ParseIssue", "rank %1 found in %2 folders; kept the newest by %3 (%4), ignored: %5"),
                    { std::to_string(rank), std::to_string(list.size()),
                        allEnded         ? TrText("profiler_info collectionTimeEnd")
                            : allStamped ? issueText(QT_TRANSLATE_NOOP("ParseIssue", "folder timestamp"))
                                         : issueText(QT_TRANSLATE_NOOP("ParseIssue", "file time")),
                        keep->rank.path, others }) });
            severalRuns = true;
        }
        kept.push_back(keep);
    }
    planSummary(plan, summaries, kept);
    // Imported ranks (already one model file each) beside the parsed ones; a rank id that is there already keeps
    // the first found.
    std::set<int64_t> present;
    for (const auto& r : plan.ranks)
        present.insert(r.rank);
    for (auto& r : imported) {
        if (!present.insert(r.rank).second) {
            plan.issues.push_back({ "warning", r.path,
                issueText(
                    QT_TRANSLATE_NOOP("ParseIssue", "rank %1 found more than once; this imported file is ignored"),
                    { std::to_string(r.rank) }) });
            severalRuns = true;
            continue;
        }
        plan.ranks.push_back(std::move(r));
    }
    std::stable_sort(plan.ranks.begin(), plan.ranks.end(),
        [](const PlannedRank& a, const PlannedRank& b) { return a.rank < b.rank; });

    // A db export's timeline: the same file again, deferred (loaded with the rank's timeline); not when its timeline
    // tables are empty and the rank has a trace_view.json, which then gives the timeline.
    for (auto& rank : plan.ranks) {
        auto& files = rank.files;
        const bool textTrace = std::any_of(
            files.begin(), files.end(), [](const PlannedFile& f) { return f.kind == FileKind::TraceView; });
        for (std::size_t i = 0, n = files.size(); i < n; ++i) {
            if (files[i].kind == FileKind::ProfilerDb && !(textTrace && walker.textTimeline().count(files[i].path)))
                files.push_back({ FileKind::ProfilerDbTimeline, files[i].path, files[i].size });
        }
    }

    if (plan.ranks.empty())
        plan.layout = LoadPlan::Layout::Empty;
    else if (severalRuns)
        plan.layout = LoadPlan::Layout::Mixed;
    else
        plan.layout = plan.ranks.size() == 1 ? LoadPlan::Layout::SingleRank : LoadPlan::Layout::Cluster;
    if (plan.layout == LoadPlan::Layout::Mixed)
        plan.issues.push_back({ "warning", paths.empty() ? std::string() : paths.front(),
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                "the input mixes several profiling runs (the same rank appears more than once); showing one folder per "
                "rank, which may combine different runs")) });
    return plan;
}

} // namespace npuscope::io

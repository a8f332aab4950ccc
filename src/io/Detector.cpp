// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/Detector.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/CannProfImporter.h"
#include "npuscope/io/ClusterSummary.h"
#include "npuscope/io/MindSporeLayout.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace fs = std::filesystem;

namespace npuscope::io {

namespace {

constexpr int kMaxDepth = 16;
constexpr const char* kOutputDir = "ASCEND_PROFILER_OUTPUT";
constexpr const char* kLookedFor
    = "looked for ASCEND_PROFILER_OUTPUT, *_ascend_pt / *_ascend_ms folders, profiler_info*.json, "
      "step_trace_time.csv, kernel_details.csv, communication*.json, trace_view.json, "
      "ascend_pytorch_profiler*.db / ascend_mindspore_profiler*.db / msprof_*.db and analysis.db, msprof-analyze "
      "cluster_analysis_output (cluster_step_trace_time.csv, cluster_communication*.json, cluster_analysis.db), old "
      "MindSpore profiler/ files (step_trace_raw_*_detail_time.csv, hccl_raw_*.csv), a MindInsight cluster_profiler "
      "job and CANN PROF_* folders with device_* subfolders";

struct Candidate {
    PlannedRank rank;
    bool rankKnown = false;
    fs::file_time_type mtime {};
    std::optional<int64_t> folderTimestamp; // the {timestamp} field of {worker}_{timestamp}_ascend_pt
};

bool endsWith(const std::string& s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string pathText(const fs::path& p) { return p.lexically_normal().string(); }

bool isDir(const fs::path& p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

// Lists the regular files of a folder (sorted), tolerating unreadable entries.
std::vector<fs::path> filesIn(const fs::path& dir)
{
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
        std::error_code ec2;
        if (it->is_regular_file(ec2))
            out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool hasProfilerInfo(const fs::path& dir)
{
    for (const auto& f : filesIn(dir)) {
        FileKind k;
        if (fileKindOf(f.filename().string(), k) && k == FileKind::ProfilerInfo)
            return true;
    }
    return false;
}

bool hasKnownDataFile(const fs::path& dir)
{
    for (const auto& f : filesIn(dir)) {
        FileKind k;
        if (fileKindOf(f.filename().string(), k) && k != FileKind::ProfilerInfo && k != FileKind::ProfilerMetadata)
            return true;
    }
    return false;
}

bool isRankFolder(const fs::path& dir)
{
    const std::string name = dir.filename().string();
    return isDir(dir / kOutputDir) || endsWith(name, "_ascend_pt") || endsWith(name, "_ascend_ms")
        || hasProfilerInfo(dir);
}

std::optional<int64_t> rankFromInfoFile(const fs::path& file)
{
    std::ifstream in(file);
    if (!in)
        return std::nullopt;
    auto j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return std::nullopt;
    auto fromValue = [](const nlohmann::json& v) -> std::optional<int64_t> {
        if (v.is_number_integer())
            return v.get<int64_t>();
        if (v.is_string())
            return parseInt(v.get<std::string>());
        return std::nullopt;
    };
    if (j.contains("rank_id")) {
        if (auto r = fromValue(j["rank_id"]); r && *r >= 0)
            return r;
    }
    if (j.contains("ms_profiler_info") && j["ms_profiler_info"].is_object() && j["ms_profiler_info"].contains("rank_id"))
        return fromValue(j["ms_profiler_info"]["rank_id"]);
    return std::nullopt;
}

class Walker {
public:
    explicit Walker(LoadPlan& plan)
        : m_plan(plan)
    {
    }

    void input(const std::string& input)
    {
        const fs::path p(input);
        std::error_code ec;
        const auto status = fs::status(p, ec);
        if (ec || !fs::exists(status)) {
            issue("error", input, "path does not exist or cannot be read");
            return;
        }
        if (fs::is_regular_file(status)) {
            FileKind k;
            if (!fileKindOf(p.filename().string(), k)) {
                issue("error", input, "not a profiler file npuscope knows; " + std::string(kLookedFor));
                return;
            }
            const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
            if (ClusterSummary::isClusterFileName(p.filename().string())) {
                if (auto summary = ClusterSummary::probe(dir); summary && firstVisit(dir))
                    m_summaries.push_back(std::move(*summary));
                return;
            }
            addOutputDir(dir);
            return;
        }
        const size_t before = m_candidates.size() + m_summaries.size();
        walk(p, 0);
        if (m_candidates.size() + m_summaries.size() == before)
            issue("error", input, "no profiler output found; " + std::string(kLookedFor));
    }

    std::vector<Candidate>& candidates() { return m_candidates; }
    std::vector<ClusterSummary>& summaries() { return m_summaries; }

private:
    void issue(std::string severity, std::string path, std::string message)
    {
        m_plan.issues.push_back({ std::move(severity), std::move(path), std::move(message) });
    }

    bool firstVisit(const fs::path& dir)
    {
        std::error_code ec;
        const auto canonical = fs::canonical(dir, ec);
        const std::string key = ec ? pathText(dir) : canonical.string();
        return m_visited.insert(key).second;
    }

    void addOutputDir(const fs::path& dir)
    {
        // An ASCEND_PROFILER_OUTPUT folder given directly: its rank folder is the parent when the
        // parent holds profiler_info, else the output folder itself.
        const fs::path parent = dir.parent_path();
        if (dir.filename() == kOutputDir && !parent.empty() && hasProfilerInfo(parent)) {
            if (firstVisit(parent))
                addRank(parent);
        } else if (firstVisit(dir)) {
            addRank(dir);
        }
    }

    void walk(const fs::path& dir, int depth)
    {
        if (depth > kMaxDepth) {
            issue("warning", pathText(dir), "folder nesting deeper than " + std::to_string(kMaxDepth)
                    + " levels; not searched further");
            return;
        }
        if (dir.filename() == kOutputDir) {
            addOutputDir(dir);
            return;
        }
        if (!firstVisit(dir))
            return; // symlink loop or a folder given twice
        if (auto summary = ClusterSummary::probe(dir)) {
            m_summaries.push_back(std::move(*summary));
            return;
        }
        if (CannProfImporter::isProfDir(dir)) {
            for (auto& r : CannProfImporter::planRanks(dir))
                addPlanned(std::move(r));
            return;
        }
        if (MindSporeLayout::isClusterJob(dir)) {
            auto ranks = MindSporeLayout::jobRanks(dir, m_plan.issues);
            issue("info", pathText(fs::absolute(dir)),
                "MindInsight cluster_profiler job: " + std::to_string(ranks.size())
                    + " ranks from the rank table; hosts are shown by their host_ips_mapping.txt id");
            for (auto& r : ranks)
                addPlanned(std::move(r));
            return;
        }
        if (MindSporeLayout::isFlatProfilerDir(dir)) {
            for (auto& r : MindSporeLayout::flatRanks(dir))
                addPlanned(std::move(r));
            // MindSpore keeps the raw CANN PROF_* folders inside the same profiler/ folder.
            std::error_code listEc;
            for (fs::directory_iterator it(dir, listEc), end; !listEc && it != end; it.increment(listEc)) {
                if (CannProfImporter::isProfDir(it->path()) && firstVisit(it->path())) {
                    for (auto& r : CannProfImporter::planRanks(it->path()))
                        addPlanned(std::move(r));
                }
            }
            return;
        }
        if (isRankFolder(dir)) {
            addRank(dir);
            return;
        }
        if (hasKnownDataFile(dir)) {
            addRank(dir);
            return;
        }
        std::vector<fs::path> children;
        std::error_code ec;
        for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
             !ec && it != end; it.increment(ec)) {
            std::error_code ec2;
            if (it->is_directory(ec2))
                children.push_back(it->path());
        }
        if (ec)
            issue("warning", pathText(dir), "cannot list folder: " + ec.message());
        std::sort(children.begin(), children.end());
        for (const auto& c : children)
            walk(c, depth + 1);
    }

    // A rank the layout helpers planned completely (old MindSpore flat folders, MindInsight jobs).
    void addPlanned(PlannedRank rank)
    {
        Candidate c;
        c.rankKnown = true;
        std::error_code ec;
        c.mtime = fs::last_write_time(rank.files.empty() ? fs::path(rank.path) : fs::path(rank.files.front().path), ec);
        c.rank = std::move(rank);
        m_candidates.push_back(std::move(c));
    }

    // A rank folder with both a db export and text files uses the db only (one source per figure, never both).
    void preferDbExport(PlannedRank& rank)
    {
        const auto isDb
            = [](const PlannedFile& f) { return f.kind == FileKind::ProfilerDb || f.kind == FileKind::AnalysisDb; };
        const auto isText = [&](const PlannedFile& f) {
            return !isDb(f) && f.kind != FileKind::ProfilerInfo && f.kind != FileKind::ProfilerMetadata;
        };
        if (std::none_of(rank.files.begin(), rank.files.end(), isDb)
            || std::none_of(rank.files.begin(), rank.files.end(), isText))
            return;
        std::string dropped;
        for (const auto& f : rank.files) {
            if (isText(f))
                dropped += (dropped.empty() ? "" : ", ") + fs::path(f.path).filename().string();
        }
        rank.files.erase(std::remove_if(rank.files.begin(), rank.files.end(), isText), rank.files.end());
        issue("info", rank.path,
            "rank folder holds both a db export and text files; using the db export, ignored: " + dropped);
    }

    void addRank(const fs::path& rankDir)
    {
        Candidate c;
        c.rank.path = pathText(fs::absolute(rankDir));
        const fs::path outDir = isDir(rankDir / kOutputDir) ? rankDir / kOutputDir : rankDir;
        std::optional<fs::path> infoFile;
        std::optional<int64_t> rankFromName;
        std::optional<int64_t> rankFromDbName; // ascend_pytorch_profiler_{rank}.db
        auto addFile = [&](const fs::path& f) {
            FileKind k;
            if (!fileKindOf(f.filename().string(), k))
                return;
            for (const auto& existing : c.rank.files) {
                if (existing.kind == k && k != FileKind::ProfilerInfo)
                    return;
            }
            std::error_code ec;
            const auto size = fs::file_size(f, ec);
            c.rank.files.push_back({ k, pathText(fs::absolute(f)), ec ? 0 : size });
            if (k == FileKind::ProfilerInfo && !infoFile) {
                infoFile = f;
                static const std::regex kInfoName(R"(^profiler_info_(\d+)\.json$)");
                std::smatch m;
                const std::string name = f.filename().string();
                if (std::regex_match(name, m, kInfoName))
                    rankFromName = parseInt(m[1].str());
            }
            if (k == FileKind::ProfilerDb && !rankFromDbName) {
                static const std::regex kDbName(R"(^ascend_\w+_profiler_(\d+)\.db$)");
                std::smatch m;
                const std::string name = f.filename().string();
                if (std::regex_match(name, m, kDbName))
                    rankFromDbName = parseInt(m[1].str());
            }
        };
        for (const auto& f : filesIn(rankDir))
            addFile(f);
        if (outDir != rankDir) {
            for (const auto& f : filesIn(outDir))
                addFile(f);
        }

        preferDbExport(c.rank);
        if (!rankFromName)
            rankFromName = rankFromDbName;

        const std::string folderName = rankDir.filename().string();
        if (rankFromName) {
            c.rank.rank = *rankFromName;
            c.rank.rankSource = "file_name";
            c.rankKnown = true;
        } else if (auto fromField = infoFile ? rankFromInfoFile(*infoFile) : std::nullopt) {
            c.rank.rank = *fromField;
            c.rank.rankSource = "rank_id_field";
            c.rankKnown = true;
        } else {
            static const std::regex kRankInName(R"((?:^|[^A-Za-z])rank[_-]?(\d+))", std::regex::icase);
            std::smatch m;
            if (std::regex_search(folderName, m, kRankInName)) {
                c.rank.rank = parseInt(m[1].str()).value_or(0);
                c.rank.rankSource = "folder_name";
                c.rankKnown = true;
            } else {
                c.rank.rankSource = "default";
            }
        }

        bool hasData = false;
        for (const auto& f : c.rank.files)
            hasData = hasData || (f.kind != FileKind::ProfilerInfo && f.kind != FileKind::ProfilerMetadata);
        if (!hasData) {
            bool hasDb = false;
            for (const auto& f : filesIn(outDir))
                hasDb = hasDb || f.extension() == ".db";
            issue("warning", c.rank.path,
                hasDb ? "rank folder holds only .db files of a kind npuscope does not import; skipped"
                      : "rank folder holds no file npuscope imports; " + std::string(kLookedFor));
            return;
        }

        // {worker}_{timestamp}_ascend_pt: the timestamp is field -3 of the '_' split (msprof-analyze).
        std::vector<std::string> parts;
        size_t start = 0;
        for (size_t pos; (pos = folderName.find('_', start)) != std::string::npos; start = pos + 1)
            parts.push_back(folderName.substr(start, pos - start));
        parts.push_back(folderName.substr(start));
        if (parts.size() >= 3)
            c.folderTimestamp = parseInt(parts[parts.size() - 3]);
        std::error_code ec;
        c.mtime = fs::last_write_time(infoFile ? *infoFile : rankDir, ec);
        m_candidates.push_back(std::move(c));
    }

    LoadPlan& m_plan;
    std::vector<Candidate> m_candidates;
    std::vector<ClusterSummary> m_summaries; // msprof-analyze cluster_analysis_output folders
    std::set<std::string> m_visited;
};

// A summary-only cluster (msprof-analyze cluster_analysis_output): one planned rank per rank its files name, the
// files on the first of them (each file holds every rank). Per-rank folders in the same input win: npuscope
// computes the same tables from them.
void planSummary(LoadPlan& plan, std::vector<ClusterSummary>& summaries, bool haveRankFolders)
{
    if (summaries.empty())
        return;
    if (haveRankFolders) {
        for (const auto& s : summaries)
            plan.issues.push_back({ "info", s.path,
                "msprof-analyze cluster summary not imported: the input also holds per-rank profiler folders, from "
                "which npuscope computes the same step and communication tables" });
        return;
    }
    const auto& used = summaries.front();
    for (size_t i = 1; i < summaries.size(); ++i)
        plan.issues.push_back({ "warning", summaries[i].path,
            "another msprof-analyze cluster summary was found first (" + used.path + "); this one was not imported" });
    plan.issues.insert(plan.issues.end(), used.issues.begin(), used.issues.end());
    if (used.ranks.empty()) {
        plan.issues.push_back({ "error", used.path,
            "msprof-analyze cluster summary names no rank (no Type=rank rows, no communication groups); nothing "
            "imported" });
        return;
    }
    plan.issues.push_back({ "info", used.path,
        "summary-only cluster (msprof-analyze cluster_analysis_output): " + std::to_string(used.ranks.size())
            + " ranks from the summary files; no per-rank timelines, kernels or memory" });
    bool first = true;
    for (int64_t r : used.ranks) {
        PlannedRank rank;
        rank.rank = r;
        rank.rankSource = "cluster_analysis";
        rank.path = used.path;
        if (first)
            rank.files = used.files;
        first = false;
        plan.ranks.push_back(std::move(rank));
    }
    plan.layout = plan.ranks.size() == 1 ? LoadPlan::Layout::SingleRank : LoadPlan::Layout::Cluster;
}

} // namespace

LoadPlan Detector::detect(const std::vector<std::string>& paths)
{
    LoadPlan plan;
    plan.inputs = paths;
    Walker walker(plan);
    for (const auto& p : paths)
        walker.input(p);
    auto& candidates = walker.candidates();
    planSummary(plan, walker.summaries(), !candidates.empty());

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
                "rank id not found (no profiler_info_{rank}.json, rank_id field or rank number in the folder name); "
                "assigned rank "
                    + std::to_string(next) });
    }

    // Several folders for one rank: keep the newest (folder timestamp, else file time).
    std::map<int64_t, std::vector<Candidate*>> byRank;
    for (auto& c : candidates)
        byRank[c.rank.rank].push_back(&c);
    bool severalRuns = false;
    for (auto& [rank, list] : byRank) {
        Candidate* keep = list.front();
        if (list.size() > 1) {
            const bool allStamped = std::all_of(list.begin(), list.end(), [](auto* c) { return c->folderTimestamp; });
            for (auto* c : list) {
                const bool newer = allStamped ? *c->folderTimestamp > *keep->folderTimestamp : c->mtime > keep->mtime;
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
                "rank " + std::to_string(rank) + " found in " + std::to_string(list.size())
                    + " folders; kept the newest (" + keep->rank.path + "), ignored: " + others });
            severalRuns = true;
        }
        // A db export's timeline: the same file again, deferred (loaded with the rank's timeline).
        auto& files = keep->rank.files;
        for (std::size_t i = 0, n = files.size(); i < n; ++i) {
            if (files[i].kind == FileKind::ProfilerDb)
                files.push_back({ FileKind::ProfilerDbTimeline, files[i].path, files[i].size });
        }
        plan.ranks.push_back(std::move(keep->rank));
    }

    if (plan.ranks.empty())
        plan.layout = LoadPlan::Layout::Empty;
    else if (severalRuns)
        plan.layout = LoadPlan::Layout::Mixed;
    else
        plan.layout = plan.ranks.size() == 1 ? LoadPlan::Layout::SingleRank : LoadPlan::Layout::Cluster;
    if (plan.layout == LoadPlan::Layout::Mixed)
        plan.issues.push_back({ "warning", paths.empty() ? std::string() : paths.front(),
            "the input mixes several profiling runs (the same rank appears more than once); showing one folder per "
            "rank, which may combine different runs" });
    return plan;
}

} // namespace npuscope::io

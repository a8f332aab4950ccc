// SPDX-License-Identifier: Apache-2.0
// What the parts of Detector share: the folder walker (Walker: DetectorWalker.cpp finds rank folders, cluster
// summaries and layouts; DetectorRank.cpp plans the files of one rank folder), the candidate rank it produces, and the
// file helpers both use. Detector.cpp assembles the plan from the walker's candidates. Private to src/io/detect.
#pragma once

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/io/detect/FileSniffer.h"
#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/io/msprof_analyze/ClusterSummary.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npuscope::io::detect_detail {

namespace fs = std::filesystem;

inline constexpr const char* kOutputDir = "ASCEND_PROFILER_OUTPUT";
inline constexpr const char* kLookedFor = QT_TRANSLATE_NOOP("ParseIssue",
    "looked for ASCEND_PROFILER_OUTPUT, *_ascend_pt / *_ascend_ms folders, profiler_info*.json, MindSpore "
    "parallel_strategy_*.json, profiler_metadata.json, step_trace_time.csv, kernel_details.csv, CANN "
    "op_summary_*.csv, communication*.json, trace_view.json, "
    "ascend_pytorch_profiler*.db / ascend_mindspore_profiler*.db / msprof_*.db / report_*.db and analysis.db, "
    "msprof-analyze cluster_analysis_output (cluster_step_trace_time.csv, cluster_communication*.json, "
    "communication_group.json, cluster_analysis.db), old MindSpore profiler/ files "
    "(step_trace_raw_*_detail_time.csv, "
    "hccl_raw_*.csv), a MindInsight cluster_profiler job, CANN PROF_* folders with device_* subfolders, and by "
    "content under any other name: SQLite files (classified by their tables), Chrome-trace *.json and PyTorch "
    "profiler (Kineto) traces *.json / *.json.gz");

struct Candidate {
    PlannedRank rank;
    bool rankKnown = false;
    fs::file_time_type mtime {};
    std::optional<int64_t> folderTimestamp; // the {timestamp} field of {worker}_{timestamp}_ascend_pt
    std::optional<int64_t> collectionEndNs; // profiler_info end_info.collectionTimeEnd: when the profile ended
    std::optional<std::size_t> besideSummary; // per-rank files in a cluster_analysis_output folder: that summary
};

// File helpers (DetectorWalker.cpp).
std::string pathText(const fs::path& p);
bool isDir(const fs::path& p);
std::vector<fs::path> filesIn(const fs::path& dir);
bool isFactsKind(FileKind k);
bool isClusterFile(const fs::path& f, FileKind k);

class Walker {
public:
    explicit Walker(LoadPlan& plan)
        : m_plan(plan)
    {
    }

    void input(const std::string& input);

    std::vector<Candidate>& candidates() { return m_candidates; }
    std::vector<ClusterSummary>& summaries() { return m_summaries; }
    // Profiler db exports whose timeline tables are empty, so a trace_view.json beside them gives the timeline.
    const std::set<std::string>& textTimeline() const { return m_textTimeline; }

private:
    void issue(std::string severity, std::string path, TrText message)
    {
        m_plan.issues.push_back({ std::move(severity), std::move(path), std::move(message) });
    }

    // Finding rank folders, cluster summaries and layouts (DetectorWalker.cpp).
    bool firstVisit(const fs::path& dir);
    const std::optional<FileSniffer::Result>& sniffed(const fs::path& f);
    bool hasRankData(const fs::path& dir);
    ClusterSummary clusterSummaryOf(const fs::path& dir, const fs::path& file);
    std::optional<ClusterSummary> sniffedClusterSummary(const fs::path& dir);
    void addOutputDir(const fs::path& dir);
    void walk(const fs::path& dir, int depth);
    void addProfDir(const fs::path& dir);
    void addPlanned(PlannedRank rank);

    // Planning the files of one rank folder (DetectorRank.cpp).
    struct RankScan;
    void chooseSources(PlannedRank& rank);
    std::vector<Candidate> splitByDevice(Candidate c);
    void addRank(const fs::path& rankDir, std::optional<std::size_t> besideSummary = std::nullopt);
    bool addRankFile(RankScan& scan, const fs::path& f, FileKind k);
    std::vector<fs::path> addNamedFiles(RankScan& scan, const fs::path& rankDir, const fs::path& outDir);
    bool splitKinetoTraces(RankScan& scan, std::vector<fs::path>& unknown, std::optional<std::size_t> besideSummary);
    void addSniffedFiles(RankScan& scan, const std::vector<fs::path>& unknown);
    void preferKernelDetails(RankScan& scan);
    void nameRank(RankScan& scan, const std::string& folderName);
    std::optional<std::vector<Candidate>> rankCandidates(
        RankScan& scan, const fs::path& rankDir, const fs::path& outDir);
    void addStrategyRanks(const std::map<int64_t, PlannedFile>& strategies, std::vector<Candidate>& ranks,
        const fs::path& rankDir, std::optional<std::size_t> besideSummary);

    LoadPlan& m_plan;
    std::vector<Candidate> m_candidates;
    std::vector<ClusterSummary> m_summaries; // msprof-analyze cluster_analysis_output folders
    std::set<std::string> m_visited;
    std::map<std::string, std::optional<FileSniffer::Result>> m_sniffed; // absolute path -> content kind
    std::set<std::string> m_textTimeline; // profiler db exports with empty timeline tables (absolute paths)
};

} // namespace npuscope::io::detect_detail

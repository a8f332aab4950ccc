// SPDX-License-Identifier: Apache-2.0
// The folder walk of Detector: Walker::input checks each input path and walks folders (depth-limited, each folder
// once) to the rank folders, msprof-analyze cluster summaries (by name or sniffed), CANN PROF_* folders, MindInsight
// cluster jobs and old MindSpore profiler folders; also the file helpers the other parts share. How the files of one
// rank folder are planned is in DetectorRank.cpp.
#include "DetectorParts.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/io/cann/CannProfImporter.h"
#include "npuscope/io/detect/FileKinds.h"
#include "npuscope/io/detect/FileSniffer.h"
#include "npuscope/io/detect/FolderEntries.h"
#include "npuscope/io/mindspore/MindSporeLayout.h"
#include "npuscope/io/msprof_analyze/ClusterSummary.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace npuscope::io::detect_detail {

std::string pathText(const fs::path& p) { return p.lexically_normal().string(); }

bool isDir(const fs::path& p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

// Lists the regular files of a folder (sorted), tolerating unreadable entries.
std::vector<fs::path> filesIn(const fs::path& dir) { return folderEntries(dir, EntryType::Files); }

// Facts about a rank, not its data: a folder holding only these gives a rank without step, communication or
// timeline data.
bool isFactsKind(FileKind k)
{
    const auto* spec = FileKinds::find(k);
    return spec && spec->facts;
}

// Files that describe a whole cluster (msprof-analyze cluster_analysis_output); ClusterSummary plans them, never a
// rank folder.
bool isClusterFile(const fs::path& f, FileKind k)
{
    return ClusterSummary::isClusterFileName(f.filename().string()) || k == FileKind::ClusterStepTrace
        || k == FileKind::ClusterCommunication || k == FileKind::ClusterCommunicationMatrix
        || k == FileKind::ClusterAnalysisDb;
}

namespace {

constexpr int kMaxDepth = 16;

bool endsWith(const std::string& s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool hasFileOfKind(const fs::path& dir, std::initializer_list<FileKind> kinds)
{
    for (const auto& f : filesIn(dir)) {
        FileKind k;
        if (fileKindOf(f.filename().string(), k) && std::find(kinds.begin(), kinds.end(), k) != kinds.end())
            return true;
    }
    return false;
}

bool hasProfilerInfo(const fs::path& dir) { return hasFileOfKind(dir, { FileKind::ProfilerInfo }); }

bool isRankFolder(const fs::path& dir)
{
    const std::string name = dir.filename().string();
    return isDir(dir / kOutputDir) || endsWith(name, "_ascend_pt") || endsWith(name, "_ascend_ms")
        || hasFileOfKind(dir, { FileKind::ProfilerInfo, FileKind::MsParallelStrategy });
}

} // namespace

void Walker::input(const std::string& input)
{
    const fs::path p(input);
    std::error_code ec;
    const auto status = fs::status(p, ec);
    // Each way an input can be unusable has its own message: the user fixes a typo, a permission or a choice of
    // folder differently.
    if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory) {
        issue("error", input, issueText(QT_TRANSLATE_NOOP("ParseIssue", "path cannot be read: %1"), { ec.message() }));
        return;
    }
    if (!fs::exists(status)) {
        issue("error", input, issueText(QT_TRANSLATE_NOOP("ParseIssue", "path does not exist")));
        return;
    }
    if (fs::is_directory(status)) {
        std::error_code listError;
        fs::directory_iterator first(p, listError);
        if (listError) {
            issue("error", input,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "folder cannot be read: %1"), { listError.message() }));
            return;
        }
        if (first == fs::directory_iterator()) {
            issue("error", input, issueText(QT_TRANSLATE_NOOP("ParseIssue", "folder is empty")));
            return;
        }
    } else if (!fs::is_regular_file(status)) {
        issue("error", input,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "not a folder or a regular file (a device, pipe or socket)")));
        return;
    }
    if (fs::is_regular_file(status)) {
        std::ifstream probe(p, std::ios::binary);
        if (!probe) {
            issue("error", input,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "file cannot be read: %1"), { std::strerror(errno) }));
            return;
        }
    }
    if (fs::is_regular_file(status)) {
        const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
        FileKind k;
        if (!fileKindOf(p.filename().string(), k)) {
            const auto& s = sniffed(p);
            if (!s) {
                issue("error", input,
                    issueText(QT_TRANSLATE_NOOP("ParseIssue", "not a profiler file npuscope knows; %1"),
                        { issueText(kLookedFor) }));
                return;
            }
            if (s->kind == FileKind::ClusterAnalysisDb) {
                if (firstVisit(dir))
                    m_summaries.push_back(clusterSummaryOf(dir, p));
                return;
            }
            addOutputDir(dir);
            return;
        }
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
        issue("error", input,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "no profiler output found; %1"), { issueText(kLookedFor) }));
}

bool Walker::firstVisit(const fs::path& dir)
{
    std::error_code ec;
    const auto canonical = fs::canonical(dir, ec);
    const std::string key = ec ? pathText(dir) : canonical.string();
    return m_visited.insert(key).second;
}

// The content kind of a file the name rules do not know; sniffed once, its problems reported once.
const std::optional<FileSniffer::Result>& Walker::sniffed(const fs::path& f)
{
    const std::string key = pathText(fs::absolute(f));
    auto it = m_sniffed.find(key);
    if (it == m_sniffed.end())
        it = m_sniffed.emplace(key, FileSniffer::sniff(f, m_plan.issues)).first;
    return it->second;
}

// Per-rank data in dir: a known data file, or an unknown one whose content is (cluster files excluded).
bool Walker::hasRankData(const fs::path& dir)
{
    std::vector<fs::path> unknown;
    for (const auto& f : filesIn(dir)) {
        FileKind k;
        if (!fileKindOf(f.filename().string(), k))
            unknown.push_back(f);
        else if (!isFactsKind(k) && !isClusterFile(f, k))
            return true;
    }
    for (const auto& f : unknown) {
        const auto& s = sniffed(f);
        if (s && s->kind != FileKind::ClusterAnalysisDb)
            return true;
    }
    return false;
}

// A cluster summary db under another name (sniffed ClusterStepTraceTime / ClusterCommAnalyzerTime).
ClusterSummary Walker::clusterSummaryOf(const fs::path& dir, const fs::path& file)
{
    ClusterSummary s;
    s.path = pathText(fs::absolute(dir));
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    s.files.push_back({ FileKind::ClusterAnalysisDb, pathText(fs::absolute(file)), ec ? 0 : size });
    ClusterSummary::ranksOfDb(s.files.front().path, s.ranks, s.issues);
    s.issues.push_back({ "info", s.files.front().path,
        issueText(QT_TRANSLATE_NOOP("ParseIssue",
            "file name not known to npuscope; by its content (msprof-analyze cluster tables) imported as "
            "cluster_analysis.db")) });
    return s;
}

std::optional<ClusterSummary> Walker::sniffedClusterSummary(const fs::path& dir)
{
    for (const auto& f : filesIn(dir)) {
        FileKind k;
        // Only files starting with the SQLite header are opened; everything else costs 16 bytes.
        if (fileKindOf(f.filename().string(), k) || !FileSniffer::hasSqliteHeader(f))
            continue;
        if (const auto& s = sniffed(f); s && s->kind == FileKind::ClusterAnalysisDb)
            return clusterSummaryOf(dir, f);
    }
    return std::nullopt;
}

void Walker::addOutputDir(const fs::path& dir)
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

void Walker::walk(const fs::path& dir, int depth)
{
    if (depth > kMaxDepth) {
        issue("warning", pathText(dir),
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "folder nesting deeper than %1 levels; not searched further"),
                { std::to_string(kMaxDepth) }));
        return;
    }
    if (dir.filename() == kOutputDir) {
        addOutputDir(dir);
        return;
    }
    if (!firstVisit(dir))
        return; // symlink loop or a folder given twice
    auto summary = ClusterSummary::probe(dir);
    if (!summary)
        summary = sniffedClusterSummary(dir);
    if (summary) {
        m_summaries.push_back(std::move(*summary));
        // Per-rank exports kept next to the summary (report_0.db beside cluster_analysis.db) belong to it.
        if (hasRankData(dir))
            addRank(dir, m_summaries.size() - 1);
        return;
    }
    if (CannProfImporter::isProfDir(dir)) {
        addProfDir(dir);
        return;
    }
    if (MindSporeLayout::isClusterJob(dir)) {
        auto ranks = MindSporeLayout::jobRanks(dir, m_plan.issues);
        issue("info", pathText(fs::absolute(dir)),
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "MindInsight cluster_profiler job: %1 ranks from the rank table; hosts are shown by "
                          "their host_ips_mapping.txt id"),
                { std::to_string(ranks.size()) }));
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
            if (CannProfImporter::isProfDir(it->path()) && firstVisit(it->path()))
                addProfDir(it->path());
        }
        return;
    }
    if (isRankFolder(dir) || hasRankData(dir)) {
        addRank(dir);
        return;
    }
    std::error_code ec;
    const std::vector<fs::path> children = folderEntries(dir, EntryType::Folders, ec);
    if (ec)
        issue("warning", pathText(dir),
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot list folder: %1"), { ec.message() }));
    // torch_npu's profiler_metadata.json alone in a leaf folder: a rank with its facts (rank id, world size,
    // parallel groups) only, like a folder holding only profiler_info.
    if (children.empty() && hasFileOfKind(dir, { FileKind::ProfilerMetadata })) {
        addRank(dir);
        return;
    }
    for (const auto& c : children)
        walk(c, depth + 1);
}

// A CANN PROF_* folder: one rank per device_<n> (CannProfImporter), plus the op_summary files of its summaries:
// device_<n>/summary/op_summary_{n}_{model}_{iter}.csv (older layout) or, when the folder has one device,
// mindstudio_profiler_output/op_summary_{timestamp}.csv (that file holds the tasks of every device).
void Walker::addProfDir(const fs::path& dir)
{
    auto ranks = CannProfImporter::planRanks(dir);
    auto opSummaries = [](const fs::path& folder) {
        std::vector<PlannedFile> out;
        for (const auto& f : filesIn(folder)) {
            FileKind k;
            std::error_code ec;
            const auto size = fs::file_size(f, ec);
            if (fileKindOf(f.filename().string(), k) && k == FileKind::OpSummary)
                out.push_back({ k, pathText(fs::absolute(f)), ec ? 0 : size });
        }
        return out;
    };
    for (auto& r : ranks) {
        for (auto& f : opSummaries(fs::path(r.path) / "summary"))
            r.files.push_back(std::move(f));
    }
    const auto shared = opSummaries(dir / "mindstudio_profiler_output");
    if (ranks.empty() && !shared.empty()) {
        addRank(dir / "mindstudio_profiler_output"); // no device facts: a rank of its own, id by the usual rules
        return;
    }
    if (!shared.empty()) {
        const auto hasOwn = [](const PlannedRank& r) {
            return std::any_of(
                r.files.begin(), r.files.end(), [](const PlannedFile& f) { return f.kind == FileKind::OpSummary; });
        };
        if (ranks.size() == 1 && !hasOwn(ranks.front())) {
            ranks.front().files.insert(ranks.front().files.end(), shared.begin(), shared.end());
        } else {
            for (const auto& f : shared)
                issue("info", f.path,
                    ranks.size() == 1
                        ? issueText(QT_TRANSLATE_NOOP(
                            "ParseIssue", "the device folder's own op_summary files were imported instead"))
                        : issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                        "op_summary of a PROF_* folder with %1 devices holds the tasks of all of "
                                        "them; not imported (not split by device)"),
                            { std::to_string(ranks.size()) }));
        }
    }
    for (auto& r : ranks)
        addPlanned(std::move(r));
}

// A rank the layout helpers planned completely (old MindSpore flat folders, MindInsight jobs).
void Walker::addPlanned(PlannedRank rank)
{
    Candidate c;
    c.rankKnown = true;
    std::error_code ec;
    c.mtime = fs::last_write_time(rank.files.empty() ? fs::path(rank.path) : fs::path(rank.files.front().path), ec);
    c.rank = std::move(rank);
    m_candidates.push_back(std::move(c));
}

} // namespace npuscope::io::detect_detail

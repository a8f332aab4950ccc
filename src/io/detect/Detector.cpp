// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/detect/Detector.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/cann/CannProfImporter.h"
#include "npuscope/io/detect/FileKinds.h"
#include "npuscope/io/detect/FileSniffer.h"
#include "npuscope/io/mindspore/MindSporeLayout.h"
#include "npuscope/io/msprof_analyze/ClusterSummary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace fs = std::filesystem;

namespace npuscope::io {

namespace {

constexpr int kMaxDepth = 16;
constexpr const char* kOutputDir = "ASCEND_PROFILER_OUTPUT";
constexpr const char* kLookedFor = QT_TRANSLATE_NOOP("ParseIssue",
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

// What a db export gives in place of a text file, in the info issue naming each rank's sources.
const char* dataName(FileKind k)
{
    const auto* spec = FileKinds::find(k);
    return spec && spec->dataName ? spec->dataName : fileKindName(k);
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

// The <n> of a file name <prefix><n><suffix> (parallel_strategy_1.json, report_0.db, ...).
std::optional<int64_t> numberIn(const std::string& name, const std::regex& pattern)
{
    std::smatch m;
    if (std::regex_match(name, m, pattern))
        return parseInt(m[1].str());
    return std::nullopt;
}

std::string joinNumbers(const std::vector<int64_t>& values)
{
    std::string out;
    for (int64_t v : values)
        out += (out.empty() ? "" : ", ") + std::to_string(v);
    return out;
}

// end_info.collectionTimeEnd of a profiler_info file as epoch ns (torch_npu writes ns; seconds, ms and µs are
// recognised by magnitude), or nullopt.
std::optional<int64_t> collectionEndOf(const fs::path& file)
{
    std::ifstream in(file);
    if (!in)
        return std::nullopt;
    const auto j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("end_info") || !j["end_info"].is_object())
        return std::nullopt;
    const auto& end = j["end_info"];
    const auto it = end.find("collectionTimeEnd");
    if (it == end.end())
        return std::nullopt;
    double v = 0;
    if (it->is_number())
        v = it->get<double>();
    else if (it->is_string())
        v = parseDouble(it->get<std::string>()).value_or(0);
    if (!(v > 0) || !(v < 9.2e18))
        return std::nullopt; // not a time (or beyond int64 ns)
    if (it->is_number_integer() && v >= 1e17)
        return it->is_number_unsigned() ? static_cast<int64_t>(it->get<uint64_t>()) : it->get<int64_t>(); // ns
    const double scale = v < 1e11 ? 1e9 : v < 1e14 ? 1e6 : v < 1e17 ? 1e3 : 1.0;
    return static_cast<int64_t>(v * scale);
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
    if (j.contains("ms_profiler_info") && j["ms_profiler_info"].is_object()
        && j["ms_profiler_info"].contains("rank_id"))
        return fromValue(j["ms_profiler_info"]["rank_id"]);
    return std::nullopt;
}

// profiler_metadata.json distributed_args.rank (Megatron / MindSpeed runs add it).
std::optional<int64_t> rankFromMetadataFile(const fs::path& file)
{
    std::ifstream in(file);
    if (!in)
        return std::nullopt;
    const auto j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return std::nullopt;
    const auto args = j.find("distributed_args");
    if (args == j.end() || !args->is_object())
        return std::nullopt;
    const auto rank = args->find("rank");
    if (rank == args->end())
        return std::nullopt;
    std::optional<int64_t> value;
    if (rank->is_number_integer())
        value = rank->get<int64_t>();
    else if (rank->is_string())
        value = parseInt(rank->get<std::string>());
    return value && *value >= 0 ? value : std::nullopt;
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
        // Each way an input can be unusable has its own message: the user fixes a typo, a permission or a choice of
        // folder differently.
        if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory) {
            issue("error", input,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "path cannot be read: %1"), { ec.message() }));
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
                issueText(
                    QT_TRANSLATE_NOOP("ParseIssue", "not a folder or a regular file (a device, pipe or socket)")));
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

    std::vector<Candidate>& candidates() { return m_candidates; }
    std::vector<ClusterSummary>& summaries() { return m_summaries; }
    // Profiler db exports whose timeline tables are empty, so a trace_view.json beside them gives the timeline.
    const std::set<std::string>& textTimeline() const { return m_textTimeline; }

private:
    void issue(std::string severity, std::string path, TrText message)
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

    // The content kind of a file the name rules do not know; sniffed once, its problems reported once.
    const std::optional<FileSniffer::Result>& sniffed(const fs::path& f)
    {
        const std::string key = pathText(fs::absolute(f));
        auto it = m_sniffed.find(key);
        if (it == m_sniffed.end())
            it = m_sniffed.emplace(key, FileSniffer::sniff(f, m_plan.issues)).first;
        return it->second;
    }

    // Per-rank data in dir: a known data file, or an unknown one whose content is (cluster files excluded).
    bool hasRankData(const fs::path& dir)
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
    ClusterSummary clusterSummaryOf(const fs::path& dir, const fs::path& file)
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

    std::optional<ClusterSummary> sniffedClusterSummary(const fs::path& dir)
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
        std::vector<fs::path> children;
        std::error_code ec;
        for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
             it.increment(ec)) {
            std::error_code ec2;
            if (it->is_directory(ec2))
                children.push_back(it->path());
        }
        if (ec)
            issue("warning", pathText(dir),
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot list folder: %1"), { ec.message() }));
        std::sort(children.begin(), children.end());
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
    void addProfDir(const fs::path& dir)
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
    void addPlanned(PlannedRank rank)
    {
        Candidate c;
        c.rankKnown = true;
        std::error_code ec;
        c.mtime = fs::last_write_time(rank.files.empty() ? fs::path(rank.path) : fs::path(rank.files.front().path), ec);
        c.rank = std::move(rank);
        m_candidates.push_back(std::move(c));
    }

    // A rank folder with both a db export and text files: each kind of data from one file, the db export where it
    // holds that data (a table with rows), else the text file (FileSniffer::heldTextKinds). A text file the db
    // replaces is dropped; the info issue names which data comes from which file.
    void chooseSources(PlannedRank& rank)
    {
        const auto isDb
            = [](const PlannedFile& f) { return f.kind == FileKind::ProfilerDb || f.kind == FileKind::AnalysisDb; };
        const auto isText = [&](const PlannedFile& f) { return !isDb(f) && !isFactsKind(f.kind); };
        if (std::none_of(rank.files.begin(), rank.files.end(), isDb)
            || std::none_of(rank.files.begin(), rank.files.end(), isText))
            return;
        std::set<FileKind> heldBy; // text kinds a db export replaces
        TrText fromDb; // "name: what it holds; name: ..."
        for (const auto& f : rank.files) {
            if (!isDb(f))
                continue;
            const std::string name = fs::path(f.path).filename().string();
            std::vector<std::string> data;
            for (FileKind k : FileSniffer::heldTextKinds(f.path, f.kind, m_plan.issues)) {
                heldBy.insert(k);
                if (std::find(data.begin(), data.end(), dataName(k)) == data.end())
                    data.push_back(dataName(k));
            }
            if (f.kind == FileKind::ProfilerDb && !heldBy.count(FileKind::TraceView))
                m_textTimeline.insert(f.path); // its timeline tables are empty: the text trace (if any) is used
            std::string list;
            for (std::size_t i = 0; i < data.size(); ++i)
                list += (i ? ", " : "") + data[i];
            const TrText part(nullptr, "%1: %2",
                { name,
                    data.empty() ? issueText(QT_TRANSLATE_NOOP("ParseIssue", "nothing (no table it reads has rows)"))
                                 : TrText(list) });
            fromDb = fromDb.source.empty() ? part : TrText(nullptr, "%1; %2", { fromDb, part });
        }
        std::string kept;
        std::string dropped;
        for (const auto& f : rank.files) {
            if (!isText(f))
                continue;
            std::string& list = heldBy.count(f.kind) ? dropped : kept;
            list += (list.empty() ? "" : ", ") + fs::path(f.path).filename().string();
        }
        rank.files.erase(std::remove_if(rank.files.begin(), rank.files.end(),
                             [&](const PlannedFile& f) { return isText(f) && heldBy.count(f.kind); }),
            rank.files.end());
        issue("info", rank.path,
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue",
                    "rank folder holds a db export and text files; each kind of data comes from one file: %1%2%3"),
                { fromDb, kept.empty() ? TrText() : issueText(QT_TRANSLATE_NOOP("ParseIssue", "; text: %1"), { kept }),
                    dropped.empty()
                        ? TrText()
                        : issueText(QT_TRANSLATE_NOOP("ParseIssue", "; ignored, as a db export holds their data: %1"),
                            { dropped }) }));
    }

    // An analysis db holding several devices (one process driving several NPUs, StepTraceTime.deviceId): one rank
    // per device, each with the same file; AnalysisDbImporter keeps the rows of its rank's device.
    std::vector<Candidate> splitByDevice(Candidate c)
    {
        const auto db = std::find_if(c.rank.files.begin(), c.rank.files.end(),
            [](const PlannedFile& f) { return f.kind == FileKind::AnalysisDb; });
        if (db == c.rank.files.end())
            return { std::move(c) };
        const auto devices = FileSniffer::analysisDbDevices(db->path);
        if (devices.size() < 2)
            return { std::move(c) };
        std::vector<TrText> message { issueText(
            QT_TRANSLATE_NOOP("ParseIssue", "%1 holds %2 devices (%3) in one file: one rank per device, "),
            { fs::path(db->path).filename().string(), std::to_string(devices.size()), joinNumbers(devices) }) };
        if (c.rankKnown)
            message.push_back(issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                            "rank ids = device ids (the folder's rank %1 from %2 names one process, "
                                            "not one device)"),
                { std::to_string(c.rank.rank), c.rank.rankSource }));
        else
            message.push_back(issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "rank ids come from the device ids because there is no rank information")));
        // Files that are not per device (a profiler db, text files) stay with the first device's rank.
        std::vector<PlannedFile> shared;
        std::vector<PlannedFile> firstOnly;
        for (const auto& f : c.rank.files)
            (f.kind == FileKind::AnalysisDb || isFactsKind(f.kind) ? shared : firstOnly).push_back(f);
        if (!firstOnly.empty()) {
            std::string names;
            for (const auto& f : firstOnly)
                names += (names.empty() ? "" : ", ") + fs::path(f.path).filename().string();
            message.push_back(
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "; %1 not split by device, planned for rank %2"),
                    { names, std::to_string(devices.front()) }));
        }
        issue("info", db->path, clauses(std::move(message)));
        std::vector<Candidate> out;
        for (int64_t device : devices) {
            Candidate d = c;
            d.rank.rank = device;
            d.rank.rankSource = "device_id";
            d.rankKnown = true;
            d.rank.files = shared;
            if (device == devices.front())
                d.rank.files.insert(d.rank.files.end(), firstOnly.begin(), firstOnly.end());
            out.push_back(std::move(d));
        }
        return out;
    }

    void addRank(const fs::path& rankDir, std::optional<std::size_t> besideSummary = std::nullopt)
    {
        static const std::regex kInfoName(R"(^profiler_info_(\d+)\.json$)");
        static const std::regex kDbName(R"(^(?:ascend_\w+_profiler|msprof|report)_(\d+)\.db$)");
        static const std::regex kStrategyName(R"(^parallel_strategy_(\d+)\.json$)");
        static const std::regex kOpSummaryName(R"(^op_summary_(\d{1,6})(?:_\d+)*\.csv$)");
        Candidate c;
        c.besideSummary = besideSummary;
        c.rank.path = pathText(fs::absolute(rankDir));
        const fs::path outDir = isDir(rankDir / kOutputDir) ? rankDir / kOutputDir : rankDir;
        std::optional<fs::path> infoFile;
        std::optional<fs::path> metadataFile;
        std::optional<int64_t> rankFromName;
        // op_summary_{n}.csv / op_summary_{n}_{model}_{iter}.csv: n is the device id in CANN output. Longer numbers
        // are the {timestamp} of mindstudio_profiler_output/op_summary_{timestamp}.csv, not an id.
        std::optional<int64_t> rankFromOpSummary;
        std::optional<std::string> opSummaryNamed; // the file rankFromOpSummary came from
        std::optional<int64_t> rankFromDbName; // ascend_pytorch_profiler_{rank}.db, msprof_{rank}.db, report_{rank}.db
        std::map<int64_t, PlannedFile> strategies; // parallel_strategy_{rank}.json, planned for rank {rank}
        auto planned = [](const fs::path& f, FileKind k) {
            std::error_code ec;
            const auto size = fs::file_size(f, ec);
            return PlannedFile { k, pathText(fs::absolute(f)), ec ? 0 : size };
        };
        auto hasKind = [&](FileKind k) {
            return std::any_of(
                c.rank.files.begin(), c.rank.files.end(), [k](const PlannedFile& f) { return f.kind == k; });
        };
        auto addFile = [&](const fs::path& f, FileKind k) {
            const std::string name = f.filename().string();
            if (k == FileKind::OpSummary && hasKind(k)) {
                // Several op_summary files of one device (one per model / iteration) are all imported.
                const auto id = numberIn(name, kOpSummaryName);
                if (id != rankFromOpSummary) {
                    issue("info", pathText(fs::absolute(f)),
                        issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                      "op_summary of another device than %1, which was planned first for this folder; "
                                      "ignored"),
                            { opSummaryNamed.value_or(std::string()) }));
                    return false;
                }
            } else if (k != FileKind::ProfilerInfo && hasKind(k)) {
                return false;
            }
            c.rank.files.push_back(planned(f, k));
            if (k == FileKind::ProfilerInfo && !infoFile) {
                infoFile = f;
                rankFromName = numberIn(name, kInfoName);
            }
            if (k == FileKind::ProfilerDb && !rankFromDbName)
                rankFromDbName = numberIn(name, kDbName);
            if (k == FileKind::ProfilerMetadata && !metadataFile)
                metadataFile = f;
            if (k == FileKind::OpSummary && !opSummaryNamed) {
                rankFromOpSummary = numberIn(name, kOpSummaryName);
                opSummaryNamed = name;
            }
            return true;
        };
        std::vector<fs::path> files = filesIn(rankDir);
        if (outDir != rankDir) {
            const auto more = filesIn(outDir);
            files.insert(files.end(), more.begin(), more.end());
        }
        // Names first, so a file named for its kind wins over one only its content identifies.
        std::vector<fs::path> unknown;
        for (const auto& f : files) {
            FileKind k;
            if (!fileKindOf(f.filename().string(), k)) {
                unknown.push_back(f);
            } else if (isClusterFile(f, k)) {
                continue; // the summary beside these files plans them
            } else if (k == FileKind::MsParallelStrategy) {
                if (auto id = numberIn(f.filename().string(), kStrategyName))
                    strategies.emplace(*id, planned(f, k));
            } else {
                addFile(f, k);
            }
        }
        // Kineto traces are one file per rank: several in one folder are several ranks.
        std::optional<int64_t> rankFromKineto;
        std::vector<fs::path> kinetoFiles;
        for (const auto& f : unknown) {
            if (const auto& s = sniffed(f); s && s->kind == FileKind::KinetoTrace)
                kinetoFiles.push_back(f);
        }
        if (kinetoFiles.size() > 1) {
            for (const auto& f : kinetoFiles) {
                Candidate k;
                k.besideSummary = besideSummary;
                k.rank.path = pathText(fs::absolute(f));
                k.rank.files.push_back(planned(f, FileKind::KinetoTrace));
                if (const auto& s = sniffed(f); s->rank) {
                    k.rank.rank = *s->rank;
                    k.rank.rankSource = "rank_id_field";
                    k.rankKnown = true;
                }
                std::error_code timeEc;
                k.mtime = fs::last_write_time(f, timeEc);
                m_candidates.push_back(std::move(k));
            }
            issue("info", c.rank.path,
                issueText(
                    QT_TRANSLATE_NOOP("ParseIssue",
                        "%1 PyTorch profiler (Kineto) traces in one folder: one rank each (distributedInfo.rank)"),
                    { std::to_string(kinetoFiles.size()) }));
            unknown.erase(std::remove_if(unknown.begin(), unknown.end(),
                              [&](const fs::path& f) {
                                  return std::find(kinetoFiles.begin(), kinetoFiles.end(), f) != kinetoFiles.end();
                              }),
                unknown.end());
            if (unknown.empty() && c.rank.files.empty())
                return;
        } else if (kinetoFiles.size() == 1) {
            rankFromKineto = sniffed(kinetoFiles.front())->rank;
        }
        for (const auto& f : unknown) {
            const auto& s = sniffed(f);
            if (!s || s->kind == FileKind::ClusterAnalysisDb)
                continue;
            const std::string path = pathText(fs::absolute(f));
            if (addFile(f, s->kind))
                issue("info", path,
                    issueText(QT_TRANSLATE_NOOP(
                                  "ParseIssue", "file name not known to npuscope; by its content (%1) imported as %2"),
                        { s->why, fileKindName(s->kind) }));
            else
                issue("info", path,
                    issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                  "by its content (%1) a %2 file, but the folder already has one; ignored"),
                        { s->why, fileKindName(s->kind) }));
        }

        // kernel_details.csv and an op_summary of the same tasks: one source per figure, the profiler's own file.
        if (hasKind(FileKind::KernelDetails) && hasKind(FileKind::OpSummary)) {
            std::string dropped;
            for (const auto& f : c.rank.files) {
                if (f.kind == FileKind::OpSummary)
                    dropped += (dropped.empty() ? "" : ", ") + fs::path(f.path).filename().string();
            }
            c.rank.files.erase(std::remove_if(c.rank.files.begin(), c.rank.files.end(),
                                   [](const PlannedFile& f) { return f.kind == FileKind::OpSummary; }),
                c.rank.files.end());
            issue("info", c.rank.path,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "rank folder holds kernel_details.csv; ignored the CANN %1"),
                    { dropped }));
        }
        chooseSources(c.rank);
        if (!rankFromName)
            rankFromName = rankFromDbName;
        if (!rankFromName && rankFromOpSummary && hasKind(FileKind::OpSummary)) {
            rankFromName = rankFromOpSummary;
            issue("info", c.rank.path,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "rank %1 from the file name %2; in CANN output this number is the device id, which may "
                              "differ from the global rank"),
                    { std::to_string(*rankFromOpSummary), *opSummaryNamed }));
        }

        const std::string folderName = rankDir.filename().string();
        if (rankFromName) {
            c.rank.rank = *rankFromName;
            c.rank.rankSource = "file_name";
            c.rankKnown = true;
        } else if (auto fromField = infoFile ? rankFromInfoFile(*infoFile) : std::nullopt) {
            c.rank.rank = *fromField;
            c.rank.rankSource = "rank_id_field";
            c.rankKnown = true;
        } else if (auto fromMetadata = metadataFile ? rankFromMetadataFile(*metadataFile) : std::nullopt) {
            c.rank.rank = *fromMetadata;
            c.rank.rankSource = "rank_id_field";
            c.rankKnown = true;
        } else if (rankFromKineto && hasKind(FileKind::KinetoTrace)) {
            c.rank.rank = *rankFromKineto;
            c.rank.rankSource = "rank_id_field";
            c.rankKnown = true;
        } else {
            static const std::regex kRankInName(R"((?:^|[^A-Za-z])rank[_-]?(\d+))", std::regex::icase);
            std::smatch m;
            if (std::regex_search(folderName, m, kRankInName)) {
                c.rank.rank = parseInt(m[1].str()).value_or(0);
                c.rank.rankSource = "folder_name";
                c.rankKnown = true;
            } else if (c.rank.files.empty() || strategies.size() == 1) {
                // parallel_strategy_{rank}.json names its rank when nothing else does.
                if (!strategies.empty()) {
                    c.rank.rank = strategies.begin()->first;
                    c.rank.rankSource = "file_name";
                    c.rankKnown = true;
                } else {
                    c.rank.rankSource = "default";
                }
            } else {
                c.rank.rankSource = "default";
            }
        }
        if (c.rankKnown) {
            if (auto it = strategies.find(c.rank.rank); it != strategies.end()) {
                c.rank.files.push_back(it->second);
                strategies.erase(it);
            }
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
        // A file's time, never the folder's: reading a WAL-mode db export (any SQLite client without immutable=1)
        // creates and removes -wal/-shm beside it and so moves the folder's time, which flipped the kept folder.
        c.mtime = fs::last_write_time(infoFile ? *infoFile : rankDir, ec);
        if (infoFile)
            c.collectionEndNs = collectionEndOf(*infoFile);
        if (!infoFile) {
            std::optional<fs::file_time_type> newest;
            for (const auto& f : c.rank.files) {
                std::error_code fileEc;
                const auto t = fs::last_write_time(f.path, fileEc);
                if (!fileEc && (!newest || t > *newest))
                    newest = t;
            }
            if (newest)
                c.mtime = *newest;
        }

        const bool hasData = std::any_of(
            c.rank.files.begin(), c.rank.files.end(), [](const PlannedFile& f) { return !isFactsKind(f.kind); });
        std::vector<Candidate> ranks;
        if (hasData) {
            ranks = splitByDevice(std::move(c));
        } else if (!c.rank.files.empty()) {
            // profiler_info / metadata / parallel strategy alone: the rank is known, its data is not there.
            std::string names;
            for (const auto& f : c.rank.files)
                names += (names.empty() ? "" : ", ") + fs::path(f.path).filename().string();
            const bool outputExpected = outDir != rankDir;
            issue(outputExpected ? "warning" : "info", c.rank.path,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "rank folder holds only %1%2: a rank with its facts (rank_info) only; no step, "
                              "communication or timeline data"),
                    { names,
                        outputExpected
                            ? issueText(QT_TRANSLATE_NOOP("ParseIssue", " (%1 holds no file npuscope imports)"),
                                { std::string(kOutputDir) })
                            : TrText() }));
            ranks.push_back(std::move(c));
        } else if (strategies.empty()) {
            bool hasDb = false;
            for (const auto& f : filesIn(outDir))
                hasDb = hasDb || f.extension() == ".db";
            issue("warning", c.rank.path,
                hasDb ? issueText(QT_TRANSLATE_NOOP(
                    "ParseIssue", "rank folder holds only .db files of a kind npuscope does not import; skipped"))
                      : issueText(QT_TRANSLATE_NOOP("ParseIssue", "rank folder holds no file npuscope imports; %1"),
                          { issueText(kLookedFor) }));
            return;
        }
        // parallel_strategy_{n}.json of ranks without a profiler_info_{n}.json here: ranks known from it alone.
        for (auto& [id, file] : strategies) {
            const auto own = std::find_if(ranks.begin(), ranks.end(),
                [&, id = id](const Candidate& r) { return r.rankKnown && r.rank.rank == id; });
            if (own != ranks.end()) {
                own->rank.files.push_back(file);
                continue;
            }
            Candidate s;
            s.besideSummary = besideSummary;
            s.rank.rank = id;
            s.rank.rankSource = "file_name";
            s.rank.path = pathText(fs::absolute(rankDir));
            s.rank.files.push_back(file);
            s.rankKnown = true;
            std::error_code timeEc;
            s.mtime = fs::last_write_time(file.path, timeEc);
            issue("info", file.path,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "rank %1 is known only from %2 (no profiler_info_%3.json or data files for it): a rank "
                              "with parallel-strategy facts only; no step, communication or timeline data"),
                    { std::to_string(id), fs::path(file.path).filename().string(), std::to_string(id) }));
            ranks.push_back(std::move(s));
        }
        for (auto& r : ranks)
            m_candidates.push_back(std::move(r));
    }

    LoadPlan& m_plan;
    std::vector<Candidate> m_candidates;
    std::vector<ClusterSummary> m_summaries; // msprof-analyze cluster_analysis_output folders
    std::set<std::string> m_visited;
    std::map<std::string, std::optional<FileSniffer::Result>> m_sniffed; // absolute path -> content kind
    std::set<std::string> m_textTimeline; // profiler db exports with empty timeline tables (absolute paths)
};

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

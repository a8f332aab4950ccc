// SPDX-License-Identifier: Apache-2.0
// How Detector's walker plans one rank folder (Walker::addRank and its steps): its files by name, then by content
// (several Kineto traces being several ranks), kernel_details.csv over op_summary, a db export over the text files
// it replaces (chooseSources), the rank id (file names, rank_id fields, folder name, parallel strategy), the times
// that pick the newest of several folders of one rank, and the candidates: one per device of a multi-device analysis
// db (splitByDevice), a facts-only rank, and ranks known only from their parallel_strategy file.
#include "DetectorParts.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/detect/FileKinds.h"
#include "npuscope/io/detect/FileSniffer.h"
#include "npuscope/io/parse/JsonFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace npuscope::io::detect_detail {

namespace {

// What a db export gives in place of a text file, in the info issue naming each rank's sources.
const char* dataName(FileKind k)
{
    const auto* spec = FileKinds::find(k);
    return spec && spec->dataName ? spec->dataName : fileKindName(k);
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
    const auto j = peekJsonObject(file);
    if (!j || !j->contains("end_info") || !(*j)["end_info"].is_object())
        return std::nullopt;
    const auto& end = (*j)["end_info"];
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
    const auto j = peekJsonObject(file);
    if (!j)
        return std::nullopt;
    if (auto r = jsonInt(*j, "rank_id"); r && *r >= 0)
        return r;
    if (const auto ms = j->find("ms_profiler_info"); ms != j->end())
        return jsonInt(*ms, "rank_id");
    return std::nullopt;
}

// profiler_metadata.json distributed_args.rank (Megatron / MindSpeed runs add it).
std::optional<int64_t> rankFromMetadataFile(const fs::path& file)
{
    const auto j = peekJsonObject(file);
    if (!j)
        return std::nullopt;
    const auto args = j->find("distributed_args");
    if (args == j->end() || !args->is_object())
        return std::nullopt;
    const auto value = jsonInt(*args, "rank");
    return value && *value >= 0 ? value : std::nullopt;
}

PlannedFile plannedFile(const fs::path& f, FileKind k)
{
    std::error_code ec;
    const auto size = fs::file_size(f, ec);
    return PlannedFile { k, pathText(fs::absolute(f)), ec ? 0 : size };
}

// The times by which Detector keeps the newest of several folders of one rank: the folder name's timestamp, the
// profile's end (profiler_info) and a file time.
void setRankTimes(
    Candidate& c, const fs::path& rankDir, const std::string& folderName, const std::optional<fs::path>& infoFile)
{
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
}

} // namespace

// What addRank learns from the files of a rank folder while it plans them: the candidate, and where its rank id may
// come from.
struct Walker::RankScan {
    Candidate c;
    std::optional<fs::path> infoFile;
    std::optional<fs::path> metadataFile;
    std::optional<int64_t> rankFromName;
    // op_summary_{n}.csv / op_summary_{n}_{model}_{iter}.csv: n is the device id in CANN output. Longer numbers
    // are the {timestamp} of mindstudio_profiler_output/op_summary_{timestamp}.csv, not an id.
    std::optional<int64_t> rankFromOpSummary;
    std::optional<std::string> opSummaryNamed; // the file rankFromOpSummary came from
    std::optional<int64_t> rankFromDbName; // ascend_pytorch_profiler_{rank}.db, msprof_{rank}.db, report_{rank}.db
    std::map<int64_t, PlannedFile> strategies; // parallel_strategy_{rank}.json, planned for rank {rank}
    std::optional<int64_t> rankFromKineto; // distributedInfo.rank of the folder's one Kineto trace

    bool hasKind(FileKind k) const
    {
        return std::any_of(c.rank.files.begin(), c.rank.files.end(), [k](const PlannedFile& f) { return f.kind == k; });
    }
};

// A rank folder with both a db export and text files: each kind of data from one file, the db export where it
// holds that data (a table with rows), else the text file (FileSniffer::heldTextKinds). A text file the db
// replaces is dropped; the info issue names which data comes from which file.
void Walker::chooseSources(PlannedRank& rank)
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
        issueText(QT_TRANSLATE_NOOP("ParseIssue",
                      "rank folder holds a db export and text files; each kind of data comes from one file: %1%2%3"),
            { fromDb, kept.empty() ? TrText() : issueText(QT_TRANSLATE_NOOP("ParseIssue", "; text: %1"), { kept }),
                dropped.empty()
                    ? TrText()
                    : issueText(QT_TRANSLATE_NOOP("ParseIssue", "; ignored, as a db export holds their data: %1"),
                        { dropped }) }));
}

// An analysis db holding several devices (one process driving several NPUs, StepTraceTime.deviceId): one rank
// per device, each with the same file; AnalysisDbImporter keeps the rows of its rank's device.
std::vector<Candidate> Walker::splitByDevice(Candidate c)
{
    const auto db = std::find_if(
        c.rank.files.begin(), c.rank.files.end(), [](const PlannedFile& f) { return f.kind == FileKind::AnalysisDb; });
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
        message.push_back(issueText(
            QT_TRANSLATE_NOOP("ParseIssue", "rank ids come from the device ids because there is no rank information")));
    // Files that are not per device (a profiler db, text files) stay with the first device's rank.
    std::vector<PlannedFile> shared;
    std::vector<PlannedFile> firstOnly;
    for (const auto& f : c.rank.files)
        (f.kind == FileKind::AnalysisDb || isFactsKind(f.kind) ? shared : firstOnly).push_back(f);
    if (!firstOnly.empty()) {
        std::string names;
        for (const auto& f : firstOnly)
            names += (names.empty() ? "" : ", ") + fs::path(f.path).filename().string();
        message.push_back(issueText(QT_TRANSLATE_NOOP("ParseIssue", "; %1 not split by device, planned for rank %2"),
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

void Walker::addRank(const fs::path& rankDir, std::optional<std::size_t> besideSummary)
{
    RankScan scan;
    scan.c.besideSummary = besideSummary;
    scan.c.rank.path = pathText(fs::absolute(rankDir));
    const fs::path outDir = isDir(rankDir / kOutputDir) ? rankDir / kOutputDir : rankDir;
    std::vector<fs::path> unknown = addNamedFiles(scan, rankDir, outDir);
    if (!splitKinetoTraces(scan, unknown, besideSummary))
        return;
    addSniffedFiles(scan, unknown);
    preferKernelDetails(scan);
    chooseSources(scan.c.rank);
    const std::string folderName = rankDir.filename().string();
    nameRank(scan, folderName);
    setRankTimes(scan.c, rankDir, folderName, scan.infoFile);
    auto ranks = rankCandidates(scan, rankDir, outDir);
    if (!ranks)
        return;
    addStrategyRanks(scan.strategies, *ranks, rankDir, besideSummary);
    for (auto& r : *ranks)
        m_candidates.push_back(std::move(r));
}

// Plans file f of kind k for the rank (at most one file of each kind but profiler_info and the op_summary files of
// one device) and notes what its name says of the rank id; false when it is not planned.
bool Walker::addRankFile(RankScan& scan, const fs::path& f, FileKind k)
{
    static const std::regex kInfoName(R"(^profiler_info_(\d+)\.json$)");
    static const std::regex kDbName(R"(^(?:ascend_\w+_profiler|msprof|report)_(\d+)\.db$)");
    static const std::regex kOpSummaryName(R"(^op_summary_(\d{1,6})(?:_\d+)*\.csv$)");
    Candidate& c = scan.c;
    const std::string name = f.filename().string();
    if (k == FileKind::OpSummary && scan.hasKind(k)) {
        // Several op_summary files of one device (one per model / iteration) are all imported.
        const auto id = numberIn(name, kOpSummaryName);
        if (id != scan.rankFromOpSummary) {
            issue("info", pathText(fs::absolute(f)),
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "op_summary of another device than %1, which was planned first for this folder; "
                              "ignored"),
                    { scan.opSummaryNamed.value_or(std::string()) }));
            return false;
        }
    } else if (k != FileKind::ProfilerInfo && scan.hasKind(k)) {
        return false;
    }
    c.rank.files.push_back(plannedFile(f, k));
    if (k == FileKind::ProfilerInfo && !scan.infoFile) {
        scan.infoFile = f;
        scan.rankFromName = numberIn(name, kInfoName);
    }
    if (k == FileKind::ProfilerDb && !scan.rankFromDbName)
        scan.rankFromDbName = numberIn(name, kDbName);
    if (k == FileKind::ProfilerMetadata && !scan.metadataFile)
        scan.metadataFile = f;
    if (k == FileKind::OpSummary && !scan.opSummaryNamed) {
        scan.rankFromOpSummary = numberIn(name, kOpSummaryName);
        scan.opSummaryNamed = name;
    }
    return true;
}

// The files of the rank folder (and its ASCEND_PROFILER_OUTPUT) whose names give their kind, planned; returns those
// whose names do not.
std::vector<fs::path> Walker::addNamedFiles(RankScan& scan, const fs::path& rankDir, const fs::path& outDir)
{
    static const std::regex kStrategyName(R"(^parallel_strategy_(\d+)\.json$)");
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
                scan.strategies.emplace(*id, plannedFile(f, k));
        } else {
            addRankFile(scan, f, k);
        }
    }
    return unknown;
}

// Several Kineto traces in the folder: each planned as a rank of its own and taken out of unknown; false when the
// folder then holds nothing else. One Kineto trace: its rank id is noted.
bool Walker::splitKinetoTraces(RankScan& scan, std::vector<fs::path>& unknown, std::optional<std::size_t> besideSummary)
{
    const Candidate& c = scan.c;
    // Kineto traces are one file per rank: several in one folder are several ranks.
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
            k.rank.files.push_back(plannedFile(f, FileKind::KinetoTrace));
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
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "%1 PyTorch profiler (Kineto) traces in one folder: one rank each (distributedInfo.rank)"),
                { std::to_string(kinetoFiles.size()) }));
        unknown.erase(std::remove_if(unknown.begin(), unknown.end(),
                          [&](const fs::path& f) {
                              return std::find(kinetoFiles.begin(), kinetoFiles.end(), f) != kinetoFiles.end();
                          }),
            unknown.end());
        if (unknown.empty() && c.rank.files.empty())
            return false;
    } else if (kinetoFiles.size() == 1) {
        scan.rankFromKineto = sniffed(kinetoFiles.front())->rank;
    }
    return true;
}

// The files the name rules do not know, planned by their content.
void Walker::addSniffedFiles(RankScan& scan, const std::vector<fs::path>& unknown)
{
    for (const auto& f : unknown) {
        const auto& s = sniffed(f);
        if (!s || s->kind == FileKind::ClusterAnalysisDb)
            continue;
        const std::string path = pathText(fs::absolute(f));
        if (addRankFile(scan, f, s->kind))
            issue("info", path,
                issueText(QT_TRANSLATE_NOOP(
                              "ParseIssue", "file name not known to npuscope; by its content (%1) imported as %2"),
                    { s->why, fileKindName(s->kind) }));
        else
            issue("info", path,
                issueText(QT_TRANSLATE_NOOP(
                              "ParseIssue", "by its content (%1) a %2 file, but the folder already has one; ignored"),
                    { s->why, fileKindName(s->kind) }));
    }
}

// kernel_details.csv and an op_summary of the same tasks: one source per figure, the profiler's own file.
void Walker::preferKernelDetails(RankScan& scan)
{
    Candidate& c = scan.c;
    if (scan.hasKind(FileKind::KernelDetails) && scan.hasKind(FileKind::OpSummary)) {
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
}

// The rank id: from a file name, a rank_id field, profiler_metadata.json, the Kineto trace, the folder name or the
// one parallel_strategy file, else "default" (Detector assigns a free id); the rank's own parallel_strategy file
// joins it.
void Walker::nameRank(RankScan& scan, const std::string& folderName)
{
    Candidate& c = scan.c;
    if (!scan.rankFromName)
        scan.rankFromName = scan.rankFromDbName;
    if (!scan.rankFromName && scan.rankFromOpSummary && scan.hasKind(FileKind::OpSummary)) {
        scan.rankFromName = scan.rankFromOpSummary;
        issue("info", c.rank.path,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "rank %1 from the file name %2; in CANN output this number is the device id, which may "
                          "differ from the global rank"),
                { std::to_string(*scan.rankFromOpSummary), *scan.opSummaryNamed }));
    }

    if (scan.rankFromName) {
        c.rank.rank = *scan.rankFromName;
        c.rank.rankSource = "file_name";
        c.rankKnown = true;
    } else if (auto fromField = scan.infoFile ? rankFromInfoFile(*scan.infoFile) : std::nullopt) {
        c.rank.rank = *fromField;
        c.rank.rankSource = "rank_id_field";
        c.rankKnown = true;
    } else if (auto fromMetadata = scan.metadataFile ? rankFromMetadataFile(*scan.metadataFile) : std::nullopt) {
        c.rank.rank = *fromMetadata;
        c.rank.rankSource = "rank_id_field";
        c.rankKnown = true;
    } else if (scan.rankFromKineto && scan.hasKind(FileKind::KinetoTrace)) {
        c.rank.rank = *scan.rankFromKineto;
        c.rank.rankSource = "rank_id_field";
        c.rankKnown = true;
    } else {
        static const std::regex kRankInName(R"((?:^|[^A-Za-z])rank[_-]?(\d+))", std::regex::icase);
        std::smatch m;
        if (std::regex_search(folderName, m, kRankInName)) {
            c.rank.rank = parseInt(m[1].str()).value_or(0);
            c.rank.rankSource = "folder_name";
            c.rankKnown = true;
        } else if (c.rank.files.empty() || scan.strategies.size() == 1) {
            // parallel_strategy_{rank}.json names its rank when nothing else does.
            if (!scan.strategies.empty()) {
                c.rank.rank = scan.strategies.begin()->first;
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
        if (auto it = scan.strategies.find(c.rank.rank); it != scan.strategies.end()) {
            c.rank.files.push_back(it->second);
            scan.strategies.erase(it);
        }
    }
}

// The folder's candidates: its rank (one per device of a multi-device analysis db), or its facts-only rank; nullopt
// when the folder is skipped (no file npuscope imports, no parallel_strategy file either).
std::optional<std::vector<Candidate>> Walker::rankCandidates(
    RankScan& scan, const fs::path& rankDir, const fs::path& outDir)
{
    Candidate& c = scan.c;
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
                    outputExpected ? issueText(QT_TRANSLATE_NOOP("ParseIssue", " (%1 holds no file npuscope imports)"),
                        { std::string(kOutputDir) })
                                   : TrText() }));
        ranks.push_back(std::move(c));
    } else if (scan.strategies.empty()) {
        bool hasDb = false;
        for (const auto& f : filesIn(outDir))
            hasDb = hasDb || f.extension() == ".db";
        issue("warning", c.rank.path,
            hasDb ? issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "rank folder holds only .db files of a kind npuscope does not import; skipped"))
                  : issueText(QT_TRANSLATE_NOOP("ParseIssue", "rank folder holds no file npuscope imports; %1"),
                      { issueText(kLookedFor) }));
        return std::nullopt;
    }
    return ranks;
}

void Walker::addStrategyRanks(const std::map<int64_t, PlannedFile>& strategies, std::vector<Candidate>& ranks,
    const fs::path& rankDir, std::optional<std::size_t> besideSummary)
{
    // parallel_strategy_{n}.json of ranks without a profiler_info_{n}.json here: ranks known from it alone.
    for (auto& [id, file] : strategies) {
        const auto own = std::find_if(
            ranks.begin(), ranks.end(), [&, id = id](const Candidate& r) { return r.rankKnown && r.rank.rank == id; });
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
}

} // namespace npuscope::io::detect_detail

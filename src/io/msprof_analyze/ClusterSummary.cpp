// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/msprof_analyze/ClusterSummary.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/core/Decimal.h"
#include "npuscope/io/db/SqliteExport.h"
#include "npuscope/model/ClusterSummaryWriter.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

namespace fs = std::filesystem;

namespace npuscope::io {

namespace {

constexpr const char* kDbName = "cluster_analysis.db";

// "(0, 1, 2)" or "(0,1,2)" -> ranks.
void ranksFromStepCsv(const fs::path& file, std::set<int64_t>& out)
{
    CsvReader reader;
    std::string error;
    if (!reader.open(file.string(), error))
        return;
    std::vector<std::string> row;
    if (!reader.next(row))
        return;
    const CsvHeader header(row);
    const int type = header.find({ "Type" });
    const int index = header.find({ "Index" });
    if (type < 0 || index < 0)
        return;
    while (reader.next(row)) {
        if (trim(field(row, type)) != "rank")
            continue;
        if (auto r = parseInt(trim(field(row, index))))
            out.insert(*r);
    }
}

void ranksFromGroups(const fs::path& file, std::set<int64_t>& out)
{
    std::ifstream in(file);
    const auto j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return;
    auto addRanks = [&out](const nlohmann::json& set) {
        if (!set.is_array())
            return;
        for (const auto& r : set) {
            if (r.is_number_integer())
                out.insert(r.get<int64_t>());
        }
    };
    for (const char* key : { "collective", "p2p" }) {
        const auto it = j.find(key);
        if (it == j.end() || !it->is_array())
            continue;
        for (const auto& group : *it)
            addRanks(group);
    }
    if (const auto it = j.find("comm_group_parallel_info"); it != j.end() && it->is_array()) {
        for (const auto& entry : *it) {
            if (entry.is_object() && entry.contains("rank_set"))
                addRanks(entry["rank_set"]);
        }
    }
}

} // namespace

void ClusterSummary::ranksOfDb(const fs::path& file, std::set<int64_t>& out, std::vector<PlanIssue>& issues)
{
    try {
        SqliteExport db(file.string());
        if (db.hasTable("ClusterStepTraceTime") && !db.column("ClusterStepTraceTime", { "index" }).empty()) {
            auto st = db.db().prepare("SELECT \"" + db.column("ClusterStepTraceTime", { "index" }) + "\", "
                + db.columnOrNull("ClusterStepTraceTime", { "type" }) + " FROM ClusterStepTraceTime");
            while (st.step()) {
                if (st.optText(1) == "rank") {
                    if (auto r = parseInt(trim(st.text(0))))
                        out.insert(*r);
                }
            }
        }
        if (db.hasTable("CommunicationGroup") && !db.column("CommunicationGroup", { "rank_set" }).empty()) {
            auto st = db.db().prepare("SELECT rank_set FROM CommunicationGroup");
            while (st.step()) {
                const auto ranks = model::ClusterSummaryWriter::parseRanks(st.text(0));
                out.insert(ranks.begin(), ranks.end());
            }
        }
        if (db.hasTable("ClusterCommAnalyzerTime") && !db.column("ClusterCommAnalyzerTime", { "rank_id" }).empty()) {
            auto st = db.db().prepare("SELECT DISTINCT rank_id FROM ClusterCommAnalyzerTime");
            while (st.step()) {
                if (auto r = st.optInt(0))
                    out.insert(*r);
            }
        }
    } catch (const model::DbError& e) {
        issues.push_back({ "error", file.string(),
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot read cluster_analysis.db: %1"), { e.what() }) });
    }
}

bool ClusterSummary::isClusterFileName(const std::string& fileName)
{
    return fileName == "cluster_step_trace_time.csv" || fileName == "cluster_communication.json"
        || fileName == "cluster_communication_matrix.json" || fileName == kDbName
        || fileName == "communication_group.json";
}

std::optional<ClusterSummary> ClusterSummary::probe(const fs::path& dir)
{
    std::vector<fs::path> found;
    std::error_code ec;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
        std::error_code ec2;
        if (it->is_regular_file(ec2) && isClusterFileName(it->path().filename().string()))
            found.push_back(it->path());
    }
    if (found.empty())
        return std::nullopt;
    ClusterSummary s;
    s.path = fs::absolute(dir).lexically_normal().string();
    const bool hasDb
        = std::any_of(found.begin(), found.end(), [](const fs::path& p) { return p.filename() == kDbName; });
    std::string droppedText;
    for (const auto& f : found) {
        FileKind kind;
        if (!fileKindOf(f.filename().string(), kind))
            continue;
        if (hasDb && kind != FileKind::ClusterAnalysisDb) {
            droppedText += (droppedText.empty() ? "" : ", ") + f.filename().string();
            continue;
        }
        std::error_code sizeEc;
        const auto size = fs::file_size(f, sizeEc);
        s.files.push_back({ kind, fs::absolute(f).lexically_normal().string(), sizeEc ? 0 : size });
        if (kind == FileKind::ClusterStepTrace)
            ranksFromStepCsv(f, s.ranks);
        else if (kind == FileKind::ClusterAnalysisDb)
            ranksOfDb(f, s.ranks, s.issues);
        else if (kind == FileKind::ClusterCommunicationGroup)
            ranksFromGroups(f, s.ranks);
    }
    std::sort(
        s.files.begin(), s.files.end(), [](const PlannedFile& a, const PlannedFile& b) { return a.path < b.path; });
    if (!droppedText.empty())
        s.issues.push_back({ "info", s.path,
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue",
                    "cluster_analysis_output holds both cluster_analysis.db and text files; using the db, ignored: %1"),
                { droppedText }) });
    if (!s.files.empty() && std::all_of(s.files.begin(), s.files.end(), [](const PlannedFile& f) {
            return f.kind == FileKind::ClusterCommunicationGroup;
        }))
        s.issues.push_back({ "info", s.path,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                "cluster_analysis_output holds only communication_group.json: ranks and communication groups are "
                "loaded, but there is no step or communication data (no cluster_step_trace_time.csv, "
                "cluster_communication*.json or cluster_analysis.db)")) });
    return s;
}

} // namespace npuscope::io

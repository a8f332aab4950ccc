// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MindSporeLayout.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/HostIpsMapping.h"
#include "npuscope/io/detect/FolderEntries.h"
#include "npuscope/io/parse/JsonFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>

namespace fs = std::filesystem;

namespace npuscope::io {

namespace {

// The id inside an old MindSpore per-rank file name, for the kinds this layout plans.
std::optional<int64_t> idOf(const std::string& name, FileKind kind)
{
    static const std::regex kId(R"(_(\d+)(?:_detail_time\.csv|\.csv|\.json|\.txt)$)");
    std::smatch m;
    if (kind == FileKind::ProfilerInfo || kind == FileKind::MsStepTraceRaw || kind == FileKind::MsHcclRaw
        || kind == FileKind::MsFlopsSummary || kind == FileKind::MsOpFlops || kind == FileKind::MsFlopsScope
        || kind == FileKind::MsTimelineDisplay || kind == FileKind::MsPipelineRaw
        || kind == FileKind::MsPipelineProfiling || kind == FileKind::MsMinddataCpu || kind == FileKind::MsDeviceQueue
        || kind == FileKind::MsMemorySummary || kind == FileKind::MsMemoryDetails) {
        if (std::regex_search(name, m, kId))
            return parseInt(m[1].str());
    }
    return std::nullopt;
}

} // namespace

bool MindSporeLayout::isFlatProfilerDir(const fs::path& dir)
{
    for (const auto& f : folderEntries(dir, EntryType::Files)) {
        FileKind k;
        if (fileKindOf(f.filename().string(), k) && (k == FileKind::MsStepTraceRaw || k == FileKind::MsHcclRaw))
            return true;
    }
    return false;
}

std::vector<PlannedRank> MindSporeLayout::flatRanks(const fs::path& dir)
{
    std::map<int64_t, PlannedRank> byId;
    std::map<int64_t, bool> hasData;
    for (const auto& f : folderEntries(dir, EntryType::Files)) {
        FileKind k;
        const std::string name = f.filename().string();
        if (!fileKindOf(name, k))
            continue;
        const auto id = idOf(name, k);
        if (!id)
            continue;
        auto& r = byId[*id];
        r.rank = *id;
        r.rankSource = "file_name";
        r.path = fs::absolute(dir).lexically_normal().string();
        std::error_code ec;
        const auto size = fs::file_size(f, ec);
        r.files.push_back({ k, fs::absolute(f).lexically_normal().string(), ec ? 0 : size });
        if (k == FileKind::MsStepTraceRaw || k == FileKind::MsHcclRaw)
            hasData[*id] = true;
    }
    std::vector<PlannedRank> out;
    for (auto& [id, r] : byId) {
        if (hasData[id])
            out.push_back(std::move(r));
    }
    return out;
}

bool MindSporeLayout::isClusterJob(const fs::path& dir)
{
    std::error_code ec;
    return fs::is_directory(dir / "cluster_profiler", ec);
}

std::vector<PlannedRank> MindSporeLayout::jobRanks(const fs::path& dir, std::vector<PlanIssue>& issues)
{
    std::vector<PlannedRank> out;
    const std::string jobPath = fs::absolute(dir).lexically_normal().string();
    fs::path table = dir / "hccl.json";
    std::error_code ec;
    if (!fs::is_regular_file(table, ec)) {
        table.clear();
        for (const auto& f : folderEntries(dir, EntryType::Files)) {
            if (f.extension() == ".json") {
                table = f;
                break;
            }
        }
    }
    if (table.empty()) {
        issues.push_back({ "error", jobPath,
            issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "MindInsight cluster job without a rank table (hccl.json or any *.json)")) });
        return out;
    }
    std::ifstream in(table);
    const auto root = nlohmann::json::parse(in, nullptr, false);
    if (root.is_discarded() || !root.contains("server_list") || !root["server_list"].is_array()) {
        issues.push_back({ "error", table.string(),
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "rank table is not JSON with a server_list")) });
        return out;
    }
    std::map<std::string, std::string> mapping; // ip -> mapping id, in memory only
    if (const auto pairs = core::readHostIpsMapping(dir / "host_ips_mapping.txt")) {
        for (const auto& [ip, id] : *pairs)
            mapping[ip] = id;
    } else {
        issues.push_back({ "warning", jobPath,
            issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "no host_ips_mapping.txt; hosts cannot be matched to cluster_profiler folders")) });
    }
    // (mapping id, device id) -> rank id
    std::map<std::pair<std::string, int64_t>, int64_t> ranks;
    size_t tableRanks = 0;
    for (const auto& server : root["server_list"]) {
        if (!server.is_object() || !server.contains("device") || !server["device"].is_array())
            continue;
        const auto id = server.find("server_id");
        const auto it = mapping.find(id == server.end() ? std::string() : id->get<std::string>());
        for (const auto& device : server["device"]) {
            const auto deviceId = jsonInt(device, "device_id");
            const auto rankId = jsonInt(device, "rank_id");
            if (!deviceId || !rankId)
                continue;
            ++tableRanks;
            if (it != mapping.end())
                ranks[{ it->second, *deviceId }] = *rankId;
        }
    }
    for (const auto& hostDir : folderEntries(dir / "cluster_profiler", EntryType::Folders)) {
        const std::string hostId = hostDir.filename().string();
        const fs::path profiler = fs::is_directory(hostDir / "profiler", ec) ? hostDir / "profiler" : hostDir;
        for (auto& r : flatRanks(profiler)) {
            const auto it = ranks.find({ hostId, r.rank });
            if (it == ranks.end()) {
                issues.push_back({ "warning", r.path,
                    issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                  "device %1 of host %2 is not in the rank table; its files were not imported"),
                        { std::to_string(r.rank), hostId }) });
                continue;
            }
            r.rank = it->second;
            r.rankSource = "rank_table";
            r.files.push_back({ FileKind::MiRankTable, fs::absolute(table).lexically_normal().string(), 0 });
            out.push_back(std::move(r));
        }
    }
    if (out.size() < tableRanks)
        issues.push_back({ "info", jobPath,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "the rank table lists %1 ranks; files were found for %2"),
                { std::to_string(tableRanks), std::to_string(out.size()) }) });
    return out;
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MindSporeMiscImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/HostIpsMapping.h"
#include "npuscope/io/parse/JsonFile.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <string_view>

namespace fs = std::filesystem;

namespace npuscope::io {

bool MindSporeMiscImporter::runFlops(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    if (!root.is_object()) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "flops_summary: not a JSON object")));
        return false;
    }
    // The figures FlopsQuery reads, in the old form (FlopsParser) and the newer one (AscendFlopsGenerator), must be
    // numbers; anything else would silently drop out of the heatmap. Other keys are kept as they are.
    static constexpr std::array<std::string_view, 7> kFigures { "FLOPs", "FLOPS", "FLOPS_Utilization", "cube_FLOPs",
        "cube_FLOPS", "vec_FLOPs", "vec_FLOPS" };
    const std::string fileName = fs::path(ctx.file()).filename().string();
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (std::find(kFigures.begin(), kFigures.end(), it.key()) != kFigures.end() && !it->is_number())
            ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1: %2 is not a number: %3"),
                    { fileName, it.key(), it->dump() }));
        if (it->is_primitive())
            ctx.writer().addRankInfo(
                ctx.rankId(), "flops_summary." + it.key(), it->is_string() ? it->get<std::string>() : it->dump());
    }
    ctx.finish();
    return true;
}

bool MindSporeMiscImporter::runRankTable(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    std::map<std::string, std::string> mapping; // host ip -> mapping id (kept in memory only)
    if (const auto pairs = core::readHostIpsMapping(fs::path(ctx.file()).parent_path() / "host_ips_mapping.txt")) {
        for (const auto& [ip, id] : *pairs)
            mapping[ip] = id;
    } else {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "no host_ips_mapping.txt next to the rank table; hosts are shown by server index")));
    }
    const auto servers = root.find("server_list");
    if (servers == root.end() || !servers->is_array()) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "rank table has no server_list")));
        return false;
    }
    int serverIndex = 0;
    for (const auto& server : *servers) {
        ++serverIndex;
        if (!server.is_object() || !server.contains("device") || !server["device"].is_array())
            continue;
        for (const auto& device : server["device"]) {
            if (!device.is_object() || jsonInt(device, "rank_id") != ctx.rankId())
                continue;
            model::RankRow row;
            row.rankId = ctx.rankId();
            row.deviceId = jsonInt(device, "device_id");
            const std::string ip = server.value("server_id", std::string());
            if (const auto it = mapping.find(ip); it != mapping.end()) {
                row.host = it->second;
            } else {
                row.host = "server " + std::to_string(serverIndex);
                ctx.warning(std::nullopt,
                    issueText(QT_TRANSLATE_NOOP(
                                  "ParseIssue", "server #%1 of the rank table has no host_ips_mapping.txt entry"),
                        { std::to_string(serverIndex) }));
            }
            row.framework = "mindspore";
            ctx.writer().updateRank(row);
            ctx.writer().addRankInfo(ctx.rankId(), "rank_table.host_mapping_id", *row.host);
            ctx.finish();
            return true;
        }
    }
    ctx.warning(std::nullopt,
        issueText(
            QT_TRANSLATE_NOOP("ParseIssue", "rank %1 is not in the rank table"), { std::to_string(ctx.rankId()) }));
    ctx.finish();
    return true;
}

} // namespace npuscope::io

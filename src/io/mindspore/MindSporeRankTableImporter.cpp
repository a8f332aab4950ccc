// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MindSporeRankTableImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/HostIpsMapping.h"
#include "npuscope/io/parse/JsonFile.h"

#include <simdjson.h>

#include <filesystem>
#include <map>
#include <string_view>

namespace fs = std::filesystem;

namespace npuscope::io {

namespace {

// The rank's entry of a rank table: its device and its server (address and 1-based place in server_list).
struct RankTableEntry {
    std::optional<int64_t> deviceId;
    std::string serverId;
    int serverIndex = 0;
};

// An On Demand value as jsonInt reads a member: an integer, or a string holding one.
std::optional<int64_t> intOf(simdjson::ondemand::value v)
{
    const simdjson::ondemand::json_type type = v.type();
    if (type == simdjson::ondemand::json_type::string)
        return parseInt(std::string_view(v.get_string()));
    if (type == simdjson::ondemand::json_type::number) {
        int64_t n = 0;
        if (v.get_int64().get(n) == simdjson::SUCCESS)
            return n;
    }
    return std::nullopt;
}

enum class Lookup { Found, Absent, Unreadable };

// Every rank of a job reads the one rank table (a 1,024-rank job: 1,024 reads of a 100 KB file, which as DOMs cost
// seconds), so the table is walked with simdjson On Demand up to the rank's device and nothing is built. Unreadable
// (not JSON, no server_list array, any value of another shape): the caller reads it as a DOM, which reports why.
Lookup findRank(const std::string& text, int64_t rank, RankTableEntry& out)
{
    try {
        simdjson::ondemand::parser parser;
        const simdjson::padded_string padded(text.data(), text.size());
        auto doc = parser.iterate(padded);
        int serverIndex = 0;
        for (auto server : doc.find_field_unordered("server_list").get_array()) {
            ++serverIndex;
            simdjson::ondemand::object object;
            if (server.get_object().get(object) != simdjson::SUCCESS)
                return Lookup::Unreadable;
            // The server's address first: its devices are then read to the end or left for the next server.
            std::string_view serverId;
            if (object.find_field_unordered("server_id").get_string().get(serverId) != simdjson::SUCCESS)
                serverId = {};
            const std::string address(serverId);
            simdjson::ondemand::array devices;
            if (object.find_field_unordered("device").get_array().get(devices) != simdjson::SUCCESS)
                continue;
            for (auto device : devices) {
                simdjson::ondemand::object d;
                if (device.get_object().get(d) != simdjson::SUCCESS)
                    return Lookup::Unreadable;
                simdjson::ondemand::value rankValue;
                if (d.find_field_unordered("rank_id").get(rankValue) != simdjson::SUCCESS || intOf(rankValue) != rank)
                    continue;
                simdjson::ondemand::value deviceValue;
                if (d.find_field_unordered("device_id").get(deviceValue) == simdjson::SUCCESS)
                    out.deviceId = intOf(deviceValue);
                out.serverId = address;
                out.serverIndex = serverIndex;
                return Lookup::Found;
            }
        }
        return Lookup::Absent;
    } catch (const simdjson::simdjson_error&) {
        return Lookup::Unreadable;
    }
}

// The same lookup on the DOM, with the errors it can name.
Lookup findRankInDom(ImportContext& ctx, int64_t rank, RankTableEntry& out)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return Lookup::Unreadable;
    const auto servers = root.find("server_list");
    if (servers == root.end() || !servers->is_array()) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "rank table has no server_list")));
        return Lookup::Unreadable;
    }
    int serverIndex = 0;
    for (const auto& server : *servers) {
        ++serverIndex;
        if (!server.is_object() || !server.contains("device") || !server["device"].is_array())
            continue;
        for (const auto& device : server["device"]) {
            if (!device.is_object() || jsonInt(device, "rank_id") != rank)
                continue;
            out.deviceId = jsonInt(device, "device_id");
            const auto id = server.find("server_id");
            out.serverId = id != server.end() && id->is_string() ? id->get<std::string>() : std::string();
            out.serverIndex = serverIndex;
            return Lookup::Found;
        }
    }
    return Lookup::Absent;
}

} // namespace

bool MindSporeRankTableImporter::run(ImportContext& ctx)
{
    std::string text;
    if (!readTextFile(ctx, text))
        return false;
    RankTableEntry entry;
    Lookup found = findRank(text, ctx.rankId(), entry);
    if (found == Lookup::Unreadable) {
        entry = {};
        found = findRankInDom(ctx, ctx.rankId(), entry);
        if (found == Lookup::Unreadable)
            return false;
    }
    if (found == Lookup::Absent) {
        ctx.warning(std::nullopt,
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "rank %1 is not in the rank table"), { std::to_string(ctx.rankId()) }));
        ctx.finish();
        return true;
    }
    std::map<std::string, std::string> mapping; // host ip -> mapping id (kept in memory only)
    if (const auto pairs = core::readHostIpsMapping(fs::path(ctx.file()).parent_path() / "host_ips_mapping.txt")) {
        for (const auto& [ip, id] : *pairs)
            mapping[ip] = id;
    } else {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "no host_ips_mapping.txt next to the rank table; hosts are shown by server index")));
    }
    model::RankRow row;
    row.rankId = ctx.rankId();
    row.deviceId = entry.deviceId;
    if (const auto it = mapping.find(entry.serverId); it != mapping.end()) {
        row.host = it->second;
    } else {
        row.host = "server " + std::to_string(entry.serverIndex);
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "server #%1 of the rank table has no host_ips_mapping.txt entry"),
                { std::to_string(entry.serverIndex) }));
    }
    row.framework = "mindspore";
    ctx.writer().updateRank(row);
    ctx.writer().addRankInfo(ctx.rankId(), "rank_table.host_mapping_id", *row.host);
    ctx.finish();
    return true;
}

} // namespace npuscope::io

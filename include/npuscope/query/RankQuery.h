// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

struct RankFile {
    std::string kind; // step_trace_time, trace_view, ...
    std::string path; // absolute path
    std::string status; // planned | loaded | failed | skipped
};

struct RankInfo {
    int64_t rank = 0;
    std::optional<int64_t> device;
    std::string path;
    std::string rankSource; // file_name | rank_id_field | folder_name | default
    // host: the MindInsight host_ips_mapping.txt id by default (the model never stores a host IP); the real host
    // IP only when asked for with HostDisplay::RealIp.
    std::optional<std::string> host, framework, profilerLevel, version, cannVersion;
    std::optional<int64_t> worldSize;
    std::vector<RankFile> files;
};

// How hosts are named. The mapping exists so real host IPs are not exposed: MappingId is the default everywhere, and
// RealIp is a user opt-in (npuscope-cli --show-host-ips, View > Show host IPs).
enum class HostDisplay { MappingId, RealIp };

class RankQuery {
public:
    // All ranks ordered by rank id, with their files. With HostDisplay::RealIp, a host named by a mapping id is
    // replaced by its IP, read at query time from the host_ips_mapping.txt next to the rank's rank table file
    // (rank_file kind rank_table); a mapping id without an entry stays as it is.
    static std::vector<RankInfo> ranks(model::Database& db, HostDisplay hosts = HostDisplay::MappingId);
    // rank -> host as ranks() names it, only for ranks with a known host.
    static std::map<int64_t, std::string> hosts(model::Database& db, HostDisplay display = HostDisplay::MappingId);
    static int64_t rankCount(model::Database& db);
    // Every rank id, ascending.
    static std::vector<int64_t> rankIds(model::Database& db);
};

struct ParseIssue {
    int64_t id = 0;
    std::string severity; // error | warning | info
    std::optional<int64_t> rank;
    std::optional<std::string> file;
    std::optional<int64_t> line;
    std::string message; // English, as the CLI prints it
    std::optional<std::string> messageTemplate; // parse_issue.message_template (TrText JSON), for the GUI to translate
};

class IssueQuery {
public:
    // All parse issues: those without a rank first, then by rank, each rank's in the order they were written
    // (stable across runs although ranks are parsed on several threads).
    static std::vector<ParseIssue> issues(model::Database& db);
    // The issues of one rank, in the order they were written (a view reading one rank after another's import must not
    // read every rank's issues each time: quadratic over "Expand all ranks").
    static std::vector<ParseIssue> rankIssues(model::Database& db, int64_t rank);
    // Number of issues with severity warning or error.
    static int64_t problemCount(model::Database& db);
};

} // namespace npuscope::query

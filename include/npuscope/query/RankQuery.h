// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

struct RankFile {
    std::string kind;   // step_trace_time, trace_view, ...
    std::string path;   // absolute path
    std::string status; // planned | loaded | failed | skipped
};

struct RankInfo {
    int64_t rank = 0;
    std::optional<int64_t> device;
    std::string path;
    std::string rankSource; // file_name | rank_id_field | folder_name | default
    std::optional<std::string> host, framework, profilerLevel, version, cannVersion;
    std::optional<int64_t> worldSize;
    std::vector<RankFile> files;
};

class RankQuery {
public:
    // All ranks ordered by rank id, with their files.
    static std::vector<RankInfo> ranks(model::Database& db);
    static int64_t rankCount(model::Database& db);
};

struct ParseIssue {
    int64_t id = 0;
    std::string severity; // error | warning | info
    std::optional<int64_t> rank;
    std::optional<std::string> file;
    std::optional<int64_t> line;
    std::string message;
};

class IssueQuery {
public:
    // All parse issues in insertion order.
    static std::vector<ParseIssue> issues(model::Database& db);
    // Number of issues with severity warning or error.
    static int64_t problemCount(model::Database& db);
};

} // namespace npuscope::query

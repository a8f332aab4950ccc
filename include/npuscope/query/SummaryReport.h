// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/RankQuery.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

namespace npuscope::query {

// The "npuscope.summary/1" document (stable contract: fields are added, never renamed).
// Absent values are null, never 0; step values are µs; link src/dst are global ranks.
// Ranks carry "host": the host_ips_mapping.txt id (null when unknown); the real host IP only with
// HostDisplay::RealIp. Steps carry total_us, iteration_interval_us, fp_bp_us and tail_us, the old-generation
// iteration trace (null for every other source). "stages" holds msprof-analyze's pipeline stage rows ({stage, ranks,
// step, computing_us .. preparing_us}; [] when there are none); "listed_groups" the communication_group.json rank
// sets without a hash ({kind, ranks, ranks_source}; [] when none).
class SummaryReport {
public:
    // Writes the document to out as it is read from db (dump(2) formatting, no trailing newline): memory stays that of
    // one link, however many links there are. Throws what nlohmann throws for a string that is not UTF-8.
    static void write(std::ostream& out, model::Database& db, HostDisplay hosts = HostDisplay::MappingId);
    // The same document, parsed back from write() (for callers that inspect it; costly on a big cluster).
    static nlohmann::ordered_json json(model::Database& db, HostDisplay hosts = HostDisplay::MappingId);
    // Human-readable tables: ranks, steps, cluster statistics, groups, slowest links, issues. The host column and
    // the iteration trace columns appear only when the data has them.
    static std::string text(model::Database& db, HostDisplay hosts = HostDisplay::MappingId);
};

} // namespace npuscope::query

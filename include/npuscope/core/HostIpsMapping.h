// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace npuscope::core {

// host_ips_mapping.txt of a MindInsight cluster_profiler job (next to its rank table): one "host_ip mapping_id" per
// line; lines with fewer than two words are ignored, as MindInsight does. The (ip, id) pairs in file order, nullopt
// when the file cannot be opened. The importer keeps only the ids (hosts are shown by them); the real IPs are read
// again only when the user asks for them.
std::optional<std::vector<std::pair<std::string, std::string>>> readHostIpsMapping(const std::filesystem::path& file);

} // namespace npuscope::core

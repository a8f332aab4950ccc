// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/HostIpsMapping.h"

#include <fstream>
#include <sstream>

namespace npuscope::core {

std::optional<std::vector<std::pair<std::string, std::string>>> readHostIpsMapping(const std::filesystem::path& file)
{
    std::ifstream in(file);
    if (!in)
        return std::nullopt;
    std::vector<std::pair<std::string, std::string>> out;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string ip;
        std::string id;
        if (words >> ip >> id)
            out.emplace_back(std::move(ip), std::move(id));
    }
    return out;
}

} // namespace npuscope::core

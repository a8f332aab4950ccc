// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/RankFileStatus.h"

#include <array>

namespace npuscope::model {

namespace {

constexpr std::array kStatuses { RankFileStatus::Planned, RankFileStatus::Skipped, RankFileStatus::Loading,
    RankFileStatus::Loaded, RankFileStatus::Failed };

} // namespace

const char* rankFileStatusName(RankFileStatus status)
{
    switch (status) {
    case RankFileStatus::Planned:
        return "planned";
    case RankFileStatus::Skipped:
        return "skipped";
    case RankFileStatus::Loading:
        return "loading";
    case RankFileStatus::Loaded:
        return "loaded";
    case RankFileStatus::Failed:
        return "failed";
    }
    return "failed";
}

std::optional<RankFileStatus> rankFileStatusFromName(std::string_view name)
{
    for (const RankFileStatus s : kStatuses) {
        if (name == rankFileStatusName(s))
            return s;
    }
    return std::nullopt;
}

} // namespace npuscope::model

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/RankFileStatus.h"

#include "npuscope/core/EnumNames.h"

namespace npuscope::model {

namespace {

constexpr EnumName<RankFileStatus> kStatusNames[] { { RankFileStatus::Planned, "planned" },
    { RankFileStatus::Skipped, "skipped" }, { RankFileStatus::Loading, "loading" },
    { RankFileStatus::Loaded, "loaded" }, { RankFileStatus::Failed, "failed" } };

} // namespace

const char* rankFileStatusName(RankFileStatus status) { return nameOf(kStatusNames, status, "failed"); }

std::optional<RankFileStatus> rankFileStatusFromName(std::string_view name) { return valueOf(kStatusNames, name); }

} // namespace npuscope::model

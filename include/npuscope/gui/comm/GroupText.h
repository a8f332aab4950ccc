// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::gui {

// How the communication views name a rank list and a group in a cell or a label, where a 20-digit hash tells the user
// nothing: "0–7" for a run of ranks, "0,64,128,…" for the first ranks of a spread group.
QString firstRanksText(std::vector<int64_t> ranks);
// "dp 0,8,16,…": the group's name (else "group") and its first ranks; without ranks the name and the hash's last six
// digits ("pp …801189"), and the bare hash when there is no name either. The whole hash belongs in a tooltip.
QString groupShortText(const std::optional<std::string>& name, const std::string& hash, const std::vector<int64_t>& ranks);

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string_view>

namespace npuscope::model {

// rank_file.status: where a planned input file is in its import. The stored strings are part of the
// model (queries and the summary read them); resources/schema.sql lists them.
//   Planned: a deferred file's row in a worker model before its import finished (never left after a load)
//   Skipped: deferred (timeline, kernel details), not imported yet; Loader::loadTimeline imports it
//   Loading: claimed by a running deferred import (never left after it returns)
//   Loaded / Failed: imported, or its importer reported failure (parse_issue rows say why)
enum class RankFileStatus { Planned, Skipped, Loading, Loaded, Failed };

// The stored string: "planned", "skipped", "loading", "loaded", "failed".
const char* rankFileStatusName(RankFileStatus status);
// The status a stored string names; nullopt for any other text.
std::optional<RankFileStatus> rankFileStatusFromName(std::string_view name);

} // namespace npuscope::model

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/TrText.h"
#include "npuscope/io/detect/LoadPlan.h"

#include <optional>
#include <string>

namespace npuscope::load {

// A cheap look at the first bytes of a deferred file (a timeline or kernel / memory table the summary does not
// parse) when the summary is loaded, so a file that only has the right name (garbage in trace_view.json, a
// kernel_details.csv that is not CSV) is reported at once, not when a view first needs it. Any thread.
class DeferredSniff {
public:
    // Why the file cannot be its kind ("not JSON: starts with byte 0x89 at byte 0"), nullopt when it may be (or
    // cannot be read here: the importer reports that when it runs). Gzipped and db files are not looked at.
    static std::optional<TrText> problem(const io::PlannedFile& file);
    // A JSON timeline whose last bytes are not the end of a document (a copy or a run cut off mid-write): the warning
    // that says so, with the file's size; nullopt for a complete one. Reads the last 256 bytes only.
    static std::optional<TrText> truncation(const io::PlannedFile& file);
};

} // namespace npuscope::load

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/LoadPlan.h"
#include "npuscope/model/Database.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>

namespace npuscope::io {

struct LoadOptions {
    bool loadTimelines = true; // import trace_view.json (the large per-rank files)
};

struct LoadProgress {
    double fraction = 0;     // 0..1 over the planned bytes
    std::string currentFile; // file being imported
    int ranksDone = 0;
    int ranksTotal = 0;
};

// Runs a LoadPlan into a new in-memory model: rank rows, every importer, plan issues as
// parse_issue rows, group resolution (local -> global link ranks), indexes. Never throws for bad
// input; a file that fails leaves the others loaded. May be called from any thread; the returned
// Database then belongs to the caller. Returns nullptr only when cancelled.
class Loader {
public:
    using ProgressFn = std::function<void(const LoadProgress&)>;
    static std::unique_ptr<model::Database> load(const LoadPlan& plan, const LoadOptions& options = {},
        const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);
};

} // namespace npuscope::io

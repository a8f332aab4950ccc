// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/CriticalPath.h"
#include "npuscope/query/advice/Finding.h"

#include <string>
#include <string_view>
#include <vector>

namespace npuscope::query::advice {

// The self-contained HTML advice report (`npuscope-cli advise --html FILE`, GUI File > Export report): one file with
// inline CSS and inline SVG charts, no script and no external resource, XHTML-compatible markup (every element
// closed, only XML entities) so it also parses as XML. Sections: the input paths, generation time and npuscope
// version; an overview (step split per rank as stacked bars, the slowest ranks, the slowest links); the critical path
// of every step (query::CriticalPath: length, shares, the path by rank, the communication ops with the most serial
// time) when the caller computed it; every finding with its threshold, value, evidence table and a value-vs-threshold
// chart; the input (rank folders, files, parse issues).
// Every string taken from the data is escaped. Caller holds the database lock or owns the database; any thread.
class HtmlReport {
public:
    struct Input {
        std::vector<std::string> paths; // the paths the user opened
        std::string generatedAt; // empty: now, UTC
        bool skipFirstStep = true; // as the findings were computed: step means leave the warm-up step out
        // The critical path of every step on its dependency graph (both set, or the section says it was not
        // computed): `npuscope-cli advise --html` loads the step kernels for it as `critical-path` does.
        const DependencyGraph* graph = nullptr;
        const std::vector<CriticalPathStep>* criticalPath = nullptr;
    };
    // The path by rank lists at most this many stays per step (the longest, in time order).
    static constexpr size_t kPathStays = 40;
    // At most this many ranks get a bar each in the step split; beyond it the slowest kSlowestBars and the mean.
    static constexpr size_t kAllBarsUpTo = 64;
    static constexpr size_t kSlowestBars = 32;

    static std::string build(model::Database& db, const std::vector<Finding>& findings, const Input& input);
    // &, <, >, " and ' as XML entities.
    static std::string escape(std::string_view text);
};

} // namespace npuscope::query::advice

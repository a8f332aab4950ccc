// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/ParallelLayout.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/advice/AdviceQuery.h"
#include "npuscope/query/advice/Finding.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npuscope::query::advice {

// What every rule reads, computed once per AdviceQuery::run: the parallel layout and its comparable rank sets, and
// each rank's step breakdown averaged over its steps. Internal to the advice rules.
struct AdviceContext {
    model::Database& db;
    AdviceOptions options;
    ParallelLayout layout;
    // Loaded ranks doing the same work: same pipeline stage and same TP position (ascending ranks), by (pp, tp).
    std::vector<std::vector<int64_t>> comparable;
    std::map<int64_t, int> stageOf; // loaded rank -> pp index
    std::vector<StepBreakdown> averaged; // StepQuery::averaged(db, options.skipFirstStep)

    static AdviceContext build(model::Database& db, const AdviceOptions& options);
    // The averaged row of a rank, nullptr when it has none.
    const StepBreakdown* averagedRow(int64_t rank) const;
};

// printf into a std::string (the messages carry figures).
std::string formatText(const char* format, ...) __attribute__((format(printf, 1, 2)));
// v with the given decimals, as "%.<decimals>f".
std::string fixed(double v, int decimals);
// A template of the rules: source marked QT_TRANSLATE_NOOP("Advice", ...) at the call, with its arguments.
FindingText text(const char* source, std::vector<FindingText> args = {});
// parts one after another, each pair joined by separator: a template of two places marked
// QT_TRANSLATE_NOOP("Advice", ...) at the call ("%1, %2" for a list, "%1; %2" for clauses, "%1 %2" for sentences), so
// that a translation joins them with its own punctuation (zh_CN "%1、%2", "%1；%2", "%1%2"); English as written.
FindingText joined(const std::vector<FindingText>& parts, const char* separator);
// "0, 3, 5" (at most limit ranks, then ", … (n ranks)").
FindingText rankList(const std::vector<int64_t>& ranks, size_t limit = 8);

} // namespace npuscope::query::advice

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/CommAnalysisQuery.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::test {

// The communication figures of CommAnalysisQuery computed straight from SQL, independently of CommOpIndex: the
// oracle the in-memory queries (which the CLI and the views call) are tested against. Same rows, same order of
// floating-point sums, so results compare exactly. The caller holds the database lock.
class CommSqlOracle {
public:
    static std::vector<query::RankDuration> durations(model::Database& db, const query::CommSelection& sel);
    static std::vector<query::PacketDistribution> packets(
        model::Database& db, const query::CommSelection& sel, std::optional<int64_t> rank = std::nullopt);
    static query::OpStrip opStrip(model::Database& db, const query::CommSelection& sel);
    // The link table's rows, one query: the links the filter selects (per-type "total" slots and 2023 real-op keys,
    // or the file's "Total Op Info" rows when the selection has nothing else), a link written by both ends kept
    // once (the sender's copy), one row per (step, group, op type, src, dst) summed, with the bottom1 op of lowest
    // bandwidth as the slowest op. Unordered (the caller keys them); sums in SQL's order, so compare sizes with a
    // tolerance.
    static std::vector<query::LinkRow> linkTable(model::Database& db, const query::LinkFilter& filter);
    // typeSlots: each type's slots in ascending order (not the chooser's order).
    static query::MatrixOpChoices matrixOps(model::Database& db, const query::CommSelection& sel);
    // The matrix (docs/metrics.md "Matrix cell", "Axis order"): SQL selects the links, applies the local-rank policy
    // and keeps one link per (step, group, op type, src, dst), the sender's copy of a link both ends wrote. A cell
    // sums its links in the order the index does (its runs sorted by std::sort from (step, row) order), so sizes
    // compare exactly; the slowest cell and the axis follow from the cells and the groups.
    static query::CommMatrix matrix(model::Database& db, const query::CommSelection& sel,
        const query::MatrixOp& op = {}, const std::string& orderBy = "auto");
};

} // namespace npuscope::test

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/model/Rows.h"

#include <optional>
#include <string>

namespace npuscope::io {

// Parts of a communication op key "hcom_allReduce__586_0_1@17522688603477080586".
struct OpKey {
    std::string name; // before '@'
    std::optional<std::string> groupHash; // after '@'
    std::optional<std::string> type; // "allReduce" from "hcom_allReduce__..."
};
OpKey parseOpKey(const std::string& key);

// A communication_matrix op key's parts on a link row: matrix_op (the key before '@'); op_type lower case when the key
// is a real op name (2023 builds), else "allreduce" and slot "top1" of "allreduce-top1"; slot "total" for "Total Op
// Info". groupHash is left to the caller (the text and db exports write it differently).
void setMatrixOp(model::CommLinkRow& row, const std::string& opKey, const OpKey& parsed);
// An op's key parts on its comm_op row when the name and the group come in separate cells (the db exports): op_key =
// "op@groupHash" (op alone without a group hash), op_name and op_type parsed from it. Set row.groupHash first.
void setOpKey(model::CommOpRow& row, const std::string& op);

// communication.json: per step, p2p/collective, one comm_op row per op (and "Total Op Info"),
// its per-transport bandwidth rows and packet size distribution. ms -> ns, µs start -> epoch ns.
class CommunicationImporter {
public:
    static bool run(ImportContext& ctx);
};

// communication_matrix.json: both op-key generations ("allreduce-top1@hash" and real op names),
// link keys "src-dst" (or "src_dst") kept as group-local ranks; GroupResolver maps them to global.
class CommunicationMatrixImporter {
public:
    static bool run(ImportContext& ctx);
    // Lean mode (load::MemoryGuard): the per-op slots (top1, middle, bottom..) are left out, since the op type's
    // "total" slot of the same group aggregates them; totals, "Total Op Info" and real-op keys (2023 builds, which
    // have no total slot) are kept, so every figure of the text summary stays.
    static bool runLean(ImportContext& ctx);

private:
    static bool read(ImportContext& ctx, bool lean);
};

} // namespace npuscope::io

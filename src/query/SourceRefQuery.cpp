// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/SourceRefQuery.h"
#include "npuscope/model/ReadRow.h"

namespace npuscope::query {

std::optional<SliceArgsRef> SourceRefQuery::sliceArgs(model::Database& db, int64_t sliceId)
{
    const auto st = model::firstRow(db,
        "SELECT s.args, s.args_offset, s.args_len, f.path, f.size_bytes, f.mtime_ns FROM slice s "
        "LEFT JOIN source_file f ON f.id = s.args_file_id WHERE s.id = ?1",
        sliceId);
    if (!st)
        return std::nullopt;
    SliceArgsRef result;
    if (!st->isNull(0)) {
        result.json = st->text(0);
        return result;
    }
    if (st->isNull(1) || st->isNull(2))
        return result; // no args
    if (st->isNull(3)) {
        result.brokenRef = true;
        return result;
    }
    result.ref = SourceRef { st->text(3), st->int64(4), st->int64(5), st->int64(1), st->int64(2) };
    return result;
}

std::optional<KernelPmuRef> SourceRefQuery::kernelPmu(model::Database& db, int64_t kernelRowId)
{
    const auto st = model::firstRow(db,
        "SELECT k.pmu_json, f.path, f.size_bytes, f.mtime_ns, k.pmu_offset, k.pmu_len FROM kernel k "
        "LEFT JOIN source_file f ON f.id = k.pmu_file_id WHERE k.rowid = ?1",
        kernelRowId);
    if (!st)
        return std::nullopt;
    KernelPmuRef result;
    if (!st->isNull(0))
        result.json = st->text(0);
    else if (!st->isNull(1) && !st->isNull(4) && !st->isNull(5))
        result.ref = SourceRef { st->text(1), st->int64(2), st->int64(3), st->int64(4), st->int64(5) };
    return result;
}

} // namespace npuscope::query

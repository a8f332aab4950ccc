// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/SourceRefQuery.h"
#include "npuscope/model/ReadRow.h"

namespace npuscope::query {

namespace {

// A detail kept in the model (column 0) or by reference to its input file: columns 1 and 2 its byte offset and length,
// 3-5 the file's path, size and mtime (NULL when the source_file row is missing). nullopt when the row is not found.
template <typename Ref> std::optional<Ref> readRef(model::Database& db, std::string_view sql, int64_t id)
{
    const auto st = model::firstRow(db, sql, id);
    if (!st)
        return std::nullopt;
    Ref result;
    if (!st->isNull(0)) {
        result.json = st->text(0);
        return result;
    }
    if (st->isNull(1) || st->isNull(2))
        return result; // no detail kept
    if (st->isNull(3)) {
        if constexpr (requires { result.brokenRef; })
            result.brokenRef = true;
        return result;
    }
    result.ref = SourceRef { st->text(3), st->int64(4), st->int64(5), st->int64(1), st->int64(2) };
    return result;
}

} // namespace

std::optional<SliceArgsRef> SourceRefQuery::sliceArgs(model::Database& db, int64_t sliceId)
{
    return readRef<SliceArgsRef>(db,
        "SELECT s.args, s.args_offset, s.args_len, f.path, f.size_bytes, f.mtime_ns FROM slice s "
        "LEFT JOIN source_file f ON f.id = s.args_file_id WHERE s.id = ?1",
        sliceId);
}

std::optional<KernelPmuRef> SourceRefQuery::kernelPmu(model::Database& db, int64_t kernelRowId)
{
    return readRef<KernelPmuRef>(db,
        "SELECT k.pmu_json, k.pmu_offset, k.pmu_len, f.path, f.size_bytes, f.mtime_ns FROM kernel k "
        "LEFT JOIN source_file f ON f.id = k.pmu_file_id WHERE k.rowid = ?1",
        kernelRowId);
}

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/SourceDetails.h"

#include "npuscope/io/db/DbSliceArgs.h"
#include "npuscope/io/parse/SourceFile.h"
#include "npuscope/io/torch_npu/KernelDetailsImporter.h"
#include "npuscope/query/SourceRefQuery.h"

namespace npuscope::load {

SliceArgs SourceDetails::sliceArgs(model::Database& db, int64_t sliceId)
{
    SliceArgs result;
    auto where = query::SourceRefQuery::sliceArgs(db, sliceId);
    if (!where)
        return result;
    if (where->json) {
        result.json = std::move(where->json);
        return result;
    }
    if (!where->ref) {
        if (where->brokenRef)
            result.error = kArgsUnavailable;
        return result; // no args
    }
    const query::SourceRef& ref = *where->ref;
    const io::FileStamp stamp { ref.sizeBytes, ref.mtimeNs };
    // A db export row (negative length, see io::DbSliceArgs): built from the .db when asked, if it is unchanged.
    if (const auto kind = io::DbSliceArgs::decodeLength(ref.length)) {
        if (io::SourceFile::stamp(ref.path) == stamp)
            result.json = io::DbSliceArgs::read(ref.path, *kind, ref.offset);
        if (!result.json)
            result.error = kArgsUnavailable;
        return result;
    }
    std::optional<std::string> text;
    if (ref.offset >= 0 && ref.length >= 2)
        text = io::SourceFile::readRange(
            ref.path, stamp, static_cast<uint64_t>(ref.offset), static_cast<uint64_t>(ref.length));
    // A range that no longer frames an object means the bytes are not those imported.
    if (!text || text->front() != '{' || text->back() != '}') {
        result.error = kArgsUnavailable;
        return result;
    }
    result.json = std::move(text);
    return result;
}

std::optional<query::SliceDetails> SourceDetails::slice(model::Database& db, int64_t sliceId)
{
    auto d = query::TimelineQuery::details(db, sliceId);
    if (!d)
        return d;
    auto args = sliceArgs(db, sliceId);
    d->argsJson = std::move(args.json).value_or("");
    d->argsError = std::move(args.error);
    return d;
}

std::optional<nlohmann::ordered_json> SourceDetails::kernelPmu(
    model::Database& db, int64_t kernelRowId, std::string* error)
{
    auto fail = [error](std::string message) -> std::optional<nlohmann::ordered_json> {
        if (error)
            *error = std::move(message);
        return std::nullopt;
    };
    const auto where = query::SourceRefQuery::kernelPmu(db, kernelRowId);
    if (!where)
        return fail("no such kernel row");
    if (where->json) {
        auto j = nlohmann::ordered_json::parse(*where->json, nullptr, false);
        return j.is_discarded() ? fail("pmu_json is not JSON") : std::optional<nlohmann::ordered_json>(std::move(j));
    }
    if (!where->ref)
        return fail("no PMU columns");
    const query::SourceRef& ref = *where->ref;
    return io::KernelDetailsImporter::pmuOfRecord(
        ref.path, io::FileStamp { ref.sizeBytes, ref.mtimeNs }, ref.offset, ref.length, error);
}

} // namespace npuscope::load

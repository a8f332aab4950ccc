// SPDX-License-Identifier: Apache-2.0
// The trace_view.json import's entry points: TraceViewImporter::run() opens the file, cuts it into blocks that are
// parsed on every core and merged in file order (TraceViewBlocks.cpp), lets TraceViewErrors.cpp handle a block that
// did not parse, and has the merged data written (TraceViewWrite.cpp); parseOnly() and walkRawOnly() are the benchmark
// floors. What the parts share is in TraceViewParts.h.
#include "npuscope/io/torch_npu/TraceViewImporter.h"

#include "TraceViewParts.h"

#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/parse/SimdjsonSupport.h"
#include "npuscope/io/parse/SourceFile.h"

#include <cerrno>
#include <cstdio>
#include <exception>
#include <memory>

#include <sys/stat.h>
#include <unistd.h>

namespace npuscope::io {

using namespace trace_view;

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

bool runImpl(ImportContext& ctx, const TraceViewImporter::Options& options)
{
    errno = 0;
    FilePtr file(std::fopen(ctx.file().c_str(), "rb"));
    if (!file) {
        ctx.error(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot open trace file: %1"), { errnoText(errno) }));
        return false;
    }
    const int fd = ::fileno(file.get());
    const auto stamp = SourceFile::stamp(file.get());
    struct stat st { };
    if (::fstat(fd, &st) != 0) {
        ctx.error(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot read trace file: %1"), { errnoText(errno) }));
        return false;
    }
    const auto size = static_cast<uint64_t>(st.st_size);
    if (size == 0) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "file is empty")));
        return false;
    }
    const Layout layout = detectLayout(fd, size);
    std::vector<Span> spans = splitBlocks(fd, layout, options.blockBytes);

    Importer importer(ctx, options);
    bool ok = true;
    bool cancelled = false;
    for (std::size_t from = 0;;) {
        BlockOutcome failed;
        const std::size_t f = parseBlocks(fd, layout, spans, from, ctx, options, importer, failed);
        if (f == spans.size())
            break;
        if (failed.stop == BlockStop::Cancelled) {
            cancelled = true;
            break;
        }
        ok = false;
        if (failed.readError) {
            ctx.error(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "read error at byte %1: %2"),
                    { std::to_string(failed.errorOffset.value_or(0)), errnoText(failed.readErrno) }));
            break;
        }
        // A syntax error, or a wrong cut. nlohmann over the block tells them apart and words the error.
        if (joinWrongCutOrReport(fd, layout, spans, f, failed, ctx, options, importer)) {
            from = f;
            ok = true;
            continue;
        }
        break;
    }
    importer.endParse();
    if (cancelled) {
        ctx.info(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "import cancelled")));
        return false;
    }
    if (ok && !importer.sawEvents()) {
        ctx.error(std::nullopt,
            issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "no trace events: expected a JSON array of events or {\"traceEvents\": [...]}")));
        ok = false;
    }
    if (!importer.finish(stamp, SourceFile::stamp(file.get()))) {
        ctx.info(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "import cancelled")));
        return false;
    }
    return ok;
}

} // namespace

bool TraceViewImporter::run(ImportContext& ctx) { return run(ctx, Options()); }

bool TraceViewImporter::run(ImportContext& ctx, const Options& options)
{
    bool ok = false;
    try {
        ok = runImpl(ctx, options);
    } catch (...) {
        // Every failure is a parse issue of this file; only a failing model itself cannot record one.
        std::string what = "unknown error";
        try {
            throw;
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        try {
            ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "import failed: %1"), { what }));
        } catch (...) {
            // The model itself is failing; nothing more can be recorded.
        }
        ok = false;
    }
    try {
        ctx.finish();
    } catch (...) {
        ok = false;
    }
    return ok;
}

namespace {

// Every key and value visited as its raw token; the sum of a byte of each keeps the walk from being optimised away.
template <class V> void walkRaw(V& v, uint64_t& touched)
{
    switch (v.type().value()) {
    case od::json_type::object:
        for (auto field : v.get_object()) {
            touched += static_cast<unsigned char>(field.key().value().raw()[0]);
            od::value inner = field.value();
            walkRaw(inner, touched);
        }
        break;
    case od::json_type::array:
        for (auto element : v.get_array()) {
            od::value inner = element.value();
            walkRaw(inner, touched);
        }
        break;
    default: {
        const std::string_view token = v.raw_json_token();
        touched += token.size();
        break;
    }
    }
}

// The benchmark floors: the file read whole, the BOM left out (the padding after the text stays), one On Demand
// walk of the document; the bytes read, or nullopt when the file cannot be read or the walk fails.
template <typename Walk> std::optional<uint64_t> walkWholeFile(const std::string& path, Walk walk)
{
    simdjson::padded_string text;
    if (simdjson::padded_string::load(path).get(text))
        return std::nullopt;
    std::string_view body(text.data(), text.size());
    if (body.starts_with("\xef\xbb\xbf"))
        body.remove_prefix(3);
    od::parser parser;
    try {
        od::document doc = parser.iterate(body.data(), body.size(), body.size() + simdjson::SIMDJSON_PADDING);
        walk(doc);
    } catch (const simdjson::simdjson_error&) {
        return std::nullopt;
    }
    return text.size();
}

} // namespace

std::optional<uint64_t> TraceViewImporter::walkRawOnly(const std::string& path)
{
    uint64_t touched = 0;
    const auto bytes = walkWholeFile(path, [&touched](od::document& doc) {
        walkRaw(doc, touched);
        requireEnd(doc);
    });
    const volatile uint64_t keep = touched; // the walk's result is used
    static_cast<void>(keep);
    return bytes;
}

std::optional<uint64_t> TraceViewImporter::parseOnly(const std::string& path)
{
    return walkWholeFile(path, [](od::document& doc) { validateDocument(doc); });
}

} // namespace npuscope::io

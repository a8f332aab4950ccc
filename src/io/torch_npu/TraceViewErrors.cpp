// SPDX-License-Identifier: Apache-2.0
// Errors of the trace_view.json import: errno texts, and a block that did not parse. nlohmann's parser tells a wrong
// cut (the block is joined with the next one) from a syntax error, which is worded as nlohmann words it, with the line
// and column of its byte offset in the file, after the events before it were parsed again and kept.
#include "TraceViewParts.h"

#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/parse/SimdjsonSupport.h"

#include <nlohmann/json.hpp>

#include <cerrno>

namespace npuscope::io::trace_view {

namespace {

// nlohmann's verdict on a text, for exact error offsets and wording: the parser the project always
// reported errors with.
struct NlohmannError {
    uint64_t offset = 0; // in the text
    std::string message;
};

std::optional<NlohmannError> nlohmannError(const char* data, std::size_t size)
{
    struct Capture : AcceptAllSax {
        std::optional<NlohmannError> error;
        bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override
        {
            std::string what = e.what();
            // "[json.exception.parse_error.101] parse error at line 1, column 5: <message>": the line
            // and column are the text's, not the file's; they are computed again from the offset.
            if (const auto column = what.find(", column "); column != std::string::npos)
                if (const auto colon = what.find(": ", column); colon != std::string::npos)
                    what = what.substr(colon + 2);
            error = NlohmannError { position > 0 ? position - 1 : 0, std::move(what) };
            return false;
        }
    } capture;
    nlohmann::json::sax_parse(data, data + size, &capture);
    return capture.error;
}

// 1-based line and column of a file offset (the byte at offset counted, as nlohmann counts).
std::pair<uint64_t, uint64_t> lineColumn(int fd, uint64_t offset)
{
    uint64_t line = 1, lineStart = 0;
    std::vector<char> chunk(std::size_t(1) << 20);
    for (uint64_t at = 0; at < offset;) {
        const auto n = static_cast<std::size_t>(std::min<uint64_t>(chunk.size(), offset - at));
        if (!readAt(fd, at, chunk.data(), n))
            return { 0, 0 };
        for (std::size_t i = 0; i < n; ++i) {
            if (chunk[i] == '\n') {
                ++line;
                lineStart = at + i + 1;
            }
        }
        at += n;
    }
    return { line, offset - lineStart + 1 };
}

// The events before the error are kept: the block is parsed again up to the last element that
// ends before it ('}' then ','; a guess that does not parse tries the one before).
void importBeforeError(int fd, const Layout& layout, const std::vector<Span>& spans, std::size_t f,
    const BlockText& text, uint64_t offset, ImportContext& ctx, const TraceViewImporter::Options& options,
    Importer& importer)
{
    const auto before = static_cast<std::size_t>(
        std::clamp<int64_t>(static_cast<int64_t>(offset) - text.delta(), 0, static_cast<int64_t>(text.realEnd())));
    const std::string_view head(text.data(), before);
    od::parser parser;
    BlockText part;
    int tries = 0;
    for (std::size_t at = head.size(); at > 0 && tries < 64; --at) {
        if (head[at - 1] != '}')
            continue;
        std::size_t j = at;
        while (j < head.size() && isSpace(head[j]))
            ++j;
        if (j >= head.size() || head[j] != ',')
            continue;
        const auto cut = static_cast<uint64_t>(static_cast<int64_t>(at) + text.delta());
        if (cut <= spans[f].begin)
            break;
        ++tries;
        BlockOutcome outcome;
        if (!part.load(fd, layout, spans, f, cut))
            break;
        parseText(parser, part, ctx, options, outcome);
        if (outcome.stop == BlockStop::None) {
            importer.merge(outcome.result);
            break;
        }
    }
}

// Records the syntax error at file offset, with its line and column.
void reportSyntaxError(int fd, uint64_t offset, std::string message, ImportContext& ctx)
{
    const auto [line, column] = lineColumn(fd, offset);
    if (line)
        message = "parse error at line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message;
    if (message.size() > 300)
        message = message.substr(0, 300) + "...";
    ctx.error(std::nullopt,
        issueText(
            QT_TRANSLATE_NOOP("ParseIssue", "syntax error at byte %1: %2 (events before this point were imported)"),
            { std::to_string(offset), message }));
}

} // namespace

std::string errnoText(int err) { return err ? std::string(std::strerror(err)) : std::string("unknown error"); }

// Block f did not parse (failed: its outcome): a syntax error, or a wrong cut. nlohmann over the block tells them
// apart and words the error. A wrong cut joins the block with the next one and returns true: parse again from f.
// Otherwise the error is recorded (the events before it imported) and false returned.
bool joinWrongCutOrReport(int fd, const Layout& layout, std::vector<Span>& spans, std::size_t f,
    const BlockOutcome& failed, ImportContext& ctx, const TraceViewImporter::Options& options, Importer& importer)
{
    BlockText text;
    if (!text.load(fd, layout, spans, f)) {
        ctx.error(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "read error at byte %1: %2"),
                { std::to_string(spans[f].begin), errnoText(errno) }));
        return false;
    }
    const bool last = f + 1 == spans.size();
    const auto located = nlohmannError(text.data(), text.size());
    if (!located || (!last && located->offset >= text.realEnd())) {
        if (!last) {
            spans[f].end = spans[f + 1].end;
            spans.erase(spans.begin() + static_cast<std::ptrdiff_t>(f) + 1);
            return true;
        }
    }
    uint64_t offset = failed.errorOffset.value_or(spans[f].begin);
    std::string message = std::string("simdjson: ") + simdjson::error_message(failed.code);
    if (located) {
        offset = static_cast<uint64_t>(static_cast<int64_t>(located->offset) + text.delta());
        message = located->message;
    }
    importBeforeError(fd, layout, spans, f, text, offset, ctx, options, importer);
    reportSyntaxError(fd, offset, std::move(message), ctx);
    return false;
}

} // namespace npuscope::io::trace_view

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/DeferredSniff.h"

#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/detect/FileKinds.h"
#include "npuscope/io/parse/IssueText.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace npuscope::load {

namespace {

constexpr size_t kPrefixBytes = 4096;

bool endsWith(const std::string& s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string hexByte(unsigned char c)
{
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "0x%02x", static_cast<unsigned>(c));
    return buffer;
}

} // namespace

std::optional<TrText> DeferredSniff::problem(const io::PlannedFile& file)
{
    // Deferred text kinds the summary does not read at all (one with a summary pass has been read by it already).
    const auto* spec = io::FileKinds::find(file.kind);
    if (!spec || spec->deferred == io::kNoGroup || spec->summaryPass
        || (spec->format != io::FileFormat::Json && spec->format != io::FileFormat::Csv))
        return std::nullopt;
    const bool json = spec->format == io::FileFormat::Json;
    if (endsWith(file.path, ".gz") || file.size == 0)
        return std::nullopt; // an empty file: its importer says so
    std::ifstream in(file.path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::string prefix(kPrefixBytes, '\0');
    in.read(prefix.data(), static_cast<std::streamsize>(prefix.size()));
    prefix.resize(static_cast<size_t>(std::max<std::streamsize>(0, in.gcount())));
    size_t start = prefix.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0; // UTF-8 byte order mark
    if (json) {
        while (start < prefix.size()
            && (prefix[start] == ' ' || prefix[start] == '\n' || prefix[start] == '\r' || prefix[start] == '\t'))
            ++start;
        if (start == prefix.size() || prefix[start] == '[' || prefix[start] == '{')
            return std::nullopt;
        return io::issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                 "not JSON: syntax error at byte %1 (starts with byte %2, expected '[' or '{')"),
            { std::to_string(start), hexByte(static_cast<unsigned char>(prefix[start])) });
    }
    if (!json) {
        if (prefix.find('\0') != std::string::npos)
            return io::issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "not a CSV text file (binary data in its first bytes)"));
        while (start < prefix.size() && (prefix[start] == '\n' || prefix[start] == '\r'))
            ++start; // blank lines before the header
        const size_t end = prefix.find('\n', start);
        const std::string header = prefix.substr(start, end == std::string::npos ? std::string::npos : end - start);
        // Only a header without any separator is plainly not a table (the importer judges everything else).
        if (!header.empty() && header.find_first_of(",\t;") == std::string::npos && end != std::string::npos)
            return io::issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                     "not a CSV table: its first line has no comma-separated columns (\"%1\")"),
                { header.substr(0, 40) });
    }
    return std::nullopt;
}

std::optional<TrText> DeferredSniff::truncation(const io::PlannedFile& file)
{
    using io::FileKind;
    if (file.kind != FileKind::TraceView && file.kind != FileKind::MsTimelineDisplay)
        return std::nullopt;
    if (endsWith(file.path, ".gz") || file.size == 0)
        return std::nullopt;
    std::ifstream in(file.path, std::ios::binary);
    if (!in)
        return std::nullopt;
    // A JSON document ends with its closing bracket (then whitespace); a copy or a profiler stopped mid-write ends
    // inside an event. The last bytes tell without parsing the file.
    constexpr std::streamoff kTail = 256;
    const std::streamoff size = static_cast<std::streamoff>(file.size);
    in.seekg(std::max<std::streamoff>(0, size - kTail));
    std::string tail(static_cast<size_t>(std::min(size, kTail)), '\0');
    in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
    tail.resize(static_cast<size_t>(std::max<std::streamsize>(0, in.gcount())));
    size_t end = tail.size();
    while (end > 0
        && (tail[end - 1] == ' ' || tail[end - 1] == '\n' || tail[end - 1] == '\r' || tail[end - 1] == '\t'
            || tail[end - 1] == '\0'))
        --end;
    if (end == 0 || tail[end - 1] == ']' || tail[end - 1] == '}')
        return std::nullopt;
    std::string last = tail.substr(end > 24 ? end - 24 : 0, end > 24 ? 24 : end);
    std::replace_if(
        last.begin(), last.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
    return io::issueText(QT_TRANSLATE_NOOP("ParseIssue",
                             "file looks truncated: it ends at byte %1 inside a JSON value (\"…%2\"), not with ']' "
                             "or '}'; the timeline stops where the file was cut"),
        { std::to_string(file.size), last });
}

} // namespace npuscope::load

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/DeferredSniff.h"

#include "npuscope/core/TranslationMarker.h"
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
    using io::FileKind;
    bool json = false;
    bool csv = false;
    switch (file.kind) {
    case FileKind::TraceView:
    case FileKind::MsTimelineDisplay:
        json = true;
        break;
    case FileKind::KernelDetails:
    case FileKind::OpSummary:
    case FileKind::OperatorMemory:
    case FileKind::NpuModuleMem:
        csv = true;
        break;
    default:
        return std::nullopt;
    }
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
    if (csv) {
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

} // namespace npuscope::load

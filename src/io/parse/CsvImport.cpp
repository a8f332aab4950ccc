// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/CsvImport.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"

#include <algorithm>
#include <cstdlib>
#include <exception>

namespace npuscope::io {

namespace {

std::string quote(std::string_view value)
{
    constexpr size_t kMaxShown = 40;
    std::string out = "\"" + std::string(value.substr(0, kMaxShown));
    if (value.size() > kMaxShown)
        out += "...";
    return out + "\"";
}

std::string joinNames(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + quote(n);
    return out;
}

TrText tooLargeMessage()
{
    return issueText(
        QT_TRANSLATE_NOOP("ParseIssue", "record larger than %1 MiB (unclosed quote or binary data?), import stopped"),
        { std::to_string(CsvReader::kMaxRecordBytes >> 20) });
}

} // namespace

CsvImport::CsvImport(ImportContext& ctx)
    : m_ctx(ctx)
{
}

bool CsvImport::run(ImportContext& ctx, const std::function<bool(CsvImport& csv)>& importRows)
{
    try {
        CsvImport csv(ctx);
        const bool ok = importRows(csv);
        ctx.finish();
        return ok;
    } catch (const std::exception& e) {
        try {
            ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "import failed: %1"), { e.what() }));
            ctx.finish();
        } catch (const std::exception&) {
        }
    }
    return false;
}

bool CsvImport::open(std::initializer_list<std::string_view> required)
{
    std::string reason;
    if (!m_reader.open(m_ctx.file(), reason)) {
        m_ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot open: %1"), { reason }));
        return false;
    }
    // The reader has checked the first chunk; do not read a header out of binary data.
    std::vector<std::string> names;
    const bool any = !m_reader.looksBinary() && m_reader.next(names);
    if (m_reader.looksBinary()) {
        m_ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "not a CSV text file")));
        return false;
    }
    if (m_reader.recordTooLarge()) {
        m_ctx.error(m_reader.recordLine(), tooLargeMessage());
        return false;
    }
    if (!any) {
        m_ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "empty file")));
        return false;
    }
    m_header = CsvHeader(names);

    std::string missing;
    for (auto name : required) {
        if (!m_header.has(name))
            missing += (missing.empty() ? "" : ", ") + quote(name);
    }
    if (missing.empty())
        return true;
    m_ctx.error(m_reader.recordLine(),
        issueText(QT_TRANSLATE_NOOP("ParseIssue", "missing required column %1 (found: %2)"),
            { missing, joinNames(m_header.names()) }));
    return false;
}

bool CsvImport::next()
{
    if (m_cancelled)
        return false;
    if (!m_reader.next(m_row)) {
        if (m_reader.recordTooLarge())
            m_ctx.error(m_reader.recordLine(), tooLargeMessage());
        return false;
    }
    const int64_t line = m_reader.recordLine();
    if (m_reader.looksBinary()) {
        m_ctx.error(
            line, issueText(QT_TRANSLATE_NOOP("ParseIssue", "not a CSV text file: binary data, import stopped")));
        return false;
    }
    if (m_reader.endedInsideQuotes()) {
        m_ctx.warning(line,
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "file ends inside a quoted field (truncated?), last record skipped")));
        return false;
    }
    if (m_row.size() != m_header.size())
        m_ctx.warning(line,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "row has %1 fields, header has %2"),
                { std::to_string(m_row.size()), std::to_string(m_header.size()) }));
    if (++m_records % kCancelCheckRows == 0 && m_ctx.cancelled()) {
        m_ctx.info(line, issueText(QT_TRANSLATE_NOOP("ParseIssue", "import cancelled")));
        m_cancelled = true;
        return false;
    }
    m_skipped = false;
    return true;
}

bool CsvImport::result()
{
    if (m_cancelled)
        return false;
    if (m_records == 0 && !m_reader.looksBinary() && !m_reader.endedInsideQuotes() && !m_reader.recordTooLarge()) {
        m_ctx.info(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "no data rows")));
        return true;
    }
    return m_imported > 0;
}

template <typename Parse>
auto CsvImport::number(int col, bool required, Parse parse) -> decltype(parse(std::string_view()))
{
    const auto cell = field(m_row, col);
    if (isMissing(cell)) {
        if (required)
            skip(col, "no value");
        return std::nullopt;
    }
    auto value = parse(cell);
    if (!value) {
        if (required)
            skip(col, "malformed number " + quote(trim(cell)));
        else
            m_ctx.warning(line(),
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "malformed number %1 in column %2, stored as NULL"),
                    { quote(trim(cell)), quote(name(col)) }));
    }
    return value;
}

std::optional<int64_t> CsvImport::usNs(int col, bool required)
{
    const auto ns = number(col, required, npuscope::usToNs);
    constexpr int64_t kEpochLikeNs = 1'000'000'000'000'000; // 10^12 µs: after 2001-09 as epoch µs
    // Only an epoch-like value is looked at again: the other µs cells of every row cost no second scan.
    if (ns && std::llabs(*ns) >= kEpochLikeNs)
        checkRoundedTimestamp(col, trim(field(m_row, col)));
    return ns;
}

void CsvImport::checkRoundedTimestamp(int col, std::string_view cell)
{
    const auto e = cell.find_first_of("eE");
    if (e == std::string_view::npos
        || std::find(m_roundedColumns.begin(), m_roundedColumns.end(), col) != m_roundedColumns.end())
        return;
    m_roundedColumns.push_back(col);
    // The last written digit's place: "1.69512E+15" has 5 decimals of 10^15 µs, so 10^10 µs.
    const auto dot = cell.find('.');
    const int decimals = dot == std::string_view::npos || dot > e ? 0 : static_cast<int>(e - dot - 1);
    const int exponent = parseInt(cell.substr(e + 1)).value_or(0);
    const int place = exponent - decimals;
    m_ctx.warning(line(),
        issueText(QT_TRANSLATE_NOOP("ParseIssue",
                      "column %1 holds timestamps in scientific notation (%2), as a spreadsheet saves them: they are "
                      "rounded to 10^%3 µs, so times in this file are not exact and do not line up with other files"),
            { quote(name(col)), quote(cell), std::to_string(place) }));
}
std::optional<int64_t> CsvImport::optInt(int col) { return number(col, false, npuscope::parseInt); }
std::optional<double> CsvImport::optReal(int col) { return number(col, false, npuscope::parseDouble); }

std::optional<std::string> CsvImport::text(int col, bool required)
{
    const auto cell = trim(field(m_row, col));
    if (isMissing(cell)) {
        if (required)
            skip(col, "no value");
        return std::nullopt;
    }
    return std::string(cell);
}

void CsvImport::skip(int col, const std::string& why)
{
    if (!m_skipped)
        m_ctx.warning(line(),
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "row skipped: %1 in required column %2"), { why, quote(name(col)) }));
    m_skipped = true;
}

std::string_view CsvImport::name(int col) const
{
    if (col < 0 || static_cast<size_t>(col) >= m_header.size())
        return {};
    return m_header.names()[static_cast<size_t>(col)];
}

} // namespace npuscope::io

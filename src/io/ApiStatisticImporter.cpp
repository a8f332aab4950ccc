// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/ApiStatisticImporter.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/core/Decimal.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <exception>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::io {

namespace {

constexpr int64_t kCancelCheckRows = 4096;

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

// CsvReader only sees the bytes of the records it returned, and a binary file can start with a text-like first
// line ("\x89PNG\r\n"). Apply its rule (bytes below 0x08 never occur in CSV text) to the first 4 KiB as well.
bool startsBinary(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::array<char, 4096> head {};
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    const auto n = static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0));
    return std::any_of(head.begin(), head.begin() + static_cast<std::ptrdiff_t>(n),
        [](char c) { return static_cast<unsigned char>(c) < 0x08; });
}

// Opens ctx.file() and reads the header; reports why and returns false when there is nothing to import.
bool openCsv(ImportContext& ctx, CsvReader& reader, CsvHeader& header)
{
    std::string reason;
    if (!reader.open(ctx.file(), reason)) {
        ctx.error(std::nullopt, "cannot open: " + reason);
        return false;
    }
    std::vector<std::string> names;
    const bool any = reader.next(names);
    if (reader.looksBinary() || startsBinary(ctx.file())) {
        ctx.error(std::nullopt, "not a CSV text file");
        return false;
    }
    if (!any) {
        ctx.error(std::nullopt, "empty file");
        return false;
    }
    header = CsvHeader(names);
    return true;
}

bool requireColumns(
    ImportContext& ctx, const CsvHeader& header, int64_t line, std::initializer_list<std::string_view> required)
{
    std::string missing;
    for (auto name : required) {
        if (!header.has(name))
            missing += (missing.empty() ? "" : ", ") + quote(name);
    }
    if (missing.empty())
        return true;
    ctx.error(line, "missing required column " + missing + " (found: " + joinNames(header.names()) + ")");
    return false;
}

// Common per-record checks. Returns false when reading must stop (binary data, truncated last record).
bool checkRecord(
    ImportContext& ctx, const CsvReader& reader, const CsvHeader& header, const std::vector<std::string>& row)
{
    const int64_t line = reader.recordLine();
    if (reader.looksBinary()) {
        ctx.error(line, "not a CSV text file: binary data, import stopped");
        return false;
    }
    if (reader.endedInsideQuotes()) {
        ctx.warning(line, "file ends inside a quoted field (truncated?), last record skipped");
        return false;
    }
    if (row.size() != header.size())
        ctx.warning(
            line, "row has " + std::to_string(row.size()) + " fields, header has " + std::to_string(header.size()));
    return true;
}

// Reads the cells of one record. Missing cells ("", N/A, ...) are NULL. A malformed optional number is reported
// and becomes NULL; a missing or malformed required value is reported once and marks the row as skipped.
class Cells {
public:
    Cells(ImportContext& ctx, const CsvHeader& header, const std::vector<std::string>& row, int64_t line)
        : m_ctx(ctx)
        , m_header(header)
        , m_row(row)
        , m_line(line)
    {
    }

    bool skipped() const { return m_skipped; }

    std::optional<int64_t> usToNs(int col, bool required = false) { return number(col, required, npuscope::usToNs); }
    std::optional<int64_t> integer(int col) { return number(col, false, npuscope::parseInt); }
    std::optional<double> real(int col) { return number(col, false, npuscope::parseDouble); }

    std::optional<std::string> text(int col, bool required = false)
    {
        const auto cell = trim(field(m_row, col));
        if (isMissing(cell)) {
            if (required)
                skip(col, "no value");
            return std::nullopt;
        }
        return std::string(cell);
    }

private:
    template <typename Parse> auto number(int col, bool required, Parse parse) -> decltype(parse(std::string_view()))
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
                m_ctx.warning(m_line,
                    "malformed number " + quote(trim(cell)) + " in column " + quote(name(col)) + ", stored as NULL");
        }
        return value;
    }

    void skip(int col, const std::string& why)
    {
        if (!m_skipped)
            m_ctx.warning(m_line, "row skipped: " + why + " in required column " + quote(name(col)));
        m_skipped = true;
    }

    std::string_view name(int col) const { return m_header.names()[static_cast<size_t>(col)]; }

    ImportContext& m_ctx;
    const CsvHeader& m_header;
    const std::vector<std::string>& m_row;
    int64_t m_line;
    bool m_skipped = false;
};

bool importRows(ImportContext& ctx)
{
    CsvReader reader;
    CsvHeader header;
    if (!openCsv(ctx, reader, header) || !requireColumns(ctx, header, reader.recordLine(), { "API Name" }))
        return false;

    const int deviceCol = header.find({ "Device_id", "Device Id", "Device ID" }); // text: "host" on the host side
    const int levelCol = header.find({ "Level" });
    const int nameCol = header.find({ "API Name" });
    const int timeCol = header.find({ "Time(us)" });
    const int countCol = header.find({ "Count" });
    const int avgCol = header.find({ "Avg(us)" });
    const int minCol = header.find({ "Min(us)" });
    const int maxCol = header.find({ "Max(us)" });
    const int varianceCol = header.find({ "Variance" });

    std::vector<std::string> row;
    int64_t records = 0;
    int64_t imported = 0;
    while (reader.next(row) && checkRecord(ctx, reader, header, row)) {
        const int64_t line = reader.recordLine();
        if (++records % kCancelCheckRows == 0 && ctx.cancelled()) {
            ctx.info(line, "import cancelled");
            return false;
        }
        Cells cells(ctx, header, row, line);
        model::ApiStatisticRow r;
        r.rankId = ctx.rankId();
        r.deviceId = cells.text(deviceCol);
        r.level = cells.text(levelCol);
        r.apiName = cells.text(nameCol, true).value_or(std::string());
        r.totalNs = cells.usToNs(timeCol);
        r.count = cells.integer(countCol);
        r.avgNs = cells.usToNs(avgCol);
        r.minNs = cells.usToNs(minCol);
        r.maxNs = cells.usToNs(maxCol);
        r.variance = cells.real(varianceCol);
        if (cells.skipped())
            continue;
        ctx.writer().addApiStatistic(r);
        ++imported;
    }
    if (records == 0 && !reader.looksBinary() && !reader.endedInsideQuotes()) {
        ctx.info(std::nullopt, "no data rows");
        return true;
    }
    return imported > 0;
}

} // namespace

bool ApiStatisticImporter::run(ImportContext& ctx)
{
    try {
        const bool ok = importRows(ctx);
        ctx.finish();
        return ok;
    } catch (const std::exception& e) {
        // Only the model can throw here (SQLite failure, out of memory); record it if the model still works.
        try {
            ctx.error(std::nullopt, std::string("import failed: ") + e.what());
            ctx.finish();
        } catch (const std::exception&) {
        }
    }
    return false;
}

} // namespace npuscope::io

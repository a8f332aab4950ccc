// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/CsvReader.h"
#include "npuscope/io/parse/ImportContext.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace npuscope::io {

class CsvImport;

// One column of a CSV file that maps straight to one field of Row, for CsvImport::readFields: the header names the
// column goes by (the first present is read) and the field, which says how the cell is read:
//  - std::optional<std::string>: text(col); std::string: text(col, required), "" when skipped
//  - std::optional<double>: optReal(col)
//  - std::optional<int64_t>: optInt(col), or usNs(col) with CsvField::Us
//  - int64_t: usNs(col, required), 0 when skipped
template <typename Row> class CsvField {
public:
    enum Unit { Plain, Us };
    using Member = std::variant<std::optional<std::string> Row::*, std::string Row::*, std::optional<double> Row::*,
        std::optional<int64_t> Row::*, int64_t Row::*>;

    template <typename T>
    CsvField(std::initializer_list<std::string_view> names, T Row::*member, Unit unit = Plain)
        : m_names(names)
        , m_member(member)
        , m_unit(unit)
    {
    }

    const std::vector<std::string_view>& names() const { return m_names; }
    // Reads the cell of column col (-1: none) of the current record into row.
    void read(CsvImport& csv, int col, Row& row) const;

private:
    std::vector<std::string_view> m_names; // string literals
    Member m_member;
    Unit m_unit;
};

// What the CSV importers share: opens ctx.file(), reads and checks the header, walks the data records and reads
// typed cells. Every problem goes to ctx with the CSV line and, for cells, the column name, so an importer only
// maps columns to its row type. Internal to the io layer; used by the thread running the importer.
//
// Cells: missing values ("", N/A, ...) are NULL (nullopt). A malformed optional number is reported and becomes
// NULL; a missing or malformed required value is reported once per record and marks the record as skipped().
class CsvImport {
public:
    explicit CsvImport(ImportContext& ctx);

    // Calls importRows with a CsvImport on ctx, then ctx.finish(). Only the model can throw in between (SQLite
    // failure, out of memory): that is recorded as an error, if the model still works, and gives false.
    // Never throws.
    static bool run(ImportContext& ctx, const std::function<bool(CsvImport& csv)>& importRows);

    ImportContext& context() { return m_ctx; }

    // Opens the file and reads the header. Reports why and returns false when there is nothing to import:
    // unreadable, not text, empty, or a required column is missing (header names are trimmed, see CsvHeader).
    bool open(std::initializer_list<std::string_view> required);

    const CsvHeader& header() const { return m_header; }
    // Index of the first of names present in the header, or -1 (all accessors take -1 as "no such column").
    int column(std::initializer_list<std::string_view> names) const { return m_header.find(names); }

    // Moves to the next data record. False at the end and when reading stops early: binary data or an
    // oversized record (error), a file ending inside quotes (warning, last record dropped), or cancellation
    // (checked every kCancelCheckRows records). A record whose field count differs from the header's is
    // reported and still returned.
    bool next();

    // The current record, its 1-based starting line, and whether a required cell made it unusable.
    const std::vector<std::string>& row() const { return m_row; }
    int64_t line() const { return m_reader.recordLine(); }
    // Byte range of the current record in the file (CsvReader::recordOffset / recordEnd).
    uint64_t recordOffset() const { return m_reader.recordOffset(); }
    uint64_t recordEnd() const { return m_reader.recordEnd(); }
    bool skipped() const { return m_skipped; }

    // Typed cells of the current record.
    // Decimal µs -> exact ns. A timestamp (10^12 µs and more) written in scientific notation ("1.69512E+15": a
    // spreadsheet kept 6 significant digits) is read as written and reported once per column.
    std::optional<int64_t> usNs(int col, bool required = false);
    std::optional<int64_t> optInt(int col);
    std::optional<double> optReal(int col);
    std::optional<std::string> text(int col, bool required = false); // trimmed
    std::string_view raw(int col) const { return field(m_row, col); } // as read, untrimmed

    // Counts a record handed to the writer.
    void countImported() { ++m_imported; }

    // What the importer returns after the loop: false when cancelled or nothing was imported, true for a header
    // without data rows (reported as info).
    bool result();

    // The loop of an importer that makes one row per record: for every record a Row with the context's rank id,
    // fill(row) reads its cells, and unless a required cell was missing write(row) hands it on and it is counted;
    // then result(). Written once so that every such importer skips, counts and ends alike.
    template <typename Row, typename Fill, typename Write> bool readRows(Fill&& fill, Write&& write)
    {
        while (next()) {
            Row row;
            row.rankId = m_ctx.rankId();
            fill(row);
            if (skipped())
                continue;
            write(row);
            countImported();
        }
        return result();
    }

    // readRows for a file whose columns each map to one field: fields read in the order listed, with the columns
    // looked up once.
    template <typename Row, typename Write> bool readFields(std::initializer_list<CsvField<Row>> fields, Write&& write)
    {
        std::vector<int> cols;
        for (const CsvField<Row>& f : fields) {
            int col = -1;
            for (auto n = f.names().begin(); col < 0 && n != f.names().end(); ++n)
                col = column({ *n });
            cols.push_back(col);
        }
        return readRows<Row>(
            [&](Row& row) {
                size_t i = 0;
                for (const CsvField<Row>& f : fields)
                    f.read(*this, cols[i++], row);
            },
            std::forward<Write>(write));
    }

    // run() for such a file: opens it with the required columns, then readFields.
    template <typename Row, typename Write>
    static bool runFields(ImportContext& ctx, std::initializer_list<std::string_view> required,
        std::initializer_list<CsvField<Row>> fields, Write&& write)
    {
        return run(ctx, [&](CsvImport& csv) { return csv.open(required) && csv.readFields<Row>(fields, write); });
    }

    static constexpr int64_t kCancelCheckRows = 4096;

private:
    template <typename Parse> auto number(int col, bool required, Parse parse) -> decltype(parse(std::string_view()));
    void skip(int col, const std::string& why);
    void checkRoundedTimestamp(int col, std::string_view cell);
    std::string_view name(int col) const;

    ImportContext& m_ctx;
    CsvReader m_reader;
    CsvHeader m_header;
    std::vector<std::string> m_row;
    int64_t m_records = 0;
    int64_t m_imported = 0;
    bool m_skipped = false;
    bool m_cancelled = false;
    std::vector<int> m_roundedColumns; // columns already reported by checkRoundedTimestamp
};

template <typename Row> void CsvField<Row>::read(CsvImport& csv, int col, Row& row) const
{
    std::visit(
        [&](auto member) {
            using T = std::remove_reference_t<decltype(row.*member)>;
            if constexpr (std::is_same_v<T, std::optional<std::string>>)
                row.*member = csv.text(col);
            else if constexpr (std::is_same_v<T, std::string>)
                row.*member = csv.text(col, true).value_or(std::string());
            else if constexpr (std::is_same_v<T, std::optional<double>>)
                row.*member = csv.optReal(col);
            else if constexpr (std::is_same_v<T, std::optional<int64_t>>)
                row.*member = m_unit == Us ? csv.usNs(col) : csv.optInt(col);
            else
                row.*member = csv.usNs(col, true).value_or(0);
        },
        m_member);
}

} // namespace npuscope::io

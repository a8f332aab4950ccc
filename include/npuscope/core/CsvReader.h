// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npuscope {

// Streaming RFC-4180 reader: quoted fields with "" escapes and embedded newlines, LF or CRLF,
// a missing final newline. Reads the file in 1 MiB chunks; never holds the whole file, and never
// more than kMaxRecordBytes for one record. Not thread-safe; one reader per file.
class CsvReader {
public:
    // Largest record next() accepts (bytes of the file, quotes and separators included). A binary
    // blob without newlines or an unclosed quote would otherwise be read into memory whole.
    static constexpr size_t kMaxRecordBytes = size_t(64) << 20;

    CsvReader() = default;
    ~CsvReader();
    CsvReader(const CsvReader&) = delete;
    CsvReader& operator=(const CsvReader&) = delete;

    // Opens path for reading and reads the first chunk, so looksBinary() already describes it.
    // On failure (missing, unreadable, a directory) returns false and sets error to a readable reason.
    bool open(const std::string& path, std::string& error);
    // Reads records from text held in memory (e.g. one record read back from a file by its byte range).
    void openText(std::string text);

    // Reads the next record into fields (cleared first). Returns false at end of file, and from
    // then on, when a record exceeds the size limit (see recordTooLarge()). Blank lines are skipped.
    bool next(std::vector<std::string>& fields);

    // Lowers the record size limit (tests); limits above kMaxRecordBytes are clamped to it.
    void setMaxRecordBytes(size_t bytes) { m_maxRecordBytes = bytes < kMaxRecordBytes ? bytes : kMaxRecordBytes; }

    // 1-based line number where the record last returned (or rejected) by next() starts.
    int64_t recordLine() const { return m_recordLine; }
    // Byte range in the file of the record last returned by next(): [recordOffset(), recordEnd()), its line end
    // included. Offsets count from the first byte of the file (a UTF-8 BOM included).
    uint64_t recordOffset() const { return m_recordOffset; }
    uint64_t recordEnd() const { return m_recordEnd; }
    // True when the file ended inside a quoted field (truncated file).
    bool endedInsideQuotes() const { return m_unterminatedQuote; }
    // True when the first chunk, or any record read so far, holds NUL or other control bytes
    // (below 0x20 except TAB, CR, LF) that no CSV text has. Set by open() for the first 1 MiB.
    bool looksBinary() const { return m_binary; }
    // True when next() stopped because the record starting at recordLine() exceeds the size limit.
    bool recordTooLarge() const { return m_tooLarge; }

private:
    bool fill();

    std::FILE* m_file = nullptr;
    std::vector<char> m_buffer;
    size_t m_pos = 0;
    size_t m_end = 0;
    uint64_t m_bufferOffset = 0; // file offset of m_buffer[0]
    uint64_t m_recordOffset = 0;
    uint64_t m_recordEnd = 0;
    size_t m_maxRecordBytes = kMaxRecordBytes;
    int64_t m_line = 1;
    int64_t m_recordLine = 0;
    bool m_unterminatedQuote = false;
    bool m_binary = false;
    bool m_tooLarge = false;
    bool m_first = true;
};

// Maps header names to column indexes. Names are compared after trimming whitespace; a UTF-8 BOM
// before the first name is dropped too.
class CsvHeader {
public:
    CsvHeader() = default;
    explicit CsvHeader(const std::vector<std::string>& names);

    // Index of the first name present, or -1.
    int find(std::initializer_list<std::string_view> names) const;
    bool has(std::string_view name) const { return find({ name }) >= 0; }
    size_t size() const { return m_names.size(); }
    const std::vector<std::string>& names() const { return m_names; }

private:
    std::vector<std::string> m_names;
    std::unordered_map<std::string, int> m_index;
};

// Field at index, or an empty view when the index is -1 or past the end of a short row.
inline std::string_view field(const std::vector<std::string>& row, int index)
{
    if (index < 0 || static_cast<size_t>(index) >= row.size())
        return {};
    return row[static_cast<size_t>(index)];
}

} // namespace npuscope

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::io {

// A validating, streaming JSON reader for large files (trace_view.json), read in fixed-size chunks
// so that only one chunk is held in memory. It is a toolbox, not a parser: the caller walks the
// grammar with peek()/advance() and the read*/skip* calls, which validate what they consume exactly
// as RFC 8259 and nlohmann::json (the project's other parser) do: strict UTF-8 inside strings,
// paired \u surrogates, no control characters in strings, numbers whose value overflows a double
// rejected, an optional UTF-8 BOM at the start. skipValue() checks a whole value, however nested,
// without materialising anything: that is what makes it fast.
//
// Errors: the first failing call returns false and records the byte offset nlohmann reports for the
// same input (the offending byte, the last byte of an unexpected token, or the file size at a
// premature end) and a message; the caller stops there. Not thread-safe; one scanner per file.
class JsonScanner {
public:
    // Reads file (not owned) from its current position in chunkBytes pieces.
    JsonScanner(std::FILE* file, std::size_t chunkBytes);
    // Scans the bytes [data, data + size), not copied: they must outlive the scanner. baseOffset is
    // added to every offset reported (the bytes' position in a larger file).
    JsonScanner(const char* data, std::size_t size, uint64_t baseOffset = 0);
    ~JsonScanner();
    JsonScanner(const JsonScanner&) = delete;
    JsonScanner& operator=(const JsonScanner&) = delete;

    // Called after every chunk read with the bytes read so far; returning false ends the input
    // there (stopped() is then true). File mode only.
    std::function<bool(uint64_t)> onChunk;

    // Skips a UTF-8 BOM at the very start (call once, first). False for a malformed one.
    bool skipBom();
    // Skips whitespace and returns the next byte without consuming it, or -1 at the end of input.
    int peek()
    {
        for (;;) {
            while (m_p < m_end) {
                const char c = *m_p;
                if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
                    return static_cast<unsigned char>(c);
                ++m_p;
            }
            if (!refill())
                return -1;
        }
    }
    // Consumes the byte peek() returned.
    void advance() { ++m_p; }
    // After an object key: consumes the ':' (false, recorded as unexpected, when something else follows).
    bool colon()
    {
        if (peek() != ':')
            return unexpected("':'");
        advance();
        return true;
    }
    // What follows an object member (close '}') or an array element (close ']').
    enum class Next { Item, End, Error };
    // Consumes ',' (Item: another member or element follows) or close (End: the container is done); anything else
    // is recorded as unexpected (Error).
    Next afterItem(char close)
    {
        const int c = peek();
        if (c == ',') {
            advance();
            return Next::Item;
        }
        if (c == close) {
            advance();
            return Next::End;
        }
        unexpected(close == '}' ? "',' or '}'" : "',' or ']'");
        return Next::Error;
    }
    // Absolute offset of the next unconsumed byte.
    uint64_t offset() const { return m_base + static_cast<uint64_t>(m_p - m_buffer); }

    // At the opening quote (peeked, not consumed): reads the string; out receives it decoded (UTF-8).
    bool readString(std::string& out);
    // The same for short strings such as object keys: view points into the input when the string has
    // no escapes and lies in the current chunk, else into scratch. Valid until the next call.
    bool readStringView(std::string_view& view, std::string& scratch)
    {
        const char* begin = m_p + 1;
        for (const char* p = begin; p < m_end; ++p) {
            const auto c = static_cast<unsigned char>(*p);
            if (c == '"') {
                view = std::string_view(begin, static_cast<std::size_t>(p - begin));
                m_p = p + 1;
                return true;
            }
            if (c == '\\' || c < 0x20 || c >= 0x80)
                break;
        }
        if (!readString(scratch))
            return false;
        view = scratch;
        return true;
    }
    // At the first character of a number: out receives its exact text; integral is false when it
    // has a fraction or an exponent. Fails when a fraction/exponent form overflows a double.
    bool readNumber(std::string& out, bool& integral);
    // At 't', 'f' or 'n': consumes true/false/null. value is set for true/false.
    bool readLiteral(bool& value);
    // Consumes one complete value of any kind at the next non-whitespace byte.
    bool skipValue();
    // After the top-level value: only whitespace may follow.
    bool expectEnd();
    // Records an "unexpected <token>; expected <expected>" error for the token at the next
    // non-whitespace byte (consuming it to find where it ends, as nlohmann reports). Returns false.
    bool unexpected(const char* expected);

    bool failed() const { return m_failed; }
    uint64_t errorOffset() const { return m_errorOffset; }
    const std::string& errorMessage() const { return m_errorMessage; }
    // 1-based line and column of errorOffset (nlohmann's convention: the failing byte counts).
    // Re-reads the file up to the error in file mode. {0, 0} when unknown.
    std::pair<uint64_t, uint64_t> errorLineColumn();

    uint64_t totalRead() const { return m_base + static_cast<uint64_t>(m_end - m_buffer); }
    bool readError() const { return m_readError; }
    int readErrno() const { return m_errno; }
    bool stopped() const { return m_stopped; }

private:
    bool refill();
    bool fail(uint64_t offset, std::string message);
    int nextByte(); // -1 at the end
    template <bool kCapture> bool scanString(std::string* out);
    bool scanEscape(std::string* out);
    bool scanUtf8(unsigned char lead, std::string* out);
    bool scanHex4(uint32_t& value);
    bool skipNumber();
    bool checkNumberRange(const std::string& text, bool hasExponent);

    std::FILE* m_file = nullptr;
    std::unique_ptr<char[]> m_owned;
    const char* m_buffer = nullptr;
    const char* m_p = nullptr;
    const char* m_end = nullptr;
    std::size_t m_capacity = 0;
    uint64_t m_base = 0;
    uint64_t m_startOffset = 0; // file position when constructed (file mode)
    bool m_eof = false;
    bool m_readError = false;
    bool m_stopped = false;
    int m_errno = 0;

    bool m_failed = false;
    uint64_t m_errorOffset = 0;
    std::string m_errorMessage;
    std::string m_numberText;
    std::vector<uint8_t> m_stack;
    const char* m_memory = nullptr; // memory mode: the whole input
    std::size_t m_memorySize = 0;
};

} // namespace npuscope::io

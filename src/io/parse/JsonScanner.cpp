// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/JsonScanner.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <system_error>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace npuscope::io {

JsonScanner::JsonScanner(std::FILE* file, std::size_t chunkBytes)
    : m_file(file)
    , m_owned(new char[chunkBytes])
    , m_capacity(chunkBytes)
{
    m_buffer = m_p = m_end = m_owned.get();
    const long pos = std::ftell(file);
    m_startOffset = pos > 0 ? static_cast<uint64_t>(pos) : 0;
}

JsonScanner::JsonScanner(const char* data, std::size_t size, uint64_t baseOffset)
    : m_buffer(data)
    , m_p(data)
    , m_end(data + size)
    , m_base(baseOffset)
    , m_eof(true)
    , m_memory(data)
    , m_memorySize(size)
{
}

JsonScanner::~JsonScanner() = default;

bool JsonScanner::refill()
{
    if (m_eof)
        return false;
    m_base += static_cast<uint64_t>(m_end - m_buffer);
    char* buffer = m_owned.get();
    const std::size_t n = std::fread(buffer, 1, m_capacity, m_file);
    m_p = buffer;
    m_end = buffer + n;
    if (n < m_capacity) {
        m_eof = true;
        if (std::ferror(m_file)) {
            m_readError = true;
            m_errno = errno;
        }
    }
    if (onChunk && !onChunk(m_base + n)) {
        m_stopped = true;
        m_eof = true;
        m_end = buffer;
    }
    return m_p < m_end;
}

bool JsonScanner::fail(uint64_t offset, std::string message)
{
    if (!m_failed) {
        m_failed = true;
        m_errorOffset = offset;
        m_errorMessage = std::move(message);
    }
    return false;
}

int JsonScanner::nextByte()
{
    if (m_p == m_end && !refill())
        return -1;
    return static_cast<unsigned char>(*m_p++);
}

bool JsonScanner::skipBom()
{
    if (m_p == m_end && !refill())
        return true;
    if (static_cast<unsigned char>(*m_p) != 0xEF)
        return true;
    ++m_p;
    for (const int want : { 0xBB, 0xBF }) {
        const int c = nextByte();
        if (c != want)
            return fail(c < 0 ? offset() : offset() - 1, "invalid BOM; must be 0xEF 0xBB 0xBF if given");
    }
    return true;
}

bool JsonScanner::readString(std::string& out)
{
    out.clear();
    ++m_p; // the opening quote
    return scanString<true>(&out);
}

// The hot loop of the whole import: most of a trace's bytes are string contents. Runs of plain
// characters are found 16 bytes at a time; only '"', '\\', control characters and non-ASCII bytes
// (a signed compare catches both) stop it.
template <bool kCapture> bool JsonScanner::scanString(std::string* out)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
#endif
    for (;;) {
        const char* p = m_p;
        const char* const end = m_end;
        for (;;) {
#if defined(__SSE2__)
            if (end - p >= 16) {
                const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
                const __m128i special = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), _mm_cmplt_epi8(v, space));
                const int mask = _mm_movemask_epi8(special);
                if (mask == 0) {
                    p += 16;
                    continue;
                }
                p += __builtin_ctz(static_cast<unsigned>(mask));
                break;
            }
#endif
            if (p == end)
                break;
            const auto c = static_cast<unsigned char>(*p);
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80)
                break;
            ++p;
        }
        if constexpr (kCapture)
            out->append(m_p, p);
        m_p = p;
        if (p == end) {
            if (!refill())
                return fail(offset(), "invalid string: missing closing quote");
            continue;
        }
        const auto c = static_cast<unsigned char>(*p);
        ++m_p;
        if (c == '"')
            return true;
        if (c == '\\') {
            if (!scanEscape(kCapture ? out : nullptr))
                return false;
            continue;
        }
        if (c < 0x20)
            return fail(offset() - 1, "invalid string: control character must be escaped");
        if (!scanUtf8(c, kCapture ? out : nullptr))
            return false;
    }
}

template bool JsonScanner::scanString<true>(std::string*);
template bool JsonScanner::scanString<false>(std::string*);

// The ranges of RFC 3629 (as nlohmann checks them): no overlong forms, no surrogates, <= U+10FFFF.
bool JsonScanner::scanUtf8(unsigned char lead, std::string* out)
{
    int need = 0;
    int lo = 0x80, hi = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        need = 1;
    } else if (lead == 0xE0) {
        need = 2;
        lo = 0xA0;
    } else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) {
        need = 2;
    } else if (lead == 0xED) {
        need = 2;
        hi = 0x9F;
    } else if (lead == 0xF0) {
        need = 3;
        lo = 0x90;
    } else if (lead >= 0xF1 && lead <= 0xF3) {
        need = 3;
    } else if (lead == 0xF4) {
        need = 3;
        hi = 0x8F;
    } else {
        return fail(offset() - 1, "invalid string: ill-formed UTF-8 byte");
    }
    if (out)
        out->push_back(static_cast<char>(lead));
    for (int i = 0; i < need; ++i) {
        const int c = nextByte();
        if (c < 0)
            return fail(offset(), "invalid string: missing closing quote");
        if (c < lo || c > hi)
            return fail(offset() - 1, "invalid string: ill-formed UTF-8 byte");
        lo = 0x80;
        hi = 0xBF;
        if (out)
            out->push_back(static_cast<char>(c));
    }
    return true;
}

bool JsonScanner::scanHex4(uint32_t& value)
{
    value = 0;
    for (int i = 0; i < 4; ++i) {
        const int c = nextByte();
        int digit = -1;
        if (c >= '0' && c <= '9')
            digit = c - '0';
        else if (c >= 'a' && c <= 'f')
            digit = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            digit = c - 'A' + 10;
        if (digit < 0)
            return fail(c < 0 ? offset() : offset() - 1, "invalid string: '\\u' must be followed by 4 hex digits");
        value = value * 16 + static_cast<uint32_t>(digit);
    }
    return true;
}

bool JsonScanner::scanEscape(std::string* out)
{
    const int c = nextByte();
    char decoded = 0;
    switch (c) {
    case '"':
    case '\\':
    case '/':
        decoded = static_cast<char>(c);
        break;
    case 'b':
        decoded = '\b';
        break;
    case 'f':
        decoded = '\f';
        break;
    case 'n':
        decoded = '\n';
        break;
    case 'r':
        decoded = '\r';
        break;
    case 't':
        decoded = '\t';
        break;
    case 'u': {
        uint32_t cp = 0;
        if (!scanHex4(cp))
            return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            const int a = nextByte();
            const int b = a == '\\' ? nextByte() : a;
            uint32_t low = 0;
            if (a != '\\' || b != 'u')
                return fail(b < 0 ? offset() : offset() - 1,
                    "invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF");
            if (!scanHex4(low))
                return false;
            if (low < 0xDC00 || low > 0xDFFF)
                return fail(
                    offset() - 1, "invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return fail(offset() - 1, "invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF");
        }
        if (out) {
            if (cp < 0x80) {
                out->push_back(static_cast<char>(cp));
            } else if (cp < 0x800) {
                out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
                out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
            } else if (cp < 0x10000) {
                out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
                out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
                out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
            } else {
                out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
                out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
                out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
                out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
            }
        }
        return true;
    }
    case -1:
        return fail(offset(), "invalid string: missing closing quote");
    default:
        return fail(offset() - 1, "invalid string: forbidden character after backslash");
    }
    if (out)
        out->push_back(decoded);
    return true;
}

bool JsonScanner::readNumber(std::string& out, bool& integral)
{
    out.clear();
    enum State { Start, Minus, Zero, Int, Dot, Frac, Exp, ExpSign, ExpDigits };
    State st = Start;
    for (;;) {
        const char* p = m_p;
        const char* const end = m_end;
        while (p < end) {
            const char c = *p;
            const bool digit = c >= '0' && c <= '9';
            State next = Start;
            switch (st) {
            case Start:
                if (c == '-') {
                    next = Minus;
                    break;
                }
                [[fallthrough]];
            case Minus:
                next = c == '0' ? Zero : digit ? Int : Start;
                break;
            case Zero:
                next = c == '.' ? Dot : (c == 'e' || c == 'E') ? Exp : Start;
                break;
            case Int:
                next = digit ? Int : c == '.' ? Dot : (c == 'e' || c == 'E') ? Exp : Start;
                break;
            case Dot:
                next = digit ? Frac : Start;
                break;
            case Frac:
                next = digit ? Frac : (c == 'e' || c == 'E') ? Exp : Start;
                break;
            case Exp:
                next = (c == '+' || c == '-') ? ExpSign : digit ? ExpDigits : Start;
                break;
            case ExpSign:
            case ExpDigits:
                next = digit ? ExpDigits : Start;
                break;
            }
            if (next == Start)
                break;
            st = next;
            ++p;
        }
        out.append(m_p, p);
        m_p = p;
        if (p < end || !refill())
            break; // the byte after the number, or the end of input
    }
    switch (st) {
    case Zero:
    case Int:
        integral = true;
        break;
    case Frac:
    case ExpDigits:
        integral = false;
        break;
    case Minus:
        return fail(offset(), "invalid number; expected digit after '-'");
    case Dot:
        return fail(offset(), "invalid number; expected digit after '.'");
    case Exp:
        return fail(offset(), "invalid number; expected '+', '-', or digit after exponent");
    case ExpSign:
        return fail(offset(), "invalid number; expected digit after exponent sign");
    case Start:
        return fail(offset(), "invalid literal");
    }
    return checkNumberRange(out, st == ExpDigits);
}

// nlohmann rejects a number whose double value is infinite ("number overflow"). An integer that
// fits neither int64 nor uint64 becomes a double as well. Only long text or an exponent can get
// there, so the common case costs one length check.
bool JsonScanner::checkNumberRange(const std::string& text, bool hasExponent)
{
    if (text.size() <= 300 && !hasExponent)
        return true;
    double value = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
    if (r.ec == std::errc())
        return true;
    // Out of range: overflow or underflow. Underflow (to zero) is accepted; tell them apart by the
    // decimal exponent: digits before the point (leading zeros dropped) plus the explicit exponent.
    long long exponent = 0;
    std::size_t i = text[0] == '-' ? 1 : 0;
    bool nonzero = false;
    long long leading = 0;
    for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
        if (text[i] == '.')
            continue;
        if (text[i] != '0')
            nonzero = true;
        else if (!nonzero)
            ++leading;
    }
    const std::size_t point = text.find('.');
    const std::size_t expPos = text.find_first_of("eE");
    const std::size_t mantEnd = expPos == std::string::npos ? text.size() : expPos;
    const std::size_t intEnd = point == std::string::npos || point > mantEnd ? mantEnd : point;
    const long long intDigits = static_cast<long long>(intEnd - (text[0] == '-' ? 1 : 0));
    if (expPos != std::string::npos) {
        std::size_t k = expPos + 1;
        const bool negative = k < text.size() && text[k] == '-';
        if (k < text.size() && (text[k] == '+' || text[k] == '-'))
            ++k;
        for (; k < text.size() && exponent < 100000; ++k)
            exponent = exponent * 10 + (text[k] - '0');
        if (negative)
            exponent = -exponent;
    }
    const long long magnitude = exponent + intDigits - leading;
    if (!nonzero || magnitude <= 0)
        return true;
    return fail(offset() - 1, "number overflow parsing '" + text.substr(0, 40) + "'");
}

bool JsonScanner::skipNumber()
{
    bool integral = false;
    return readNumber(m_numberText, integral);
}

bool JsonScanner::readLiteral(bool& value)
{
    const char first = *m_p;
    const char* word = first == 't' ? "true" : first == 'f' ? "false" : "null";
    for (const char* w = word; *w; ++w) {
        const int c = nextByte();
        if (c != static_cast<unsigned char>(*w))
            return fail(c < 0 ? offset() : offset() - 1, std::string("invalid literal; expected '") + word + "'");
    }
    value = first == 't';
    return true;
}

bool JsonScanner::skipValue()
{
    m_stack.clear();
    for (;;) {
        // A value is expected here.
        int c = peek();
        switch (c) {
        case '{':
            ++m_p;
            c = peek();
            if (c == '}') {
                ++m_p;
                break;
            }
            if (c != '"')
                return unexpected("string literal");
            ++m_p;
            if (!scanString<false>(nullptr) || !colon())
                return false;
            m_stack.push_back('{');
            continue;
        case '[':
            ++m_p;
            if (peek() == ']') {
                ++m_p;
                break;
            }
            m_stack.push_back('[');
            continue;
        case '"':
            ++m_p;
            if (!scanString<false>(nullptr))
                return false;
            break;
        case 't':
        case 'f':
        case 'n': {
            bool ignored = false;
            if (!readLiteral(ignored))
                return false;
            break;
        }
        case '-':
        case '0':
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7':
        case '8':
        case '9':
            if (!skipNumber())
                return false;
            break;
        default:
            return unexpected("'[', '{', or a literal");
        }
        // After a value: close containers until one continues with ','.
        for (;;) {
            if (m_stack.empty())
                return true;
            c = peek();
            if (m_stack.back() == '{') {
                if (c == ',') {
                    ++m_p;
                    if (peek() != '"')
                        return unexpected("string literal");
                    ++m_p;
                    if (!scanString<false>(nullptr) || !colon())
                        return false;
                    break;
                }
                if (c != '}')
                    return unexpected("',' or '}'");
            } else {
                if (c == ',') {
                    ++m_p;
                    break;
                }
                if (c != ']')
                    return unexpected("',' or ']'");
            }
            ++m_p;
            m_stack.pop_back();
        }
    }
}

bool JsonScanner::expectEnd()
{
    if (peek() < 0)
        return true;
    return unexpected("end of input");
}

bool JsonScanner::unexpected(const char* expected)
{
    if (m_failed)
        return false;
    const int c = peek();
    if (c < 0)
        return fail(offset(), std::string("unexpected end of input; expected ") + expected);
    std::string what;
    switch (c) {
    case '{':
    case '}':
    case '[':
    case ']':
    case ':':
    case ',':
        ++m_p;
        what = std::string("'") + static_cast<char>(c) + "'";
        break;
    case '"':
        ++m_p;
        if (!scanString<false>(nullptr))
            return false;
        what = "string literal";
        break;
    case 't':
    case 'f':
    case 'n': {
        bool ignored = false;
        if (!readLiteral(ignored))
            return false;
        what = "literal";
        break;
    }
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            if (!skipNumber())
                return false;
            what = "number literal";
            break;
        }
        return fail(offset(), "invalid literal");
    }
    // nlohmann reports the position of the unexpected token's last byte.
    return fail(offset() - 1, "unexpected " + what + "; expected " + expected);
}

std::pair<uint64_t, uint64_t> JsonScanner::errorLineColumn()
{
    if (!m_failed)
        return { 0, 0 };
    uint64_t lines = 0;
    int64_t lastNewline = -1;
    auto count = [&](const char* data, std::size_t n, uint64_t base) {
        for (const char* p = data; (p = static_cast<const char*>(std::memchr(p, '\n', n - (p - data)))); ++p) {
            ++lines;
            lastNewline = static_cast<int64_t>(base + static_cast<uint64_t>(p - data));
        }
    };
    // The failing byte itself counts: a failing newline starts line + 1 at column 0.
    const uint64_t through = m_errorOffset + 1;
    if (m_memory) {
        const uint64_t start = m_base; // memory mode: the fixed base offset
        const uint64_t upTo = through > start ? std::min<uint64_t>(through - start, m_memorySize) : 0;
        count(m_memory, static_cast<std::size_t>(upTo), start);
    } else {
        if (std::fseek(m_file, static_cast<long>(m_startOffset), SEEK_SET) != 0)
            return { 0, 0 };
        char* buffer = m_owned.get();
        uint64_t done = 0;
        while (done < through) {
            const std::size_t want = static_cast<std::size_t>(std::min<uint64_t>(m_capacity, through - done));
            const std::size_t n = std::fread(buffer, 1, want, m_file);
            if (n == 0)
                break;
            count(buffer, n, done);
            done += n;
        }
        // The buffer no longer holds the input: keep totalRead() and read nothing more.
        m_base += static_cast<uint64_t>(m_end - m_buffer);
        m_p = m_end = m_buffer;
        m_eof = true;
    }
    return { lines + 1, static_cast<uint64_t>(static_cast<int64_t>(m_errorOffset) - lastNewline) };
}

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/FastJsonSax.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace npuscope::io {

namespace {

using Json = nlohmann::json;

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// One pass over text: kEmit = false only checks that the fast path can take the text; kEmit =
// true sends the events (the text was checked). Returns false when the text is not for the fast
// path (check pass) or when the handler stopped (emit pass).
template <bool kEmit> class Pass {
public:
    Pass(std::string_view text, nlohmann::json_sax<Json>* sax)
        : m_p(text.data())
        , m_end(text.data() + text.size())
        , m_sax(sax)
    {
    }

    bool run()
    {
        // Iterative (a deeply nested file must not exhaust the stack): containers are tracked on
        // m_stack ('o' object, 'a' array); value() opens a container and reads up to its first value.
        skipSpace();
        if (m_p == m_end)
            return false;
        bool needValue = true;
        for (;;) {
            if (needValue) {
                skipSpace();
                if (!value())
                    return false;
                needValue = m_opened;
                continue;
            }
            if (m_stack.empty())
                break;
            skipSpace();
            if (m_p == m_end)
                return false;
            const char top = m_stack.back();
            if (*m_p == ',') {
                ++m_p;
                skipSpace();
                if (top == 'o' && !key())
                    return false;
                needValue = true;
                continue;
            }
            if ((top == 'o' && *m_p == '}') || (top == 'a' && *m_p == ']')) {
                ++m_p;
                m_stack.pop_back();
                if constexpr (kEmit) {
                    if (!(top == 'o' ? m_sax->end_object() : m_sax->end_array()))
                        return false;
                }
                continue;
            }
            return false;
        }
        skipSpace();
        return m_p == m_end;
    }

private:
    void skipSpace()
    {
        while (m_p < m_end && isSpace(*m_p))
            ++m_p;
    }

    // At '"': a string of printable ASCII without escapes.
    bool string(std::string_view& out)
    {
        if (m_p == m_end || *m_p != '"')
            return false;
        const char* start = ++m_p;
        while (m_p < m_end) {
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                out = std::string_view(start, static_cast<size_t>(m_p - start));
                ++m_p;
                return true;
            }
            if (c < 0x20 || c > 0x7e || c == '\\')
                return false;
            ++m_p;
        }
        return false;
    }

    bool key()
    {
        std::string_view k;
        if (!string(k))
            return false;
        skipSpace();
        if (m_p == m_end || *m_p != ':')
            return false;
        ++m_p;
        skipSpace();
        if constexpr (kEmit) {
            m_text.assign(k);
            if (!m_sax->key(m_text))
                return false;
        }
        return true;
    }

    bool literal(std::string_view word)
    {
        if (static_cast<size_t>(m_end - m_p) < word.size() || std::string_view(m_p, word.size()) != word)
            return false;
        m_p += word.size();
        return true;
    }

    // JSON number grammar; integers up to 18 digits (always an int64), others as doubles.
    bool number()
    {
        const char* start = m_p;
        bool negative = false;
        if (*m_p == '-') {
            negative = true;
            ++m_p;
        }
        const char* digits = m_p;
        if (m_p == m_end || *m_p < '0' || *m_p > '9')
            return false;
        if (*m_p == '0')
            ++m_p;
        else {
            while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
                ++m_p;
        }
        const size_t intDigits = static_cast<size_t>(m_p - digits);
        bool integral = true;
        if (m_p < m_end && *m_p == '.') {
            integral = false;
            ++m_p;
            if (m_p == m_end || *m_p < '0' || *m_p > '9')
                return false;
            while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
                ++m_p;
        }
        if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
            integral = false;
            ++m_p;
            if (m_p < m_end && (*m_p == '+' || *m_p == '-'))
                ++m_p;
            if (m_p == m_end || *m_p < '0' || *m_p > '9')
                return false;
            while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
                ++m_p;
        }
        if (integral) {
            if (intDigits > 18)
                return false; // may not fit: nlohmann's own rules decide
            if constexpr (kEmit) {
                int64_t v = 0;
                std::from_chars(start, m_p, v);
                return negative ? m_sax->number_integer(v) : m_sax->number_unsigned(static_cast<uint64_t>(v));
            }
            return true;
        }
        double v = 0;
        const auto [end, ec] = std::from_chars(start, m_p, v);
        if (ec != std::errc() || end != m_p || !std::isfinite(v))
            return false; // out of range: nlohmann reports it
        if constexpr (kEmit) {
            m_text.assign(start, m_p);
            return m_sax->number_float(v, m_text);
        }
        return true;
    }

    // One value at m_p (whitespace skipped). m_opened: a non-empty container was opened (and an
    // object's first key read), so its first value comes next.
    bool value()
    {
        m_opened = false;
        if (m_p == m_end)
            return false;
        switch (*m_p) {
        case '{':
            ++m_p;
            if constexpr (kEmit) {
                if (!m_sax->start_object(static_cast<std::size_t>(-1)))
                    return false;
            }
            skipSpace();
            if (m_p < m_end && *m_p == '}') {
                ++m_p;
                if constexpr (kEmit)
                    return m_sax->end_object();
                return true;
            }
            m_stack.push_back('o');
            m_opened = true;
            return key();
        case '[':
            ++m_p;
            if constexpr (kEmit) {
                if (!m_sax->start_array(static_cast<std::size_t>(-1)))
                    return false;
            }
            skipSpace();
            if (m_p < m_end && *m_p == ']') {
                ++m_p;
                if constexpr (kEmit)
                    return m_sax->end_array();
                return true;
            }
            m_stack.push_back('a');
            m_opened = true;
            return true;
        case '"': {
            std::string_view s;
            if (!string(s))
                return false;
            if constexpr (kEmit) {
                m_text.assign(s);
                return m_sax->string(m_text);
            }
            return true;
        }
        case 't':
            if (!literal("true"))
                return false;
            if constexpr (kEmit)
                return m_sax->boolean(true);
            return true;
        case 'f':
            if (!literal("false"))
                return false;
            if constexpr (kEmit)
                return m_sax->boolean(false);
            return true;
        case 'n':
            if (!literal("null"))
                return false;
            if constexpr (kEmit)
                return m_sax->null();
            return true;
        default:
            if (*m_p == '-' || (*m_p >= '0' && *m_p <= '9'))
                return number();
            return false;
        }
    }

    const char* m_p;
    const char* m_end;
    nlohmann::json_sax<Json>* m_sax;
    std::vector<char> m_stack;
    std::string m_text;
    bool m_opened = false;
};

} // namespace

bool saxParse(std::string_view text, nlohmann::json_sax<Json>* sax)
{
    if (Pass<false>(text, nullptr).run())
        return Pass<true>(text, sax).run();
    return Json::sax_parse(text.begin(), text.end(), sax);
}

} // namespace npuscope::io

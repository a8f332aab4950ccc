// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/JsonStreamWriter.h"

#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace npuscope::query {

namespace {

constexpr size_t kFlushBytes = 1 << 20;
constexpr size_t kIndent = 2; // dump(2)

// True when nlohmann would print s between quotes unchanged (printable ASCII without '"' or '\\').
bool plainAscii(std::string_view s)
{
    for (unsigned char c : s) {
        if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\')
            return false;
    }
    return true;
}

} // namespace

JsonStreamWriter::JsonStreamWriter(std::ostream& out)
    : m_out(out)
{
    m_buf.reserve(kFlushBytes + 4096);
}

void JsonStreamWriter::raw(std::string_view text)
{
    m_buf.append(text);
    if (m_buf.size() >= kFlushBytes) {
        m_out.write(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
        m_buf.clear();
    }
}

void JsonStreamWriter::newline(size_t depth)
{
    m_buf.push_back('\n');
    m_buf.append(depth * kIndent, ' ');
}

// dump(2): the first member / element goes on a new line after the bracket, the others after ",".
void JsonStreamWriter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_counts.empty())
        return;
    if (m_counts.back()++ > 0)
        m_buf.push_back(',');
    newline(m_counts.size());
}

void JsonStreamWriter::open(char bracket)
{
    beforeValue();
    m_buf.push_back(bracket);
    m_counts.push_back(0);
}

// An empty container prints as "{}" / "[]"; else the closing bracket goes on its own line at the opener's depth.
void JsonStreamWriter::close(char bracket)
{
    const size_t count = m_counts.back();
    m_counts.pop_back();
    if (count > 0)
        newline(m_counts.size());
    m_buf.push_back(bracket);
    raw({});
}

void JsonStreamWriter::beginObject() { open('{'); }
void JsonStreamWriter::endObject() { close('}'); }
void JsonStreamWriter::beginArray() { open('['); }
void JsonStreamWriter::endArray() { close(']'); }

void JsonStreamWriter::key(std::string_view name)
{
    beforeValue();
    writeString(name);
    m_buf.append(": ");
    m_afterKey = true;
}

JsonStreamWriter::ObjectKeys JsonStreamWriter::objectKeys(std::initializer_list<std::string_view> names) const
{
    ObjectKeys keys;
    keys.m_depth = m_counts.size() + 1;
    const std::string indent = "\n" + std::string(keys.m_depth * kIndent, ' ');
    for (const auto name : names) {
        const std::string quoted
            = plainAscii(name) ? "\"" + std::string(name) + "\"" : nlohmann::ordered_json(std::string(name)).dump();
        keys.m_prefixes.push_back((keys.m_prefixes.empty() ? "" : ",") + indent + quoted + ": ");
    }
    return keys;
}

void JsonStreamWriter::key(const ObjectKeys& keys, size_t i)
{
    // Only where the keys were made for, in order: anything else would print another document than key(name).
    if (m_afterKey || m_counts.size() != keys.m_depth || m_counts.back() != i || i >= keys.m_prefixes.size())
        throw std::logic_error("JsonStreamWriter: object key out of place");
    ++m_counts.back();
    m_buf.append(keys.m_prefixes[i]);
    m_afterKey = true;
}

void JsonStreamWriter::null()
{
    beforeValue();
    raw("null");
}

void JsonStreamWriter::value(int64_t v)
{
    beforeValue();
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
    raw(std::string_view(digits, static_cast<size_t>(end - digits)));
}

void JsonStreamWriter::value(double v)
{
    beforeValue();
    // What dump() prints for a double (its serializer's dump_float), without building a json value per number:
    // null when not finite, else nlohmann's shortest round-trip digits.
    if (!std::isfinite(v)) {
        raw("null");
        return;
    }
    std::array<char, 64> digits {};
    const char* end = nlohmann::detail::to_chars(digits.data(), digits.data() + digits.size(), v);
    raw(std::string_view(digits.data(), static_cast<size_t>(end - digits.data())));
}

void JsonStreamWriter::value(bool v)
{
    beforeValue();
    raw(v ? "true" : "false");
}

void JsonStreamWriter::value(std::string_view v)
{
    beforeValue();
    writeString(v);
}

void JsonStreamWriter::writeString(std::string_view v)
{
    if (plainAscii(v)) {
        m_buf.push_back('"');
        m_buf.append(v);
        m_buf.push_back('"');
        raw({});
    } else {
        // Escapes and UTF-8 checks exactly as dump (invalid UTF-8 throws, as it did).
        raw(nlohmann::ordered_json(std::string(v)).dump());
    }
}

void JsonStreamWriter::value(const nlohmann::ordered_json& v)
{
    beforeValue();
    // dump(2) of the subtree at depth 0, then every line shifted to this depth (a string never holds a raw newline).
    const std::string text = v.dump(static_cast<int>(kIndent));
    const std::string shift(m_counts.size() * kIndent, ' ');
    size_t start = 0;
    for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
        m_buf.append(text, start, nl + 1 - start);
        m_buf.append(shift);
        start = nl + 1;
    }
    m_buf.append(text, start);
    raw({});
}

void JsonStreamWriter::finish()
{
    m_out.write(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
    m_buf.clear();
    m_out.flush();
}

} // namespace npuscope::query

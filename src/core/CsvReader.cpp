// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/CsvReader.h"

#include "npuscope/core/Decimal.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <system_error>

namespace npuscope {

namespace {

constexpr size_t kChunk = 1 << 20;
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Bytes below 0x20 other than TAB, LF and CR never occur in CSV text.
bool isBinaryByte(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

} // namespace

CsvReader::~CsvReader()
{
    if (m_file)
        std::fclose(m_file);
}

bool CsvReader::open(const std::string& path, std::string& error)
{
    if (m_file) {
        std::fclose(m_file);
        m_file = nullptr;
    }
    // fopen() accepts a directory on POSIX and only the first read fails, with a less helpful message.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        error = "is a directory";
        return false;
    }
    m_file = std::fopen(path.c_str(), "rb");
    if (!m_file) {
        error = std::strerror(errno);
        return false;
    }
    // Small files (most summary CSVs are a few KB) get a buffer their size: zero-filling 1 MiB per
    // file dominated opening a 1,000-rank cluster.
    const auto size = std::filesystem::file_size(path, ec);
    m_buffer.resize(ec ? kChunk : std::clamp<size_t>(static_cast<size_t>(size) + 1, 4096, kChunk));
    m_pos = m_end = 0;
    m_bufferOffset = m_recordOffset = m_recordEnd = 0;
    m_line = 1;
    m_recordLine = 0;
    m_unterminatedQuote = m_binary = m_tooLarge = false;
    m_first = true;
    // Look at the whole first chunk now: a binary file can start with a text-like first line ("\x89PNG\r\n").
    fill();
    m_binary = std::any_of(m_buffer.begin() + static_cast<std::ptrdiff_t>(m_pos),
        m_buffer.begin() + static_cast<std::ptrdiff_t>(m_end), isBinaryByte);
    return true;
}

void CsvReader::openText(std::string text)
{
    if (m_file) {
        std::fclose(m_file);
        m_file = nullptr;
    }
    m_buffer.assign(text.begin(), text.end());
    m_pos = 0;
    m_end = m_buffer.size();
    m_bufferOffset = m_recordOffset = m_recordEnd = 0;
    m_line = 1;
    m_recordLine = 0;
    m_unterminatedQuote = m_tooLarge = false;
    m_first = false;
    m_binary = std::any_of(m_buffer.begin(), m_buffer.end(), isBinaryByte);
}

bool CsvReader::fill()
{
    if (!m_file)
        return false;
    m_bufferOffset += m_end;
    m_end = std::fread(m_buffer.data(), 1, m_buffer.size(), m_file);
    m_pos = 0;
    if (m_first && std::string_view(m_buffer.data(), m_end).starts_with(kUtf8Bom))
        m_pos = kUtf8Bom.size();
    m_first = false;
    return m_end > m_pos;
}

bool CsvReader::next(std::vector<std::string>& fields)
{
    fields.clear();
    if (m_tooLarge)
        return false;
    for (;;) {
        std::string current;
        bool inQuotes = false;
        bool quotedField = false;
        bool any = false;
        size_t recordBytes = 0;
        m_recordLine = m_line;
        for (;;) {
            if (m_pos >= m_end && !fill()) {
                // End of file.
                if (inQuotes)
                    m_unterminatedQuote = true;
                if (any || !current.empty() || !fields.empty()) {
                    fields.push_back(std::move(current));
                    m_recordEnd = m_bufferOffset + m_pos;
                    return true;
                }
                return false;
            }
            if (++recordBytes > m_maxRecordBytes) {
                m_tooLarge = true;
                fields.clear();
                return false;
            }
            if (recordBytes == 1)
                m_recordOffset = m_bufferOffset + m_pos;
            const char c = m_buffer[m_pos++];
            any = true;
            if (isBinaryByte(c))
                m_binary = true;
            if (inQuotes) {
                if (c == '"') {
                    if (m_pos >= m_end)
                        fill();
                    if (m_pos < m_end && m_buffer[m_pos] == '"') {
                        current.push_back('"');
                        ++m_pos;
                        ++recordBytes;
                    } else {
                        inQuotes = false;
                    }
                } else {
                    if (c == '\n')
                        ++m_line;
                    current.push_back(c);
                }
                continue;
            }
            if (c == '"' && current.empty() && !quotedField) {
                inQuotes = true;
                quotedField = true;
            } else if (c == ',') {
                fields.push_back(std::move(current));
                current.clear();
                quotedField = false;
            } else if (c == '\n') {
                ++m_line;
                if (!current.empty() && current.back() == '\r')
                    current.pop_back();
                fields.push_back(std::move(current));
                break;
            } else {
                current.push_back(c);
            }
        }
        // Skip blank lines.
        if (fields.size() == 1 && trim(fields[0]).empty()) {
            fields.clear();
            continue;
        }
        m_recordEnd = m_bufferOffset + m_pos;
        return true;
    }
}

CsvHeader::CsvHeader(const std::vector<std::string>& names)
{
    m_names.reserve(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        std::string_view trimmed = trim(names[i]);
        if (i == 0 && trimmed.starts_with(kUtf8Bom)) // CsvReader drops it, a header built elsewhere may not
            trimmed = trim(trimmed.substr(kUtf8Bom.size()));
        std::string name(trimmed);
        m_names.push_back(name);
        m_index.emplace(name, static_cast<int>(i));
    }
}

int CsvHeader::find(std::initializer_list<std::string_view> names) const
{
    for (auto n : names) {
        if (auto it = m_index.find(std::string(n)); it != m_index.end())
            return it->second;
    }
    return -1;
}

} // namespace npuscope

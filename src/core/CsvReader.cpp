// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/CsvReader.h"

#include "npuscope/core/Decimal.h"

#include <cerrno>
#include <cstring>

namespace npuscope {

namespace {
constexpr size_t kChunk = 1 << 20;
}

CsvReader::~CsvReader()
{
    if (m_file)
        std::fclose(m_file);
}

bool CsvReader::open(const std::string& path, std::string& error)
{
    m_file = std::fopen(path.c_str(), "rb");
    if (!m_file) {
        error = std::strerror(errno);
        return false;
    }
    m_buffer.resize(kChunk);
    return true;
}

bool CsvReader::fill()
{
    if (!m_file)
        return false;
    m_end = std::fread(m_buffer.data(), 1, m_buffer.size(), m_file);
    m_pos = 0;
    if (m_first && m_end >= 3 && static_cast<unsigned char>(m_buffer[0]) == 0xEF
        && static_cast<unsigned char>(m_buffer[1]) == 0xBB && static_cast<unsigned char>(m_buffer[2]) == 0xBF)
        m_pos = 3; // UTF-8 BOM
    m_first = false;
    return m_end > m_pos;
}

bool CsvReader::next(std::vector<std::string>& fields)
{
    fields.clear();
    for (;;) {
        std::string current;
        bool inQuotes = false;
        bool quotedField = false;
        bool any = false;
        m_recordLine = m_line;
        for (;;) {
            if (m_pos >= m_end && !fill()) {
                // End of file.
                if (inQuotes)
                    m_unterminatedQuote = true;
                if (any || !current.empty() || !fields.empty()) {
                    fields.push_back(std::move(current));
                    return true;
                }
                return false;
            }
            const char c = m_buffer[m_pos++];
            any = true;
            if (c == '\0' || (static_cast<unsigned char>(c) < 0x08))
                m_binary = true;
            if (inQuotes) {
                if (c == '"') {
                    if (m_pos >= m_end)
                        fill();
                    if (m_pos < m_end && m_buffer[m_pos] == '"') {
                        current.push_back('"');
                        ++m_pos;
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
        return true;
    }
}

CsvHeader::CsvHeader(const std::vector<std::string>& names)
{
    m_names.reserve(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        std::string name(trim(names[i]));
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

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npuscope::query {

// The distinct strings of an in-memory index (op names, groups, transports), each stored once and named by a dense
// id from 0. Interning a std::string_view looks it up without building a std::string, so an index reading hundreds
// of thousands of SQLite rows (Statement::textView) allocates once per distinct string, not once per row.
// Not thread-safe while interning; immutable afterwards.
class StringTable {
public:
    // The id of s, added when new; -1 for nullopt (SQL NULL).
    int32_t intern(std::optional<std::string_view> s)
    {
        if (!s)
            return -1;
        if (auto it = m_ids.find(*s); it != m_ids.end())
            return it->second;
        const auto id = static_cast<int32_t>(m_strings.size());
        m_strings.emplace_back(*s);
        m_ids.emplace(m_strings.back(), id);
        return id;
    }
    // The id of s, -1 when it was never interned.
    int32_t id(std::string_view s) const
    {
        const auto it = m_ids.find(s);
        return it == m_ids.end() ? -1 : it->second;
    }
    const std::string& text(int32_t id) const { return m_strings[static_cast<size_t>(id)]; }
    size_t size() const { return m_strings.size(); }

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view> {}(s); }
    };
    std::vector<std::string> m_strings;
    std::unordered_map<std::string, int32_t, Hash, std::equal_to<>> m_ids;
};

} // namespace npuscope::query

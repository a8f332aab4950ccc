// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace npuscope {

// One entry of an enum's table of fixed names (JSON keys, settings values, titles marked with QT_TRANSLATE_NOOP):
//
//   constexpr EnumName<Severity> kSeverityNames[] { { Severity::Info, "info" }, { Severity::Warning, "warning" } };
//   const char* severityName(Severity s) { return nameOf(kSeverityNames, s, "info"); }
//
// The table is the one place a value's name is written: nameOf reads it one way, valueOf the other. Several values
// may share a name (valueOf then gives the first). Any thread.
template <typename E> struct EnumName {
    E value;
    const char* name;
};

// The first entry of table whose value is value; nullptr when there is none. For tables whose entries carry more
// than one text (a key and a title).
template <typename Entry, std::size_t N, typename E> constexpr const Entry* entryOf(const Entry (&table)[N], E value)
{
    for (const Entry& e : table) {
        if (e.value == value)
            return &e;
    }
    return nullptr;
}

// The name of value in table, fallback when the table does not list it (an out-of-range or combined value).
template <typename E, std::size_t N>
constexpr const char* nameOf(const EnumName<E> (&table)[N], E value, const char* fallback)
{
    const EnumName<E>* e = entryOf(table, value);
    return e ? e->name : fallback;
}

// The value table names name (compared exactly), nullopt when no entry has that name.
template <typename E, std::size_t N>
constexpr std::optional<E> valueOf(const EnumName<E> (&table)[N], std::string_view name)
{
    for (const EnumName<E>& e : table) {
        if (name == e.name)
            return e.value;
    }
    return std::nullopt;
}

} // namespace npuscope

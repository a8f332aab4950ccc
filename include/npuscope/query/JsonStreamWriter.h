// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::query {

// Writes one JSON document to a stream piece by piece, byte for byte as nlohmann::ordered_json::dump(2) prints the
// same document built in memory (so a report's contract does not depend on how it is written), without holding
// the document: large arrays (the links of a 1,024-rank cluster) are written element by element. Scalars go
// through nlohmann's own number and string formatting; small subtrees may be passed whole (value(ojson)).
// Output is buffered and flushed to the stream in blocks and by finish(). One thread; the stream must outlive it.
class JsonStreamWriter {
public:
    explicit JsonStreamWriter(std::ostream& out);
    JsonStreamWriter(const JsonStreamWriter&) = delete;
    JsonStreamWriter& operator=(const JsonStreamWriter&) = delete;

    // Containers, at a value position (the document itself, after key(), or an array element).
    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    // The next member's key inside an object; its value follows.
    void key(std::string_view name);

    void null();
    void value(int64_t v);
    void value(int v) { value(static_cast<int64_t>(v)); }
    void value(double v);
    void value(bool v);
    void value(std::string_view v);
    void value(const char* v) { value(std::string_view(v)); }
    void value(const std::string& v) { value(std::string_view(v)); }
    void value(const nlohmann::ordered_json& v); // a whole subtree (small parts of a report)
    template <typename T> void value(const std::optional<T>& v)
    {
        if (v)
            value(*v);
        else
            null();
    }
    // key(name) then value(v).
    template <typename T> void member(std::string_view name, const T& v)
    {
        key(name);
        value(v);
    }

    // The members of objects written many times with the same keys in the same order (the links of a big
    // cluster): what goes before each value (separator, line break, indentation, quoted key) rendered once, for
    // objects that are elements of the array open now. Same bytes as key(name) for each.
    class ObjectKeys {
    public:
        size_t size() const { return m_prefixes.size(); }

    private:
        friend class JsonStreamWriter;
        size_t m_depth = 0; // the objects' member depth (open containers while a member is written)
        std::vector<std::string> m_prefixes;
    };
    ObjectKeys objectKeys(std::initializer_list<std::string_view> names) const;
    // Member i of keys (members in order from 0) inside an object begun at the position keys were made for.
    void key(const ObjectKeys& keys, size_t i);
    template <typename T> void member(const ObjectKeys& keys, size_t i, const T& v)
    {
        key(keys, i);
        value(v);
    }

    // Writes what is buffered to the stream (call at the end; the destructor does not).
    void finish();

private:
    void beforeValue();
    void open(char bracket);
    void close(char bracket);
    void newline(size_t depth);
    void raw(std::string_view text);
    void writeString(std::string_view v); // a quoted, escaped string, no separator

    std::ostream& m_out;
    std::string m_buf;
    std::vector<size_t> m_counts; // per open container, the members / elements written so far
    bool m_afterKey = false;
};

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
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

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/model/InsertStatement.h"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace npuscope::model {

// One prepared INSERT built from a table name and its column list, so each column is named once:
// the SQL is "<verb> <table>(c1, ..., cN) VALUES (?1, ..., ?N)<tail>" (rows times for a multi-row
// insert) and insert() binds exactly N values per row, checked at compile time. Text values are bound without a
// copy (InsertStatement): they must stay alive until insert() / run() returns.
// Used by the model writers on their thread only.
template <std::size_t N> class TableInsert {
public:
    using Columns = std::array<const char*, N>;

    TableInsert(Database& db, std::string_view table, const Columns& columns, std::string_view tail = {},
        std::string_view verb = "INSERT INTO", std::size_t rows = 1)
        : m_st(db, sql(table, columns, tail, verb, rows))
    {
    }

    // Binds one row's values in column order and runs the statement.
    template <typename... T> void insert(const T&... values)
    {
        bindRow(0, values...);
        m_st.run();
    }

    // Binds the values of row `row` (0-based) of a multi-row statement; run() inserts all rows (bind every row
    // before each run: the bindings of the last run are not cleared).
    template <typename... T> void bindRow(std::size_t row, const T&... values)
    {
        static_assert(sizeof...(T) == N, "one value per column");
        int index = static_cast<int>(row * N);
        (m_st.bind(++index, values), ...);
    }
    // Binds one value by its 1-based position in the statement, for a row whose columns come from a table
    // (kStepColumns) rather than a fixed list; bind every position, then run().
    template <typename T> void bindAt(int position, const T& value)
    {
        if (position < 1 || static_cast<std::size_t>(position) > N)
            throw DbError("TableInsert::bindAt: position " + std::to_string(position) + " outside 1.." + std::to_string(N));
        m_st.bind(position, value);
    }
    void run() { m_st.run(); }

    static std::string sql(
        std::string_view table, const Columns& columns, std::string_view tail, std::string_view verb, std::size_t rows)
    {
        std::string s(verb);
        s += ' ';
        s += table;
        s += '(';
        for (std::size_t c = 0; c < N; ++c) {
            // A braced list shorter than N leaves null names: a writer bug, reported before any row.
            if (!columns[c])
                throw DbError("INSERT INTO " + std::string(table) + ": fewer column names than values");
            if (c)
                s += ", ";
            s += columns[c];
        }
        s += ") VALUES ";
        for (std::size_t r = 0; r < rows; ++r) {
            s += r ? ",(" : "(";
            for (std::size_t c = 0; c < N; ++c) {
                s += c ? ",?" : "?";
                s += std::to_string(r * N + c + 1);
            }
            s += ')';
        }
        s += tail;
        return s;
    }

private:
    InsertStatement m_st;
};

} // namespace npuscope::model

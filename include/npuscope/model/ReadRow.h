// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npuscope::model {

// The read side of TableInsert::insert: reads the current row's columns 0, 1, ... into fields, in the order of the
// SELECT list, each by its field's type, so a query that fills a struct names each field once and no column index:
//
//   while (st.step()) { RankInfo r; readRow(st, r.rank, r.device, r.path); out.push_back(std::move(r)); }
//
// int64_t, double and std::string read as Statement::int64 / real / readText (NULL: 0, 0.0, ""), their optionals
// as nullopt for NULL, bool as an integer that is not 0. Call after step() returned true; the statement's thread.
inline void readColumn(const Statement& st, int col, int64_t& out) { out = st.int64(col); }
inline void readColumn(const Statement& st, int col, double& out) { out = st.real(col); }
inline void readColumn(const Statement& st, int col, bool& out) { out = st.int64(col) != 0; }
inline void readColumn(const Statement& st, int col, std::string& out) { st.readText(col, out); }
inline void readColumn(const Statement& st, int col, std::optional<std::string>& out) { st.readText(col, out); }
inline void readColumn(const Statement& st, int col, std::optional<int64_t>& out) { out = st.optInt(col); }
inline void readColumn(const Statement& st, int col, std::optional<double>& out) { out = st.optReal(col); }

template <typename... T> void readRow(const Statement& st, T&... fields)
{
    int col = 0;
    (readColumn(st, col++, fields), ...);
}

// The first column of every row of sql as integers, in row order (a list of ranks or steps).
inline std::vector<int64_t> readInts(Database& db, std::string_view sql)
{
    std::vector<int64_t> out;
    Statement st = db.prepare(sql);
    while (st.step())
        out.push_back(st.int64(0));
    return out;
}

// A lookup of one row: sql prepared on db with binds bound to ?1, ?2, ... in order and stepped onto its first row;
// nullopt when there is none. `auto st = firstRow(db, "SELECT ... WHERE id = ?1", id); if (!st) return std::nullopt;`
template <typename... B> std::optional<Statement> firstRow(Database& db, std::string_view sql, const B&... binds)
{
    Statement st = db.prepare(sql);
    int index = 0;
    (st.bind(++index, binds), ...);
    if (!st.step())
        return std::nullopt;
    return std::optional<Statement>(std::move(st));
}

} // namespace npuscope::model

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/db/SqliteExport.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/GroupHash.h"
#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/model/Rows.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace npuscope::io {

namespace {

bool equalsNoCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

} // namespace

SqliteExport::SqliteExport(const std::string& path)
    : m_db(model::Database::openReadOnly(path))
{
    loadColumns();
}

void SqliteExport::loadColumns()
{
    std::vector<std::string> tables;
    {
        auto st = m_db->prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')");
        while (st.step())
            tables.push_back(st.text(0));
    }
    for (const auto& t : tables) {
        auto& cols = m_columns[t];
        // Table names come from sqlite_master; quote them anyway (some exports use odd names).
        std::string quoted = "\"";
        for (char c : t)
            quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
        quoted += '"';
        auto st = m_db->prepare("PRAGMA table_info(" + quoted + ")");
        while (st.step())
            cols.insert(st.text(1));
    }
}

bool SqliteExport::hasTable(std::string_view table) const { return m_columns.count(std::string(table)) > 0; }

std::string SqliteExport::column(std::string_view table, std::initializer_list<std::string_view> names) const
{
    const auto it = m_columns.find(std::string(table));
    if (it == m_columns.end())
        return {};
    for (auto n : names) {
        if (it->second.count(std::string(n)))
            return std::string(n);
    }
    for (auto n : names) {
        for (const auto& c : it->second) {
            if (equalsNoCase(c, n))
                return c;
        }
    }
    return {};
}

std::string SqliteExport::columnOrNull(std::string_view table, std::initializer_list<std::string_view> names) const
{
    const std::string c = column(table, names);
    return c.empty() ? std::string("NULL") : c;
}

std::optional<std::string> SqliteExport::string(std::optional<int64_t> id)
{
    if (!id)
        return std::nullopt;
    if (!m_stringsLoaded) {
        m_stringsLoaded = true;
        if (hasTable("STRING_IDS")) {
            auto st = m_db->prepare("SELECT id, value FROM STRING_IDS");
            while (st.step()) {
                if (!st.isNull(0))
                    m_strings.emplace(st.int64(0), st.optText(1).value_or(std::string()));
            }
        }
    }
    const auto it = m_strings.find(*id);
    if (it == m_strings.end())
        return std::nullopt;
    return it->second;
}

std::optional<std::string> SqliteExport::enumName(const std::string& enumTable, std::optional<int64_t> id)
{
    if (!id)
        return std::nullopt;
    auto found = m_enums.find(enumTable);
    if (found == m_enums.end()) {
        found = m_enums.emplace(enumTable, std::unordered_map<int64_t, std::string> {}).first;
        if (hasTable(enumTable) && !column(enumTable, { "id" }).empty() && !column(enumTable, { "name" }).empty()) {
            auto st = m_db->prepare("SELECT id, name FROM \"" + enumTable + "\"");
            while (st.step()) {
                if (!st.isNull(0))
                    found->second.emplace(st.int64(0), st.optText(1).value_or(std::string()));
            }
        }
    }
    const auto it = found->second.find(*id);
    if (it == found->second.end())
        return std::nullopt;
    return it->second;
}

std::optional<std::string> SqliteExport::label(const std::string& enumTable, std::optional<int64_t> id)
{
    if (auto name = enumName(enumTable, id))
        return name;
    return string(id);
}

std::optional<std::string> SqliteExport::stringAt(std::optional<int64_t> id)
{
    if (!id || !hasTable("STRING_IDS"))
        return std::nullopt;
    if (m_stringsLoaded)
        return string(id);
    auto st = m_db->prepare("SELECT value FROM STRING_IDS WHERE id = ?1");
    st.bind(1, *id);
    if (!st.step())
        return std::nullopt;
    return st.optText(0);
}

std::string SqliteExport::firstTable(std::initializer_list<std::string_view> tables) const
{
    for (auto t : tables) {
        if (hasTable(t))
            return std::string(t);
    }
    return {};
}

std::optional<int64_t> SqliteExport::scaledNs(const model::Statement& st, int col, double nsPerUnit)
{
    if (st.isNull(col) || isMissing(trim(st.text(col))))
        return std::nullopt;
    return doubleToNs(st.real(col), nsPerUnit);
}

std::optional<double> SqliteExport::real(const model::Statement& st, int col)
{
    if (st.isNull(col) || isMissing(trim(st.text(col))))
        return std::nullopt;
    return st.real(col);
}

std::optional<std::string> SqliteExport::groupHashOf(const std::optional<std::string>& group)
{
    if (!group || group->empty())
        return std::nullopt;
    // analysis.db writes the '@' number; an export that writes the raw HCCL group name gets it hashed.
    const bool digits = std::all_of(group->begin(), group->end(), [](unsigned char c) { return std::isdigit(c); });
    return digits ? *group : groupDoubleHashText(*group);
}

bool SqliteExport::importWith(ImportContext& ctx, const std::function<void(SqliteExport&)>& read)
{
    std::unique_ptr<SqliteExport> db;
    try {
        db = std::make_unique<SqliteExport>(ctx.file());
    } catch (const model::DbError& e) {
        ctx.error(
            std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "not a readable SQLite export: %1"), { e.what() }));
        return false;
    }
    try {
        read(*db);
    } catch (const model::DbError& e) {
        // A damaged export: what was read before stays; the model itself is a different connection.
        ctx.error(
            std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "reading the export failed: %1"), { e.what() }));
        ctx.finish();
        return false;
    }
    ctx.finish();
    return true;
}

void readCommAnalyzerTimes(const model::Statement& st, int first, model::CommOpRow& r)
{
    r.elapseNs = SqliteExport::scaledNs(st, first, 1.0e6);
    r.transitNs = SqliteExport::scaledNs(st, first + 1, 1.0e6);
    r.waitNs = SqliteExport::scaledNs(st, first + 2, 1.0e6);
    r.syncNs = SqliteExport::scaledNs(st, first + 3, 1.0e6);
    r.idleNs = SqliteExport::scaledNs(st, first + 4, 1.0e6);
}

void CommAnalyzerBandwidthRows::add(ImportContext& ctx, const model::Statement& st, int first, int64_t commOpId,
    const std::string& transport, std::optional<int64_t> count)
{
    auto [bwIt, added] = m_bandwidthIds.emplace(std::make_pair(commOpId, transport), 0);
    if (added) {
        model::CommBandwidthRow bw;
        bw.commOpId = commOpId;
        bw.transport = transport;
        bw.sizeMb = SqliteExport::real(st, first);
        bw.transitNs = SqliteExport::scaledNs(st, first + 1, 1.0e6);
        bw.bandwidthGbps = SqliteExport::real(st, first + 2);
        bw.largePacketRatio = SqliteExport::real(st, first + 3);
        bwIt->second = ctx.writer().addCommBandwidth(bw);
    }
    const auto packageMb = SqliteExport::real(st, first + 4);
    if (!packageMb || (*packageMb == 0 && count.value_or(0) == 0))
        return;
    model::CommPacketRow p;
    p.commBandwidthId = bwIt->second;
    p.packageMb = *packageMb;
    p.count = count;
    p.totalNs = SqliteExport::scaledNs(st, first + 6, 1.0e6);
    ctx.writer().addCommPacket(p);
}

} // namespace npuscope::io

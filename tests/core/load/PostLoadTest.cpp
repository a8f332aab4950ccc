// SPDX-License-Identifier: Apache-2.0
// PostLoad on hand-made models: parallel_group_info entries read without a DOM keep the DOM's rules,
// facts collected per model and appended equal facts collected from the merged model.
#include "npuscope/load/PostLoad.h"
#include "npuscope/core/GroupHash.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/model/ParallelGroupTable.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace npuscope;
using namespace npuscope::model;
using namespace npuscope::load;

namespace {

std::string members(Database& db, const std::string& raw)
{
    auto st = db.prepare("SELECT local_rank, global_rank FROM comm_group_rank WHERE group_hash = ?1 ORDER BY 1");
    st.bind(1, groupDoubleHashText(raw));
    std::string out;
    while (st.step())
        out += std::to_string(st.int64(0)) + ">" + std::to_string(st.int64(1)) + " ";
    return out;
}

std::optional<std::string> groupColumn(Database& db, const std::string& raw, const char* column)
{
    auto st = db.prepare(std::string("SELECT ") + column + " FROM comm_group WHERE group_hash = ?1");
    st.bind(1, groupDoubleHashText(raw));
    if (!st.step())
        return std::string("<no group>");
    return st.optText(0);
}

// An entry written as the importers do: parsed, and only when it names members.
void addGroupEntry(ModelWriter& writer, int64_t rank, std::string_view raw, std::string_view json)
{
    if (const auto row = ParallelGroupTable::fromJson(rank, raw, nlohmann::json::parse(json, nullptr, false)))
        writer.addParallelGroup(*row);
}

} // namespace

TEST(PostLoad, ParallelGroupInfoKeepsTheDomRules)
{
    auto db = Database::createModel();
    ModelWriter writer(*db);
    writer.begin();
    addGroupEntry(writer, 0, "g1", R"({"group_name": "tp", "global_ranks": [4, 0, 2], "group_rank": 1})");
    // Repeated keys: the last one counts; only integer elements of the array itself are ranks.
    addGroupEntry(
        writer, 0, "g2", R"({"global_ranks": [9], "global_ranks": [3, [7], 1.5, 1, {"a": 2}, "4"], "group_name": 5})");
    addGroupEntry(writer, 0, "g3", R"({"global_ranks": "0,1", "group_name": "x"})");
    addGroupEntry(writer, 0, "g4", R"({"global_ranks": [0, 1)");
    addGroupEntry(writer, 0, "g5", R"([{"global_ranks": [0, 1]}])");
    addGroupEntry(writer, 0, "g6", R"({"global_ranks": [0, 1], "global_ranks": null})");
    // The same group from a second rank (its own group_rank): the later entry wins, as before.
    addGroupEntry(writer, 1, "g1", R"({"group_name": "tp2", "global_ranks": [4, 0, 6], "group_rank": 2})");
    PostLoad::resolveGroups(*db, writer);
    writer.commit();

    EXPECT_EQ(members(*db, "g1"), "0>0 1>4 2>6 ");
    EXPECT_EQ(groupColumn(*db, "g1", "name"), "tp2");
    EXPECT_EQ(groupColumn(*db, "g1", "ranks_source"), "metadata");
    EXPECT_EQ(members(*db, "g2"), "0>1 1>3 ");
    EXPECT_EQ(groupColumn(*db, "g2", "name"), std::nullopt);
    for (const char* raw : { "g3", "g4", "g5", "g6" }) {
        EXPECT_EQ(members(*db, raw), "") << raw;
        EXPECT_EQ(groupColumn(*db, raw, "name"), "<no group>") << raw;
    }
}

TEST(PostLoad, FactsOfSeveralModelsEqualFactsOfTheMergedModel)
{
    auto link = [](int64_t rank, const char* hash, std::optional<int64_t> src, std::optional<int64_t> dst,
                    std::optional<int64_t> gs, std::optional<int64_t> gd) {
        CommLinkRow r;
        r.rankId = rank;
        r.kind = "collective";
        r.matrixOp = "allreduce-top1";
        r.groupHash = hash;
        r.localSrc = src;
        r.localDst = dst;
        r.src = gs;
        r.dst = gd;
        return r;
    };
    const std::vector<std::vector<CommLinkRow>> parts {
        { link(0, "h1", 0, 0, 0, 0), link(0, "h1", 0, 1, 0, 1), link(0, "h2", 1, 0, std::nullopt, std::nullopt) },
        { link(1, "h1", 1, 1, 1, 1), link(1, "h1", 1, 1, 1, 1), link(1, "h3", std::nullopt, std::nullopt, 2, 3) },
    };
    auto merged = Database::createModel();
    ModelWriter all(*merged);
    all.begin();
    GroupFacts appended;
    for (const auto& part : parts) {
        auto db = Database::createModel();
        ModelWriter w(*db);
        w.begin();
        for (const auto& l : part) {
            w.addCommLink(l);
            all.addCommLink(l);
        }
        w.commit();
        appended.append(PostLoad::collectGroupFacts(*db));
    }
    all.commit();
    const GroupFacts whole = PostLoad::collectGroupFacts(*merged);
    EXPECT_EQ(appended.hashes, whole.hashes);
    EXPECT_EQ(appended.unresolvedLinks, whole.unresolvedLinks);
    EXPECT_EQ(whole.unresolvedLinks, 1);
    ASSERT_EQ(appended.links.size(), whole.links.size());
    for (size_t i = 0; i < whole.links.size(); ++i) {
        EXPECT_FALSE(appended.links[i] < whole.links[i] || whole.links[i] < appended.links[i]) << i;
    }
    EXPECT_EQ(whole.links.size(), 3u); // h1 0-0, h2 1-0 (unresolved), h1 1-1 once
}

TEST(PostLoad, FactsAfterIdsAreThoseOfTheRowsWrittenLater)
{
    auto link = [](int64_t rank, const char* hash, int64_t src, int64_t dst, std::optional<int64_t> global) {
        CommLinkRow r;
        r.rankId = rank;
        r.kind = "collective";
        r.matrixOp = "allgather-top1";
        r.groupHash = hash;
        r.localSrc = src;
        r.localDst = dst;
        r.src = global;
        r.dst = global;
        return r;
    };
    const std::vector<CommLinkRow> first { link(0, "h1", 0, 0, 0), link(0, "h2", 0, 1, std::nullopt) };
    const std::vector<CommLinkRow> later { link(1, "h1", 1, 1, 1), link(1, "h3", 1, 0, std::nullopt),
        link(1, "h3", 1, 1, 1) };
    // One model with both, the later rows written after lastIds (as a load's thread 0 writes batch after batch).
    auto both = Database::createModel();
    CommRowsAfter after;
    {
        ModelWriter w(*both);
        w.begin();
        for (const auto& l : first)
            w.addCommLink(l);
        w.commit();
        after = CommGroupSources::lastIds(*both);
        EXPECT_GT(after.linkOp, 0);
        w.begin();
        for (const auto& l : later)
            w.addCommLink(l);
        w.commit();
    }
    auto alone = Database::createModel();
    {
        ModelWriter w(*alone);
        w.begin();
        for (const auto& l : later)
            w.addCommLink(l);
        w.commit();
    }
    const GroupFacts limited = PostLoad::collectGroupFacts(*both, after);
    const GroupFacts expected = PostLoad::collectGroupFacts(*alone);
    EXPECT_EQ(limited.hashes, expected.hashes);
    EXPECT_EQ(limited.hashes, (std::set<std::string> { "h1", "h3" }));
    EXPECT_EQ(limited.unresolvedLinks, 1);
    ASSERT_EQ(limited.links.size(), expected.links.size());
    for (size_t i = 0; i < expected.links.size(); ++i)
        EXPECT_FALSE(limited.links[i] < expected.links[i] || expected.links[i] < limited.links[i]) << i;
    EXPECT_EQ(PostLoad::collectGroupFacts(*both).hashes.size(), 3u);
}

// addCommLink writes links in multi-row batches: every link reads back through the comm_link view, in file order
// and with its op, across batch boundaries, op changes inside a batch and a commit in the middle of an op.
TEST(ModelWriterLinks, BatchedLinksReadBackInOrderWithTheirOps)
{
    auto db = Database::createModel();
    const std::vector<std::pair<const char*, int>> ops { { "allreduce-top1", 100 }, { "allreduce-total", 64 },
        { "broadcast-top1", 7 }, { "allgather-top1", 1 } };
    {
        ModelWriter w(*db);
        w.begin();
        int written = 0;
        for (const auto& [name, links] : ops) {
            for (int i = 0; i < links; ++i) {
                CommLinkRow r;
                r.rankId = 3;
                r.kind = "collective";
                r.matrixOp = name;
                r.groupHash = "g";
                r.localSrc = 0;
                r.localDst = i;
                r.transport = i % 2 ? "HCCS" : "RDMA";
                r.sizeMb = i * 0.5;
                r.opName = std::string(name) + "_" + std::to_string(i % 3);
                w.addCommLink(r);
                if (++written == 70) {
                    w.commit(); // inside the first op: its range goes on after the commit
                    w.begin();
                }
            }
        }
        w.commit();
    }
    EXPECT_EQ(db->scalarInt("SELECT COUNT(*) FROM comm_link_op"), 4);
    EXPECT_EQ(db->scalarInt("SELECT COUNT(*) FROM comm_link_row"), 172);
    auto st = db->prepare("SELECT matrix_op, COUNT(*), MIN(local_dst), MAX(local_dst), SUM(local_dst), "
                          "SUM(transport = 'HCCS'), SUM(size_mb), COUNT(DISTINCT op_name) FROM comm_link "
                          "GROUP BY link_op ORDER BY MIN(link_seq)");
    for (const auto& [name, links] : ops) {
        ASSERT_TRUE(st.step()) << name;
        EXPECT_EQ(st.text(0), name);
        EXPECT_EQ(st.int64(1), links) << name;
        EXPECT_EQ(st.int64(2), 0) << name;
        EXPECT_EQ(st.int64(3), links - 1) << name;
        EXPECT_EQ(st.int64(4), links * (links - 1) / 2) << name;
        EXPECT_EQ(st.int64(5), links / 2) << name;
        EXPECT_DOUBLE_EQ(st.real(6), 0.5 * links * (links - 1) / 2) << name;
        EXPECT_EQ(st.int64(7), std::min(links, 3)) << name;
    }
    EXPECT_FALSE(st.step());
    // File order: link_seq follows local_dst inside each op.
    EXPECT_EQ(db->scalarInt("SELECT COUNT(*) FROM comm_link a JOIN comm_link b ON a.link_op = b.link_op "
                            "AND a.link_seq < b.link_seq AND a.local_dst > b.local_dst"),
        0);
}

// Op rows wait for their links and go in 32 at a time with their row range; a second writer on the same model numbers
// its ops after the first one's, and an op a commit cut keeps one range over both transactions.
TEST(ModelWriterLinks, OpRowRangesCoverExactlyTheirLinks)
{
    auto db = Database::createModel();
    int written = 0;
    auto addOps = [&](ModelWriter& w, int rank, int ops, int commitAt) {
        for (int op = 0; op < ops; ++op) {
            for (int i = 0; i <= op % 4; ++i) {
                CommLinkRow r;
                r.rankId = rank;
                r.step = op / 10;
                r.kind = "collective";
                r.matrixOp = "allreduce-top" + std::to_string(op);
                r.groupHash = "g";
                r.localDst = i;
                w.addCommLink(r);
                if (++written == commitAt) {
                    w.commit();
                    w.begin();
                }
            }
        }
    };
    {
        ModelWriter w(*db);
        w.begin();
        addOps(w, 0, 75, 105); // link 105 is the second of op 42's three
        w.commit();
    }
    {
        ModelWriter w(*db);
        w.begin();
        addOps(w, 1, 40, -1);
        w.commit();
    }
    EXPECT_EQ(db->scalarInt("SELECT COUNT(*) FROM comm_link_op"), 115);
    EXPECT_EQ(db->scalarInt("SELECT COUNT(DISTINCT id) FROM comm_link_op"), 115);
    // Every op's range is exactly its links, which are consecutive rows.
    EXPECT_EQ(db->scalarInt("WITH c AS (SELECT op_id, COUNT(*) n, MIN(id) lo, MAX(id) hi FROM comm_link_row "
                            "GROUP BY op_id) SELECT COUNT(*) FROM comm_link_op o JOIN c ON c.op_id = o.id "
                            "WHERE o.first_row = c.lo AND o.last_row = c.hi AND c.hi - c.lo + 1 = c.n"),
        115);
    // Ops are numbered in the order their links came.
    EXPECT_EQ(db->scalarInt("SELECT COUNT(*) FROM comm_link_op a JOIN comm_link_op b ON a.id < b.id "
                            "AND a.first_row > b.first_row"),
        0);
    EXPECT_EQ(db->scalarInt("SELECT COUNT(*) FROM comm_link_op WHERE rank_id = 1"), 40);
}

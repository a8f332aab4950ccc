// SPDX-License-Identifier: Apache-2.0
// The same run in text and db form gives the same model. No real sample holds both forms of one run (the 2-rank
// level samples' text and db folders are different runs), so the generator writes both: analysis.db is filled from
// the very text files written for the same rank (FORMATS.md §10 layout), and the two imports are compared value for
// value: step breakdown, communication ops, bandwidth and packets, matrix links, and the views' figures.
#include "TestSupport.h"

#include "npuscope/testgen/ClusterGenerator.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/CommAnalysisQuery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace fs = std::filesystem;
using namespace npuscope;

namespace {

std::unique_ptr<model::Database> generateAndLoad(const fs::path& dir, bool analysisDb)
{
    testgen::GeneratorOptions o;
    o.outDir = dir.string();
    o.ranks = 8;
    o.pp = 2;
    o.tp = 2;
    o.dp = 2;
    o.steps = 3;
    o.traceMb = 0;
    o.slowLink = std::make_pair(2, 3);
    o.analysisDb = analysisDb;
    std::string error;
    if (!testgen::ClusterGenerator::generate(o, error)) {
        ADD_FAILURE() << error;
        return nullptr;
    }
    load::LoadOptions options;
    options.loadTimelines = false;
    options.cache = nullptr; // no parse cache
    return load::Loader::load(io::Detector::detect({ dir.string() }), options);
}

// REAL columns are printed with 17 significant digits (printf in SQL), so doubles compare exactly.
std::string exact(const std::string& column) { return "printf('%.17g', " + column + ")"; }

// Every row of sql as text cells ("∅" for NULL), keyed by the first keyColumns cells.
using Rows = std::map<std::vector<std::string>, std::vector<std::string>>;
Rows rows(model::Database& db, const std::string& sql, int keyColumns)
{
    Rows out;
    auto st = db.prepare(sql);
    while (st.step()) {
        std::vector<std::string> key, values;
        for (int i = 0; i < st.columnCount(); ++i)
            (i < keyColumns ? key : values).push_back(st.isNull(i) ? std::string("∅") : st.text(i));
        EXPECT_TRUE(out.emplace(key, values).second) << "duplicate key in: " << sql;
    }
    return out;
}

void expectSameRows(model::Database& text, model::Database& db, const std::string& sql, int keyColumns)
{
    SCOPED_TRACE(sql);
    const Rows a = rows(text, sql, keyColumns);
    const Rows b = rows(db, sql, keyColumns);
    ASSERT_FALSE(a.empty());
    ASSERT_EQ(a.size(), b.size());
    for (const auto& [key, values] : a) {
        const auto it = b.find(key);
        ASSERT_NE(it, b.end());
        EXPECT_EQ(values, it->second);
    }
}

class TextVsDb : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_dirs = new test::ScratchDir;
        s_text = generateAndLoad(s_dirs->path() / "text", false).release();
        s_db = generateAndLoad(s_dirs->path() / "db", true).release();
    }
    static void TearDownTestSuite()
    {
        delete s_text;
        delete s_db;
        delete s_dirs;
    }
    static test::ScratchDir* s_dirs;
    static model::Database* s_text;
    static model::Database* s_db;
};

test::ScratchDir* TextVsDb::s_dirs = nullptr;
model::Database* TextVsDb::s_text = nullptr;
model::Database* TextVsDb::s_db = nullptr;

} // namespace

TEST_F(TextVsDb, TheDbFormIsTheOneImported)
{
    ASSERT_TRUE(s_text && s_db);
    EXPECT_EQ(s_db->scalarInt("SELECT COUNT(*) FROM rank_file WHERE kind = 'analysis_db' AND status = 'loaded'"), 8);
    EXPECT_EQ(s_db->scalarInt("SELECT COUNT(*) FROM rank_file WHERE kind IN ('step_trace_time', 'communication', "
                              "'communication_matrix') AND status = 'loaded'"),
        0);
    EXPECT_EQ(s_text->scalarInt("SELECT COUNT(*) FROM rank_file WHERE kind = 'analysis_db'"), 0);
    EXPECT_EQ(s_text->scalarInt("SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
    EXPECT_EQ(s_db->scalarInt("SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
}

TEST_F(TextVsDb, StepBreakdownIsEqual)
{
    ASSERT_TRUE(s_text && s_db);
    expectSameRows(*s_text, *s_db,
        "SELECT rank_id, step, computing_ns, communication_not_overlapped_ns, overlapped_ns, communication_ns, "
        "free_ns, stage_ns, bubble_ns, communication_not_overlapped_exclude_receive_ns, preparing_ns FROM step_trace",
        2);
}

TEST_F(TextVsDb, CommunicationOpsAreEqual)
{
    ASSERT_TRUE(s_text && s_db);
    // Every duration and ratio is compared exactly. Start Timestamp(us) travels as a double in the db (as in the
    // real export): at epoch µs a double keeps about 0.25 µs, so the start is compared to within 1 µs below.
    expectSameRows(*s_text, *s_db,
        "SELECT rank_id, step, kind, op_name, group_hash, op_type, elapse_ns, transit_ns, wait_ns, "
        "sync_ns, idle_ns, " + exact("wait_ratio") + ", " + exact("sync_ratio") + " FROM comm_op WHERE is_total = 0",
        5);
    const std::string starts = "SELECT rank_id, step, kind, op_name, group_hash, start_ns FROM comm_op WHERE is_total = 0";
    const Rows a = rows(*s_text, starts, 5);
    const Rows b = rows(*s_db, starts, 5);
    int64_t worst = 0;
    for (const auto& [key, v] : a)
        worst = std::max<int64_t>(worst, std::llabs(std::stoll(v[0]) - std::stoll(b.at(key)[0])));
    EXPECT_LE(worst, 1000);
}

TEST_F(TextVsDb, BandwidthAndPacketsAreEqual)
{
    ASSERT_TRUE(s_text && s_db);
    // Transports with no traffic (size 0, time 0, no packets) are not in the db export, as in the real one.
    const std::string bw
        = "SELECT o.rank_id, o.step, o.kind, o.op_name, o.group_hash, b.transport, printf('%.17g', b.size_mb), b.transit_ns, "
          "printf('%.17g', b.bandwidth_gbps), printf('%.17g', b.large_packet_ratio) FROM comm_bandwidth b JOIN comm_op o ON o.id = b.comm_op_id "
          "WHERE o.is_total = 0 AND (b.size_mb > 0 OR b.transit_ns > 0 OR EXISTS (SELECT 1 FROM comm_packet p "
          "WHERE p.comm_bandwidth_id = b.id))";
    expectSameRows(*s_text, *s_db, bw, 6);
    expectSameRows(*s_text, *s_db,
        "SELECT o.rank_id, o.step, o.kind, o.op_name, o.group_hash, b.transport, printf('%.17g', p.package_mb), p.count, "
        "p.total_ns "
        "FROM comm_packet p JOIN comm_bandwidth b ON b.id = p.comm_bandwidth_id JOIN comm_op o ON o.id = "
        "b.comm_op_id WHERE o.is_total = 0",
        7);
}

TEST_F(TextVsDb, MatrixLinksAreEqual)
{
    ASSERT_TRUE(s_text && s_db);
    expectSameRows(*s_text, *s_db,
        "SELECT rank_id, step, kind, matrix_op, group_hash, local_src, local_dst, op_type, slot, src, dst, "
        "transport, " + exact("size_mb") + ", time_ns, " + exact("bandwidth_gbps") + ", op_name FROM comm_link",
        7);
}

TEST_F(TextVsDb, TheViewsShowTheSameFigures)
{
    ASSERT_TRUE(s_text && s_db);
    query::CommSelection all;
    const auto a = query::CommAnalysisQuery::durations(*s_text, all);
    const auto b = query::CommAnalysisQuery::durations(*s_db, all);
    ASSERT_EQ(a.size(), 8u);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        SCOPED_TRACE(a[i].rank);
        EXPECT_EQ(a[i].rank, b[i].rank);
        EXPECT_EQ(a[i].opCount, b[i].opCount);
        EXPECT_EQ(a[i].elapseNs, b[i].elapseNs);
        EXPECT_EQ(a[i].transitNs, b[i].transitNs);
        EXPECT_EQ(a[i].waitNs, b[i].waitNs);
        EXPECT_EQ(a[i].waitRatio, b[i].waitRatio);
        // Σsize over many ops: the db rows come in another order than the JSON objects, so the floating sums may
        // differ in the last bit.
        for (const auto& [x, y] : { std::pair { a[i].sdmaBandwidthGbps, b[i].sdmaBandwidthGbps },
                 std::pair { a[i].rdmaBandwidthGbps, b[i].rdmaBandwidthGbps } }) {
            ASSERT_EQ(x.has_value(), y.has_value());
            if (x) {
                EXPECT_NEAR(*x, *y, 1e-12 * *x);
            }
        }
    }
    // The planted slow link (global 2 -> 3) is the slowest link of both.
    const auto la = query::CommAnalysisQuery::linkTable(*s_text, {});
    const auto lb = query::CommAnalysisQuery::linkTable(*s_db, {});
    ASSERT_FALSE(la.empty());
    ASSERT_EQ(la.size(), lb.size());
    EXPECT_EQ(std::tie(la[0].src, la[0].dst), std::tie(lb[0].src, lb[0].dst));
    ASSERT_TRUE(la[0].bandwidthGbps && lb[0].bandwidthGbps);
    EXPECT_NEAR(*la[0].bandwidthGbps, *lb[0].bandwidthGbps, 1e-12 * *la[0].bandwidthGbps);
    EXPECT_TRUE((la[0].src == 2 && la[0].dst == 3) || (la[0].src == 3 && la[0].dst == 2));
}

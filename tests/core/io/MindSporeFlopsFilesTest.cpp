// SPDX-License-Identifier: Apache-2.0
// MindSpore's FLOPs files (issue 38, point 3): flops_{rank}.txt in both header forms, flops_scope_{rank}.json and the
// newer flops_summary keys, on MindInsight's real test folder (tests/data/mindspore_flops_profiler) and on small
// broken copies. Expected values are read off the input files (their SOURCE.txt says what they hold).
#include "TestSupport.h"

#include "npuscope/io/mindspore/MindSporeFlopsScopeImporter.h"
#include "npuscope/io/mindspore/MindSporeOpFlopsImporter.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/model/Database.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/query/FlopsQuery.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

using namespace npuscope;
using npuscope::test::count;
using npuscope::test::dataDir;
using npuscope::test::openFolder;
using npuscope::test::real;
using npuscope::test::ScratchDir;
using npuscope::test::text;
using npuscope::test::writeFile;

namespace {

const std::filesystem::path kFolder = dataDir() / "mindspore_flops_profiler";

// One file imported by its importer alone into a fresh model, as rank `rank`.
std::unique_ptr<model::Database> importOne(
    bool (*run)(io::ImportContext&), const std::filesystem::path& file, int64_t rank = 0, bool* ok = nullptr)
{
    auto db = model::Database::createModel();
    model::ModelWriter writer(*db);
    writer.begin();
    io::ImportContext ctx(writer, rank, file.string());
    const bool result = run(ctx);
    writer.commit();
    if (ok)
        *ok = result;
    return db;
}

} // namespace

TEST(MindSporeFlopsFiles, TotalFormPerOpFileIsLoadedWithTheRank)
{
    auto db = openFolder(kFolder);
    ASSERT_TRUE(db);
    // flops_0.txt: header + 4 ops, each "333, 333, 33" (MFLOPs, GFLOPS, %); no final newline.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM op_flops WHERE rank_id = 0"), 4);
    EXPECT_EQ(text(*db, "SELECT name FROM op_flops WHERE line = 2"), "Default/Cast-op6");
    EXPECT_EQ(text(*db, "SELECT name FROM op_flops WHERE line = 4"),
        "Default/network-WithLossCell/_backbone-ResNet/conv1-Conv2d/Cast-op5");
    EXPECT_EQ(text(*db, "SELECT name FROM op_flops WHERE line = 5"),
        "Default/network-WithLossCell/_backbone-ResNet/layer1-SequentialCell/0-ResidualBlock/conv1-Conv2d/Cast-op28");
    EXPECT_DOUBLE_EQ(real(*db, "SELECT flops FROM op_flops WHERE line = 3"), 333e6);
    EXPECT_DOUBLE_EQ(real(*db, "SELECT flops_per_s FROM op_flops WHERE line = 3"), 333e9);
    EXPECT_DOUBLE_EQ(real(*db, "SELECT utilization_pct FROM op_flops WHERE line = 3"), 33.0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM op_flops WHERE cube_flops IS NOT NULL OR vec_flops IS NOT NULL"), 0);
    // flops_1.txt has no rank 1 data file beside it: not planned, as detection plans the flat folder.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM op_flops WHERE rank_id = 1"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity <> 'info'"), 0);
}

TEST(MindSporeFlopsFiles, CubeAndVectorFormKeepsBothUnitsAndSumsThem)
{
    bool ok = false;
    auto db = importOne(&io::MindSporeOpFlopsImporter::run, kFolder / "flops_1.txt", 1, &ok);
    ASSERT_TRUE(ok);
    // 10 ops, each "333, 333, 33, 333, 333, 33": cube then vector MFLOPs, GFLOPS, utilisation.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM op_flops WHERE rank_id = 1"), 10);
    EXPECT_EQ(text(*db, "SELECT name FROM op_flops WHERE line = 11"),
        "Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op9");
    EXPECT_DOUBLE_EQ(real(*db, "SELECT cube_flops FROM op_flops WHERE line = 2"), 333e6);
    EXPECT_DOUBLE_EQ(real(*db, "SELECT vec_flops_per_s FROM op_flops WHERE line = 2"), 333e9);
    EXPECT_DOUBLE_EQ(real(*db, "SELECT cube_utilization_pct FROM op_flops WHERE line = 2"), 33.0);
    EXPECT_DOUBLE_EQ(real(*db, "SELECT vec_utilization_pct FROM op_flops WHERE line = 2"), 33.0);
    EXPECT_DOUBLE_EQ(real(*db, "SELECT flops FROM op_flops WHERE line = 2"), 666e6);
    EXPECT_DOUBLE_EQ(real(*db, "SELECT flops_per_s FROM op_flops WHERE line = 2"), 666e9);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM op_flops WHERE utilization_pct IS NOT NULL"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue"), 0);
}

TEST(MindSporeFlopsFiles, BadLinesAreReportedWithFileAndLine)
{
    ScratchDir dir;
    const auto file = dir.path() / "flops_3.txt";
    // MindSpore FlopsParser's own header (trailing space included), a good line, a line without a name, a line whose
    // FLOPS is not a number.
    writeFile(file,
        "op_full_name, MFLOPs(10^6), GFLOPS(10^9), FLOPS utilization(%) \n"
        "Default/MatMul-op1, 2.5, 10, 1.5\n"
        ", 1, 1, 1\n"
        "Default/Add-op2, 4, fast, 2\n");
    bool ok = false;
    auto db = importOne(&io::MindSporeOpFlopsImporter::run, file, 3, &ok);
    ASSERT_TRUE(ok);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM op_flops"), 2);
    EXPECT_DOUBLE_EQ(real(*db, "SELECT flops FROM op_flops WHERE line = 2"), 2.5e6);
    EXPECT_DOUBLE_EQ(real(*db, "SELECT flops_per_s FROM op_flops WHERE line = 2"), 10e9);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM op_flops WHERE line = 4 AND flops = 4e6 AND flops_per_s IS NULL"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE line = 3 AND file LIKE '%flops_3.txt'"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE line = 4 AND file LIKE '%flops_3.txt'"), 1);

    const auto notFlops = dir.path() / "flops_4.txt";
    writeFile(notFlops, "name,value\nx,1\n");
    auto bad = importOne(&io::MindSporeOpFlopsImporter::run, notFlops, 4, &ok);
    EXPECT_FALSE(ok);
    EXPECT_EQ(count(*bad,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error' AND line = 1 AND message LIKE "
                  "'flops_4.txt: not a MindSpore FLOPs file%'"),
        1);
}

TEST(MindSporeFlopsFiles, ScopeLinksAndDepthAreImported)
{
    auto db = openFolder(kFolder);
    ASSERT_TRUE(db);
    // 34 links; "Total -> Default" 4655.465 and "Total -> Gradients" 3512.277 MFLOPs; max_scope_num 7.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM flops_scope_link WHERE rank_id = 0"), 34);
    EXPECT_DOUBLE_EQ(
        real(*db, "SELECT flops FROM flops_scope_link WHERE source = 'Total' AND target = 'Default'"), 4655.465e6);
    EXPECT_DOUBLE_EQ(
        real(*db, "SELECT flops FROM flops_scope_link WHERE source = 'Total' AND target = 'Gradients'"), 3512.277e6);
    EXPECT_EQ(text(*db, "SELECT value FROM rank_info WHERE key = 'flops_scope.max_scope_num'"), "7");
}

TEST(MindSporeFlopsFiles, BadScopeLinksAreReportedAndSkipped)
{
    ScratchDir dir;
    const auto file = dir.path() / "flops_scope_2.json";
    writeFile(file,
        R"({"data": {"nodes": [], "links": [{"source": "Total", "target": "Default", "value": 5},)"
        R"j({"source": "Default", "value": 1}, {"source": "Default", "target": "a(Default)", "value": "x"}, 7]}})j");
    bool ok = false;
    auto db = importOne(&io::MindSporeFlopsScopeImporter::run, file, 2, &ok);
    ASSERT_TRUE(ok);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM flops_scope_link"), 1);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'warning' AND message LIKE "
                  "'flops_scope_2.json: link #%'"),
        3);

    writeFile(file, R"({"data": {"nodes": []}})");
    importOne(&io::MindSporeFlopsScopeImporter::run, file, 2, &ok);
    EXPECT_FALSE(ok);
}

// No real sample has the newer summary keys (every flops_summary_*.json under ../shared/samples has FLOPs, FLOPS and
// FLOPS_Utilization): the file is written here with the four keys MindSpore's AscendFlopsGenerator writes, beside a
// real step_trace_raw file so the flat folder has a rank.
TEST(MindSporeFlopsFiles, NewerSummaryKeysAreSummedAndKept)
{
    ScratchDir dir;
    std::filesystem::copy_file(
        dataDir() / "mindspore_flat_profiler" / "tiny_fixture" / "step_trace_raw_1_detail_time.csv",
        dir.path() / "step_trace_raw_1_detail_time.csv");
    writeFile(dir.path() / "flops_summary_1.json",
        R"({"cube_FLOPs": 1200.5, "cube_FLOPS": 3.25, "vec_FLOPs": 40.25, "vec_FLOPS": 0.5, "future_key": 1,)"
        R"( "FLOPS_Utilization": "n/a"})");
    auto db = openFolder(dir.path());
    ASSERT_TRUE(db);
    const auto s = query::FlopsQuery::perRank(*db);
    ASSERT_EQ(s.ranks.size(), 1u);
    const auto& r = s.ranks[0];
    EXPECT_EQ(r.source, query::FlopsSource::MindSporeSummary);
    EXPECT_DOUBLE_EQ(r.flops, (1200.5 + 40.25) * 1e6);
    ASSERT_TRUE(r.reportedFlopsPerSecond.has_value());
    EXPECT_DOUBLE_EQ(*r.reportedFlopsPerSecond, (3.25 + 0.5) * 1e9);
    EXPECT_DOUBLE_EQ(r.cubeFlops.value_or(0), 1200.5e6);
    EXPECT_DOUBLE_EQ(r.vecFlops.value_or(0), 40.25e6);
    EXPECT_DOUBLE_EQ(r.cubeFlopsPerSecond.value_or(0), 3.25e9);
    EXPECT_DOUBLE_EQ(r.vecFlopsPerSecond.value_or(0), 0.5e9);
    EXPECT_FALSE(r.utilizationPercent.has_value());
    // The unknown key is kept and not reported; the non-numeric figure is, naming the file.
    EXPECT_EQ(text(*db, "SELECT value FROM rank_info WHERE key = 'flops_summary.future_key'"), "1");
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE message LIKE '%future_key%'"), 0);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'warning' AND file LIKE "
                  "'%flops_summary_1.json' AND message LIKE 'flops_summary_1.json: FLOPS_Utilization is not a "
                  "number%'"),
        1);
}

TEST(MindSporeFlopsFiles, TotalsWinOverPartsWhenBothAreWritten)
{
    ScratchDir dir;
    std::filesystem::copy_file(
        dataDir() / "mindspore_flat_profiler" / "tiny_fixture" / "step_trace_raw_1_detail_time.csv",
        dir.path() / "step_trace_raw_1_detail_time.csv");
    writeFile(dir.path() / "flops_summary_1.json", R"({"FLOPs": 10, "FLOPS": 2, "cube_FLOPs": 7, "vec_FLOPs": 1})");
    auto db = openFolder(dir.path());
    ASSERT_TRUE(db);
    const auto s = query::FlopsQuery::perRank(*db);
    ASSERT_EQ(s.ranks.size(), 1u);
    EXPECT_DOUBLE_EQ(s.ranks[0].flops, 10e6);
    EXPECT_DOUBLE_EQ(s.ranks[0].flopsPerSecond(), 2e9);
    EXPECT_DOUBLE_EQ(s.ranks[0].cubeFlops.value_or(0), 7e6);
    EXPECT_DOUBLE_EQ(s.ranks[0].vecFlops.value_or(0), 1e6);
    EXPECT_FALSE(s.ranks[0].cubeFlopsPerSecond.has_value());
}

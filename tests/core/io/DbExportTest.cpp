// SPDX-License-Identifier: Apache-2.0
// SQLite db exports (ascend_pytorch_profiler_{rank}.db + analysis.db): detection, import, and the comparison
// with the text export of the same job. The db and text samples are DIFFERENT runs of the same 8-rank job
// (tests/data/torch_npu_2rank_db/SOURCE.txt), so text vs db compares structure and counts; values are compared
// only inside one run (analysis.db vs ascend_pytorch_profiler_{rank}.db, and each db against sqlite3 reads of it).
#include "TestSupport.h"

#include "npuscope/core/GroupHash.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/StepQuery.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::ScratchDir;
using npuscope::test::count;
using npuscope::test::openModel;

namespace {

fs::path dbCase(const char* level) { return dataDir() / "torch_npu_2rank_db" / level; }

// Rows of a query as strings, for multiset comparisons.
std::multiset<std::string> rows(model::Database& db, const std::string& sql)
{
    std::multiset<std::string> out;
    auto st = db.prepare(sql);
    while (st.step()) {
        std::string r;
        for (int c = 0; c < st.columnCount(); ++c)
            r += (c ? "|" : "") + st.optText(c).value_or("NULL");
        out.insert(r);
    }
    return out;
}

} // namespace

TEST(DbExport, DetectorPlansDbOnlyRankFolders)
{
    const auto plan = io::Detector::detect({ dbCase("level1").string() });
    ASSERT_EQ(plan.ranks.size(), 2u);
    for (const auto& r : plan.ranks) {
        std::set<std::string> kinds;
        for (const auto& f : r.files)
            kinds.insert(io::fileKindName(f.kind));
        EXPECT_EQ(kinds,
            (std::set<std::string> { "profiler_info", "profiler_db", "analysis_db", "profiler_db_timeline" }))
            << r.rank;
        EXPECT_EQ(r.rankSource, "file_name");
    }
    for (const auto& i : plan.issues)
        EXPECT_NE(i.severity, "error") << i.message;
}

TEST(DbExport, FileKindNames)
{
    io::FileKind k;
    ASSERT_TRUE(io::fileKindOf("ascend_pytorch_profiler_3.db", k));
    EXPECT_EQ(k, io::FileKind::ProfilerDb);
    ASSERT_TRUE(io::fileKindOf("ascend_pytorch_profiler.db", k));
    EXPECT_EQ(k, io::FileKind::ProfilerDb);
    ASSERT_TRUE(io::fileKindOf("ascend_mindspore_profiler_0.db", k));
    EXPECT_EQ(k, io::FileKind::ProfilerDb);
    ASSERT_TRUE(io::fileKindOf("analysis.db", k));
    EXPECT_EQ(k, io::FileKind::AnalysisDb);
    EXPECT_FALSE(io::fileKindOf("ascend_pytorch_profiler_x.db", k));
    ASSERT_TRUE(io::fileKindOf("msprof_0.db", k));
    EXPECT_EQ(k, io::FileKind::ProfilerDb);
    ASSERT_TRUE(io::fileKindOf("report_0.db", k)); // CANN msprof's older export name (2024-03)
    EXPECT_EQ(k, io::FileKind::ProfilerDb);
    EXPECT_FALSE(io::fileKindOf("report.db", k));
}

TEST(DbExport, RankFromDbFileNameWithoutProfilerInfo)
{
    ScratchDir dir;
    const auto out = dir.path() / "worker_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
    fs::create_directories(out);
    fs::copy_file(dbCase("level0") / "rank1_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_1.db",
        out / "ascend_pytorch_profiler_1.db");
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    EXPECT_EQ(plan.ranks[0].rank, 1);
    EXPECT_EQ(plan.ranks[0].rankSource, "file_name");
}

TEST(DbExport, Level1MatchesTheDbTables)
{
    auto db = openModel({ dbCase("level1").string() }, true);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank_file WHERE status <> 'loaded'"), 0);
    // Step breakdown: analysis.db StepTraceTime (µs) of rank 0: 50|8903.431|98071.947|4036.153|102108.1|25258.144|
    // 132233.522|0|98071.947|18055.693
    const auto steps = query::StepQuery::breakdown(*db);
    ASSERT_EQ(steps.size(), 2u);
    using C = query::StepColumn;
    EXPECT_EQ(steps[0].rank, 0);
    EXPECT_EQ(steps[0].step, 50);
    EXPECT_EQ(steps[0].value(C::Computing), 8903431);
    EXPECT_EQ(steps[0].value(C::CommunicationNotOverlapped), 98071947);
    EXPECT_EQ(steps[0].value(C::Overlapped), 4036153);
    EXPECT_EQ(steps[0].value(C::Communication), 102108100);
    EXPECT_EQ(steps[0].value(C::Free), 25258144);
    EXPECT_EQ(steps[0].value(C::Stage), 132233522);
    EXPECT_EQ(steps[0].value(C::Bubble), 0);
    EXPECT_EQ(steps[0].value(C::Preparing), 18055693);
    EXPECT_EQ(steps[1].value(C::Computing), 8915634);
    for (const auto& r : steps) {
        EXPECT_LE(
            std::llabs(*r.value(C::Communication) - *r.value(C::CommunicationNotOverlapped) - *r.value(C::Overlapped)),
            2);
    }
    // Devices from RANK_DEVICE_MAP, host from HOST_INFO.
    EXPECT_EQ(count(*db, "SELECT device_id FROM rank WHERE rank_id = 1"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank WHERE host = 'ubuntu' AND export_type = 'db'"), 2);

    // Communication: 4 ops per rank (CommAnalyzerTime), HCCS + SDMA per op, 48 links per rank (CommAnalyzerMatrix).
    for (int rank = 0; rank < 2; ++rank) {
        const std::string where = " WHERE rank_id = " + std::to_string(rank);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op" + where), 4);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_bandwidth b JOIN comm_op o ON o.id = b.comm_op_id" + where), 8);
        EXPECT_EQ(count(*db,
                      "SELECT COUNT(*) FROM comm_packet p JOIN comm_bandwidth b ON b.id = p.comm_bandwidth_id "
                      "JOIN comm_op o ON o.id = b.comm_op_id"
                          + where),
            8);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link" + where), 48);
    }
    const std::string hash = groupDoubleHashText("90.91.105.46%enp189s0f0_60000_0_1736410538306028");
    auto ops = query::CommQuery::ops(*db, { 50, hash, 0, false });
    ASSERT_EQ(ops.size(), 4u);
    EXPECT_EQ(ops[0].opKey, "hcom_allReduce__210_0_1@" + hash);
    EXPECT_EQ(ops[0].opType, "allReduce");
    EXPECT_EQ(ops[0].elapseNs, 88750993); // 88.75099321875 ms
    EXPECT_EQ(ops[0].transitNs, 228565); // 0.22856459375 ms
    EXPECT_EQ(ops[0].waitNs, 3568891); // 3.56889128125 ms
    ASSERT_TRUE(ops[0].waitRatio);
    EXPECT_DOUBLE_EQ(*ops[0].waitRatio, 0.9398); // 3.5689 / (3.5689 + 0.2286), 4 decimals as the text export
    EXPECT_EQ(
        count(*db,
            "SELECT p.count FROM comm_packet p JOIN comm_bandwidth b ON b.id = p.comm_bandwidth_id JOIN comm_op o "
            "ON o.id = b.comm_op_id WHERE o.rank_id = 0 AND o.op_name = 'hcom_allReduce__210_0_1' AND "
            "b.transport = 'HCCS' AND p.package_mb = 2.064384"),
        12);
    const auto groups = query::CommQuery::groups(*db);
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_EQ(groups[0].ranks.size(), 8u);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link WHERE src IS NULL OR dst IS NULL"), 0);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM comm_link WHERE rank_id = 0 AND matrix_op = 'allreduce-top1' AND src = 0 AND "
                  "dst = 1 AND transport = 'HCCS' AND op_name = 'hcom_allReduce__210_2_1' AND time_ns = 2234105"),
        1);

    // Kernels: TASK x COMPUTE_TASK_INFO (187) + COMMUNICATION_OP (4) per rank, first one trans_TransData_0.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel WHERE rank_id = 0"), 191);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel WHERE rank_id = 0 AND accelerator_core = 'HCCL'"), 4);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel WHERE step = 50"), count(*db, "SELECT COUNT(*) FROM kernel"));
    auto first
        = db->prepare("SELECT s.value, k.ts, k.dur, k.block_dim, k.input_shapes, k.accelerator_core, k.wait_ns "
                      "FROM kernel k JOIN string s ON s.id = k.name_id WHERE k.rank_id = 0 ORDER BY k.ts LIMIT 1");
    ASSERT_TRUE(first.step());
    EXPECT_EQ(first.text(0), "trans_TransData_0");
    EXPECT_EQ(first.text(4), "32,3,224,224");
    EXPECT_EQ(first.text(5), "AI_VECTOR_CORE");
    EXPECT_EQ(first.int64(3), 32);
    EXPECT_EQ(first.int64(6), 0);
}

TEST(DbExport, AnalysisAndProfilerDbOfOneRunAgree)
{
    // Same run, two files: CommAnalyzerTime (analysis.db, start µs as REAL, elapse ms) against COMMUNICATION_OP
    // (profiler db, ns integers) must describe the same ops.
    auto db = openModel({ dbCase("level1").string() }, true);
    ASSERT_TRUE(db);
    auto st = db->prepare("SELECT o.rank_id, o.op_name, o.start_ns, o.elapse_ns, k.ts, k.dur FROM comm_op o "
                          "JOIN kernel k ON k.rank_id = o.rank_id AND k.accelerator_core = 'HCCL' AND "
                          "k.name_id = (SELECT id FROM string WHERE value = o.op_name) ORDER BY o.rank_id, o.start_ns");
    int matched = 0;
    while (st.step()) {
        ++matched;
        // As written, analysis.db start_timestamp is 13-22 µs later than COMMUNICATION_OP.startNs (and is a REAL
        // of 15-16 significant digits); the elapse times agree to the ns.
        EXPECT_LE(std::llabs(st.int64(2) - st.int64(4)), 50000) << st.text(1);
        EXPECT_LE(std::llabs(st.int64(3) - st.int64(5)), 2) << st.text(1);
    }
    EXPECT_EQ(matched, 8);
}

TEST(DbExport, Level0HasStepsButNoCommunication)
{
    auto db = openModel({ dbCase("level0").string() }, true);
    ASSERT_TRUE(db);
    const auto steps = query::StepQuery::breakdown(*db);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[0].value(query::StepColumn::Computing), 8843910);
    EXPECT_EQ(steps[1].value(query::StepColumn::Preparing), 18002802);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link"), 0);
    EXPECT_GT(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'info' AND message LIKE "
                  "'no CommAnalyzerTime table%'"),
        0);
}

TEST(DbExport, TextAndDbOfTheSameJobHaveTheSameStructure)
{
    auto text = openModel({ (dataDir() / "torch_npu_2rank_level1").string() }, true);
    auto db = openModel({ dbCase("level1").string() }, true);
    ASSERT_TRUE(text && db);
    // Steps: same ranks and step ids; values differ (different runs).
    const auto ts = query::StepQuery::breakdown(*text);
    const auto ds = query::StepQuery::breakdown(*db);
    ASSERT_EQ(ts.size(), ds.size());
    for (size_t i = 0; i < ts.size(); ++i) {
        EXPECT_EQ(ts[i].rank, ds[i].rank);
        EXPECT_EQ(ts[i].step, ds[i].step);
        for (size_t c = 0; c < query::kStepColumnCount; ++c)
            EXPECT_EQ(ts[i].values[c].has_value(), ds[i].values[c].has_value()) << "column " << c;
    }
    // Communication ops: same ops per rank and step once the run-specific hash parts are removed
    // (hcom_allReduce__586_0_1 in text, hcom_allReduce__210_0_1 in db: the 3 digits are a per-run hash).
    const std::string opShape = "SELECT rank_id, step, kind, op_type, substr(op_name, instr(op_name, '__') + 5) FROM "
                                "comm_op WHERE is_total = 0";
    EXPECT_EQ(rows(*text, opShape), rows(*db, opShape));
    const std::string bwShape = "SELECT o.rank_id, substr(o.op_name, instr(o.op_name, '__') + 5), b.transport FROM "
                                "comm_bandwidth b JOIN comm_op o ON o.id = b.comm_op_id WHERE o.is_total = 0 AND "
                                "b.size_mb > 0";
    EXPECT_EQ(rows(*text, bwShape), rows(*db, bwShape));
    // Packet sizes are properties of the model (same tensors), so they match across runs.
    const std::string packetShape = "SELECT o.rank_id, b.transport, p.package_mb, p.count FROM comm_packet p JOIN "
                                    "comm_bandwidth b ON b.id = p.comm_bandwidth_id JOIN comm_op o ON o.id = "
                                    "b.comm_op_id WHERE o.is_total = 0";
    EXPECT_EQ(rows(*text, packetShape), rows(*db, packetShape));
    // Links: same (rank, matrix op, src, dst, transport) set, global ranks resolved in both.
    const std::string linkShape = "SELECT rank_id, step, kind, matrix_op, src, dst, transport FROM comm_link";
    EXPECT_EQ(rows(*text, linkShape), rows(*db, linkShape));
    // Kernels: same kernels (name, type, core, block dim, shapes) per rank.
    const std::string kernelShape = "SELECT k.rank_id, k.step, CASE WHEN k.accelerator_core = 'HCCL' THEN "
                                    "substr(s.value, instr(s.value, '__') + 5) ELSE s.value END, t.value, "
                                    "k.accelerator_core, k.block_dim, k.input_shapes, k.output_shapes FROM kernel k "
                                    "JOIN string s ON s.id = k.name_id LEFT JOIN string t ON t.id = k.type_id";
    EXPECT_EQ(rows(*text, kernelShape), rows(*db, kernelShape));
}

TEST(DbExport, RankFolderWithTextAndDbUsesTheDb)
{
    ScratchDir dir;
    const auto rankDir = dir.path() / "rank0_ascend_pt";
    fs::copy(dataDir() / "torch_npu_2rank_level1" / "rank0_ascend_pt", rankDir, fs::copy_options::recursive);
    fs::permissions(rankDir / "ASCEND_PROFILER_OUTPUT", fs::perms::owner_all);
    for (const char* f : { "analysis.db", "ascend_pytorch_profiler_0.db" })
        fs::copy_file(dbCase("level1") / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / f,
            rankDir / "ASCEND_PROFILER_OUTPUT" / f);
    const auto plan = io::Detector::detect({ dir.path().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    std::set<std::string> kinds;
    for (const auto& f : plan.ranks[0].files)
        kinds.insert(io::fileKindName(f.kind));
    // The timeline comes from the db too; op and api statistics, which no db table holds, from the text files.
    EXPECT_EQ(kinds,
        (std::set<std::string> { "profiler_info", "profiler_metadata", "profiler_db", "analysis_db",
            "profiler_db_timeline", "api_statistic", "op_statistic" }));
    bool said = false;
    for (const auto& i : plan.issues)
        said = said
            || (i.severity == "info" && i.message.find("each kind of data comes from one file") != std::string::npos);
    EXPECT_TRUE(said);
    auto db = load::Loader::load(plan);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT computing_ns FROM step_trace"), 8903431); // the db's value, not the text's
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op"), 4); // no text "Total Op Info" row: text not imported
}

TEST(DbExport, CannMsprofDbGivesKernels)
{
    const auto dir = dataDir() / "cann_msprof_db";
    const auto plan = io::Detector::detect({ dir.string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    ASSERT_EQ(plan.ranks[0].files.size(), 2u); // the db, and its timeline (deferred)
    EXPECT_EQ(plan.ranks[0].files[0].kind, io::FileKind::ProfilerDb);
    EXPECT_EQ(plan.ranks[0].files[1].kind, io::FileKind::ProfilerDbTimeline);
    auto db = openModel({ dir.string() }, true);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
    // TASK x COMPUTE_TASK_INFO: 11 rows; no STEP_TIME table, so no step.
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel"), 11);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel WHERE step IS NOT NULL"), 0);
    auto first
        = db->prepare("SELECT s.value, k.ts, k.dur FROM kernel k JOIN string s ON s.id = k.name_id ORDER BY k.ts "
                      "LIMIT 1");
    ASSERT_TRUE(first.step());
    EXPECT_EQ(first.text(0), "aclnnInplaceZero_ZerosLikeAiCore_ZerosLike");
    EXPECT_EQ(first.int64(1), 1698220811392354694);
    EXPECT_EQ(first.int64(2), 612092);
}

// A folder name with the characters a SQLite URI gives a meaning to ('#', '?', '%') still opens the exports in it
// (read-only, immutable) and nothing else.
TEST(DbExport, DbExportsInAFolderWithUriCharacters)
{
    npuscope::test::ScratchDir dir;
    const fs::path odd = dir.path() / "run#1 ?x%41";
    fs::create_directories(odd);
    for (const char* name : { "analysis.db", "ascend_pytorch_profiler_0.db" })
        fs::copy_file(dataDir() / "torch_npu_2rank_db" / "level1" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / name,
            odd / name);
    auto db = load::Loader::load(io::Detector::detect({ odd.string() }));
    ASSERT_TRUE(db);
    EXPECT_EQ(db->scalarInt("SELECT COUNT(*) FROM step_trace").value_or(-1), 1);
    EXPECT_EQ(db->scalarInt("SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'").value_or(-1), 0);
    EXPECT_GT(db->scalarInt("SELECT COUNT(*) FROM comm_op").value_or(-1), 0);
    // Nothing was written next to the exports.
    int files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(odd))
        ++files;
    EXPECT_EQ(files, 2);
}

// SPDX-License-Identifier: Apache-2.0
// The timeline of a db export (ascend_pytorch_profiler_{rank}.db): planned a second time as a deferred
// profiler_db_timeline part and imported by DbTimelineImporter. Expected figures come from sqlite3 reads of
// tests/data/torch_npu_2rank_db/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db:
//   SELECT COUNT(*) FROM TASK -> 552; CANN_API -> 710; PYTORCH_API -> 2460; COMMUNICATION_OP -> 4;
//   TASK JOIN COMMUNICATION_TASK_INFO -> 296 (drawn again on the HCCL planes); OVERLAP_ANALYSIS -> 382 (4404 slices)
//   connectionCats 'HostToDevice': 191 ids, 204 CANN_API x (TASK, or the COMMUNICATION_OP of a communication op's id)
//   pairs; 4 of them end on the HCCL op (DbExportTablesTest checks the other categories)
//   first named task: trans_TransData_0, startNs 1736410576404465403, endNs - startNs 53761, streamId 2
//   COUNT(DISTINCT streamId) FROM TASK -> 4
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/TimelineQuery.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::count;
using npuscope::test::openModel;

namespace {

fs::path rank0() { return dataDir() / "torch_npu_2rank_db" / "level1" / "rank0_ascend_pt"; }


std::string text(model::Database& db, const std::string& sql)
{
    auto st = db.prepare(sql);
    std::string out;
    while (st.step()) {
        for (int c = 0; c < st.columnCount(); ++c)
            out += (c ? "|" : "") + st.optText(c).value_or("NULL");
        out += "\n";
    }
    return out;
}

std::unique_ptr<model::Database> openModel(bool timelines, int threads = 0)
{
    load::LoadOptions options;
    options.loadTimelines = timelines;
    options.threads = threads;
    return load::Loader::load(io::Detector::detect({ rank0().string() }), options);
}

// Ascend Hardware: 552 TASK rows minus the 4 AI_CORE rows without task info that span a communication op (same
// connectionId as a COMMUNICATION_OP; the text trace shows the op only on HCCL "Group 0 Communication").
constexpr int64_t kHardware = 552 - 4;
constexpr int64_t kSlices = kHardware + 710 + 2460 + 4 + 296 + 382;
constexpr int64_t kFlows = 204;
constexpr int64_t kFlowsToCommOps = 4;

void expectTimeline(model::Database& db)
{
    EXPECT_EQ(count(db, "SELECT COUNT(*) FROM slice"), kSlices);
    EXPECT_EQ(count(db, "SELECT COUNT(*) FROM slice s JOIN process p ON p.rank_id = s.rank_id AND p.pid = s.pid"
                        " WHERE p.name = 'Ascend Hardware'"),
        kHardware);
    EXPECT_EQ(count(db, "SELECT COUNT(*) FROM slice s JOIN process p ON p.rank_id = s.rank_id AND p.pid = s.pid"
                        " WHERE p.name = 'CANN'"),
        710);
    EXPECT_EQ(count(db, "SELECT COUNT(*) FROM slice s JOIN process p ON p.rank_id = s.rank_id AND p.pid = s.pid"
                        " WHERE p.name = 'Python'"),
        2460);
    EXPECT_EQ(count(db, "SELECT COUNT(*) FROM thread WHERE pid = 1000000"), 4); // one per stream
    EXPECT_EQ(text(db, "SELECT label, sort_index FROM process WHERE name = 'Ascend Hardware'"), "NPU|13\n");
    // Spot slice: exact ns.
    EXPECT_EQ(text(db, "SELECT s.pid, s.tid, s.ts, s.dur FROM slice s JOIN string n ON n.id = s.name_id"
                       " WHERE n.value = 'trans_TransData_0'"),
        "1000000|2|1736410576404465403|53761\n");
    EXPECT_EQ(text(db, "SELECT t.name FROM thread t WHERE t.pid = 1000000 AND t.tid = 2"), "Stream 2\n");
    // HostToDevice flows: both ends bound, to a CANN slice and a hardware slice at the flow's times.
    EXPECT_EQ(count(db, "SELECT COUNT(*) FROM flow WHERE cat = 'HostToDevice'"), kFlows);
    EXPECT_EQ(count(db, "SELECT COUNT(*) FROM flow f"
                        " JOIN slice a ON a.id = f.src_slice_id AND a.ts = f.src_ts AND a.pid = f.src_pid"
                        " JOIN slice b ON b.id = f.dst_slice_id AND b.ts = f.dst_ts AND b.pid = f.dst_pid"
                        " JOIN process pa ON pa.rank_id = a.rank_id AND pa.pid = a.pid"
                        " JOIN process pb ON pb.rank_id = b.rank_id AND pb.pid = b.pid"
                        " WHERE pa.name = 'CANN' AND pb.name = 'Ascend Hardware'"),
        kFlows - kFlowsToCommOps);
    // Depth as TraceViewImporter computes it: a slice at depth d > 0 lies inside one at depth d - 1.
    EXPECT_EQ(count(db, "SELECT COUNT(*) FROM slice c WHERE c.depth > 0 AND NOT EXISTS (SELECT 1 FROM slice p"
                        " WHERE p.rank_id = c.rank_id AND p.pid = c.pid AND p.tid = c.tid AND p.depth = c.depth - 1"
                        " AND p.ts <= c.ts AND p.ts + p.dur > c.ts)"),
        0);
    EXPECT_EQ(count(db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error'"), 0);
}

} // namespace

TEST(DbTimeline, DetectorPlansTheDbTwice)
{
    const auto plan = io::Detector::detect({ rank0().string() });
    ASSERT_EQ(plan.ranks.size(), 1u);
    std::string dbPath;
    std::string timelinePath;
    for (const auto& f : plan.ranks[0].files) {
        if (f.kind == io::FileKind::ProfilerDb)
            dbPath = f.path;
        if (f.kind == io::FileKind::ProfilerDbTimeline)
            timelinePath = f.path;
    }
    EXPECT_FALSE(dbPath.empty());
    EXPECT_EQ(dbPath, timelinePath);
    EXPECT_TRUE(io::isDeferredKind(io::FileKind::ProfilerDbTimeline));
    EXPECT_FALSE(io::isDeferredKind(io::FileKind::ProfilerDb));
    io::FileKind k;
    ASSERT_TRUE(io::fileKindFromName("profiler_db_timeline", k));
    EXPECT_EQ(k, io::FileKind::ProfilerDbTimeline);
    ASSERT_TRUE(io::fileKindFromName("trace_view", k));
    EXPECT_EQ(k, io::FileKind::TraceView);
    EXPECT_FALSE(io::fileKindFromName("nope", k));
}

TEST(DbTimeline, LoadTimelineOnDbOnlyRank)
{
    auto db = openModel(false);
    ASSERT_TRUE(db);
    auto ranks = query::TimelineQuery::ranks(*db);
    ASSERT_EQ(ranks.size(), 1u);
    EXPECT_TRUE(ranks[0].hasTimelineFile);
    EXPECT_FALSE(ranks[0].loaded);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM slice"), 0);
    EXPECT_EQ(text(*db, "SELECT kind, status FROM rank_file WHERE kind LIKE 'profiler_db%' ORDER BY kind"),
        "profiler_db|loaded\nprofiler_db_timeline|skipped\n");

    // The summary the db gave, before the timeline is loaded.
    const std::string summaryFiles
        = text(*db, "SELECT rank_id, kind, path, size_bytes, status FROM rank_file WHERE kind <> "
                    "'profiler_db_timeline' ORDER BY rowid");
    const int64_t kernels = count(*db, "SELECT COUNT(*) FROM kernel");
    const int64_t commOps = count(*db, "SELECT COUNT(*) FROM comm_op");
    const int64_t steps = count(*db, "SELECT COUNT(*) FROM step_trace");
    const std::string rankRow = text(*db, "SELECT * FROM rank");
    EXPECT_GT(kernels, 0);

    ASSERT_TRUE(load::Loader::loadTimeline(*db, 0));
    expectTimeline(*db);
    EXPECT_EQ(text(*db, "SELECT rank_id, kind, path, size_bytes, status FROM rank_file WHERE kind <> "
                        "'profiler_db_timeline' ORDER BY rowid"),
        summaryFiles);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank_file WHERE kind = 'profiler_db_timeline' AND status = 'loaded'"),
        1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank_file"), count(*db, "SELECT COUNT(DISTINCT kind) FROM rank_file"));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM kernel"), kernels);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op"), commOps);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), steps);
    EXPECT_EQ(text(*db, "SELECT * FROM rank"), rankRow);
    ranks = query::TimelineQuery::ranks(*db);
    ASSERT_EQ(ranks.size(), 1u);
    EXPECT_TRUE(ranks[0].loaded);
    const auto tl = query::TimelineQuery::loadRank(*db, 0);
    ASSERT_TRUE(tl);

    // A second request finds nothing left to load and changes nothing.
    EXPECT_FALSE(load::Loader::loadTimeline(*db, 0));
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM slice"), kSlices);
}

TEST(DbTimeline, LoadWithTimelinesDirectAndPooled)
{
    for (int threads : { 1, 2 }) {
        SCOPED_TRACE(threads);
        auto db = openModel(true, threads);
        ASSERT_TRUE(db);
        expectTimeline(*db);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank_file WHERE status <> 'loaded'"), 0);
    }
}

// db export Level1: TASK rows typed AI_CORE without task info whose connectionId is a COMMUNICATION_OP's (88.75 ms
// around hcom_allReduce__210_0_1) are not drawn on Stream 4; the op stays on HCCL "Group 0 Communication".
TEST(DbTimeline, DbTimelineHasNoFakeAiCoreTask)
{
    auto db = openModel({ (dataDir() / "torch_npu_2rank_db" / "level1").string() }, true);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM slice s JOIN string n ON n.id = s.name_id WHERE n.value = 'AI_CORE' AND "
                  "s.dur > 1000000"),
        0);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM slice s JOIN string n ON n.id = s.name_id JOIN thread t ON t.rank_id = s.rank_id "
                  "AND t.pid = s.pid AND t.tid = s.tid WHERE s.rank_id = 0 AND n.value = 'hcom_allReduce__210_0_1' AND "
                  "t.name = 'Group 0 Communication'"),
        1);
}

// db export Level0: planeId 4294967295 (unknown) gives no plane row (it became "Plane 98" by clamping).
TEST(DbTimeline, DbTimelineUnknownPlaneHasNoRow)
{
    auto db = openModel({ (dataDir() / "torch_npu_2rank_db" / "level0").string() }, true);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM thread WHERE name LIKE '%Plane%'"), 0);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM thread WHERE name = 'Group 0 Communication'"), 0);
}

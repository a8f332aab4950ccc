// SPDX-License-Identifier: Apache-2.0
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::dump;

namespace {

std::unique_ptr<model::Database> openModel(int threads, bool timelines)
{
    load::LoadOptions options;
    options.threads = threads;
    options.loadTimelines = timelines;
    const auto plan = io::Detector::detect({ (dataDir() / "torch_npu_2rank_level1").string() });
    return load::Loader::load(plan, options);
}

const char* kChecks[] = {
    "SELECT rank_id, step, computing_ns, preparing_ns FROM step_trace ORDER BY rank_id, step",
    "SELECT k.rank_id, n.value, t.value, k.ts, k.dur FROM kernel k JOIN string n ON n.id = k.name_id "
    "LEFT JOIN string t ON t.id = k.type_id ORDER BY k.rank_id, k.ts, n.value",
    "SELECT o.rank_id, o.op_key, b.transport, b.size_mb, p.package_mb, p.count FROM comm_op o "
    "JOIN comm_bandwidth b ON b.comm_op_id = o.id LEFT JOIN comm_packet p ON p.comm_bandwidth_id = b.id "
    "ORDER BY 1, 2, 3, 5",
    "SELECT rank_id, matrix_op, src, dst, transport, bandwidth_gbps FROM comm_link ORDER BY 1, 2, 3, 4",
    "SELECT s.rank_id, s.pid, s.tid, s.ts, s.dur, s.depth, n.value FROM slice s JOIN string n ON n.id = s.name_id "
    "ORDER BY 1, 2, 3, 4, 6",
    "SELECT f.rank_id, f.cat, f.flow_id, a.ts, an.value, b.ts, bn.value FROM flow f "
    "LEFT JOIN slice a ON a.id = f.src_slice_id LEFT JOIN string an ON an.id = a.name_id "
    "LEFT JOIN slice b ON b.id = f.dst_slice_id LEFT JOIN string bn ON bn.id = b.name_id ORDER BY 1, 2, 3, 4, 6",
    "SELECT c.rank_id, n.value, c.series, c.ts, c.value FROM counter c JOIN string n ON n.id = c.name_id "
    "ORDER BY 1, 2, 3, 4",
    "SELECT severity, rank_id, file, line, message FROM parse_issue ORDER BY 1, 2, 3, 4, 5",
    "SELECT group_hash, local_rank, global_rank FROM comm_group_rank ORDER BY 1, 2",
};

} // namespace

TEST(ParallelLoad, ThreadsGiveTheSameModel)
{
    auto one = openModel(1, true);
    auto three = openModel(3, true);
    ASSERT_TRUE(one && three);
    for (const char* sql : kChecks) {
        const auto a = dump(*one, sql);
        EXPECT_FALSE(a.empty()) << sql;
        EXPECT_EQ(a, dump(*three, sql)) << sql;
    }
}

// The summary load's thread 0 writes its ranks straight into the model and merges what the other threads hand over
// between its own batches: with a batch per rank (every rank handed over or written between merges) and any number
// of threads, the model is the one-thread model, row for row.
TEST(ParallelLoad, HandedOverBatchesGiveTheOneThreadModel)
{
    npuscope::test::ScratchDir dir;
    testgen::GeneratorOptions g;
    g.outDir = (dir.path() / "gen").string();
    g.ranks = 16;
    g.tp = 2;
    g.pp = 2;
    g.traceMb = 0;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(g, error)) << error;
    const auto plan = io::Detector::detect({ g.outDir });
    auto open = [&](int threads, uint64_t batchBytes) {
        load::LoadOptions options;
        options.threads = threads;
        options.loadTimelines = false;
        options.summaryBatchBytes = batchBytes;
        return load::Loader::load(plan, options);
    };
    auto one = open(1, 64ull << 20);
    ASSERT_TRUE(one);
    const char* checks[] = {
        kChecks[0],
        kChecks[2],
        "SELECT rank_id, step, kind, matrix_op, slot, group_hash, local_src, local_dst, src, dst, transport, size_mb, "
        "time_ns, bandwidth_gbps, op_name FROM comm_link ORDER BY 1, 2, 3, 4, 7, 8",
        kChecks[8],
        "SELECT group_hash, name, ranks_source FROM comm_group ORDER BY 1",
        "SELECT rank_id, kind, status FROM rank_file ORDER BY 1, 2",
    };
    EXPECT_GT(one->scalarInt("SELECT COUNT(*) FROM comm_link"), 100);
    for (const auto& [threads, batch] :
        std::vector<std::pair<int, uint64_t>> { { 1, 1 }, { 2, 1 }, { 3, 1 }, { 2, 64ull << 20 } }) {
        auto other = open(threads, batch);
        ASSERT_TRUE(other);
        for (const char* sql : checks) {
            const auto a = dump(*one, sql);
            EXPECT_FALSE(a.empty()) << sql;
            EXPECT_EQ(a, dump(*other, sql)) << threads << " threads, batch " << batch << ": " << sql;
        }
    }
}

TEST(ParallelLoad, TimelineLoadedLaterEqualsEagerLoad)
{
    auto eager = openModel(2, true);
    auto lazy = openModel(2, false);
    ASSERT_TRUE(eager && lazy);
    EXPECT_EQ(lazy->scalarInt("SELECT COUNT(*) FROM slice"), 0);
    EXPECT_EQ(lazy->scalarInt("SELECT COUNT(*) FROM rank_file WHERE kind = 'trace_view' AND status = 'skipped'"), 2);
    std::vector<double> fractions;
    EXPECT_TRUE(
        load::Loader::loadTimeline(*lazy, 0, [&](const load::LoadProgress& p) { fractions.push_back(p.fraction); }));
    EXPECT_TRUE(load::Loader::loadTimeline(*lazy, 1));
    EXPECT_FALSE(load::Loader::loadTimeline(*lazy, 0)); // already loaded
    EXPECT_FALSE(load::Loader::loadTimeline(*lazy, 99)); // no such rank
    ASSERT_FALSE(fractions.empty());
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
    EXPECT_EQ(lazy->scalarInt("SELECT COUNT(*) FROM rank_file WHERE kind = 'trace_view' AND status = 'loaded'"), 2);
    for (int i = 4; i <= 6; ++i)
        EXPECT_EQ(dump(*eager, kChecks[i]), dump(*lazy, kChecks[i])) << kChecks[i];
}

TEST(ParallelLoad, CancelReturnsNull)
{
    std::atomic<bool> cancel { true };
    const auto plan = io::Detector::detect({ (dataDir() / "torch_npu_2rank_level1").string() });
    EXPECT_EQ(load::Loader::load(plan, {}, {}, &cancel), nullptr);
}

// SPDX-License-Identifier: Apache-2.0
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"

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

TEST(ParallelLoad, TimelineLoadedLaterEqualsEagerLoad)
{
    auto eager = openModel(2, true);
    auto lazy = openModel(2, false);
    ASSERT_TRUE(eager && lazy);
    EXPECT_EQ(lazy->scalarInt("SELECT COUNT(*) FROM slice"), 0);
    EXPECT_EQ(lazy->scalarInt("SELECT COUNT(*) FROM rank_file WHERE kind = 'trace_view' AND status = 'skipped'"), 2);
    std::vector<double> fractions;
    EXPECT_TRUE(load::Loader::loadTimeline(*lazy, 0, [&](const load::LoadProgress& p) { fractions.push_back(p.fraction); }));
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

// SPDX-License-Identifier: Apache-2.0
#include "TestSupport.h"

#include "npuscope/core/TimeAxis.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/testgen/TimelineGenerator.h"
#include "npuscope/query/TimelineLayout.h"
#include "npuscope/query/TimelineQuery.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <random>

using namespace npuscope;
using npuscope::core::TimeAxis;
using npuscope::test::dataDir;

namespace {

std::unique_ptr<model::Database> loadSample(bool timelines)
{
    load::LoadOptions options;
    options.loadTimelines = timelines;
    return load::Loader::load(io::Detector::detect({ (dataDir() / "torch_npu_2rank_level1").string() }), options);
}

// Every visible slice is in exactly one box, boxes are in order and folds hold only narrow slices.
void checkLayout(const query::SliceLevel& level, const TimeAxis& axis)
{
    std::vector<query::LayoutBox> boxes;
    query::TimelineLayout::layout(level, axis, boxes);
    size_t expected = 0;
    size_t firstVisible = level.size();
    for (size_t i = 0; i < level.size(); ++i) {
        if (level.end[i] >= axis.start() && level.start[i] < axis.end()) {
            ++expected;
            firstVisible = std::min(firstVisible, i);
        }
    }
    size_t counted = 0;
    size_t next = firstVisible;
    double lastX = -1e300;
    for (const query::LayoutBox& b : boxes) {
        ASSERT_EQ(b.first, next) << "boxes must cover consecutive slices";
        ASSERT_GE(b.count, 1u);
        ASSERT_GE(b.x0, lastX);
        lastX = b.x0;
        if (b.folded()) {
            for (size_t k = b.first; k < b.first + b.count; ++k)
                ASSERT_LT(axis.durationPx(level.end[k] - level.start[k]),
                    2 * query::TimelineLayout::kFoldPx + 2 * axis.nsPerPx() / axis.nsPerPx());
        }
        next = b.first + b.count;
        counted += b.count;
    }
    EXPECT_EQ(counted, expected);
}

} // namespace

TEST(TimelineLayout, EverySliceIsDrawnOrCountedAtEveryZoom)
{
    const auto tl = testgen::TimelineGenerator::generate(60000, 4, 4, 7);
    ASSERT_EQ(tl->sliceCount(), 60000u);
    TimeAxis axis(tl->begin, tl->end, 1920);
    axis.setBounds(tl->begin, tl->end);
    axis.fitBounds();
    std::mt19937 rng(3);
    for (int zoom = 0; zoom < 40; ++zoom) {
        for (const query::SliceTrack& track : tl->tracks)
            for (const query::SliceLevel& level : track.levels)
                checkLayout(level, axis);
        axis.zoomAt(std::uniform_real_distribution<double>(0, 1920)(rng), 1.8);
    }
    // A 1 µs window, and a 1 ns window.
    axis.fit(tl->tracks[0].levels[1].start[100], tl->tracks[0].levels[1].start[100] + 1000);
    for (const query::SliceLevel& level : tl->tracks[0].levels)
        checkLayout(level, axis);
    axis.fit(tl->tracks[0].levels[1].start[100], tl->tracks[0].levels[1].start[100] + 1);
    for (const query::SliceLevel& level : tl->tracks[0].levels)
        checkLayout(level, axis);
}

TEST(TimelineLayout, HoverFindsTheFoldOfAFoldedSlice)
{
    const auto tl = testgen::TimelineGenerator::generate(40000, 1, 4, 11);
    TimeAxis axis(tl->begin, tl->end, 1920);
    const query::SliceLevel& level = tl->tracks[0].levels[0];
    std::vector<query::LayoutBox> boxes;
    query::TimelineLayout::layout(level, axis, boxes);
    int folds = 0;
    for (const query::LayoutBox& b : boxes) {
        if (!b.folded())
            continue;
        ++folds;
        // A slice in the middle of the fold: hovering its start finds the fold that counts it.
        const size_t k = b.first + b.count / 2;
        const double px = std::clamp(axis.toPx(level.start[k]), b.x0, std::max(b.x0, b.x1));
        const auto hit = query::TimelineLayout::hitTest(level, axis, px, 0.0);
        ASSERT_TRUE(hit.has_value());
        EXPECT_LE(hit->first, k);
        EXPECT_GT(hit->first + hit->count, k);
    }
    EXPECT_GT(folds, 10);
    // Far outside the data nothing is hit.
    EXPECT_FALSE(query::TimelineLayout::hitTest(level, axis, -50).has_value());
}

TEST(TimelineQuery, FlowsMatchTheFileAndBindInsideTheirSlices)
{
    auto db = loadSample(true);
    ASSERT_TRUE(db);
    for (int rank : { 0, 1 }) {
        const auto path = dataDir() / "torch_npu_2rank_level1" / ("rank" + std::to_string(rank) + "_ascend_pt")
            / "ASCEND_PROFILER_OUTPUT" / "trace_view.json";
        std::ifstream in(path);
        const auto events = nlohmann::json::parse(in);
        std::map<std::pair<std::string, std::string>, std::pair<int, int>> ends;
        for (const auto& e : events) {
            const std::string ph = e.value("ph", "");
            if (ph != "s" && ph != "f")
                continue;
            const std::string id = e["id"].is_string() ? e["id"].get<std::string>() : e["id"].dump();
            auto& sf = ends[{ e["cat"].get<std::string>(), id }];
            (ph == "s" ? sf.first : sf.second)++;
        }
        std::map<std::string, int> expected;
        for (const auto& [key, sf] : ends)
            expected[key.first] += std::max(1, sf.first) * std::max(1, sf.second);

        const auto tl = query::TimelineQuery::loadRank(*db, rank);
        std::map<std::string, int> actual;
        for (const query::FlowRecord& f : tl->flows) {
            ++actual[f.cat];
            ASSERT_TRUE(f.srcSlice && f.dstSlice) << f.cat << " " << f.name;
            for (const auto& [sliceId, pid, tid, ts] : { std::tuple { *f.srcSlice, f.srcPid, f.srcTid, f.srcTs },
                     std::tuple { *f.dstSlice, f.dstPid, f.dstTid, f.dstTs } }) {
                const auto ref = tl->find(sliceId);
                ASSERT_TRUE(ref.has_value());
                const auto& track = tl->tracks[static_cast<size_t>(ref->track)];
                const auto& level = track.levels[static_cast<size_t>(ref->depth)];
                EXPECT_EQ(track.pid, pid);
                EXPECT_EQ(track.tid, tid);
                EXPECT_LE(level.start[ref->index], ts);
                EXPECT_GE(level.end[ref->index], ts);
            }
            // The flow is reachable from both of its slices.
            const auto fromSrc = tl->flowsOf(*f.srcSlice);
            EXPECT_FALSE(fromSrc.empty());
        }
        EXPECT_EQ(actual, expected) << "rank " << rank;
        EXPECT_EQ(expected.size(), 4u);
    }
}

TEST(TimelineQuery, AreaStatisticsEqualTheSqlAggregate)
{
    auto db = loadSample(true);
    ASSERT_TRUE(db);
    const auto tl = query::TimelineQuery::loadRank(*db, 0);
    ASSERT_GT(tl->sliceCount(), 1000u);
    EXPECT_EQ(static_cast<int64_t>(tl->sliceCount()), db->scalarInt("SELECT count(*) FROM slice WHERE rank_id = 0"));
    const int64_t span = tl->end - tl->begin;
    const int64_t t0 = tl->begin + span / 3, t1 = tl->begin + span * 2 / 3;
    std::vector<query::TrackSelection> all;
    for (size_t t = 0; t < tl->tracks.size(); ++t)
        all.push_back({ tl, static_cast<int>(t) });
    const auto stats = query::TimelineQuery::areaStats(all, t0, t1);
    ASSERT_GT(stats.size(), 5u);

    auto st = db->prepare(R"(
        SELECT s.name_id, count(*),
          sum(min(s.ts + s.dur, ?2) - max(s.ts, ?1)),
          sum(min(s.ts + s.dur, ?2) - max(s.ts, ?1) - coalesce((SELECT sum(max(0,
                min(c.ts + c.dur, ?2) - max(c.ts, ?1))) FROM slice c
              WHERE c.rank_id = s.rank_id AND c.pid = s.pid AND c.tid = s.tid AND c.depth = s.depth + 1
                AND c.ts >= s.ts AND c.ts + c.dur <= s.ts + s.dur), 0)),
          min(min(s.ts + s.dur, ?2) - max(s.ts, ?1)), max(min(s.ts + s.dur, ?2) - max(s.ts, ?1))
        FROM slice s WHERE s.rank_id = 0 AND s.ts < ?2 AND s.ts + s.dur > ?1 GROUP BY s.name_id)");
    st.bind(1, t0).bind(2, t1);
    std::map<int64_t, query::AreaStat> sql;
    while (st.step()) {
        query::AreaStat a;
        a.nameId = st.int64(0);
        a.count = st.int64(1);
        a.totalWall = st.int64(2);
        a.totalSelf = st.int64(3);
        a.minWall = st.int64(4);
        a.maxWall = st.int64(5);
        sql[a.nameId] = a;
    }
    ASSERT_EQ(sql.size(), stats.size());
    for (const query::AreaStat& a : stats) {
        const auto it = sql.find(a.nameId);
        ASSERT_NE(it, sql.end()) << a.name;
        EXPECT_EQ(a.count, it->second.count) << a.name;
        EXPECT_EQ(a.totalWall, it->second.totalWall) << a.name;
        EXPECT_EQ(a.totalSelf, it->second.totalSelf) << a.name;
        EXPECT_EQ(a.minWall, it->second.minWall) << a.name;
        EXPECT_EQ(a.maxWall, it->second.maxWall) << a.name;
        EXPECT_FALSE(a.name.empty());
    }
}

TEST(TimelineQuery, RowsSearchDetailsAndLazyLoad)
{
    auto db = loadSample(false);
    ASSERT_TRUE(db);
    auto ranks = query::TimelineQuery::ranks(*db);
    ASSERT_EQ(ranks.size(), 2u);
    EXPECT_TRUE(ranks[0].hasTimelineFile);
    EXPECT_FALSE(ranks[0].loaded);
    EXPECT_EQ(query::TimelineQuery::loadRank(*db, 0)->sliceCount(), 0u);
    ASSERT_TRUE(load::Loader::loadTimeline(*db, 0));
    ranks = query::TimelineQuery::ranks(*db);
    EXPECT_TRUE(ranks[0].loaded);
    EXPECT_FALSE(ranks[1].loaded);
    const auto tl = query::TimelineQuery::loadRank(*db, 0);
    ASSERT_GT(tl->sliceCount(), 1000u);
    // Processes follow their sort index: Python (0) first, Overlap Analysis among the last.
    ASSERT_GE(tl->processes.size(), 3u);
    EXPECT_EQ(tl->processes.front().name, "Python");
    for (size_t i = 1; i < tl->processes.size(); ++i)
        EXPECT_LE(tl->processes[i - 1].sortIndex, tl->processes[i].sortIndex);
    EXPECT_FALSE(tl->counters.empty());

    const auto hits = query::TimelineQuery::search({ tl }, "profilerstep", false);
    ASSERT_FALSE(hits.empty());
    EXPECT_TRUE(query::TimelineQuery::search({ tl }, "profilerstep", true).empty());
    for (size_t i = 1; i < hits.size(); ++i)
        EXPECT_LE(hits[i - 1].start, hits[i].start);
    const auto& level
        = tl->tracks[static_cast<size_t>(hits[0].ref.track)].levels[static_cast<size_t>(hits[0].ref.depth)];
    const int64_t id = level.id[hits[0].ref.index];
    const auto details = query::TimelineQuery::details(*db, id);
    ASSERT_TRUE(details.has_value());
    EXPECT_EQ(details->name.rfind("ProfilerStep#", 0), 0u);
    EXPECT_EQ(details->ts, hits[0].start);
    EXPECT_EQ(details->ts + details->dur, hits[0].end);
    const auto span = query::TimelineQuery::spanOfName({ tl }, details->name);
    ASSERT_TRUE(span.has_value());
    EXPECT_EQ(span->first, hits[0].start);

    // A kernel's parent chain ends at depth 0.
    for (const auto& [sliceId, ref] : tl->sliceById) {
        if (ref.depth < 2)
            continue;
        auto parent = tl->parentOf(ref);
        ASSERT_TRUE(parent.has_value());
        EXPECT_EQ(parent->depth, ref.depth - 1);
        const auto& up = tl->tracks[static_cast<size_t>(parent->track)].levels[static_cast<size_t>(parent->depth)];
        const auto& me = tl->tracks[static_cast<size_t>(ref.track)].levels[static_cast<size_t>(ref.depth)];
        EXPECT_LE(up.start[parent->index], me.start[ref.index]);
        EXPECT_GE(up.end[parent->index], me.end[ref.index]);
        break;
    }
}

TEST(TimelineQuery, AlignOffsetsAndOffsetAreaStatistics)
{
    auto db = loadSample(true);
    ASSERT_TRUE(db);
    const auto r0 = query::TimelineQuery::loadRank(*db, 0);
    const auto r1 = query::TimelineQuery::loadRank(*db, 1);
    const auto s0 = query::TimelineQuery::spanOfName({ r0 }, "ProfilerStep#50");
    const auto s1 = query::TimelineQuery::spanOfName({ r1 }, "ProfilerStep#50");
    ASSERT_TRUE(s0 && s1);
    ASSERT_NE(s0->first, s1->first);

    // The first rank keeps the reference offset, the second moves onto it; a missing step stays unset.
    const auto offsets = query::TimelineQuery::alignOffsets({ r0, nullptr, r1 }, "ProfilerStep#50", 1000);
    ASSERT_EQ(offsets.size(), 3u);
    ASSERT_TRUE(offsets[0] && offsets[2]);
    EXPECT_FALSE(offsets[1]);
    EXPECT_EQ(*offsets[0], 1000);
    EXPECT_EQ(s0->first + *offsets[0], s1->first + *offsets[2]);
    EXPECT_FALSE(query::TimelineQuery::alignOffsets({ r0, r1 }, "ProfilerStep#999999")[0]);

    // Area statistics of a shifted rank over a shifted range equal the unshifted ones.
    std::vector<query::TrackSelection> plain, shifted;
    const int64_t offset = 123'456'789;
    for (size_t t = 0; t < r1->tracks.size(); ++t) {
        plain.push_back({ r1, static_cast<int>(t), 0 });
        shifted.push_back({ r1, static_cast<int>(t), offset });
    }
    const int64_t t0 = s1->first, t1 = s1->first + (s1->second - s1->first) / 2;
    const auto a = query::TimelineQuery::areaStats(plain, t0, t1);
    const auto b = query::TimelineQuery::areaStats(shifted, t0 + offset, t1 + offset);
    ASSERT_FALSE(a.empty());
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].name, b[i].name);
        EXPECT_EQ(a[i].count, b[i].count);
        EXPECT_EQ(a[i].totalWall, b[i].totalWall);
        EXPECT_EQ(a[i].totalSelf, b[i].totalSelf);
    }
    // A range far from the shifted rank's display times finds nothing.
    std::vector<query::TrackSelection> far = plain;
    for (auto& sel : far)
        sel.offsetNs = 1'000'000'000'000;
    EXPECT_TRUE(query::TimelineQuery::areaStats(far, t0, t1).empty());
}

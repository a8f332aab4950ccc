// SPDX-License-Identifier: Apache-2.0
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/io/parse/FlowTracker.h"
#include "npuscope/io/parse/SliceTracker.h"
#include "npuscope/load/Loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace npuscope;
using npuscope::io::FlowTracker;
using npuscope::io::SliceTracker;
using npuscope::test::dataDir;

namespace {

struct Span {
    Span(int64_t start, int64_t duration, std::string label)
        : ts(start)
        , dur(duration)
        , name(std::move(label))
    {
    }
    int64_t ts = 0, dur = 0;
    std::string name;
    int64_t depth = -1;
    std::string parent; // name of the parent, "" for none
};

// Sorts and places spans as an importer does; returns them in placement order.
std::vector<Span> place(std::vector<Span> spans)
{
    SliceTracker::sort(spans.begin(), spans.end());
    SliceTracker tracker;
    tracker.reset();
    for (auto& s : spans) {
        const auto p = tracker.place(s.ts, s.dur);
        s.depth = p.depth;
        s.parent = p.parent < 0 ? std::string() : spans[static_cast<std::size_t>(p.parent)].name;
    }
    EXPECT_EQ(tracker.outOfOrder(), 0u);
    return spans;
}

const Span& byName(const std::vector<Span>& spans, const std::string& name)
{
    const auto it = std::find_if(spans.begin(), spans.end(), [&](const Span& s) { return s.name == name; });
    EXPECT_NE(it, spans.end()) << name;
    return *it;
}

} // namespace

TEST(SliceTracker, NestsContainedSlicesAndKeepsAdjacentOnesSiblings)
{
    const auto s
        = place({ { 0, 100, "outer" }, { 10, 20, "a" }, { 30, 20, "b" }, { 12, 5, "a1" }, { 100, 10, "next" } });
    EXPECT_EQ(byName(s, "outer").depth, 0);
    EXPECT_EQ(byName(s, "a").depth, 1);
    EXPECT_EQ(byName(s, "a").parent, "outer");
    EXPECT_EQ(byName(s, "a1").depth, 2);
    EXPECT_EQ(byName(s, "a1").parent, "a");
    // b starts where a ends: [ts, ts + dur) intervals, so a sibling of a.
    EXPECT_EQ(byName(s, "b").depth, 1);
    EXPECT_EQ(byName(s, "b").parent, "outer");
    // next starts where outer ends.
    EXPECT_EQ(byName(s, "next").depth, 0);
    EXPECT_EQ(byName(s, "next").parent, "");
}

TEST(SliceTracker, EqualStartsPutTheLongerOutside)
{
    const auto s = place({ { 0, 10, "short" }, { 0, 50, "long" }, { 0, 10, "short2" } });
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].name, "long");
    EXPECT_EQ(s[0].depth, 0);
    // Equal start and duration keep input order; the second nests in the first.
    EXPECT_EQ(s[1].name, "short");
    EXPECT_EQ(s[1].depth, 1);
    EXPECT_EQ(s[2].name, "short2");
    EXPECT_EQ(s[2].depth, 2);
    EXPECT_EQ(s[2].parent, "short");
}

TEST(SliceTracker, ZeroDurationSlicesNeverHaveChildren)
{
    const auto s = place({ { 0, 100, "outer" }, { 0, 0, "atStart" }, { 50, 0, "i1" }, { 50, 0, "i2" },
        { 50, 10, "withInstants" }, { 70, 0, "i3" }, { 70, 0, "i4" }, { 100, 0, "atEnd" } });
    // A zero-duration slice at the start of a longer one sorts after it (shorter) and nests in it.
    EXPECT_EQ(byName(s, "atStart").depth, 1);
    EXPECT_EQ(byName(s, "atStart").parent, "outer");
    // A slice starting with zero-duration ones is longer, so it is placed first and holds them; zero-duration
    // slices at one time are siblings (neither has children).
    EXPECT_EQ(byName(s, "withInstants").depth, 1);
    EXPECT_EQ(byName(s, "withInstants").parent, "outer");
    EXPECT_EQ(byName(s, "i1").depth, 2);
    EXPECT_EQ(byName(s, "i1").parent, "withInstants");
    EXPECT_EQ(byName(s, "i2").depth, 2);
    EXPECT_EQ(byName(s, "i2").parent, "withInstants");
    EXPECT_EQ(byName(s, "i3").depth, 1);
    EXPECT_EQ(byName(s, "i4").depth, 1);
    EXPECT_EQ(byName(s, "i4").parent, "outer");
    // At the end of outer: outside it.
    EXPECT_EQ(byName(s, "atEnd").depth, 0);
}

TEST(SliceTracker, PartialOverlapNestsAndRowsNeverOverlap)
{
    // b starts inside a and ends after it; c starts after a ended but inside b.
    const auto s = place({ { 0, 100, "a" }, { 50, 100, "b" }, { 120, 10, "c" }, { 150, 10, "d" } });
    EXPECT_EQ(byName(s, "a").depth, 0);
    EXPECT_EQ(byName(s, "b").depth, 1);
    EXPECT_EQ(byName(s, "b").parent, "a");
    // a stays open while b (placed inside it) is: c is one row below b, not on a's row.
    EXPECT_EQ(byName(s, "c").depth, 2);
    EXPECT_EQ(byName(s, "c").parent, "b");
    // Once b ended, everything is closed.
    EXPECT_EQ(byName(s, "d").depth, 0);
}

TEST(SliceTracker, UnsortedInputGivesTheSameNestingAsSorted)
{
    std::vector<Span> spans;
    std::mt19937 rng(7);
    for (int i = 0; i < 300; ++i) {
        const int64_t ts = rng() % 1000;
        const int64_t dur = (rng() % 4 == 0) ? 0 : rng() % 200;
        spans.push_back({ ts, dur, "s" + std::to_string(i) });
    }
    const auto sorted = place(spans);
    std::shuffle(spans.begin(), spans.end(), rng);
    // Shuffling changes the order of equal (ts, dur) pairs only; compare depths by (ts, dur).
    auto key = [](const std::vector<Span>& v) {
        std::vector<std::tuple<int64_t, int64_t, int64_t>> k;
        for (const auto& s : v)
            k.emplace_back(s.ts, s.dur, s.depth);
        std::sort(k.begin(), k.end());
        return k;
    };
    EXPECT_EQ(key(place(spans)), key(sorted));
    // The invariant the timeline relies on: no two slices on one row of a track overlap.
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        for (std::size_t j = i + 1; j < sorted.size(); ++j) {
            if (sorted[i].depth == sorted[j].depth) {
                EXPECT_LE(sorted[i].ts + sorted[i].dur, sorted[j].ts) << sorted[i].name << " " << sorted[j].name;
            }
        }
    }
}

TEST(SliceTracker, CountsSlicesPlacedOutOfOrderAndResetStartsATrack)
{
    SliceTracker t;
    t.reset();
    EXPECT_EQ(t.place(10, 5).depth, 0);
    // Out of order: placed by the same rule (slice 0 is still open at 0), and counted.
    EXPECT_EQ(t.place(0, 100).depth, 1);
    EXPECT_EQ(t.outOfOrder(), 1u);
    t.reset();
    EXPECT_EQ(t.outOfOrder(), 0u);
    const auto p = t.place(0, 10);
    EXPECT_EQ(p.depth, 0);
    EXPECT_EQ(p.parent, -1);
    EXPECT_EQ(t.place(1, 1).parent, 0);
}

namespace {

using Phase = FlowTracker::Phase;

std::string arrows(FlowTracker& t, const std::vector<Phase>& group, FlowTracker::Unpaired u)
{
    std::string out;
    for (const auto& a : t.pair(group, u))
        out += (out.empty() ? "" : " ") + std::to_string(a.src) + ">" + std::to_string(a.dst);
    return out;
}

} // namespace

TEST(FlowTracker, OneStartGetsAnArrowToEveryEnd)
{
    FlowTracker t;
    EXPECT_EQ(arrows(t, { Phase::Start, Phase::End, Phase::End }, FlowTracker::Unpaired::Keep), "0>1 0>2");
    EXPECT_EQ(arrows(t, { Phase::Start, Phase::End }, FlowTracker::Unpaired::Drop), "0>1");
}

TEST(FlowTracker, EachEndTakesTheLatestStartAndStepsChain)
{
    FlowTracker t;
    EXPECT_EQ(
        arrows(t, { Phase::Start, Phase::End, Phase::Start, Phase::End }, FlowTracker::Unpaired::Keep), "0>1 2>3");
    EXPECT_EQ(
        arrows(t, { Phase::Start, Phase::Step, Phase::Step, Phase::End }, FlowTracker::Unpaired::Keep), "0>1 1>2 2>3");
}

TEST(FlowTracker, MissingEndsAreHalfArrowsOrDropped)
{
    FlowTracker t;
    // A start with no end, replaced by a second start: kept as a half arrow.
    EXPECT_EQ(arrows(t, { Phase::Start, Phase::Start, Phase::End }, FlowTracker::Unpaired::Keep), "0>-1 1>2");
    EXPECT_EQ(arrows(t, { Phase::Start, Phase::Start, Phase::End }, FlowTracker::Unpaired::Drop), "1>2");
    // A start alone, an end alone.
    EXPECT_EQ(arrows(t, { Phase::Start }, FlowTracker::Unpaired::Keep), "0>-1");
    EXPECT_EQ(arrows(t, { Phase::End }, FlowTracker::Unpaired::Keep), "-1>0");
    EXPECT_EQ(arrows(t, { Phase::End }, FlowTracker::Unpaired::Drop), "");
    EXPECT_EQ(arrows(t, {}, FlowTracker::Unpaired::Keep), "");
}

TEST(FlowTracker, AnEndBeforeAnyStartTakesTheFirstStartAfterIt)
{
    FlowTracker t;
    // Clock skew: the device end is stamped before the host start.
    EXPECT_EQ(
        arrows(t, { Phase::End, Phase::End, Phase::Start, Phase::Start }, FlowTracker::Unpaired::Keep), "2>0 2>1 3>-1");
    EXPECT_EQ(arrows(t, { Phase::End, Phase::Step, Phase::End }, FlowTracker::Unpaired::Keep), "1>0 -1>1 1>2");
}

namespace {

std::unique_ptr<model::Database> loadWithTimelines(const std::string& sample)
{
    load::LoadOptions options;
    options.loadTimelines = true;
    return load::Loader::load(io::Detector::detect({ (dataDir() / sample).string() }), options);
}

// The rows of sql as "first:second/third/... first:second/...".
std::string rowsText(model::Database& db, const std::string& sql)
{
    auto st = db.prepare(sql);
    std::string out;
    while (st.step()) {
        out += out.empty() ? "" : " ";
        for (int c = 0; c < st.columnCount(); ++c)
            out += (c == 0 ? "" : c == 1 ? ":" : "/") + st.text(c);
    }
    return out;
}

// "depth:count ..." of the slices matching where.
std::string depthCounts(model::Database& db, const std::string& where = "1")
{
    return rowsText(db, "SELECT depth, count(*) FROM slice WHERE " + where + " GROUP BY depth ORDER BY depth");
}

// "cat:rows/with a source slice/with a destination slice ..."
std::string flowCounts(model::Database& db)
{
    return rowsText(
        db, "SELECT cat, count(*), count(src_slice_id), count(dst_slice_id) FROM flow GROUP BY cat ORDER BY cat");
}

} // namespace

// The samples' nesting and flows as the importers' own copies of the rules gave them before the trackers
// (counts taken from that build's models).
TEST(SliceTrackerSamples, TraceViewAndDbExportDepthsAndFlowsAreUnchanged)
{
    struct Case {
        const char* sample;
        const char* depths;
        const char* flows;
    };
    const Case cases[] = {
        { "torch_npu_2rank_level1",
            "0:3380 1:753 2:296 3:459 4:255 5:95 6:47 7:46 8:56 9:44 10:25 11:20 12:15 13:10 14:61 15:101 16:154 "
            "17:156 18:120 19:80 20:74 21:62 22:102 23:260 24:154 25:180 26:284 27:138 28:162 29:192 30:244 31:288 "
            "32:186 33:74 34:52 35:70 36:58 37:16",
            "HostToDevice:430/430/430 async_npu:420/420/420 async_task_queue:318/318/318 fwdbwd:54/54/54" },
        { "torch_npu_2rank_db/level1/rank0_ascend_pt",
            "0:1727 1:375 2:151 3:235 4:132 5:50 6:25 7:21 8:17 9:10 10:12 11:7 12:5 13:4 14:28 15:48 16:77 17:78 "
            "18:60 19:40 20:37 21:31 22:51 23:130 24:77 25:90 26:142 27:69 28:81 29:96 30:122 31:144 32:93 33:37 "
            "34:26 35:35 36:29 37:8",
            "HostToDevice:204/204/204 async_npu:204/204/204 async_task_queue:159/159/159 fwdbwd:27/27/27" },
    };
    for (const Case& c : cases) {
        auto db = loadWithTimelines(c.sample);
        ASSERT_TRUE(db) << c.sample;
        EXPECT_EQ(depthCounts(*db), c.depths) << c.sample;
        EXPECT_EQ(flowCounts(*db), c.flows) << c.sample;
    }
}

TEST(SliceTrackerSamples, CannAndMindSporeDepthsAreUnchanged)
{
    auto cann = loadWithTimelines("cann_prof_2023");
    ASSERT_TRUE(cann);
    EXPECT_EQ(depthCounts(*cann), "0:4306 1:88 2:44");
    auto ms = loadWithTimelines("mindspore_run1_profiler");
    ASSERT_TRUE(ms);
    EXPECT_EQ(depthCounts(*ms), "0:6681 1:965");
    // The Step Trace process: ProfilerStep#N outside, its interval / FP+BP / tail parts inside.
    EXPECT_EQ(depthCounts(*ms, "pid = 2147418112"), "0:322 1:965");
}

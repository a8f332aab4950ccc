// SPDX-License-Identifier: Apache-2.0
// Offsets, markers, pinned and hidden rows survive closing and reopening the same inputs (TimelineSession).
#include "GuiTestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/gui/timeline/TimelineMarkerModel.h"
#include "npuscope/gui/timeline/TimelineSession.h"
#include "npuscope/gui/timeline/TimelineView.h"

#include <QSettings>

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

// A window that keeps its timeline session, with the two ranks loaded and expanded.
std::unique_ptr<MainWindow> openExpanded()
{
    auto window = test::newWindow(); // no window geometry or recent list ...
    window->timelineDock()->setSessionPersistence(true); // ... but the timeline session, as the app keeps it
    EXPECT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    window->timelineDock()->expandAllRanks();
    EXPECT_TRUE(window->waitUntilIdle());
    return window;
}

// The renderer's row key of the first track named `name` in rank index 0.
std::optional<TimelineRenderer::RowKey> trackKey(const TimelineRenderer& r, const std::string& name)
{
    const auto& data = r.ranks()[0].data;
    for (size_t i = 0; data && i < data->tracks.size(); ++i) {
        if (data->tracks[i].name == name)
            return TimelineRenderer::RowKey { TimelineRenderer::RowKind::Track, 0, static_cast<int>(i) };
    }
    return std::nullopt;
}

} // namespace

TEST(TimelineSession, JsonRoundTripKeepsEpochNanoseconds)
{
    TimelineSession s;
    s.offsets[1] = -1736408883704643212;
    s.markers.push_back({ QStringLiteral("slow AllReduce"), 1736408883704643212, 1736408883714643212 });
    TimelineSession::RowId track;
    track.kind = TimelineRenderer::RowKind::Track;
    track.rank = 0;
    track.pid = 3136493;
    track.tid = 3140046;
    s.pinned.push_back(track);
    TimelineSession::RowId counter;
    counter.kind = TimelineRenderer::RowKind::Counter;
    counter.rank = 1;
    counter.pid = 7;
    counter.counter = "HBM 0/Read\nRead(MB/s)";
    s.hidden.push_back(counter);
    const TimelineSession back = TimelineSession::fromJson(s.toJson());
    EXPECT_EQ(back.offsets, s.offsets);
    ASSERT_EQ(back.markers.size(), 1u);
    EXPECT_EQ(back.markers[0].name, s.markers[0].name);
    EXPECT_EQ(back.markers[0].begin, s.markers[0].begin);
    EXPECT_EQ(back.markers[0].end, s.markers[0].end);
    EXPECT_EQ(back.pinned, s.pinned);
    EXPECT_EQ(back.hidden, s.hidden);
    EXPECT_TRUE(TimelineSession::fromJson("not json").empty());
    // Key: the same inputs in another order (or twice) are the same session.
    EXPECT_EQ(TimelineSession::keyFor({ QStringLiteral("/a"), QStringLiteral("/b") }),
        TimelineSession::keyFor({ QStringLiteral("/b"), QStringLiteral("/a"), QStringLiteral("/b") }));
    EXPECT_NE(TimelineSession::keyFor({ QStringLiteral("/a") }), TimelineSession::keyFor({ QStringLiteral("/b") }));
}

TEST(TimelineSession, ReopeningTheSameInputsRestoresOffsetsMarkersPinsAndHiddenRows)
{
    test::ScratchSettings settings;
    std::string pinnedName, hiddenName;
    int64_t markerBegin = 0;
    {
        auto window = openExpanded();
        TimelineDock* dock = window->timelineDock();
        auto& r = dock->view()->renderer();
        ASSERT_EQ(r.ranks().size(), 2u);
        ASSERT_TRUE(r.ranks()[0].data && r.ranks()[1].data);
        // Pin the first and hide the second thread row of rank 0, shift rank 1, add a named marker.
        ASSERT_GE(r.ranks()[0].data->tracks.size(), 2u);
        pinnedName = r.ranks()[0].data->tracks[0].name;
        hiddenName = r.ranks()[0].data->tracks[1].name;
        r.setPinned(*trackKey(r, pinnedName), true);
        r.setHidden(*trackKey(r, hiddenName), true);
        dock->setRankOffset(1, 2500000);
        markerBegin = r.axis().boundsBegin() + 1000000;
        dock->markerModel()->addMarker(markerBegin, markerBegin + 5000, QStringLiteral("look here"));
    } // closing the window saves the session

    auto window = openExpanded();
    TimelineDock* dock = window->timelineDock();
    auto& r = dock->view()->renderer();
    ASSERT_EQ(r.ranks().size(), 2u);
    EXPECT_EQ(r.ranks()[0].offsetNs, 0);
    EXPECT_EQ(r.ranks()[1].offsetNs, 2500000);
    ASSERT_EQ(dock->markerModel()->markers().size(), 1u);
    EXPECT_EQ(dock->markerModel()->markers()[0].name, QStringLiteral("look here"));
    EXPECT_EQ(dock->markerModel()->markers()[0].begin, markerBegin);
    EXPECT_EQ(dock->markerModel()->markers()[0].end, markerBegin + 5000);
    ASSERT_TRUE(trackKey(r, pinnedName) && trackKey(r, hiddenName));
    EXPECT_TRUE(r.isPinned(*trackKey(r, pinnedName)));
    EXPECT_TRUE(r.isHidden(*trackKey(r, hiddenName)));
    // The pinned row is drawn first, the hidden one not at all.
    ASSERT_FALSE(r.rows().empty());
    EXPECT_TRUE(r.rows()[0].pinned);
    for (const auto& row : r.rows())
        EXPECT_FALSE(row.kind == TimelineRenderer::RowKind::Track && row.key() == *trackKey(r, hiddenName));

    // Reset offsets and remove the marker: the next reopen starts clean.
    dock->resetOffsets();
    dock->markerModel()->removeRows(0, 1);
    r.setPinned(*trackKey(r, pinnedName), false);
    r.showAllRows();
    dock->saveSession();
    window.reset();
    window = openExpanded();
    EXPECT_TRUE(window->timelineDock()->session().empty());
    EXPECT_EQ(window->timelineDock()->markerModel()->markers().size(), 0u);
}

TEST(TimelineSession, OffByDefault)
{
    test::ScratchSettings settings;
    MainWindow::Options options;
    options.persistSettings = false;
    options.interactive = false;
    {
        MainWindow window(options);
        window.open({ test::kTwoRanks });
        ASSERT_TRUE(window.waitUntilIdle());
        window.timelineDock()->markerModel()->addMarker(10, 20, QStringLiteral("not kept"));
    }
    EXPECT_TRUE(QSettings().childGroups().isEmpty());
}

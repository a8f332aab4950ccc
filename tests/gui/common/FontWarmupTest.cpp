// SPDX-License-Identifier: Apache-2.0
// Issue 36, the first paint: the faces the views draw with are loaded while the window is idle, one per event-loop
// turn, and the warm-up timer goes away when it is done.
#include "GuiTestSupport.h"

#include "npuscope/gui/common/FontWarmup.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <gtest/gtest.h>

#include <algorithm>

using namespace npuscope::gui;

TEST(FontWarmup, EveryFaceTheViewsUseIsLaidOutAndDrawn)
{
    QWidget w;
    const auto faces = FontWarmup::facesOf(w.font());
    ASSERT_EQ(faces.size(), 5);
    int bold = 0, italic = 0;
    for (const QFont& f : faces) {
        bold += f.bold() ? 1 : 0;
        italic += f.italic() ? 1 : 0;
        EXPECT_EQ(f.family(), w.font().family());
        // Every character of the sample gives a glyph (a missing one would be drawn by a fallback face, also loaded).
        EXPECT_GT(FontWarmup::warm(f), 100);
    }
    EXPECT_EQ(bold, 2);
    EXPECT_EQ(italic, 2);
    EXPECT_LT(faces.back().pointSizeF(), w.font().pointSizeF());
}

TEST(FontWarmup, ScheduledWarmupRunsOnTheEventLoopAndRemovesItsTimer)
{
    QObject context;
    FontWarmup::schedule(&context, QFont());
    // Nothing ran yet: the faces are warmed one per turn once the loop runs.
    ASSERT_EQ(context.findChildren<QTimer*>().size(), 1);
    QElapsedTimer clock;
    clock.start();
    const auto running = [&] {
        const auto timers = context.findChildren<QTimer*>();
        return std::any_of(timers.begin(), timers.end(), [](QTimer* t) { return t->isActive(); });
    };
    while (running() && clock.elapsed() < 10000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    EXPECT_FALSE(running());
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_TRUE(context.findChildren<QTimer*>().isEmpty());
}

// SPDX-License-Identifier: Apache-2.0
// Every dock alone in a 683 × 384 window, the logical size of a 1366 × 768 screen at a scale factor of 2 (issue 16):
// its content is not wider than the dock, so nothing is cut at the window's right edge (a dock scrolls its content
// sideways only when the content's minimum width does not fit, DockScrollArea); vertical scrolling is allowed. Every
// word-wrapped label shows all of its lines, and a dock scrolls vertically only when its minimum height does not fit.
#include "GuiTestSupport.h"

#include "npuscope/gui/app/Appearance.h"
#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/common/DockScrollArea.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLayout>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTabBar>
#include <QTableView>

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

// Leaves the application English whatever the test did.
struct RestoreEnglish {
    ~RestoreEnglish()
    {
        Appearance::installTranslation(QStringLiteral("en"));
        Appearance::Choices english;
        english.language = QStringLiteral("en");
        Appearance::apply(english);
    }
};

void checkEveryDock(const QString& language)
{
    RestoreEnglish restore;
    ASSERT_TRUE(Appearance::installTranslation(language));
    auto window = test::newWindow(QSize(683, 384));
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    window->show();
    ASSERT_TRUE(window->waitUntilIdle(60000));
    window->workspace()->setSelectedRank(0);
    ASSERT_TRUE(window->waitUntilIdle(60000));
    for (QDockWidget* dock : window->docks()) {
        window->focusDock(dock);
        ASSERT_TRUE(window->waitUntilIdle(60000));
        const std::string what = dock->objectName().toStdString() + " (" + language.toStdString() + ")";
        auto* area = qobject_cast<DockScrollArea*>(dock->widget());
        ASSERT_NE(area, nullptr) << what;
        EXPECT_LE(area->widget()->minimumSizeHint().width(), area->viewport()->width()) << what;
        EXPECT_FALSE(area->horizontalScrollBar()->isVisible()) << what;
        // It scrolls vertically only when its minimum height does not fit: a wrapped label does not make it take its
        // preferred height (which pushed the panes at the bottom of a short dock out of sight).
        QWidget* content = area->widget();
        const QLayout* layout = content->layout();
        const int minimumHeight = layout->hasHeightForWidth() ? layout->totalMinimumHeightForWidth(content->width())
                                                              : content->minimumSizeHint().height();
        if (minimumHeight <= area->viewport()->height()) {
            EXPECT_EQ(content->height(), area->viewport()->height()) << what;
        }
        // A step combo box shows its whole current item ("Step 50" was cut to "Step 5").
        for (QComboBox* combo : dock->findChildren<QComboBox*>()) {
            if (combo->isVisibleTo(dock) && combo->objectName().contains(QStringLiteral("tep"))) {
                EXPECT_GE(combo->width(), combo->sizeHint().width())
                    << what << " " << combo->objectName().toStdString();
            }
        }
        // In Chinese, no English sentence is left in a label: three lowercase English words in a row ("nothing in
        // the data", "groups not used") are text that missed the translation. Identifiers (allReduce, tp, step_trace,
        // profiler_metadata.json) are single words and pass.
        static const QRegularExpression englishPhrase(QStringLiteral("\\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\\b"));
        for (QLabel* label : dock->findChildren<QLabel*>()) {
            if (language != QLatin1String("zh_CN") || !label->isVisibleTo(dock))
                continue;
            QString text = label->text();
            text.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
            const auto match = englishPhrase.match(text);
            EXPECT_FALSE(match.hasMatch()) << what << " " << label->objectName().toStdString() << ": \""
                                           << match.captured().toStdString() << "\" in " << text.toStdString();
        }
        for (QLabel* label : dock->findChildren<QLabel*>()) {
            if (!label->isVisibleTo(dock) || !label->wordWrap() || label->text().isEmpty())
                continue;
            EXPECT_GE(label->height(), label->heightForWidth(label->width()))
                << what << " " << label->objectName().toStdString() << ": " << label->text().toStdString();
        }
    }
}

} // namespace

TEST(NarrowWindow, EveryDockFitsTheWidthOfA1366ScreenAtScale2) { checkEveryDock(QStringLiteral("en")); }

TEST(NarrowWindow, EveryChineseDockFitsTheWidthOfA1366ScreenAtScale2) { checkEveryDock(QStringLiteral("zh_CN")); }

// A window too low for two views above each other gives each the whole height: the timeline is a tab beside the
// cluster views, and in front. 683×384 (1366×768 at scale 2) and 960×540 (1920×1080 at scale 2: Cluster steps would
// scroll its footer away) are too low. A window of 1366 × 768 keeps them above each other, in Chinese too (a taller
// font), with the whole of Cluster steps' footer in view.
TEST(NarrowWindow, ALowWindowTabsTheTimelineWithTheClusterViews)
{
    RestoreEnglish restore;
    for (const QString& language : { QStringLiteral("en"), QStringLiteral("zh_CN") }) {
        ASSERT_TRUE(Appearance::installTranslation(language));
        // As the app starts in that language: zh_CN takes a font with Han characters (taller rows).
        Appearance::Choices choices;
        choices.language = language;
        Appearance::apply(choices);
        for (const QSize size : { QSize(683, 384), QSize(960, 540), QSize(1366, 768) }) {
            const std::string what
                = language.toStdString() + " " + std::to_string(size.width()) + "x" + std::to_string(size.height());
            auto window = test::newWindow(size);
            ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
            window->show();
            ASSERT_TRUE(window->waitUntilIdle(60000));
            QDockWidget* steps = window->dockByName(QStringLiteral("steps"));
            QDockWidget* timeline = window->dockByName(QStringLiteral("timeline"));
            ASSERT_TRUE(steps && timeline);
            const bool low = size.height() < 700;
            EXPECT_EQ(window->tabifiedDockWidgets(timeline).contains(steps), low) << what;
            EXPECT_FALSE(timeline->visibleRegion().isEmpty()) << what;
            if (low) {
                EXPECT_GT(timeline->height(), size.height() / 2) << what;
                // The Timeline's tab is the first, Cluster steps' the second: both in sight at the left of the bar.
                QTabBar* bar = nullptr;
                for (QTabBar* b : window->findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
                    if (b->isVisible() && b->count() > 2)
                        bar = b;
                }
                ASSERT_NE(bar, nullptr) << what;
                EXPECT_EQ(bar->tabText(0), timeline->windowTitle()) << what;
                EXPECT_EQ(bar->tabText(1), steps->windowTitle()) << what;
                continue;
            }
            EXPECT_FALSE(steps->visibleRegion().isEmpty()) << what;
            auto* footer = steps->findChild<QTableView*>(QStringLiteral("stepsFooter"));
            ASSERT_TRUE(footer) << what;
            EXPECT_EQ(footer->visibleRegion().boundingRect(), footer->rect()) << what;
        }
    }
}

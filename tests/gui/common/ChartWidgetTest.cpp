// SPDX-License-Identifier: Apache-2.0
// ChartWidget on a real chart with real data: hit test, tooltip, click, image export.
#include "GuiTestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/common/ChartWidget.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/steps/TimeOverviewChart.h"
#include "npuscope/gui/steps/TimeOverviewDock.h"

#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>


using namespace npuscope;
using namespace npuscope::gui;

TEST(ChartWidget, HitTestTooltipClickAndImageOnTheTimeOverview)
{
    MainWindow window(test::testOptions());
    window.resize(1500, 950);
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    window.focusDock(window.timeOverviewDock());
    window.show();
    ASSERT_TRUE(window.waitUntilIdle(60000));

    TimeOverviewChart* chart = window.timeOverviewDock()->chart();
    ChartWidget* base = chart;
    ASSERT_EQ(chart->overview().steps.size(), 1u);
    const QPoint centre = chart->plotRect().center();
    EXPECT_EQ(base->itemAt(centre), 0);
    EXPECT_EQ(base->itemAt(QPoint(-5, -5)), -1);
    EXPECT_EQ(base->itemToolTip(0), chart->toolTipFor(0));
    EXPECT_TRUE(base->itemToolTip(0).contains(QStringLiteral("Mean wait")));

    QSignalSpy clicked(base, &ChartWidget::itemClicked);
    QTest::mouseMove(chart, centre);
    EXPECT_EQ(base->hoveredItem(), 0);
    QTest::mouseClick(chart, Qt::LeftButton, {}, centre);
    ASSERT_EQ(clicked.count(), 1);
    EXPECT_EQ(clicked.at(0).at(0).toInt(), 0);
    EXPECT_EQ(window.workspace()->step(), 50);

    QSignalSpy selected(base, &ChartWidget::selectedItemChanged);
    base->setSelectedItem(0);
    base->setSelectedItem(0);
    EXPECT_EQ(selected.count(), 1);
    EXPECT_EQ(base->selectedItem(), 0);

    const QImage image = base->toImage();
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), chart->size() * chart->devicePixelRatioF());
    EXPECT_GT(test::distinctColours(image), 8) << "the exported image is not blank";

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.png"));
    QString error;
    ASSERT_TRUE(base->saveImage(path, &error)) << error.toStdString();
    EXPECT_EQ(QImage(path).size(), image.size());
    EXPECT_FALSE(base->saveImage(dir.filePath(QStringLiteral("missing/dir/chart.png")), &error));
    EXPECT_FALSE(error.isEmpty());
}

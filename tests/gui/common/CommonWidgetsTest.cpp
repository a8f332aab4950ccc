// SPDX-License-Identifier: Apache-2.0
// Shared GUI pieces on their own: fixed-point time formatting, the Workspace's change signals, and the rank bar
// chart from a few ranks to a thousand.
#include "GuiTestSupport.h"

#include "npuscope/gui/comm/OpStripView.h"
#include "npuscope/gui/common/EmptyHint.h"
#include "npuscope/gui/common/RankBarChart.h"
#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/gui/common/Workspace.h"

#include <QImage>
#include <QLabel>
#include <QStandardItemModel>
#include <QTableView>
#include <QPixmap>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <optional>
#include <vector>

using namespace npuscope;
using namespace npuscope::gui;

TEST(TimeFormat, ExactFixedPoint)
{
    EXPECT_EQ(TimeFormat::format(int64_t { 8873756 }, TimeFormat::Unit::Microseconds), QStringLiteral("8873.756"));
    EXPECT_EQ(TimeFormat::format(int64_t { 8873756 }, TimeFormat::Unit::Milliseconds), QStringLiteral("8.874"));
    EXPECT_EQ(TimeFormat::format(int64_t { -1500 }, TimeFormat::Unit::Microseconds), QStringLiteral("-1.500"));
    EXPECT_EQ(TimeFormat::format(int64_t { 0 }, TimeFormat::Unit::Milliseconds), QStringLiteral("0.000"));
    EXPECT_EQ(TimeFormat::format(std::optional<int64_t>(), TimeFormat::Unit::Microseconds), TimeFormat::kAbsent);
}

TEST(Workspace, EmitsOnlyOnChange)
{
    Workspace ws;
    QSignalSpy rankSpy(&ws, &Workspace::selectedRankChanged);
    QSignalSpy stepSpy(&ws, &Workspace::stepChanged);
    ws.setSelectedRank(3);
    ws.setSelectedRank(3);
    ws.setStep(50);
    ws.setStep(50);
    ws.setStep(std::nullopt);
    EXPECT_EQ(rankSpy.count(), 1);
    EXPECT_EQ(stepSpy.count(), 2);
    EXPECT_EQ(ws.selectedRank(), 3);
    ws.setSelectedRanks({ 5, 2, 5 });
    EXPECT_EQ(ws.selectedRanks(), (std::vector<int64_t> { 5, 2 }));
    EXPECT_EQ(ws.selectedRank(), 5);
}

TEST(RankBarChart, ThousandRanksStayReadable)
{
    RankBarChart chart;
    std::vector<RankBarChart::Bar> bars;
    for (int64_t r = 0; r < 1000; ++r) {
        query::StepSplit s;
        s.computingNotOverlapped = 1000000 + r * 10;
        s.communicationNotOverlapped = r == 700 ? 9000000 : 2000000;
        bars.push_back({ r, s });
    }
    chart.resize(600, 800);
    chart.setAvailableHeight(800);
    chart.setBars(std::move(bars));
    EXPECT_EQ(chart.rowHeight(), RankBarChart::kMinRowHeight);
    EXPECT_GE(chart.minimumHeight(), 1000 * RankBarChart::kMinRowHeight);
    EXPECT_GT(chart.labelEvery(), 1);
    const int y = chart.minimumHeight() - 10;
    const int index = chart.barAt(y);
    ASSERT_GE(index, 990);
    EXPECT_TRUE(chart.toolTipFor(index).contains(QStringLiteral("Rank %1").arg(index)));

    QSignalSpy clicked(&chart, &RankBarChart::rankClicked);
    chart.setSelectedRank(700);
    chart.resize(600, chart.minimumHeight());
    const QImage image = chart.grab().toImage();
    test::keepImage(image, QStringLiteral("rank_bars_1000.png"));
    EXPECT_GT(test::distinctColours(image, 3), 4);

    // Eight ranks get tall rows and a label on each.
    std::vector<RankBarChart::Bar> few(8);
    for (int r = 0; r < 8; ++r)
        few[static_cast<size_t>(r)] = { r, query::StepSplit { 1000, 0, 500, 0, 0 } };
    chart.setBars(few);
    EXPECT_GE(chart.rowHeight(), 20);
    EXPECT_EQ(chart.labelEvery(), 1);
}

// An empty table says why it is empty; the sentence goes when rows come and comes back when they go.
TEST(EmptyHint, FollowsTheRows)
{
    QStandardItemModel model(0, 2);
    QTableView view;
    view.setModel(&model);
    view.resize(400, 200);
    view.show();
    gui::setEmptyHint(&view, QStringLiteral("Nothing here"));
    QLabel* hint = gui::emptyHintOf(&view);
    ASSERT_NE(hint, nullptr);
    EXPECT_TRUE(hint->isVisible());
    EXPECT_EQ(hint->text(), QStringLiteral("Nothing here"));
    EXPECT_EQ(hint->geometry(), view.viewport()->rect());
    model.appendRow({ new QStandardItem(QStringLiteral("a")), new QStandardItem(QStringLiteral("1")) });
    EXPECT_FALSE(hint->isVisible());
    model.removeRows(0, 1);
    EXPECT_TRUE(hint->isVisible());
    gui::setEmptyHint(&view, QString());
    EXPECT_FALSE(hint->isVisible());
}

// A large cluster's op strip colours by op type (hundreds of op keys would be hundreds of hues), a small one by op.
TEST(OpStripView, ColoursByTypeWhenThereAreManyOps)
{
    EXPECT_EQ(gui::OpStripView::opTypeOf("hcom_allReduce__478_2_1@4893536815798884678"), QStringLiteral("allReduce"));
    EXPECT_EQ(gui::OpStripView::opTypeOf("hcom_send__1_0"), QStringLiteral("send"));
    EXPECT_EQ(gui::OpStripView::opTypeOf("AllReduce-op12"), QStringLiteral("AllReduce"));
    query::OpStrip strip;
    strip.ranks = { 0 };
    for (int i = 0; i < 20; ++i) {
        strip.names.push_back((i % 2 ? "hcom_send__" : "hcom_allReduce__") + std::to_string(i) + "_0");
        strip.ops.push_back({ 0, i * 100, 50, 0, 50, i, "" });
    }
    strip.endNs = 2000;
    gui::OpStripView view;
    view.setStrip(strip);
    EXPECT_TRUE(view.coloursByType());
    EXPECT_EQ(view.types(), QStringList({ QStringLiteral("allReduce"), QStringLiteral("send") }));
    strip.names.resize(4);
    strip.ops.resize(4);
    view.setStrip(strip);
    EXPECT_FALSE(view.coloursByType());
    view.resize(600, 200);
    EXPECT_GT(test::distinctColours(view.grab().toImage()), 3);
}

// SPDX-License-Identifier: Apache-2.0
// The FLOPs by scope dock offscreen on MindInsight's real flops_scope_0.json (tests/data/mindspore_flops_profiler):
// the icicle's boxes, their widths by share, the tooltip's scope, FLOPs and shares, a click selecting a box, and the
// empty state on a sample without a scope file.
#include "GuiTestSupport.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/flops/FlopsScopeChart.h"
#include "npuscope/gui/flops/FlopsScopeDock.h"

#include <QComboBox>
#include <QTest>

using namespace npuscope;
using gui::FlopsScopeChart;
using gui::FlopsScopeDock;

namespace {

FlopsScopeChart* showScope(gui::MainWindow& window) { return test::showDock(window, window.flopsScopeDock())->chart(); }

int nodeNamed(const FlopsScopeChart* chart, const std::string& name)
{
    const auto& nodes = chart->tree().nodes;
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (nodes[i].name == name)
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace

TEST(FlopsScopeDock, RealScopeFileDrawsTheIcicleAndAClickSelects)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::dataPath("mindspore_flops_profiler") }));
    FlopsScopeChart* chart = showScope(*window);
    FlopsScopeDock* dock = window->flopsScopeDock();
    ASSERT_EQ(dock->rankCombo()->count(), 1);
    EXPECT_EQ(dock->rankCombo()->currentData().toLongLong(), 0);
    ASSERT_EQ(chart->tree().nodes.size(), 35u); // 34 links + Total
    EXPECT_TRUE(dock->statusLabel()->fullText().contains(QStringLiteral("34 scopes")))
        << dock->statusLabel()->fullText().toStdString();

    // The root spans the plot; Default (4655.465 of 8167.742 MFLOPs) about 57 % of it, Gradients the rest.
    const QRectF root = chart->nodeRect(0);
    const int def = nodeNamed(chart, "Default");
    const int grad = nodeNamed(chart, "Gradients");
    ASSERT_GT(def, 0);
    ASSERT_GT(grad, 0);
    EXPECT_NEAR(chart->nodeRect(def).width() / root.width(), 4655.465 / 8167.742, 1e-9);
    EXPECT_NEAR(chart->nodeRect(grad).left(), chart->nodeRect(def).right(), 1e-6);
    EXPECT_GT(chart->nodeRect(def).top(), root.top());

    const QString tip = chart->itemToolTip(def);
    EXPECT_TRUE(tip.contains(QStringLiteral("Default"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("4.66 GFLOPs"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("57.0 %"))) << tip.toStdString();
    const int split = nodeNamed(chart, "gradConv2D(Gradients)");
    ASSERT_GT(split, 0);
    EXPECT_TRUE(chart->itemToolTip(split).contains(QStringLiteral("several parents")));

    const QImage image = chart->toImage();
    test::keepImage(image, QStringLiteral("flops-scope.png"));
    EXPECT_GT(test::distinctColours(image), 10);

    const QPoint centre = chart->nodeRect(def).center().toPoint();
    EXPECT_EQ(chart->itemAt(centre), def);
    QTest::mouseClick(chart, Qt::LeftButton, {}, centre);
    EXPECT_EQ(chart->selectedItem(), def);
    EXPECT_TRUE(dock->statusLabel()->fullText().startsWith(QStringLiteral("Default:")))
        << dock->statusLabel()->fullText().toStdString();
}

TEST(FlopsScopeDock, SampleWithoutScopeFileSaysSo)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    FlopsScopeChart* chart = showScope(*window);
    EXPECT_TRUE(chart->tree().nodes.empty());
    EXPECT_EQ(window->flopsScopeDock()->rankCombo()->count(), 0);
    EXPECT_TRUE(window->flopsScopeDock()->statusLabel()->fullText().contains(QStringLiteral("No flops_scope_N.json")));
    EXPECT_EQ(window->dockByName(QStringLiteral("flopsscope")), window->flopsScopeDock());
}

// SPDX-License-Identifier: Apache-2.0
// Issue 16, themes: the lowest value of the memory heat scale is a visible tint on a light background, not white; on
// the dark theme an unchecked check box has an edge that stands out from the base it sits on.
#include "GuiTestSupport.h"

#include "npuscope/gui/app/Appearance.h"
#include "npuscope/gui/memory/MemoryHeatmap.h"

#include <QApplication>
#include <QCheckBox>
#include <QImage>
#include <QStyle>
#include <QStyleOptionButton>

#include <gtest/gtest.h>

#include <cstdlib>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

int difference(QColor a, QColor b)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
}

} // namespace

TEST(ThemeContrast, HeatScaleStartsAtAVisibleTint)
{
    EXPECT_GE(difference(MemoryHeatmap::colorOf(0.0), QColor(Qt::white)), 60);
    EXPECT_GE(difference(MemoryHeatmap::colorOf(0.01), QColor(Qt::white)), 60);
}

TEST(ThemeContrast, UncheckedCheckBoxStandsOutOnTheDarkTheme)
{
    Appearance::Choices dark;
    dark.theme = Appearance::Theme::Dark;
    Appearance::apply(dark);
    QCheckBox box(QStringLiteral("option"));
    box.setChecked(false);
    box.resize(box.sizeHint());
    QStyleOptionButton option;
    option.initFrom(&box);
    const QRect indicator = box.style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, &box);
    const QImage image = box.grab().toImage().copy(indicator);
    Appearance::apply(Appearance::Choices {});
    // The indicator's edge is the pixel of its rectangle that differs most from the window behind it.
    const QColor window = Appearance::darkPalette().color(QPalette::Window);
    int best = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            best = std::max(best, difference(image.pixelColor(x, y), window));
    }
    EXPECT_GE(best, 150);
}

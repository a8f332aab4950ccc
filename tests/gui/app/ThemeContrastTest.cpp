// SPDX-License-Identifier: Apache-2.0
// Issue 16, themes: the lowest value of the memory heat scale is a visible tint on a light background, not white; on
// the dark theme an unchecked check box has an edge that stands out from the base it sits on.
#include "GuiTestSupport.h"

#include "npuscope/gui/app/Appearance.h"
#include "npuscope/gui/app/ContrastStyle.h"
#include "npuscope/gui/memory/MemoryHeatmap.h"

#include <QApplication>
#include <QCheckBox>
#include <QImage>
#include <QStyle>
#include <QPainter>
#include <QStyleFactory>
#include <QStyleOptionButton>
#include <QStyleOptionHeader>

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

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

// A column sorted ascending shows an arrow pointing up: ContrastStyle draws Qt's ascending indicator (SortDown) as
// Fusion draws SortUp, and the other way round.
TEST(ThemeContrast, AscendingSortArrowPointsUp)
{
    gui::ContrastStyle style;
    std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    auto draw = [](const QStyle& s, QStyleOptionHeader::SortIndicator indicator) {
        QImage image(16, 16, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        QStyleOptionHeader option;
        option.rect = image.rect();
        option.palette = QApplication::palette();
        option.state = QStyle::State_Enabled;
        option.sortIndicator = indicator;
        s.drawPrimitive(QStyle::PE_IndicatorHeaderArrow, &option, &painter, nullptr);
        return image;
    };
    const QImage ascending = draw(style, QStyleOptionHeader::SortDown);
    const QImage up = draw(*fusion, QStyleOptionHeader::SortUp);
    EXPECT_EQ(ascending, up);
    EXPECT_NE(ascending, draw(*fusion, QStyleOptionHeader::SortDown));
    EXPECT_EQ(draw(style, QStyleOptionHeader::SortUp), draw(*fusion, QStyleOptionHeader::SortDown));
    // The painted arrow's top row is narrower than its bottom row: it points up.
    auto inkWidth = [&](int row) {
        int n = 0;
        for (int x = 0; x < ascending.width(); ++x)
            n += ascending.pixel(x, row) != qRgb(255, 255, 255);
        return n;
    };
    int top = -1, bottom = -1;
    for (int y = 0; y < ascending.height(); ++y) {
        if (inkWidth(y) > 0) {
            if (top < 0)
                top = y;
            bottom = y;
        }
    }
    ASSERT_GE(top, 0);
    EXPECT_LT(inkWidth(top), inkWidth(bottom));
}

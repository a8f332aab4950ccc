// SPDX-License-Identifier: Apache-2.0
// Issue 16, text that fits: a hint narrower than its text ends in "…" with the whole text in its tooltip, and shows
// the whole text again once there is room.
#include "GuiTestSupport.h"

#include "npuscope/gui/common/ElidedLabel.h"

#include <QFontMetrics>

#include <gtest/gtest.h>

using namespace npuscope::gui;

TEST(ElidedLabel, CutTextEndsInAnEllipsisAndTheTooltipHoldsItAll)
{
    const QString text = QStringLiteral("Right-click a row name to pin, hide or move it; M adds a marker");
    ElidedLabel label(text);
    label.show(); // a hidden widget gets its resize events only when shown
    const int full = label.fontMetrics().horizontalAdvance(text);
    label.resize(full / 3, label.sizeHint().height());
    EXPECT_TRUE(label.text().endsWith(QChar(0x2026))) << label.text().toStdString();
    EXPECT_LE(label.fontMetrics().horizontalAdvance(label.text()), label.contentsRect().width());
    EXPECT_EQ(label.toolTip(), text);
    EXPECT_LT(label.minimumSizeHint().width(), full / 3);
    label.resize(full + 20, label.sizeHint().height());
    EXPECT_EQ(label.text(), text);
    label.setFullText(QStringLiteral("short"));
    EXPECT_EQ(label.text(), QStringLiteral("short"));
    EXPECT_EQ(label.fullText(), QStringLiteral("short"));
}

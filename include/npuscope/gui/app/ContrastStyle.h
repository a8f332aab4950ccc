// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QProxyStyle>

namespace npuscope::gui {

// Fusion as the Light and Dark themes use it, with the edge of an unchecked check box (and of a check box in an item
// view) drawn in a colour that stands out from a dark palette's base: Fusion outlines it in the window colour made
// darker, which on the dark theme is almost the base colour, so an unchecked box was hard to see. On a light palette
// it draws as Fusion does. Header sort arrows point up for ascending order (smallest first), as file managers and
// spreadsheets show it; Fusion draws Qt's ascending indicator pointing down. GUI thread only.
class ContrastStyle : public QProxyStyle {
    Q_OBJECT
public:
    ContrastStyle();

    void drawPrimitive(
        PrimitiveElement element, const QStyleOption* option, QPainter* painter, const QWidget* widget) const override;
};

} // namespace npuscope::gui

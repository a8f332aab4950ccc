// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QVariant>

namespace npuscope::gui {

// Colours of a change between two runs: red for an increase (slower), green for a decrease, grey for none; the
// strength follows |delta| ÷ scale (0..1). Pure functions, any thread.
class DeltaColors {
public:
    static QColor forDelta(double delta, double scale);
    // A table cell's foreground for a Δ value: tinted by sign, invalid (the view's default) for 0.
    static QVariant foreground(double delta);
};

} // namespace npuscope::gui

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QString>
#include <QVariant>

namespace npuscope::gui {

// Colours of a change between two runs: red for an increase (slower), green for a decrease, grey for none; the
// strength follows |delta| ÷ scale (0..1). Pure functions, any thread.
class DeltaColors {
public:
    static QColor forDelta(double delta, double scale);
    // A table cell's foreground for a Δ value shown with `decimals` decimals: tinted by sign, invalid (the view's
    // default) when it shows as zero, so an unchanged row is never coloured.
    static QVariant foreground(double delta, int decimals);
    // delta with `decimals` decimals and "+" before an increase; a value that rounds to zero is an unsigned zero
    // ("0.000", never "+0.000" or "-0.000").
    static QString signedText(double delta, int decimals);
    // True when delta shows as zero with `decimals` decimals.
    static bool showsAsZero(double delta, int decimals);
};

} // namespace npuscope::gui

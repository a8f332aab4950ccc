// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/compare/DeltaColors.h"

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

QColor DeltaColors::forDelta(double delta, double scale)
{
    const QColor neutral(0xd0, 0xd4, 0xd8);
    if (delta == 0 || !(scale > 0))
        return neutral;
    // A floor keeps a small but real change distinguishable from none.
    const double f = std::clamp(0.25 + 0.75 * std::abs(delta) / scale, 0.0, 1.0);
    const QColor strong = delta > 0 ? QColor(0xc6, 0x28, 0x28) : QColor(0x2e, 0x7d, 0x32);
    auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
    return { mix(neutral.red(), strong.red()), mix(neutral.green(), strong.green()),
        mix(neutral.blue(), strong.blue()) };
}

bool DeltaColors::showsAsZero(double delta, int decimals)
{
    return !(std::abs(delta) >= 0.5 * std::pow(10.0, -decimals));
}

QVariant DeltaColors::foreground(double delta, int decimals)
{
    if (showsAsZero(delta, decimals))
        return {};
    return delta > 0 ? QColor(0xb7, 0x1c, 0x1c) : QColor(0x1b, 0x5e, 0x20);
}

QString DeltaColors::signedText(double delta, int decimals)
{
    if (showsAsZero(delta, decimals))
        return QString::number(0.0, 'f', decimals);
    return (delta > 0 ? QStringLiteral("+") : QString()) + QString::number(delta, 'f', decimals);
}

} // namespace npuscope::gui

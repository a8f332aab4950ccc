// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/DivergingScale.h"

#include <QGuiApplication>
#include <QPalette>
#include <QVariant>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

namespace {

// A dynamic property of the application object: the setting lives as long as the application and tests that
// create their own application start from the default.
constexpr const char* kBandProperty = "npuscopeNeutralBand";

} // namespace

double DivergingScale::neutralBand()
{
    const QCoreApplication* app = QCoreApplication::instance();
    const QVariant v = app ? app->property(kBandProperty) : QVariant();
    return v.isValid() ? v.toDouble() : kDefaultNeutralBand;
}

void DivergingScale::setNeutralBand(double fraction)
{
    if (QCoreApplication* app = QCoreApplication::instance())
        app->setProperty(kBandProperty, std::clamp(fraction, 0.0, kMaxNeutralBand));
}

double DivergingScale::strength(double deviation, double band)
{
    const double a = std::abs(deviation);
    if (!(a > band))
        return 0;
    const double s = band < kSaturation ? std::min(1.0, (a - band) / (kSaturation - band)) : 1.0;
    return deviation > 0 ? s : -s;
}

QColor DivergingScale::colour(double deviation, double band, const QPalette& palette)
{
    const double s = strength(deviation, band);
    if (s == 0)
        return {};
    const double a = std::abs(s);
    // Alpha over the table's base, so the text stays readable at full strength; the faintest step past the band is
    // still visible on both themes.
    if (s > 0)
        return QColor(225, 70, 55, static_cast<int>(40 + 150 * a));
    // On the dark theme's base the light blue blended into a dull grey-blue: a brighter blue, more opaque.
    if (palette.color(QPalette::Base).lightness() < 128)
        return QColor(80, 155, 255, static_cast<int>(55 + 120 * a));
    return QColor(60, 120, 210, static_cast<int>(35 + 120 * a));
}

QColor DivergingScale::colour(double deviation) { return colour(deviation, neutralBand(), QGuiApplication::palette()); }

QString DivergingScale::percent(double fraction)
{
    const double p = fraction * 100;
    // Whole per cents without decimals, half per cents with one.
    const bool whole = std::abs(p - std::round(p)) < 1e-9;
    return QStringLiteral("\u00b1%1 %").arg(p, 0, 'f', whole ? 0 : 1);
}

QString DivergingScale::legend(double band)
{
    return tr("Colour: deviation from the column's median over ranks, %1 neutral (so is a difference within %1 of the "
              "median step wall time), full at %2 (warm: more than the median, cool: less)")
        .arg(percent(band), percent(kSaturation));
}

QString DivergingScale::legend() { return legend(neutralBand()); }

} // namespace npuscope::gui

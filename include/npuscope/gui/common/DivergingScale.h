// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QCoreApplication>
#include <QString>

class QPalette;

namespace npuscope::gui {

// The colour rule of the per-rank tables (docs/metrics.md "Colour of the per-rank tables"): a cell is coloured by its
// relative deviation from the column's median over ranks. Within ± the neutral band it stays uncoloured; outside it
// goes warm (above the median: more time) or cool (below) in proportion to how far past the band it is, full at
// ±kSaturation. A min-to-max scale would paint a 1 % spread from one end of the colours to the other; this one
// colours only what differs by more than the band. GUI thread only (the band is an application-wide setting).
class DivergingScale {
    Q_DECLARE_TR_FUNCTIONS(DivergingScale)

public:
    static constexpr double kDefaultNeutralBand = 0.02; // ±2 %
    static constexpr double kMaxNeutralBand = 0.10; // the Settings spin box's top
    static constexpr double kSaturation = 0.20; // full colour at ±20 %

    // The neutral band of the application (Settings → "Colour: neutral band"), a fraction (0.02 = ±2 %).
    static double neutralBand();
    // Clamped to [0, kMaxNeutralBand]; Appearance::apply sets it from the saved settings.
    static void setNeutralBand(double fraction);

    // How strongly a deviation is coloured: 0 within ±band, rising linearly to 1 at ±kSaturation (and beyond); its
    // sign is the side (+: above the median).
    static double strength(double deviation, double band);
    // The cell colour of a deviation over a base of the palette (brighter blue on a dark base); invalid within the
    // band.
    static QColor colour(double deviation, double band, const QPalette& palette);
    static QColor colour(double deviation);
    // The legend the Cluster steps header tooltips and summary carry: "Colour: deviation from the column's median over
    // ranks, ±2 % neutral (so is a difference within ±2 % of the median step wall time), full at ±20 % (…)".
    static QString legend(double band);
    static QString legend();
    // "±2 %" / "±0.5 %".
    static QString percent(double fraction);
};

} // namespace npuscope::gui

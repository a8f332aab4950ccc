// SPDX-License-Identifier: Apache-2.0
#pragma once

// What CommMatrixView.cpp (layout, levels, interaction) and CommMatrixPainting.cpp (paintEvent and its parts) share:
// the view's pixel constants and its colour ramps. Private to src/gui/comm.

#include <QColor>
#include <QString>

#include <algorithm>

namespace npuscope::gui::matrix_detail {

constexpr double kMaxZoom = 256.0;
constexpr int kGap = 4; // px between the bands around the plot
constexpr int kLegendBar = 16; // px width of the colour bar
constexpr int kMinBlockBand = 60; // px the row group labels get at least
constexpr int kMaxColumnLabel = 160; // px a column group label is elided to when it is wider than its block
constexpr int kDragStart = 4; // px a press must move to become a drag

inline QColor lerp(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
        static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
        static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

// Low → high. Bandwidth reads "red is slow"; size and time read "dark is large".
inline QColor ramp(double t, bool lowIsBad)
{
    static const QColor bad[] = { QColor(200, 30, 40), QColor(245, 160, 60), QColor(250, 235, 150),
        QColor(140, 200, 120), QColor(30, 120, 90) };
    // The heat scale starts at a visible tint, not near-white: the smallest sizes and times must show on a light
    // canvas.
    static const QColor heat[] = { QColor(252, 215, 140), QColor(250, 180, 90), QColor(240, 120, 50),
        QColor(190, 40, 40), QColor(100, 10, 40) };
    const QColor* stops = lowIsBad ? bad : heat;
    t = std::clamp(t, 0.0, 1.0) * 4.0;
    const int i = std::min(3, static_cast<int>(t));
    return lerp(stops[i], stops[i + 1], t - i);
}

inline QString number(double v, int decimals = 3) { return QString::number(v, 'f', decimals); }

} // namespace npuscope::gui::matrix_detail

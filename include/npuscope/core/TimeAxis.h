// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

namespace npuscope::core {

// The mapping between absolute time (int64 ns, epoch scale) and horizontal pixels of a view, with
// zoom at a cursor, pan, fit and clamping to the data extent. A value type: no Qt, any thread.
//
// The window start is kept as an integer ns plus a fraction in [0, 1) so that a window of a few ns
// at epoch-scale timestamps (~1.7e18 ns, beyond double precision) still zooms and pans smoothly;
// only the scale (ns per pixel) is a double. Pixel 0 is the left edge of the drawing area.
class TimeAxis {
public:
    static constexpr double kMinWindowNs = 1.0; // narrowest window: one ns across the whole width

    TimeAxis() = default;
    // A view of widthPx pixels showing [begin, end).
    TimeAxis(int64_t begin, int64_t end, double widthPx);

    double width() const { return m_width; }
    double nsPerPx() const { return m_nsPerPx; }
    int64_t start() const { return m_start; } // window start, floor (ns)
    double startFraction() const { return m_startFrac; } // sub-ns part of the window start, [0, 1)
    // Window end (ns, rounded up) and length in ns.
    int64_t end() const;
    double windowNs() const { return m_nsPerPx * m_width; }

    // Data extent the view may show; zoom-out and pan stop there (a small margin is allowed).
    void setBounds(int64_t begin, int64_t end);
    bool hasBounds() const { return m_boundsEnd > m_boundsBegin; }
    int64_t boundsBegin() const { return m_boundsBegin; }
    int64_t boundsEnd() const { return m_boundsEnd; }

    // Keeps the window start and scale; the window end follows the width.
    void setWidth(double widthPx);

    // Pixel of a time point; exact for any epoch timestamp (the difference is taken in int64 first).
    double toPx(int64_t ns) const;
    // Time point at a pixel (rounded to the nearest ns).
    int64_t toNs(double px) const;
    // Time point at a pixel, floor / ceil (for half-open pixel ranges).
    int64_t toNsFloor(double px) const;
    int64_t toNsCeil(double px) const;
    // A duration in pixels at the current scale.
    double durationPx(int64_t ns) const { return static_cast<double>(ns) / m_nsPerPx; }

    // factor > 1 zooms in. The time under px stays under px (unless clamping moves the window).
    void zoomAt(double px, double factor);
    // Moves the window by dx pixels (positive: later times come into view).
    void panPx(double dx);
    // Shows [begin, end) (at least kMinWindowNs wide), clamped.
    void fit(int64_t begin, int64_t end);
    // Shows the whole bounds.
    void fitBounds();
    // The same view for data whose display time is data time + offsetNs (a rank's time offset):
    // shifted(o).toPx(t) == toPx(t + o). Bounds move with it; nothing is clamped.
    TimeAxis shifted(int64_t offsetNs) const;

    bool operator==(const TimeAxis&) const = default;

private:
    // Moves the window start by deltaNs (may be fractional), keeping m_startFrac in [0, 1).
    void shift(double deltaNs);
    void clamp();

    int64_t m_start = 0;
    double m_startFrac = 0;
    double m_nsPerPx = 1;
    double m_width = 1;
    int64_t m_boundsBegin = 0;
    int64_t m_boundsEnd = 0;
};

} // namespace npuscope::core

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/TimeAxis.h"

#include <algorithm>
#include <cmath>

namespace npuscope::core {

namespace {
// Room left and right of the data when fully zoomed out, as a fraction of the data span.
constexpr double kMarginFraction = 0.02;
} // namespace

TimeAxis::TimeAxis(int64_t begin, int64_t end, double widthPx)
    : m_width(std::max(1.0, widthPx))
{
    m_start = begin;
    m_nsPerPx = std::max(kMinWindowNs, static_cast<double>(end - begin)) / m_width;
}

TimeAxis TimeAxis::shifted(int64_t offsetNs) const
{
    TimeAxis out = *this;
    out.m_start -= offsetNs;
    out.m_boundsBegin -= offsetNs;
    out.m_boundsEnd -= offsetNs;
    return out;
}

int64_t TimeAxis::end() const { return m_start + static_cast<int64_t>(std::ceil(m_startFrac + windowNs())); }

void TimeAxis::setBounds(int64_t begin, int64_t end)
{
    m_boundsBegin = begin;
    m_boundsEnd = std::max(begin, end);
    clamp();
}

void TimeAxis::setWidth(double widthPx)
{
    m_width = std::max(1.0, widthPx);
    clamp();
}

double TimeAxis::toPx(int64_t ns) const
{
    // int64 difference first: both operands are ~1e18 and would lose ns in a double.
    return (static_cast<double>(ns - m_start) - m_startFrac) / m_nsPerPx;
}

int64_t TimeAxis::toNs(double px) const { return m_start + std::llround(m_startFrac + px * m_nsPerPx); }

int64_t TimeAxis::toNsFloor(double px) const
{
    return m_start + static_cast<int64_t>(std::floor(m_startFrac + px * m_nsPerPx));
}

int64_t TimeAxis::toNsCeil(double px) const
{
    return m_start + static_cast<int64_t>(std::ceil(m_startFrac + px * m_nsPerPx));
}

void TimeAxis::shift(double deltaNs)
{
    const double d = m_startFrac + deltaNs;
    const double whole = std::floor(d);
    m_start += static_cast<int64_t>(whole);
    m_startFrac = d - whole;
    if (m_startFrac >= 1.0) { // rounding at the edge of [0, 1)
        m_start += 1;
        m_startFrac = 0;
    }
}

void TimeAxis::zoomAt(double px, double factor)
{
    if (!(factor > 0) || !std::isfinite(factor))
        return;
    const double anchorOffset = px * m_nsPerPx; // anchor relative to the window start
    const double minScale = kMinWindowNs / m_width;
    double scale = std::max(minScale, m_nsPerPx / factor);
    if (hasBounds()) {
        const double span = static_cast<double>(m_boundsEnd - m_boundsBegin);
        scale = std::min(scale, std::max(minScale, span * (1 + 2 * kMarginFraction) / m_width));
    }
    m_nsPerPx = scale;
    shift(anchorOffset - px * m_nsPerPx);
    clamp();
}

void TimeAxis::panPx(double dx)
{
    shift(dx * m_nsPerPx);
    clamp();
}

void TimeAxis::fit(int64_t begin, int64_t end)
{
    if (end < begin)
        std::swap(begin, end);
    const double window = std::max(kMinWindowNs, static_cast<double>(end - begin));
    m_nsPerPx = window / m_width;
    m_start = begin;
    m_startFrac = 0;
    // A window narrower than the minimum is centred on the requested one.
    shift((static_cast<double>(end - begin) - window) / 2);
    clamp();
}

void TimeAxis::fitBounds()
{
    if (!hasBounds())
        return;
    const double span = static_cast<double>(m_boundsEnd - m_boundsBegin);
    const double margin = span * kMarginFraction / 2;
    m_nsPerPx = (span + 2 * margin) / m_width;
    m_start = m_boundsBegin;
    m_startFrac = 0;
    shift(-margin);
    clamp();
}

void TimeAxis::clamp()
{
    const double minScale = kMinWindowNs / m_width;
    if (!(m_nsPerPx >= minScale) || !std::isfinite(m_nsPerPx))
        m_nsPerPx = minScale;
    if (!hasBounds())
        return;
    const double span = static_cast<double>(m_boundsEnd - m_boundsBegin);
    const double margin = span * kMarginFraction;
    m_nsPerPx = std::min(m_nsPerPx, std::max(minScale, (span + 2 * margin) / m_width));
    const double window = windowNs();
    // Start relative to the bounds, computed in int64 first and then as a small double.
    const double rel = static_cast<double>(m_start - m_boundsBegin) + m_startFrac;
    const double lo = -margin;
    const double hi = std::max(lo, span + margin - window);
    if (rel < lo)
        shift(lo - rel);
    else if (rel > hi)
        shift(hi - rel);
}

} // namespace npuscope::core

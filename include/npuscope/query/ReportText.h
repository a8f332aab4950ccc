// SPDX-License-Identifier: Apache-2.0
#pragma once

// Text helpers the CLI reports share (SummaryReport, CommReport, CollectivesReport, the advice HTML report): numbers
// in fixed point and columns padded by code points, so that "—" and other UTF-8 text line up. Pure; any thread.

#include <cstdio>
#include <string>

namespace npuscope::query::report {

// v with the given number of decimals ("%.*f"), then suffix.
inline std::string fixed(int decimals, double v, const char* suffix = "")
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f%s", decimals, v, suffix);
    return buf;
}

// s padded with spaces to width, counting UTF-8 code points (right-aligned unless right is false); a longer s is
// returned whole.
inline std::string pad(const std::string& s, size_t width, bool right = true)
{
    size_t len = 0;
    for (unsigned char c : s)
        len += (c & 0xC0) != 0x80;
    if (len >= width)
        return s;
    const std::string fill(width - len, ' ');
    return right ? fill + s : s + fill;
}

} // namespace npuscope::query::report

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/Decimal.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace npuscope {

namespace {
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
} // namespace

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

bool isMissing(std::string_view s)
{
    s = trim(s);
    return s.empty() || s == "N/A" || s == "NA" || s == "n/a" || s == "None" || s == "null" || s == "-"
        || s == "nan" || s == "NaN";
}

std::optional<int64_t> parseScaled(std::string_view s, int scaleDigits)
{
    s = trim(s);
    if (isMissing(s))
        return std::nullopt;
    bool negative = false;
    if (s.front() == '-' || s.front() == '+') {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    // Split mantissa and exponent.
    int exponent = 0;
    if (const auto e = s.find_first_of("eE"); e != std::string_view::npos) {
        int exp = 0;
        auto expText = s.substr(e + 1);
        if (!expText.empty() && expText.front() == '+')
            expText.remove_prefix(1);
        const auto [p, ec] = std::from_chars(expText.data(), expText.data() + expText.size(), exp);
        if (ec != std::errc() || p != expText.data() + expText.size() || exp > 40 || exp < -40)
            return std::nullopt;
        exponent = exp;
        s = s.substr(0, e);
    }
    // Accumulate digits as an unsigned 128-bit value with the decimal point position.
    uint64_t value = 0;
    constexpr uint64_t kLimit = (std::numeric_limits<uint64_t>::max() - 9) / 10;
    int fractionDigits = 0;
    bool seenPoint = false;
    bool seenDigit = false;
    int roundDigit = -1; // first digit beyond the kept precision
    const int keep = scaleDigits + exponent; // fraction digits we keep
    for (char c : s) {
        if (c == '.') {
            if (seenPoint)
                return std::nullopt;
            seenPoint = true;
            continue;
        }
        if (c < '0' || c > '9')
            return std::nullopt;
        seenDigit = true;
        if (seenPoint) {
            if (fractionDigits >= keep) {
                if (roundDigit < 0)
                    roundDigit = c - '0';
                continue;
            }
            ++fractionDigits;
        }
        if (value > kLimit)
            return std::nullopt;
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    if (!seenDigit)
        return std::nullopt;
    // Scale the kept digits up (or down, for large negative exponents) to the requested unit.
    int shift = keep - fractionDigits;
    while (shift > 0) {
        if (value > kLimit)
            return std::nullopt;
        value *= 10;
        --shift;
    }
    while (shift < 0) {
        roundDigit = static_cast<int>(value % 10);
        value /= 10;
        ++shift;
    }
    if (roundDigit >= 5)
        value += 1;
    if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return std::nullopt;
    const auto result = static_cast<int64_t>(value);
    return negative ? -result : result;
}

namespace {

// The text of a plain number: s without surrounding blanks and one leading '+'; nullopt for a missing value.
std::optional<std::string_view> numberText(std::string_view s)
{
    s = trim(s);
    if (isMissing(s))
        return std::nullopt;
    if (s.front() == '+')
        s.remove_prefix(1);
    return s;
}

// Whether std::from_chars reads all of text into v.
template <typename T> bool readsWhole(std::string_view text, T& v)
{
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc() && p == text.data() + text.size();
}

} // namespace

std::optional<int64_t> parseInt(std::string_view s)
{
    const auto text = numberText(s);
    if (!text)
        return std::nullopt;
    int64_t v = 0;
    if (readsWhole(*text, v))
        return v;
    // "12.0" style integers written by Python.
    if (auto d = parseDouble(*text); d && std::floor(*d) == *d && std::fabs(*d) < 9.0e18)
        return static_cast<int64_t>(*d);
    return std::nullopt;
}

std::optional<double> parseDouble(std::string_view s)
{
    const auto text = numberText(s);
    double v = 0;
    if (!text || !readsWhole(*text, v) || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::optional<int64_t> doubleToNs(double value, double nsPerUnit)
{
    if (!std::isfinite(value))
        return std::nullopt;
    const double ns = std::round(value * nsPerUnit);
    if (std::fabs(ns) > 9.0e18)
        return std::nullopt;
    return static_cast<int64_t>(ns);
}

} // namespace npuscope

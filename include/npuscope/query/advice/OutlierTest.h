// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace npuscope::query::advice {

// The outlier tests of the advice rules (docs/metrics.md, "Advice rules"). Pure functions; any thread.
class OutlierTest {
public:
    // Dixon's Q (r10) critical value at 95 % confidence for n values (Rorabacher 1991); nullopt outside 3 ≤ n ≤ 10.
    static std::optional<double> dixonCritical95(size_t n);
    // Q of the largest value: (x_n − x_{n−1}) ÷ (x_n − x_1); nullopt with fewer than 3 values or a zero range.
    static std::optional<double> dixonQHigh(std::vector<double> values);
    // Q of the smallest value: (x_2 − x_1) ÷ (x_n − x_1).
    static std::optional<double> dixonQLow(std::vector<double> values);
    static double median(std::vector<double> values); // 0 for no values; mean of the two middle ones for even n
    // Median absolute deviation from the median.
    static double mad(const std::vector<double>& values);
    // 0.6745 (x − median) ÷ MAD (Iglewicz & Hoaglin's modified z-score); ±infinity when MAD is 0 and x ≠ median.
    static double robustZ(double x, double median, double mad);
    // True when the largest value (high) or the smallest (!high) is an outlier: Dixon's Q for n ≤ 10, else a robust
    // z-score beyond AdviceThresholds::kRobustZ.
    static bool isOutlier(const std::vector<double>& values, bool high);
};

} // namespace npuscope::query::advice

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/advice/OutlierTest.h"

#include "npuscope/query/advice/AdviceThresholds.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace npuscope::query::advice {

std::optional<double> OutlierTest::dixonCritical95(size_t n)
{
    // Q10 at α = 0.05, n = 3 .. 10 (Rorabacher, Anal. Chem. 63 (1991) 139).
    static constexpr std::array<double, 8> kQ95 { 0.970, 0.829, 0.710, 0.625, 0.568, 0.526, 0.493, 0.466 };
    if (n < 3 || n > 10)
        return std::nullopt;
    return kQ95[n - 3];
}

namespace {

// Dixon's r10 of the largest (high) or the smallest value.
std::optional<double> dixonQ(std::vector<double> values, bool high)
{
    if (values.size() < 3)
        return std::nullopt;
    std::sort(values.begin(), values.end());
    const double range = values.back() - values.front();
    if (!(range > 0))
        return std::nullopt;
    return (high ? values.back() - values[values.size() - 2] : values[1] - values.front()) / range;
}

} // namespace

std::optional<double> OutlierTest::dixonQHigh(std::vector<double> values) { return dixonQ(std::move(values), true); }

std::optional<double> OutlierTest::dixonQLow(std::vector<double> values) { return dixonQ(std::move(values), false); }

double OutlierTest::median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double OutlierTest::mad(const std::vector<double>& values)
{
    const double m = median(values);
    std::vector<double> dev;
    dev.reserve(values.size());
    for (double v : values)
        dev.push_back(std::fabs(v - m));
    return median(std::move(dev));
}

double OutlierTest::robustZ(double x, double median, double mad)
{
    if (mad > 0)
        return 0.6745 * (x - median) / mad;
    if (x == median)
        return 0;
    return x > median ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
}

bool OutlierTest::isOutlier(const std::vector<double>& values, bool high)
{
    if (values.size() < 3)
        return false;
    if (const auto critical = dixonCritical95(values.size())) {
        const auto q = high ? dixonQHigh(values) : dixonQLow(values);
        return q && *q > *critical;
    }
    const double m = median(values);
    const double d = mad(values);
    const double x
        = high ? *std::max_element(values.begin(), values.end()) : *std::min_element(values.begin(), values.end());
    const double z = robustZ(x, m, d);
    return high ? z > AdviceThresholds::kRobustZ : z < -AdviceThresholds::kRobustZ;
}

} // namespace npuscope::query::advice

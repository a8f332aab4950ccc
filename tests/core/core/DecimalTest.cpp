// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/Decimal.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

using namespace npuscope;

TEST(Decimal, TrimStripsTabsAndLineEnds)
{
    EXPECT_EQ(trim(" \t1736408883704643.212\t\r\n"), "1736408883704643.212");
    EXPECT_EQ(trim("\t \r\n"), "");
    EXPECT_EQ(trim("a b"), "a b");
}

TEST(Decimal, IsMissing)
{
    for (const char* s : { "", "  ", "\t", "N/A", " N/A\t", "NA", "None", "null", "-", "nan", "NaN" })
        EXPECT_TRUE(isMissing(s)) << s;
    for (const char* s : { "0", "0.0", "x", "N/A2", "--" })
        EXPECT_FALSE(isMissing(s)) << s;
}

TEST(Decimal, ParseScaledKeepsEpochNanoseconds)
{
    EXPECT_EQ(parseScaled("1736408883688177.930", 3), 1736408883688177930);
    EXPECT_EQ(usToNs("1736408883688177.930"), 1736408883688177930);
    EXPECT_EQ(usToNs("1736408883704643.212\t"), 1736408883704643212); // torch_npu Excel guard
    EXPECT_EQ(usToNs("\t1736408883704643.212 \r"), 1736408883704643212);
    EXPECT_EQ(usToNs("1695115378715400.2"), 1695115378715400200);
    EXPECT_EQ(usToNs("1695115378713661"), 1695115378713661000);
    EXPECT_EQ(usToNs("1.69512E+15"), 1695120000000000000); // Excel-mangled timestamp (2023 sample)
    EXPECT_EQ(usToNs("53.741"), 53741);
    EXPECT_EQ(usToNs("0"), 0);
    EXPECT_EQ(usToNs("+3.5"), 3500);
    EXPECT_EQ(usToNs(".5"), 500);
    EXPECT_EQ(usToNs("5."), 5000);
}

TEST(Decimal, ParseScaledMissingValues)
{
    for (const char* s : { "", " ", "\t", "N/A", "N/A\t", "NA", "None", "-", "nan" })
        EXPECT_FALSE(usToNs(s).has_value()) << '"' << s << '"';
}

TEST(Decimal, ParseScaledExponents)
{
    EXPECT_EQ(msToNs("5e-05"), 50); // 5e-05 ms = 50 ns
    EXPECT_EQ(msToNs("5E-05"), 50);
    EXPECT_EQ(msToNs("1.5e-3"), 1500);
    EXPECT_EQ(msToNs("0.00275"), 2750);
    EXPECT_EQ(parseScaled("1.5e2", 0), 150);
    EXPECT_EQ(parseScaled("1e+2", 0), 100);
    EXPECT_EQ(parseScaled("15e-1", 0), 2); // 1.5 rounds away from zero
    EXPECT_EQ(parseScaled("149e-2", 0), 1);
    EXPECT_EQ(usToNs("1e-30"), 0);
    EXPECT_FALSE(usToNs("1e").has_value());
    EXPECT_FALSE(usToNs("1e+").has_value());
    EXPECT_FALSE(usToNs("1e99").has_value()); // exponent out of range
    EXPECT_FALSE(usToNs("e5").has_value());
}

TEST(Decimal, ParseScaledNegatives)
{
    EXPECT_EQ(usToNs("-12.345"), -12345);
    EXPECT_EQ(usToNs("-0.0005"), -1);
    EXPECT_EQ(usToNs("-1736408883688177.930"), -1736408883688177930);
    EXPECT_EQ(msToNs("-5e-05"), -50);
}

TEST(Decimal, ParseScaledRoundsHalfAwayFromZero)
{
    EXPECT_EQ(usToNs("0.0005"), 1);
    EXPECT_EQ(usToNs("0.0004999"), 0);
    EXPECT_EQ(usToNs("0.0015"), 2);
    EXPECT_EQ(usToNs("1.9995"), 2000); // carry into the integer part
    EXPECT_EQ(usToNs("8873.756000000001"), 8873756);
    EXPECT_EQ(usToNs("4028.6750000000175"), 4028675);
    EXPECT_EQ(usToNs("75174.57464453117"), 75174575);
    EXPECT_EQ(usToNs("146614.02034375005"), 146614020);
    EXPECT_EQ(usToNs("4975.2664"), 4975266);
}

TEST(Decimal, ParseScaledOverflow)
{
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    EXPECT_EQ(usToNs("9223372036854775.807"), kMax);
    EXPECT_FALSE(usToNs("9223372036854775.808").has_value());
    EXPECT_FALSE(usToNs("9223372036854775.8075").has_value()); // rounds past the limit
    EXPECT_FALSE(usToNs("99999999999999999999").has_value());
    EXPECT_FALSE(parseScaled("123456789012345678901234567890", 0).has_value());
    EXPECT_FALSE(usToNs("1e20").has_value());
    // Long fraction tails beyond the kept digits never overflow.
    EXPECT_EQ(usToNs("1.00000000000000000000000000000000000001"), 1000);
}

TEST(Decimal, ParseScaledMalformed)
{
    for (const char* s : { "abc", "1.2.3", "12a", "--1", "+-1", ".", "+", "1,5", "0x10", "1 2", "12us" })
        EXPECT_FALSE(usToNs(s).has_value()) << s;
}

TEST(Decimal, ParseInt)
{
    EXPECT_EQ(parseInt("42"), 42);
    EXPECT_EQ(parseInt(" 42\t"), 42);
    EXPECT_EQ(parseInt("+7"), 7);
    EXPECT_EQ(parseInt("-3"), -3);
    EXPECT_EQ(parseInt("4294967295"), 4294967295LL);
    EXPECT_EQ(parseInt("12.0"), 12); // Python writes some integers as floats
    EXPECT_EQ(parseInt("9223372036854775807"), std::numeric_limits<int64_t>::max());
    EXPECT_FALSE(parseInt("12.5").has_value());
    EXPECT_FALSE(parseInt("N/A").has_value());
    EXPECT_FALSE(parseInt("").has_value());
    EXPECT_FALSE(parseInt("abc").has_value());
    EXPECT_FALSE(parseInt("12abc").has_value());
    EXPECT_FALSE(parseInt("9223372036854775808").has_value());
}

TEST(Decimal, ParseDouble)
{
    EXPECT_DOUBLE_EQ(*parseDouble("8873.756000000001"), 8873.756000000001);
    EXPECT_DOUBLE_EQ(*parseDouble("2109.6015625\t"), 2109.6015625);
    EXPECT_DOUBLE_EQ(*parseDouble("1e3"), 1000.0);
    EXPECT_DOUBLE_EQ(*parseDouble("-0.5"), -0.5);
    EXPECT_DOUBLE_EQ(*parseDouble("+0.25"), 0.25);
    EXPECT_FALSE(parseDouble("N/A").has_value());
    EXPECT_FALSE(parseDouble("").has_value());
    EXPECT_FALSE(parseDouble("inf").has_value());
    EXPECT_FALSE(parseDouble("1,5").has_value());
    EXPECT_FALSE(parseDouble("1.5x").has_value());
}

TEST(Decimal, DoubleToNs)
{
    EXPECT_EQ(doubleToNs(0.00275, 1e6), 2750);
    EXPECT_EQ(doubleToNs(-1.5, 1.0), -2);
    EXPECT_FALSE(doubleToNs(std::numeric_limits<double>::quiet_NaN(), 1e6).has_value());
    EXPECT_FALSE(doubleToNs(std::numeric_limits<double>::infinity(), 1e6).has_value());
    EXPECT_FALSE(doubleToNs(1e300, 1e6).has_value());
}

// SPDX-License-Identifier: Apache-2.0
// npuscope::TrText, the translatable text of advice findings and import problems: templates filled in one pass, the
// English rendering, and the compact JSON a parse_issue row keeps it in.
#include "npuscope/core/TrText.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using npuscope::TrText;

namespace {

// "[...]" around every template: shows which parts a translation replaces.
std::string bracketed(const TrText& t)
{
    return t.render([](const char*, const std::string& text) { return "[" + text + "]"; });
}

} // namespace

TEST(TrText, FillsInOnePass)
{
    EXPECT_EQ(TrText::fill("%1 of %2 (%3 %)", { "a %2", "b", "12.5" }), "a %2 of b (12.5 %)");
    EXPECT_EQ(TrText::fill("%2, %1; %3 %%", { "x", "y" }), "y, x; %3 %%");
    const std::vector<std::string> eleven { "1", "2", "3", "4", "5", "6", "7", "8", "9", "ten", "eleven" };
    EXPECT_EQ(TrText::fill("%10 links%11.", eleven), "ten linkseleven.");

    const TrText clause("Advice", "; median %1 GB/s", { std::string("3.000") });
    const TrText text("Advice", "Link %1%2.", { std::string("0 → 1"), clause });
    EXPECT_EQ(text.english(), "Link 0 → 1; median 3.000 GB/s.");
    EXPECT_EQ(bracketed(text), "[Link 0 → 1[; median 3.000 GB/s].]");
    // A verbatim argument is never translated or filled.
    EXPECT_EQ(bracketed(TrText(std::string("%1 rank"))), "%1 rank");
    EXPECT_FALSE(TrText("verbatim").translatable());
    EXPECT_TRUE(text.translatable());
    // A nullptr context fills without translating.
    const TrText list(nullptr, "%1, %2", { std::string("a"), clause });
    EXPECT_EQ(bracketed(list), "a, [; median 3.000 GB/s]");
}

TEST(TrText, JsonRoundTrip)
{
    const TrText clause("ParseIssue", "; %1 \"quoted\" ünïcode", { std::string("7") });
    const TrText text(
        "ParseIssue", "row has %1 fields%2", { std::string("3"), clause, TrText(nullptr, "%1", { "x" }) });
    const std::string json = text.toJson();
    EXPECT_EQ(TrText("plain %1").toJson(), "\"plain %1\"");
    EXPECT_EQ(TrText("ParseIssue", "empty file").toJson(), R"({"c":"ParseIssue","s":"empty file"})");
    const auto back = TrText::fromJson(json);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, text);
    EXPECT_EQ(back->english(), text.english());

    EXPECT_FALSE(TrText::fromJson("not json"));
    EXPECT_FALSE(TrText::fromJson("{\"c\":\"ParseIssue\"}"));
    EXPECT_FALSE(TrText::fromJson("{\"s\":\"a\",\"a\":[1]}"));
    EXPECT_FALSE(TrText::fromJson("42"));
    // Too deep to be ours: refused, not a stack overflow.
    std::string deep;
    for (int i = 0; i < 1000; ++i)
        deep += "{\"s\":\"%1\",\"a\":[";
    deep += "\"x\"";
    for (int i = 0; i < 1000; ++i)
        deep += "]}";
    EXPECT_FALSE(TrText::fromJson(deep));
}

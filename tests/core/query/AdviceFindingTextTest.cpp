// SPDX-License-Identifier: Apache-2.0
// The translatable form of the advice findings (FindingText): templates filled in one pass, and on a generated
// cluster with planted anomalies every finding's message, suggestion and threshold in words is its template filled
// with its arguments, so the GUI's translation says what the CLI prints.
#include "AdviceTestSupport.h"
#include "TestSupport.h"

#include "npuscope/query/advice/AdviceQuery.h"
#include "npuscope/query/advice/FindingText.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace npuscope;
using namespace npuscope::query::advice;

namespace {

// Every template of a text and its arguments.
void templatesOf(const FindingText& t, std::vector<const FindingText*>& out)
{
    if (!t.context.empty())
        out.push_back(&t);
    for (const auto& a : t.args)
        templatesOf(a, out);
}

// "[...]" around every template: shows which parts a translation replaces.
std::string bracketed(const FindingText& t)
{
    return t.render([](const char*, const std::string& text) { return "[" + text + "]"; });
}

} // namespace

TEST(AdviceFindingText, EveryFindingIsItsFilledTemplate)
{
    test::ScratchDir dir;
    auto db = test::openFolder(test::generate(dir, test::plantedAnomalies()), true);
    ASSERT_TRUE(db);
    AdviceOptions options;
    options.capacityMb = 40.0 * 1024.0;
    options.peakTflops = 280.0;
    const auto findings = AdviceQuery::run(*db, options);
    std::set<std::string> ids;
    for (const auto& f : findings) {
        ids.insert(f.id);
        for (const auto& [english, form] : { std::pair { &f.message, &f.messageForm },
                 std::pair { &f.suggestion, &f.suggestionForm }, std::pair { &f.thresholdText, &f.thresholdForm } }) {
            EXPECT_FALSE(english->empty()) << f.id;
            EXPECT_EQ(*english, form->english()) << f.id;
            // The sentence itself is a template, and no printf conversion is left in any template.
            EXPECT_EQ(bracketed(*form).front(), '[') << f.id << ": " << bracketed(*form);
            std::vector<const FindingText*> templates;
            templatesOf(*form, templates);
            for (const FindingText* t : templates) {
                for (const char* printf : { "%s", "%d", "%.", "%l", "%z" })
                    EXPECT_EQ(t->source.find(printf), std::string::npos) << f.id << ": " << t->source;
            }
        }
    }
    for (const char* id : { "slow_rank", "slow_link", "memory_peak", "flops_light", "mfu", "idle_gap", "dispatch_chain",
             "computation_dispersion" })
        EXPECT_TRUE(ids.count(id)) << id;
}

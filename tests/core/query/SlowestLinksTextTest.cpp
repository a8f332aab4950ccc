// SPDX-License-Identifier: Apache-2.0
// The text summary's slowest links (kept in a bounded heap while the links stream by) are the first ten of the
// whole filtered list sorted by bandwidth, ties in link order, and the count is of the whole list. A rank's links to
// itself (MindSpore's "k-k" self-links, the only links of the mindinsight_r13_job sample with global ranks) are no
// link between ranks and are left out, as the comm report and the slow_link rule leave them out.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/SummaryReport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace npuscope;
using namespace npuscope::query;

TEST(SlowestLinksText, TopTenOfTheWholeListInBandwidthOrder)
{
    auto db = load::Loader::load(
        io::Detector::detect({ (fs::path(NPUSCOPE_TEST_DATA) / "torch_npu_2rank_level2").string() }), {});
    ASSERT_TRUE(db);
    auto links = CommQuery::links(*db);
    std::erase_if(links, [](const Link& l) {
        const bool perOp = l.slot ? *l.slot == "total" && l.groupHash : true;
        return !l.bandwidthGbps || !l.src || !l.dst || *l.src == *l.dst || l.transport.value_or("") == "LOCAL"
            || !perOp;
    });
    std::stable_sort(
        links.begin(), links.end(), [](const Link& a, const Link& b) { return *a.bandwidthGbps < *b.bandwidthGbps; });
    ASSERT_GT(links.size(), 10u); // the sample has more links than the list shows

    const std::string text = SummaryReport::text(*db);
    const std::string head
        = "Slowest links (per op or total slot, global ranks known, excluding LOCAL and a rank's links to itself): ";
    const auto at = text.find(head);
    ASSERT_NE(at, std::string::npos);
    std::istringstream in(text.substr(at + head.size()));
    size_t count = 0;
    in >> count;
    EXPECT_EQ(count, links.size());
    std::string line;
    std::getline(in, line);
    for (size_t i = 0; i < 10; ++i) {
        ASSERT_TRUE(std::getline(in, line));
        const auto& l = links[i];
        char bandwidth[64];
        std::snprintf(bandwidth, sizeof bandwidth, "%.3f GB/s", *l.bandwidthGbps);
        EXPECT_NE(line.find(bandwidth), std::string::npos) << line;
        EXPECT_NE(line.find(l.matrixOp), std::string::npos) << line;
        EXPECT_NE(line.find(std::to_string(*l.src) + " -> " + std::to_string(*l.dst)), std::string::npos) << line;
    }
    ASSERT_TRUE(std::getline(in, line));
    EXPECT_EQ(line, ""); // ten rows, then the blank line before the parse issues
}

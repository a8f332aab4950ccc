// SPDX-License-Identifier: Apache-2.0
// query::StatisticsQuery against op_statistic.csv and api_statistic.csv of the 2-rank torch_npu sample, summed here
// from the files themselves.

#include "TestSupport.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/core/Decimal.h"
#include "npuscope/query/StatisticsQuery.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace npuscope;
using npuscope::test::dataDir;

namespace {

const std::filesystem::path kSample = dataDir() / "torch_npu_2rank_level1";

struct Sum {
    std::set<int> ranks;
    int64_t count = 0, totalNs = 0, minNs = INT64_MAX, maxNs = INT64_MIN;
    double ratioPct = 0; // the file's Ratio(%) (op_statistic, one rank)
};

// (first key, second key) -> sums over the given ranks of one statistics file; columns by header name.
std::map<std::pair<std::string, std::string>, Sum> fromCsv(const std::string& file, const std::vector<int>& ranks,
    const char* key1, const char* key2, const char* total, const char* min, const char* max)
{
    std::map<std::pair<std::string, std::string>, Sum> out;
    for (int rank : ranks) {
        const auto path = kSample / ("rank" + std::to_string(rank) + "_ascend_pt") / "ASCEND_PROFILER_OUTPUT" / file;
        CsvReader reader;
        std::string error;
        EXPECT_TRUE(reader.open(path.string(), error)) << error;
        std::vector<std::string> fields;
        EXPECT_TRUE(reader.next(fields));
        const CsvHeader header(fields);
        const int k1 = header.find({ key1 }), k2 = header.find({ key2 }), count = header.find({ "Count" }),
                  t = header.find({ total }), lo = header.find({ min }), hi = header.find({ max }),
                  ratio = header.find({ "Ratio(%)" });
        while (reader.next(fields)) {
            Sum& s = out[{ std::string(field(fields, k1)), std::string(field(fields, k2)) }];
            s.ranks.insert(rank);
            s.count += std::stoll(std::string(field(fields, count)));
            s.totalNs += usToNs(field(fields, t)).value();
            s.minNs = std::min(s.minNs, usToNs(field(fields, lo)).value());
            s.maxNs = std::max(s.maxNs, usToNs(field(fields, hi)).value());
            if (ratio >= 0)
                s.ratioPct = std::stod(std::string(field(fields, ratio)));
        }
    }
    return out;
}

class StatisticsQueryTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() { s_db = npuscope::test::openFolder(kSample).release(); }
    static void TearDownTestSuite()
    {
        delete s_db;
        s_db = nullptr;
    }
    static model::Database* s_db;
};

model::Database* StatisticsQueryTest::s_db = nullptr;

TEST_F(StatisticsQueryTest, OpTypesSumTheRanksFiles)
{
    ASSERT_NE(s_db, nullptr);
    const auto expected = fromCsv(
        "op_statistic.csv", { 0, 1 }, "OP Type", "Core Type", "Total Time(us)", "Min Time(us)", "Max Time(us)");
    const auto rows = query::StatisticsQuery::ops(*s_db);
    ASSERT_EQ(rows.size(), expected.size());
    double share = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        const auto it = expected.find({ r.opType, r.coreType });
        ASSERT_NE(it, expected.end()) << r.opType;
        EXPECT_EQ(r.ranks, static_cast<int>(it->second.ranks.size())) << r.opType;
        EXPECT_EQ(r.count, it->second.count) << r.opType;
        EXPECT_EQ(r.totalNs, it->second.totalNs) << r.opType;
        EXPECT_EQ(r.minNs, it->second.minNs) << r.opType;
        EXPECT_EQ(r.maxNs, it->second.maxNs) << r.opType;
        ASSERT_TRUE(r.meanNs);
        EXPECT_DOUBLE_EQ(*r.meanNs, static_cast<double>(r.totalNs) / static_cast<double>(r.count));
        if (i > 0) {
            EXPECT_GE(rows[i - 1].totalNs, r.totalNs) << "largest total first";
        }
        share += r.sharePct;
    }
    EXPECT_NEAR(share, 100.0, 1e-9);
}

TEST_F(StatisticsQueryTest, OneRanksShareIsTheFilesRatio)
{
    ASSERT_NE(s_db, nullptr);
    for (int rank : { 0, 1 }) {
        const auto expected = fromCsv(
            "op_statistic.csv", { rank }, "OP Type", "Core Type", "Total Time(us)", "Min Time(us)", "Max Time(us)");
        const auto rows = query::StatisticsQuery::ops(*s_db, { rank });
        ASSERT_EQ(rows.size(), expected.size());
        for (const auto& r : rows) {
            const auto& e = expected.at({ r.opType, r.coreType });
            EXPECT_EQ(r.ranks, 1);
            EXPECT_EQ(r.totalNs, e.totalNs);
            // Ratio(%) is written with three decimals.
            EXPECT_NEAR(r.sharePct, e.ratioPct, 0.0011) << "rank " << rank << " " << r.opType;
        }
    }
}

TEST_F(StatisticsQueryTest, ApisSumTheRanksFilesAndShareWithinTheirLevel)
{
    ASSERT_NE(s_db, nullptr);
    const auto expected = fromCsv("api_statistic.csv", { 0, 1 }, "Level", "API Name", "Time(us)", "Min(us)", "Max(us)");
    const auto rows = query::StatisticsQuery::apis(*s_db);
    ASSERT_EQ(rows.size(), expected.size());
    std::map<std::string, double> levelShare;
    for (const auto& r : rows) {
        const auto it = expected.find({ r.level, r.apiName });
        ASSERT_NE(it, expected.end()) << r.apiName;
        EXPECT_EQ(r.ranks, static_cast<int>(it->second.ranks.size())) << r.apiName;
        EXPECT_EQ(r.count, it->second.count) << r.apiName;
        EXPECT_EQ(r.totalNs, it->second.totalNs) << r.apiName;
        EXPECT_EQ(r.minNs, it->second.minNs) << r.apiName;
        EXPECT_EQ(r.maxNs, it->second.maxNs) << r.apiName;
        levelShare[r.level] += r.sharePct;
    }
    ASSERT_FALSE(levelShare.empty());
    for (const auto& [level, share] : levelShare)
        EXPECT_NEAR(share, 100.0, 1e-9) << level;
    EXPECT_EQ(query::StatisticsQuery::apiRanks(*s_db), (std::vector<int64_t> { 0, 1 }));
    EXPECT_EQ(query::StatisticsQuery::opRanks(*s_db), (std::vector<int64_t> { 0, 1 }));
}

TEST_F(StatisticsQueryTest, RanksWithoutTheFilesGiveNoRows)
{
    ASSERT_NE(s_db, nullptr);
    EXPECT_TRUE(query::StatisticsQuery::ops(*s_db, { 99 }).empty());
    EXPECT_TRUE(query::StatisticsQuery::apis(*s_db, { 99 }).empty());
}

} // namespace

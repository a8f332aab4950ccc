// SPDX-License-Identifier: Apache-2.0
// Operator figures (query::OperatorQuery, npuscope-cli ops) against what kernel_details.csv holds, read here with
// the CSV reader alone, independent of the importer.
#include "TestSupport.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/core/Decimal.h"
#include "npuscope/query/OperatorQuery.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

using npuscope::query::OperatorGroupBy;
using npuscope::query::OperatorQuery;
using npuscope::query::OperatorRow;
using npuscope::test::dataDir;

namespace {

const std::filesystem::path kSample = dataDir() / "torch_npu_2rank_level1";

struct Expected {
    int64_t count = 0, totalNs = 0, minNs = 0, maxNs = 0, waitNs = 0;
};

// Per key of one rank's kernel_details.csv: the key is the Type, the Name, or the Name with its Input Shapes (the
// file's quotes stripped; a kernel whose shapes are missing, e.g. N/A, keeps its name).
std::map<std::string, Expected> fromCsv(int rank, OperatorGroupBy by)
{
    const auto path
        = kSample / ("rank" + std::to_string(rank) + "_ascend_pt") / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv";
    npuscope::CsvReader reader;
    std::string error;
    EXPECT_TRUE(reader.open(path.string(), error)) << error;
    std::vector<std::string> fields;
    EXPECT_TRUE(reader.next(fields));
    const npuscope::CsvHeader header(fields);
    const int type = header.find({ "Type" });
    const int name = header.find({ "Name" });
    const int dur = header.find({ "Duration(us)" });
    const int wait = header.find({ "Wait Time(us)" });
    const int shapes = header.find({ "Input Shapes" });
    std::map<std::string, Expected> out;
    while (reader.next(fields)) {
        std::string shape(npuscope::field(fields, shapes));
        shape.erase(std::remove(shape.begin(), shape.end(), '"'), shape.end());
        std::string key(npuscope::field(fields, by == OperatorGroupBy::Type ? type : name));
        if (by == OperatorGroupBy::Shape && !npuscope::isMissing(shape))
            key += " [" + shape + "]";
        const int64_t d = npuscope::usToNs(npuscope::field(fields, dur)).value();
        Expected& e = out[key];
        e.minNs = e.count ? std::min(e.minNs, d) : d;
        e.maxNs = e.count ? std::max(e.maxNs, d) : d;
        ++e.count;
        e.totalNs += d;
        e.waitNs += npuscope::usToNs(npuscope::field(fields, wait)).value_or(0);
    }
    return out;
}

class OperatorQueryTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() { s_db = npuscope::test::openFolder(kSample, true).release(); }
    static void TearDownTestSuite()
    {
        delete s_db;
        s_db = nullptr;
    }
    static std::shared_ptr<const OperatorQuery> index() { return OperatorQuery::forDatabase(*s_db); }
    static npuscope::model::Database* s_db;
};

npuscope::model::Database* OperatorQueryTest::s_db = nullptr;

std::map<std::string, OperatorRow> byKey(const std::vector<OperatorRow>& rows)
{
    std::map<std::string, OperatorRow> out;
    for (const auto& r : rows)
        out.emplace(r.key, r);
    return out;
}

TEST_F(OperatorQueryTest, PerTypeFiguresEqualTheCsv)
{
    ASSERT_EQ(index()->ranks(), (std::vector<int64_t> { 0, 1 }));
    for (int rank : { 0, 1 }) {
        const auto expected = fromCsv(rank, OperatorGroupBy::Type);
        const auto rows = index()->group(OperatorGroupBy::Type, rank);
        ASSERT_EQ(rows.size(), expected.size());
        const auto got = byKey(rows);
        // Spot values of two types, then every type.
        EXPECT_EQ(got.at("TransData").count, 57);
        EXPECT_EQ(got.at("Mul").count, 20);
        int64_t csvTotal = 0;
        int64_t total = 0;
        for (const auto& [key, e] : expected) {
            const OperatorRow& r = got.at(key);
            EXPECT_EQ(r.rank, rank);
            EXPECT_EQ(r.count, e.count) << key;
            EXPECT_EQ(r.totalNs, e.totalNs) << key;
            EXPECT_EQ(r.minNs, e.minNs) << key;
            EXPECT_EQ(r.maxNs, e.maxNs) << key;
            EXPECT_EQ(r.waitNs, e.waitNs) << key;
            csvTotal += e.totalNs;
        }
        for (const auto& r : rows)
            total += r.totalNs;
        EXPECT_EQ(total, csvTotal);
        EXPECT_GT(total, 0);
        // Largest total first.
        EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end(),
            [](const OperatorRow& a, const OperatorRow& b) { return a.totalNs > b.totalNs; }));
    }
    // Every rank: both ranks' rows, rank 0 first.
    const auto all = index()->group(OperatorGroupBy::Type);
    EXPECT_EQ(all.size(), fromCsv(0, OperatorGroupBy::Type).size() + fromCsv(1, OperatorGroupBy::Type).size());
    EXPECT_EQ(all.front().rank, 0);
    EXPECT_EQ(all.back().rank, 1);
}

TEST_F(OperatorQueryTest, MeanIsTotalOverCountRoundedToTheNs)
{
    OperatorRow r;
    r.count = 3;
    r.totalNs = 1000;
    EXPECT_EQ(r.meanNs(), 333);
    r.totalNs = 1001;
    r.count = 2;
    EXPECT_EQ(r.meanNs(), 501);
    r.totalNs = -1001;
    EXPECT_EQ(r.meanNs(), -501);
    r.count = 0;
    EXPECT_EQ(r.meanNs(), 0);
}

TEST_F(OperatorQueryTest, CompareDiffIsTheDifferenceOfTheRanksRows)
{
    for (auto by : { OperatorGroupBy::Type, OperatorGroupBy::Name, OperatorGroupBy::Shape }) {
        const auto base = byKey(index()->group(by, 0));
        const auto other = byKey(index()->group(by, 1));
        const auto rows = index()->compare(by, 0, 1);
        std::set<std::string> keys;
        for (const auto& [k, r] : base)
            keys.insert(k);
        for (const auto& [k, r] : other)
            keys.insert(k);
        ASSERT_EQ(rows.size(), keys.size());
        for (const auto& c : rows) {
            const auto b = base.find(c.base.key);
            const auto o = other.find(c.base.key);
            const int64_t baseTotal = b == base.end() ? 0 : b->second.totalNs;
            const int64_t otherTotal = o == other.end() ? 0 : o->second.totalNs;
            EXPECT_EQ(c.base.rank, 0);
            EXPECT_EQ(c.compareRank, 1);
            EXPECT_EQ(c.base.totalNs, baseTotal) << c.base.key;
            EXPECT_EQ(c.compareTotalNs, otherTotal) << c.base.key;
            EXPECT_EQ(c.diffNs(), otherTotal - baseTotal) << c.base.key;
            EXPECT_EQ(c.compareCount, o == other.end() ? 0 : o->second.count);
        }
        EXPECT_TRUE(std::is_sorted(
            rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.diffNs() > b.diffNs(); }));
    }
    // The two ranks' files differ in their durations, so some type differs.
    const auto rows = index()->compare(OperatorGroupBy::Type, 0, 1);
    EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), [](const auto& c) { return c.diffNs() != 0; }));
    // A rank compared with itself differs nowhere.
    for (const auto& c : index()->compare(OperatorGroupBy::Name, 1, 1))
        EXPECT_EQ(c.diffNs(), 0) << c.base.key;
}

TEST_F(OperatorQueryTest, GroupByShapeSplitsANameByInputShapes)
{
    const std::string name = "aclnnInplaceRelu_Relu_Relu";
    const auto expected = fromCsv(0, OperatorGroupBy::Shape);
    const auto got = byKey(index()->group(OperatorGroupBy::Shape, 0));
    ASSERT_EQ(got.size(), expected.size());
    int64_t shapeKeys = 0;
    int64_t count = 0;
    for (const auto& [key, e] : expected) {
        EXPECT_EQ(got.at(key).count, e.count) << key;
        EXPECT_EQ(got.at(key).totalNs, e.totalNs) << key;
        if (key.rfind(name + " [", 0) == 0) {
            ++shapeKeys;
            count += e.count;
        }
    }
    EXPECT_EQ(shapeKeys, 5);
    EXPECT_TRUE(got.count(name + " [32,4096]"));
    // The shape rows of the name add up to its name row.
    EXPECT_EQ(count, byKey(index()->group(OperatorGroupBy::Name, 0)).at(name).count);
}

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

TEST(OperatorCliTest, JsonHasTheContractFields)
{
    const auto run = npuscope::test::runCli("ops --json --no-cache --rank 0 " + quoted(kSample));
    ASSERT_EQ(run.status, 0) << run.out;
    const auto doc = nlohmann::json::parse(run.out);
    EXPECT_EQ(doc["schema"], "npuscope.ops/1");
    EXPECT_EQ(doc["group_by"], "type");
    const auto expected = fromCsv(0, OperatorGroupBy::Type);
    ASSERT_EQ(doc["rows"].size(), expected.size());
    for (const auto& row : doc["rows"]) {
        for (const char* field : { "rank", "key", "count", "total_us", "mean_us", "min_us", "max_us", "wait_us" })
            EXPECT_TRUE(row.contains(field)) << field;
        EXPECT_EQ(row["rank"], 0);
        const Expected& e = expected.at(row["key"].get<std::string>());
        EXPECT_EQ(row["count"], e.count);
        EXPECT_EQ(row["total_us"].get<double>(), static_cast<double>(e.totalNs) / 1000.0);
        EXPECT_FALSE(row.contains("diff_us"));
    }

    const auto cmp
        = npuscope::test::runCli("ops --json --no-cache --rank 0 --compare 1 --group-by name " + quoted(kSample));
    ASSERT_EQ(cmp.status, 0) << cmp.out;
    const auto cdoc = nlohmann::json::parse(cmp.out);
    EXPECT_EQ(cdoc["group_by"], "name");
    ASSERT_FALSE(cdoc["rows"].empty());
    for (const auto& row : cdoc["rows"]) {
        ASSERT_TRUE(row.contains("compare_total_us"));
        ASSERT_TRUE(row.contains("diff_us"));
        EXPECT_NEAR(
            row["diff_us"].get<double>(), row["compare_total_us"].get<double>() - row["total_us"].get<double>(), 1e-6);
    }

    const auto text = npuscope::test::runCli("ops --no-cache " + quoted(kSample));
    ASSERT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("TransData"), std::string::npos);
    EXPECT_EQ(npuscope::test::runCli("ops --compare 1 " + quoted(kSample)).status, 2);
    EXPECT_EQ(npuscope::test::runCli("ops --group-by kind " + quoted(kSample)).status, 2);
    EXPECT_EQ(npuscope::test::runCli("ops --no-cache --rank 7 " + quoted(kSample)).status, 2);
}

} // namespace

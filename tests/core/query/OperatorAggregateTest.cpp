// SPDX-License-Identifier: Apache-2.0
// The Operator dock's figures beyond one rank's table, on the two-rank torch_npu Level1 sample: the all-ranks sum,
// block dim and accelerator core per key, the core-class totals and the type pie's shares, the top-N cut, and the
// timeline occurrences of a key (query::OperatorOccurrences). Expected values are read from kernel_details.csv here
// with the CSV reader alone, independent of the importer.
#include "TestSupport.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/core/Decimal.h"
#include "npuscope/query/OperatorOccurrences.h"
#include "npuscope/query/OperatorQuery.h"
#include "npuscope/query/TimelineQuery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>

using namespace npuscope;
using query::OperatorGroupBy;
using query::OperatorQuery;
using query::OperatorRow;

namespace {

const std::filesystem::path kSample = test::dataDir() / "torch_npu_2rank_level1";

// Per rank of the CSV: Σ Duration per core class, and per Type the smallest / largest Block Dim.
struct CsvFigures {
    std::array<int64_t, query::kCoreClassCount> cores {};
    std::map<std::string, std::pair<int64_t, int64_t>> blockDim;
    std::map<std::string, int64_t> nameCount;
};

CsvFigures fromCsv(int rank)
{
    const auto path
        = kSample / ("rank" + std::to_string(rank) + "_ascend_pt") / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv";
    CsvReader reader;
    std::string error;
    EXPECT_TRUE(reader.open(path.string(), error)) << error;
    std::vector<std::string> fields;
    EXPECT_TRUE(reader.next(fields));
    const CsvHeader header(fields);
    const int type = header.find({ "Type" });
    const int name = header.find({ "Name" });
    const int core = header.find({ "Accelerator Core" });
    const int dur = header.find({ "Duration(us)" });
    const int block = header.find({ "Block Dim" });
    CsvFigures out;
    while (reader.next(fields)) {
        const int64_t d = usToNs(field(fields, dur)).value();
        out.cores[static_cast<size_t>(query::coreClassOf(field(fields, core)))] += d;
        const int64_t b = std::stoll(std::string(field(fields, block)));
        auto [it, inserted] = out.blockDim.try_emplace(std::string(field(fields, type)), b, b);
        it->second = { std::min(it->second.first, b), std::max(it->second.second, b) };
        ++out.nameCount[std::string(field(fields, name))];
    }
    return out;
}

class OperatorAggregateTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() { s_db = test::openFolder(kSample, true).release(); }
    static void TearDownTestSuite()
    {
        delete s_db;
        s_db = nullptr;
    }
    static std::shared_ptr<const OperatorQuery> index() { return OperatorQuery::forDatabase(*s_db); }
    static model::Database* s_db;
};

model::Database* OperatorAggregateTest::s_db = nullptr;

TEST_F(OperatorAggregateTest, AllRanksEqualTheSumOfEachRanksRows)
{
    for (auto by : { OperatorGroupBy::Type, OperatorGroupBy::Name, OperatorGroupBy::Shape }) {
        // The per-rank rows folded by key by hand.
        std::map<std::string, OperatorRow> expected;
        for (const auto& r : index()->group(by)) {
            auto [it, inserted] = expected.try_emplace(r.key, r);
            if (inserted)
                continue;
            OperatorRow& e = it->second;
            e.count += r.count;
            e.totalNs += r.totalNs;
            e.waitNs += r.waitNs;
            e.minNs = std::min(e.minNs, r.minNs);
            e.maxNs = std::max(e.maxNs, r.maxNs);
        }
        const auto all = index()->aggregate(by);
        ASSERT_EQ(all.size(), expected.size()) << groupByName(by);
        int64_t kernels = 0;
        for (const auto& r : all) {
            const OperatorRow& e = expected.at(r.key);
            EXPECT_EQ(r.rank, query::kAllRanks);
            EXPECT_EQ(r.count, e.count) << r.key;
            EXPECT_EQ(r.totalNs, e.totalNs) << r.key;
            EXPECT_EQ(r.waitNs, e.waitNs) << r.key;
            EXPECT_EQ(r.minNs, e.minNs) << r.key;
            EXPECT_EQ(r.maxNs, e.maxNs) << r.key;
            kernels += r.count;
        }
        // Both files' rows: 191 + 191 data lines.
        EXPECT_EQ(kernels, 382) << groupByName(by);
        EXPECT_TRUE(std::is_sorted(
            all.begin(), all.end(), [](const OperatorRow& a, const OperatorRow& b) { return a.totalNs > b.totalNs; }));
    }
    // TransData: 57 kernels on each rank.
    const auto all = index()->aggregate(OperatorGroupBy::Type);
    const auto it = std::find_if(all.begin(), all.end(), [](const OperatorRow& r) { return r.key == "TransData"; });
    ASSERT_NE(it, all.end());
    EXPECT_EQ(it->count, 114);
}

TEST_F(OperatorAggregateTest, BlockDimAcceleratorAndCoreTotalsEqualTheCsv)
{
    for (int rank : { 0, 1 }) {
        const CsvFigures csv = fromCsv(rank);
        EXPECT_EQ(index()->coreTotals(rank), csv.cores) << rank;
        for (const auto& r : index()->group(OperatorGroupBy::Type, rank)) {
            const auto& [lo, hi] = csv.blockDim.at(r.key);
            EXPECT_EQ(r.blockDimMin, lo) << r.key;
            EXPECT_EQ(r.blockDimMax, hi) << r.key;
        }
    }
    // Rank 0: TransData runs on the vector cores with Block Dim 8 to 43; the allreduce is HCCL, the communication
    // class.
    const auto rows = index()->group(OperatorGroupBy::Type, 0);
    const auto find = [&](const std::string& key) {
        return *std::find_if(rows.begin(), rows.end(), [&](const OperatorRow& r) { return r.key == key; });
    };
    EXPECT_EQ(find("TransData").accelerator, "AI_VECTOR_CORE");
    EXPECT_EQ(find("TransData").blockDimMin, 8);
    EXPECT_EQ(find("TransData").blockDimMax, 43);
    EXPECT_EQ(find("hcom_allReduce_").accelerator, "HCCL");
    EXPECT_EQ(
        index()->coreTotals(0)[static_cast<size_t>(query::CoreClass::Communication)], find("hcom_allReduce_").totalNs);
    // Every rank: the two ranks' totals.
    const auto both = index()->coreTotals();
    for (size_t c = 0; c < query::kCoreClassCount; ++c)
        EXPECT_EQ(both[c], index()->coreTotals(0)[c] + index()->coreTotals(1)[c]);
    EXPECT_EQ(query::coreClassOf("MIX_AIV"), query::CoreClass::Mix);
    EXPECT_EQ(query::coreClassOf("COMMUNICATION"), query::CoreClass::Communication);
    EXPECT_EQ(query::coreClassOf("DSA_SQE"), query::CoreClass::Other);
}

TEST_F(OperatorAggregateTest, PieSharesSumToTheTotalAndTopNKeepsTheLargest)
{
    const auto rows = index()->group(OperatorGroupBy::Type, 0);
    ASSERT_EQ(rows.size(), 34u);
    int64_t total = 0;
    for (const auto& r : rows)
        total += r.totalNs;
    for (size_t n : { size_t { 1 }, size_t { 5 }, size_t { 15 }, size_t { 34 }, size_t { 0 } }) {
        const auto shares = OperatorQuery::topShares(rows, n);
        int64_t sum = 0;
        for (const auto& s : shares)
            sum += s.totalNs;
        EXPECT_EQ(sum, total) << n;
        const size_t listed = n == 0 ? rows.size() : std::min(n, rows.size());
        EXPECT_EQ(shares.size(), listed + (listed < rows.size() ? 1 : 0)) << n;
        if (listed < rows.size()) {
            EXPECT_EQ(shares.back().label, "other");
        }
    }
    EXPECT_EQ(OperatorQuery::topShares(rows, 1).front().label, "hcom_allReduce_");

    const auto top = OperatorQuery::largest(rows, 5);
    ASSERT_EQ(top.size(), 5u);
    int64_t smallestKept = top.front().totalNs;
    for (const auto& r : top)
        smallestKept = std::min(smallestKept, r.totalNs);
    int dropped = 0;
    for (const auto& r : rows) {
        if (std::none_of(top.begin(), top.end(), [&](const OperatorRow& t) { return t.key == r.key; })) {
            EXPECT_LE(r.totalNs, smallestKept) << r.key;
            ++dropped;
        }
    }
    EXPECT_EQ(dropped, 29);
    EXPECT_EQ(OperatorQuery::largest(rows, 0).size(), rows.size());

    // Compare rows keep the largest |difference|: MatMulV2 (+26.061 µs) and hcom_allReduce_ (-5,616.592 µs).
    const auto compared = OperatorQuery::largest(index()->compare(OperatorGroupBy::Type, 0, 1), 2);
    ASSERT_EQ(compared.size(), 2u);
    EXPECT_EQ(compared[0].base.key, "MatMulV2");
    EXPECT_EQ(compared[1].base.key, "hcom_allReduce_");
}

TEST_F(OperatorAggregateTest, OccurrencesAreExactlyTheKernelsOfTheKey)
{
    query::RankTimelinePtr timeline;
    {
        auto guard = s_db->lock();
        timeline = query::TimelineQuery::loadRank(*s_db, 0);
    }
    ASSERT_TRUE(timeline);
    const CsvFigures csv = fromCsv(0);
    // Every kernel name of rank 0: as many highlighted slices as the Operator table counts, each with that name.
    int checked = 0;
    for (const auto& row : index()->group(OperatorGroupBy::Name, 0)) {
        query::OperatorOccurrences::Kernels kernels;
        {
            auto guard = s_db->lock();
            kernels = query::OperatorOccurrences::kernels(*s_db, OperatorGroupBy::Name, row.key, 0);
        }
        EXPECT_EQ(kernels.count, row.count) << row.key;
        EXPECT_EQ(kernels.count, csv.nameCount.at(row.key)) << row.key;
        const auto hits = query::OperatorOccurrences::find(kernels, { timeline });
        EXPECT_EQ(static_cast<int64_t>(hits.size()), row.count) << row.key;
        for (const auto& h : hits) {
            const auto& level
                = timeline->tracks[static_cast<size_t>(h.ref.track)].levels[static_cast<size_t>(h.ref.depth)];
            EXPECT_EQ(timeline->nameOf(level.nameId[h.ref.index]), row.key);
        }
        ++checked;
    }
    EXPECT_GT(checked, 40);
    // By type: the kernels of every name of that type (TransData: 57 kernels, 57 slices).
    query::OperatorOccurrences::Kernels transData;
    {
        auto guard = s_db->lock();
        transData = query::OperatorOccurrences::kernels(*s_db, OperatorGroupBy::Type, "TransData", 0);
    }
    EXPECT_EQ(transData.count, 57);
    EXPECT_EQ(query::OperatorOccurrences::find(transData, { timeline }).size(), 57u);
    // A name + shapes key finds only the kernels with those shapes.
    const auto shapes = index()->group(OperatorGroupBy::Shape, 0);
    const auto withShapes
        = std::find_if(shapes.begin(), shapes.end(), [](const OperatorRow& r) { return !r.shapes.empty(); });
    ASSERT_NE(withShapes, shapes.end());
    query::OperatorOccurrences::Kernels shaped;
    {
        auto guard = s_db->lock();
        shaped = query::OperatorOccurrences::kernels(*s_db, OperatorGroupBy::Shape, withShapes->key, 0);
    }
    EXPECT_EQ(shaped.count, withShapes->count);
    EXPECT_EQ(static_cast<int64_t>(query::OperatorOccurrences::find(shaped, { timeline }).size()), withShapes->count);
}

} // namespace

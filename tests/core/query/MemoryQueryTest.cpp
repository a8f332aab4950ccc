// SPDX-License-Identifier: Apache-2.0
// Memory peaks (query::MemoryQuery, `npuscope-cli memory`, npuscope.memory/1) equal what memory_record.csv holds:
// the expected values are read from the files here with CsvReader, independently of the importer.
#include "TestSupport.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/query/MemoryQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::openFolder;
using npuscope::test::runCli;
using npuscope::test::ScratchDir;

namespace {

struct FilePeak {
    double reserved = -1; // largest Total Reserved(MB) of APP
    std::string reservedTs; // its Timestamp(us) as written
    double allocated = -1; // largest Total Allocated(MB) of PTA+GE
};

FilePeak readPeak(const std::filesystem::path& csv)
{
    CsvReader reader;
    std::string error;
    EXPECT_TRUE(reader.open(csv.string(), error)) << error;
    std::vector<std::string> header, f;
    EXPECT_TRUE(reader.next(header));
    auto col = [&](const char* name) {
        return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    const size_t comp = col("Component"), ts = col("Timestamp(us)"), alloc = col("Total Allocated(MB)"),
                 res = col("Total Reserved(MB)");
    FilePeak p;
    while (reader.next(f)) {
        if (f[comp] == "APP" && !f[res].empty() && std::stod(f[res]) > p.reserved) {
            p.reserved = std::stod(f[res]);
            p.reservedTs = f[ts];
        }
        if (f[comp] == "PTA+GE" && !f[alloc].empty())
            p.allocated = std::max(p.allocated, std::stod(f[alloc]));
    }
    return p;
}

// "1736408883733932.920\t" (µs, 3 decimals) -> epoch ns.
int64_t usTextToNs(std::string text)
{
    text.erase(std::remove_if(text.begin(), text.end(), [](char c) { return c == '\t' || c == ' '; }), text.end());
    const auto dot = text.find('.');
    std::string frac = dot == std::string::npos ? "" : text.substr(dot + 1);
    frac.resize(3, '0');
    return std::stoll(text.substr(0, dot)) * 1000 + std::stoll(frac);
}

} // namespace

TEST(MemoryQuery, PeaksEqualTheRealFiles)
{
    const auto root = dataDir() / "torch_npu_2rank_level1";
    auto db = openFolder(root);
    ASSERT_TRUE(db);
    const auto peaks = query::MemoryQuery::peaks(*db);
    ASSERT_EQ(peaks.size(), 2u);
    for (const auto& p : peaks) {
        const auto file = readPeak(root / ("rank" + std::to_string(p.rank) + "_ascend_pt") / "ASCEND_PROFILER_OUTPUT"
            / "memory_record.csv");
        ASSERT_GT(file.reserved, 0);
        ASSERT_TRUE(p.peakReservedMb && p.peakAllocatedMb && p.peakTimeNs) << p.rank;
        EXPECT_DOUBLE_EQ(*p.peakReservedMb, file.reserved) << p.rank; // 2113.73046875 MB on rank 0
        EXPECT_DOUBLE_EQ(*p.peakAllocatedMb, file.allocated) << p.rank; // 1261.04296875 MB
        EXPECT_EQ(*p.peakTimeNs, usTextToNs(file.reservedTs)) << p.rank;
        EXPECT_EQ(p.component, "APP");
        EXPECT_EQ(p.device, p.rank);
        EXPECT_FALSE(p.capacityMb);
        EXPECT_FALSE(p.ratio);
    }
    EXPECT_DOUBLE_EQ(*peaks[0].peakReservedMb, 2113.73046875);
}

TEST(MemoryQuery, HeavyRankStandsOutWithItsShareOfTheCapacity)
{
    ScratchDir dir;
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "gen").string();
    o.ranks = 4;
    o.traceMb = 0;
    o.memoryHeavyRank = 3;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    auto db = openFolder(o.outDir);
    ASSERT_TRUE(db);
    const auto peaks = query::MemoryQuery::peaks(*db, 64.0 * 1024);
    ASSERT_EQ(peaks.size(), 4u);
    const auto heaviest = std::max_element(peaks.begin(), peaks.end(),
        [](const auto& a, const auto& b) { return a.peakAllocatedMb.value_or(0) < b.peakAllocatedMb.value_or(0); });
    EXPECT_EQ(heaviest->rank, 3);
    for (const auto& p : peaks) {
        ASSERT_TRUE(p.ratio && p.peakReservedMb);
        EXPECT_DOUBLE_EQ(*p.ratio, *p.peakReservedMb / 65536.0);
        EXPECT_LT(*p.ratio, 1.0);
    }
}

TEST(MemoryQuery, RankWithoutMemoryRecordsHasNulls)
{
    auto db = openFolder(dataDir() / "msinsight_metadata_only");
    ASSERT_TRUE(db);
    const auto peaks = query::MemoryQuery::peaks(*db, 1024.0);
    ASSERT_FALSE(peaks.empty());
    EXPECT_FALSE(peaks[0].peakReservedMb);
    EXPECT_FALSE(peaks[0].component);
    EXPECT_FALSE(peaks[0].ratio); // a capacity alone is no ratio
}

TEST(MemoryQuery, CliJsonIsTheContract)
{
    const auto run = runCli("memory --json --no-cache --capacity-gb 64 '" + (dataDir() / "torch_npu_2rank_level1").string() + "'");
    ASSERT_EQ(run.status, 0) << run.out;
    const auto doc = nlohmann::json::parse(run.out);
    EXPECT_EQ(doc["schema"], "npuscope.memory/1");
    ASSERT_EQ(doc["ranks"].size(), 2u);
    const auto& r = doc["ranks"][0];
    for (const char* key : { "rank", "host", "device", "peak_reserved_mb", "peak_allocated_mb", "capacity_mb", "ratio",
             "peak_time_ns", "component", "capacity_source" })
        EXPECT_TRUE(r.contains(key)) << key;
    EXPECT_EQ(r["capacity_mb"], 65536.0);
    EXPECT_EQ(r["capacity_source"], "user");
    EXPECT_DOUBLE_EQ(r["ratio"].get<double>(), 2113.73046875 / 65536.0);
    EXPECT_TRUE(r["host"].is_null());
    EXPECT_EQ(runCli("memory --capacity-gb -3 x").status, 2);
}

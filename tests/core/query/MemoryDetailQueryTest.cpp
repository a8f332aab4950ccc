// SPDX-License-Identifier: Apache-2.0
// query::MemoryDetailQuery on the real torch_npu 2-rank Level2 sample: series, blocks and modules equal what
// memory_record.csv, operator_memory.csv and npu_module_mem.csv hold (read here with CsvReader), and the step
// boundaries equal the ProfilerStep slice of trace_view.json.
#include "TestSupport.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/MemoryDetailQuery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::openFolder;

namespace {

std::filesystem::path outputDir(int rank)
{
    return dataDir() / "torch_npu_2rank_level2" / ("rank" + std::to_string(rank) + "_ascend_pt")
        / "ASCEND_PROFILER_OUTPUT";
}

// Rows of a CSV as header name -> cell.
std::vector<std::map<std::string, std::string>> readCsv(const std::filesystem::path& path)
{
    CsvReader reader;
    std::string error;
    EXPECT_TRUE(reader.open(path.string(), error)) << error;
    std::vector<std::string> header, f;
    EXPECT_TRUE(reader.next(header));
    std::vector<std::map<std::string, std::string>> out;
    while (reader.next(f)) {
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size() && i < f.size(); ++i) {
            std::string cell = f[i];
            cell.erase(std::remove_if(cell.begin(), cell.end(), [](char c) { return c == '\t'; }), cell.end());
            row[header[i]] = cell;
        }
        out.push_back(std::move(row));
    }
    return out;
}

int64_t usToNs(const std::string& text)
{
    const auto dot = text.find('.');
    std::string frac = dot == std::string::npos ? "" : text.substr(dot + 1);
    frac.resize(3, '0');
    return std::stoll(text.substr(0, dot)) * 1000 + std::stoll(frac);
}

const query::MemoryCurve* curveOf(
    const std::vector<query::MemoryCurve>& curves, const std::string& component, query::MemoryMetric metric)
{
    for (const auto& c : curves) {
        if (c.component == component && c.metric == metric)
            return &c;
    }
    return nullptr;
}

// The summary and both ranks' Memory group (memory_record and operator_memory rows are deferred).
std::unique_ptr<model::Database> openWithMemory()
{
    auto db = openFolder(dataDir() / "torch_npu_2rank_level2");
    for (int rank : { 0, 1 })
        load::Loader::loadDeferred(*db, rank, io::kMemoryGroup);
    return db;
}

} // namespace

TEST(MemoryDetailQuery, CurvesEqualMemoryRecord)
{
    auto db = openWithMemory();
    ASSERT_TRUE(db);
    for (int rank : { 0, 1 }) {
        const auto file = readCsv(outputDir(rank) / "memory_record.csv");
        const auto curves = query::MemoryDetailQuery::curves(*db, rank);
        // Per component and metric: the count of non-empty cells and the last value.
        for (const char* component : { "APP", "PTA", "GE", "PTA+GE" }) {
            for (auto [metric, column] : { std::pair { query::MemoryMetric::Allocated, "Total Allocated(MB)" },
                     std::pair { query::MemoryMetric::Reserved, "Total Reserved(MB)" },
                     std::pair { query::MemoryMetric::Active, "Total Active(MB)" } }) {
                size_t n = 0;
                double last = 0;
                int64_t lastTs = 0;
                for (const auto& r : file) {
                    if (r.at("Component") == component && !r.at(column).empty()) {
                        ++n;
                        const int64_t ts = usToNs(r.at("Timestamp(us)"));
                        if (ts >= lastTs) {
                            lastTs = ts;
                            last = std::stod(r.at(column));
                        }
                    }
                }
                const auto* c = curveOf(curves, component, metric);
                if (n == 0) {
                    EXPECT_EQ(c, nullptr) << component << " " << column;
                    continue;
                }
                ASSERT_NE(c, nullptr) << rank << " " << component << " " << column;
                EXPECT_EQ(c->points.size(), n) << rank << " " << component << " " << column;
                EXPECT_EQ(c->points.back().t, lastTs);
                EXPECT_DOUBLE_EQ(c->points.back().v, last);
                EXPECT_TRUE(
                    std::is_sorted(c->points.begin(), c->points.end(), [](auto a, auto b) { return a.t < b.t; }));
            }
        }
    }
    // Spot values of rank 0: 13 APP samples (Reserved only), 381 PTA and 495 PTA+GE samples.
    const auto curves = query::MemoryDetailQuery::curves(*db, 0);
    ASSERT_NE(curveOf(curves, "APP", query::MemoryMetric::Reserved), nullptr);
    EXPECT_EQ(curveOf(curves, "APP", query::MemoryMetric::Reserved)->points.size(), 13u);
    EXPECT_EQ(curveOf(curves, "APP", query::MemoryMetric::Allocated), nullptr);
    EXPECT_DOUBLE_EQ(curveOf(curves, "APP", query::MemoryMetric::Reserved)->points.front().v, 2109.6015625);
    EXPECT_EQ(curveOf(curves, "APP", query::MemoryMetric::Reserved)->points.front().t, 1736412474607990240);
    EXPECT_EQ(curveOf(curves, "PTA", query::MemoryMetric::Allocated)->points.size(), 381u);
    EXPECT_EQ(curveOf(curves, "PTA+GE", query::MemoryMetric::Reserved)->points.size(), 495u);
}

TEST(MemoryDetailQuery, BlocksEqualOperatorMemoryAndFilterByWindow)
{
    auto db = openWithMemory();
    ASSERT_TRUE(db);
    const auto file = readCsv(outputDir(0) / "operator_memory.csv");
    ASSERT_EQ(file.size(), 184u);
    const auto blocks = query::MemoryDetailQuery::blocks(*db, 0);
    ASSERT_EQ(blocks.size(), file.size());
    // The first row of the file: aten::empty_strided, 18816.5 KB, never freed inside the profile.
    const auto first = std::find_if(blocks.begin(), blocks.end(),
        [](const auto& b) { return b.allocTs == 1736412474720984920 && b.name == "aten::empty_strided"; });
    ASSERT_NE(first, blocks.end());
    EXPECT_DOUBLE_EQ(*first->sizeKb, 18816.5);
    EXPECT_FALSE(first->releaseTs);
    EXPECT_EQ(first->flags, static_cast<uint32_t>(query::HeldToEnd));
    EXPECT_EQ(first->component, "PTA");
    EXPECT_EQ(first->device, "NPU:0");
    // The file's third row: aten::_convolution, freed 33729.080 µs after allocation, back to the pool 0.27 µs before.
    const auto conv
        = std::find_if(blocks.begin(), blocks.end(), [](const auto& b) { return b.allocTs == 1736412474728120880; });
    ASSERT_NE(conv, blocks.end());
    EXPECT_EQ(conv->name, "aten::_convolution");
    EXPECT_EQ(conv->releaseTs, 1736412474761849960);
    EXPECT_EQ(conv->activeReleaseTs, 1736412474761849690);
    EXPECT_EQ(conv->dur, 33729080);
    EXPECT_EQ(conv->activeDur, 33728810);
    EXPECT_EQ(conv->flags, 0u);
    // cann:: rows are GE memory.
    EXPECT_EQ(std::count_if(blocks.begin(), blocks.end(), [](const auto& b) { return b.component == "GE"; }),
        std::count_if(file.begin(), file.end(), [](const auto& r) { return r.at("Name").rfind("cann::", 0) == 0; }));

    // Flags recomputed from the file's cells.
    size_t late = 0, heldToEnd = 0;
    for (const auto& r : file) {
        const auto& alloc = r.at("Allocation Time(us)");
        const auto& rel = r.at("Release Time(us)");
        const auto& act = r.at("Active Release Time(us)");
        if (!alloc.empty() && !rel.empty() && !act.empty()) {
            const int64_t a = usToNs(alloc), re = usToNs(rel), ac = usToNs(act);
            if (ac - re >= query::kLateReturnMinNs
                && static_cast<double>(ac - re) >= query::kLateReturnFraction * static_cast<double>(re - a))
                ++late;
        }
        if (!alloc.empty() && rel.empty() && act.empty() && std::stod(r.at("Size(KB)")) >= query::kHeldToEndMinKb)
            ++heldToEnd;
    }
    EXPECT_EQ(std::count_if(blocks.begin(), blocks.end(), [](const auto& b) { return b.flags & query::LateReturn; }),
        static_cast<long>(late));
    EXPECT_EQ(std::count_if(blocks.begin(), blocks.end(), [](const auto& b) { return b.flags & query::HeldToEnd; }),
        static_cast<long>(heldToEnd));
    EXPECT_GT(heldToEnd, 0u);

    // Window: only the blocks allocated or released inside it, counted from the file.
    const int64_t t0 = 1736412474728000000, t1 = 1736412474740000000;
    size_t expected = 0;
    for (const auto& r : file) {
        bool in = false;
        for (const char* col : { "Allocation Time(us)", "Release Time(us)", "Active Release Time(us)" }) {
            if (!r.at(col).empty()) {
                const int64_t ts = usToNs(r.at(col));
                in = in || (ts >= t0 && ts < t1);
            }
        }
        expected += in ? 1 : 0;
    }
    const auto windowed = query::MemoryDetailQuery::blocks(*db, 0, std::pair { t0, t1 });
    EXPECT_EQ(windowed.size(), expected);
    EXPECT_GT(windowed.size(), 0u);
    EXPECT_LT(windowed.size(), blocks.size());
}

TEST(MemoryDetailQuery, ModulesEqualNpuModuleMem)
{
    auto db = openFolder(dataDir() / "torch_npu_2rank_level2");
    ASSERT_TRUE(db);
    const auto file = readCsv(outputDir(1) / "npu_module_mem.csv");
    std::map<std::string, std::pair<size_t, double>> expected; // module -> samples, peak
    for (const auto& r : file) {
        auto& e = expected[r.at("Component")];
        ++e.first;
        e.second = std::max(e.second, std::stod(r.at("Total Reserved(MB)")));
    }
    const auto modules = query::MemoryDetailQuery::modules(*db, 1);
    ASSERT_EQ(modules.size(), expected.size());
    for (const auto& m : modules) {
        ASSERT_TRUE(expected.count(m.module)) << m.module;
        EXPECT_EQ(m.points.size(), expected[m.module].first) << m.module;
        EXPECT_DOUBLE_EQ(m.peakMb, expected[m.module].second) << m.module;
    }
    EXPECT_TRUE(std::is_sorted(
        modules.begin(), modules.end(), [](const auto& a, const auto& b) { return a.peakMb > b.peakMb; }));
}

TEST(MemoryDetailQuery, StepsFromTheTimeline)
{
    // Without the timeline imported there are no step boundaries; with it, ProfilerStep#50 of trace_view.json
    // (ts 1736412474712651.500 µs, dur 148786.1 µs).
    auto summary = openWithMemory();
    ASSERT_TRUE(summary);
    const auto bare = query::MemoryDetailQuery::detail(*summary, 0);
    EXPECT_FALSE(bare.hasTimeline);
    EXPECT_TRUE(bare.steps.empty());
    EXPECT_EQ(bare.blocks.size(), 184u);

    auto db = openFolder(dataDir() / "torch_npu_2rank_level2", true);
    ASSERT_TRUE(db);
    const auto d = query::MemoryDetailQuery::detail(*db, 0);
    EXPECT_TRUE(d.hasTimeline);
    ASSERT_EQ(d.steps.size(), 1u);
    EXPECT_EQ(d.steps[0].step, 50);
    EXPECT_EQ(d.steps[0].begin, 1736412474712651500);
    EXPECT_EQ(d.steps[0].end, 1736412474712651500 + 148786100);
}

TEST(MemoryDetailQuery, RankWithoutMemoryFiles)
{
    auto db = openFolder(dataDir() / "msinsight_communication_group");
    ASSERT_TRUE(db);
    const auto d = query::MemoryDetailQuery::detail(*db, 0);
    EXPECT_TRUE(d.curves.empty());
    EXPECT_TRUE(d.blocks.empty());
    EXPECT_TRUE(d.modules.empty());
}

// SPDX-License-Identifier: Apache-2.0
// MindSpore's memory files (issue 38, item 2): memory_usage_summary_{rank}.json gives the device capacity and peak of
// the memory heatmap and Marey's PeakMem block, memory_usage_details_{rank}.json the Marey memory line. No real sample
// exists; the format is MindSpore's MemoryUsageParser (capacity, peak_mem, static_mem in GiB; per graph "nodes" and
// "lines") as MindInsight's memory analyser and Marey view read it. Inputs are the generator's mindspore-legacy form
// and small broken files; expected values are read from those files here, not from npuscope's model.
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/io/mindspore/MindSporeMemoryImporter.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/load/Loader.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/query/MareyQuery.h"
#include "npuscope/query/MemoryQuery.h"
#include "npuscope/query/MemoryReport.h"
#include "npuscope/query/ParallelLayoutQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::count;
using npuscope::test::ScratchDir;
using npuscope::test::text;
using npuscope::test::writeFile;

namespace {

constexpr int kRanks = 4;

fs::path generateLegacy(const fs::path& out)
{
    testgen::GeneratorOptions o;
    o.outDir = out.string();
    o.ranks = kRanks;
    o.pp = 2;
    o.tp = 1;
    o.dp = 2;
    o.steps = 2;
    o.traceMb = 0;
    o.memoryHeavyRank = 1;
    o.seed = 5;
    o.format = testgen::OutputFormat::MindSporeLegacy;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return out;
}

// The folder of rank r's files and their id (the generator's layout: 8 devices per host folder).
fs::path profilerDir(const fs::path& job, int rank)
{
    return job / "cluster_profiler" / std::to_string(rank / 8 + 1) / "profiler";
}

nlohmann::json readJson(const fs::path& p)
{
    std::ifstream in(p);
    return nlohmann::json::parse(in);
}

std::unique_ptr<model::Database> importOne(bool (*run)(io::ImportContext&), const fs::path& file, bool* ok = nullptr)
{
    auto db = model::Database::createModel();
    model::ModelWriter writer(*db);
    writer.begin();
    io::ImportContext ctx(writer, 0, file.string());
    const bool result = run(ctx);
    writer.commit();
    if (ok)
        *ok = result;
    return db;
}

} // namespace

TEST(MindSporeMemory, SummaryGivesCapacityAndPeakOfEveryRank)
{
    ScratchDir scratch;
    const auto job = generateLegacy(scratch.path() / "job");
    auto db = load::Loader::load(io::Detector::detect({ job.string() }));
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity <> 'info'"), 0)
        << test::dump(*db, "SELECT file, line, message FROM parse_issue");
    // The user's figure is used by no rank: each file gives its own.
    const auto peaks = query::MemoryQuery::peaks(*db, 32.0 * 1024.0);
    ASSERT_EQ(peaks.size(), static_cast<size_t>(kRanks));
    std::map<int64_t, double> peakOf;
    for (const auto& p : peaks) {
        const auto file = readJson(profilerDir(job, static_cast<int>(p.rank))
            / ("memory_usage_summary_" + std::to_string(p.rank % 8) + ".json"));
        const double capacity = file.at("capacity").get<double>() * 1024.0;
        const double peak = file.at("peak_mem").get<double>() * 1024.0;
        ASSERT_TRUE(p.capacityMb) << p.rank;
        EXPECT_DOUBLE_EQ(*p.capacityMb, capacity) << p.rank;
        EXPECT_EQ(p.capacitySource, query::RankMemoryPeak::CapacitySource::MemorySummary);
        ASSERT_TRUE(p.peakReservedMb) << p.rank;
        EXPECT_DOUBLE_EQ(*p.peakReservedMb, peak) << p.rank;
        EXPECT_EQ(p.component.value_or(""), "memory_usage_summary");
        ASSERT_TRUE(p.ratio);
        EXPECT_DOUBLE_EQ(*p.ratio, peak / capacity);
        // peak_mem is the largest line value of the details file beside it.
        const auto details = readJson(profilerDir(job, static_cast<int>(p.rank))
            / ("memory_usage_details_" + std::to_string(p.rank % 8) + ".json"));
        double largest = 0;
        for (const auto& v : details.at("0").at("lines"))
            largest = std::max(largest, v.get<double>());
        EXPECT_DOUBLE_EQ(largest * 1024.0, peak) << p.rank;
        peakOf[p.rank] = peak;
    }
    // npuscope-cli memory --json says where each capacity came from.
    for (const auto& r : query::MemoryReport::json(*db, 32.0 * 1024.0)["ranks"])
        EXPECT_EQ(r["capacity_source"], "memory_usage_summary") << r.dump();
    EXPECT_GT(peakOf[1], peakOf[0]); // --memory-heavy-rank 1
    EXPECT_GT(peakOf[1], peakOf[2]);
    // The details: one row per node of the file.
    for (int rank = 0; rank < kRanks; ++rank) {
        const auto details
            = readJson(profilerDir(job, rank) / ("memory_usage_details_" + std::to_string(rank % 8) + ".json"));
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM ms_memory_node WHERE rank_id = " + std::to_string(rank)),
            static_cast<int64_t>(details.at("0").at("nodes").size()));
    }
}

TEST(MindSporeMemory, MareyMemoryLineIsTheDetailsLinesAtTheirOperators)
{
    ScratchDir scratch;
    const auto job = generateLegacy(scratch.path() / "job");
    auto db = load::Loader::load(io::Detector::detect({ job.string() }));
    ASSERT_TRUE(db);
    std::vector<int64_t> ranks;
    for (int r = 0; r < kRanks; ++r)
        ranks.push_back(r);
    for (const int64_t rank : query::MareyQuery::ranksNeedingTimelines(*db, ranks))
        ASSERT_TRUE(load::Loader::loadDeferred(*db, rank, io::kTimelineGroup));
    const auto steps = query::MareyQuery::steps(*db);
    ASSERT_FALSE(steps.empty());
    const auto marey = query::MareyQuery::step(*db, query::ParallelLayoutQuery::layout(*db), steps.front());
    ASSERT_EQ(marey.devices.size(), static_cast<size_t>(kRanks));
    for (const auto& dev : marey.devices) {
        ASSERT_TRUE(dev.hasOps()) << dev.rank;
        const auto details = readJson(profilerDir(job, static_cast<int>(dev.rank))
            / ("memory_usage_details_" + std::to_string(dev.rank % 8) + ".json"));
        const auto& nodes = details.at("0").at("nodes");
        const auto& lines = details.at("0").at("lines");
        // The graph's nodes are the first step's operators in order: every node meets its operator, and the line
        // in time order is the file's lines in node order.
        const auto line = query::MareyQuery::memoryUsageLine(*db, marey, dev);
        ASSERT_EQ(line.size(), nodes.size()) << dev.rank;
        std::map<std::string, int64_t> startOf;
        for (const auto& op : dev.ops)
            startOf.emplace(marey.names[op.name], op.start);
        for (size_t i = 0; i < line.size(); ++i) {
            EXPECT_DOUBLE_EQ(line[i].v, lines[i].get<double>() * 1024.0) << dev.rank << " node " << i;
            EXPECT_EQ(line[i].t, startOf.at(nodes[i].at("name").get<std::string>())) << dev.rank << " node " << i;
        }
    }
}

TEST(MindSporeMemory, BadFilesAreReportedWithFileAndLine)
{
    ScratchDir scratch;
    const auto summary = scratch.path() / "memory_usage_summary_0.json";
    writeFile(summary, "{\n  \"capacity\": \"lots\",\n  \"peak_mem\": 12.5,\n  \"static_mem\": -1\n}\n");
    bool ok = false;
    auto db = importOne(&io::MindSporeMemoryImporter::runSummary, summary, &ok);
    EXPECT_TRUE(ok);
    EXPECT_EQ(text(*db, "SELECT value FROM rank_info WHERE key = 'memory_usage_summary.peak_mem'"), "12.5");
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank_info WHERE key = 'memory_usage_summary.capacity'"), 0);
    EXPECT_EQ(count(*db,
                  "SELECT COUNT(*) FROM parse_issue WHERE severity = 'warning' AND line = 2 AND message LIKE "
                  "'memory_usage_summary_0.json: capacity is not a non-negative number%'"),
        1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE line = 4 AND message LIKE '%static_mem%'"), 1);

    const auto broken = scratch.path() / "memory_usage_details_0.json";
    writeFile(broken, "{\"0\": {\"graph_id\": 0,\n \"nodes\": [{\"node_id\": 0, \"name\": \"A-op1\"}\n");
    db = importOne(&io::MindSporeMemoryImporter::runDetails, broken, &ok);
    EXPECT_FALSE(ok);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE severity = 'error' AND line >= 2"), 1)
        << test::dump(*db, "SELECT file, line, message FROM parse_issue");

    const auto unnamed = scratch.path() / "memory_usage_details_1.json";
    writeFile(unnamed,
        "{\"0\": {\"graph_id\": 0, \"nodes\": [{\"node_id\": 0, \"name\": \"A-op1\", \"outputs\": [{}]},\n"
        "  {\"node_id\": 1}, {\"node_id\": 2, \"name\": \"B-op2\"}],\n"
        "  \"lines\": [1.5, 2.0, \"x\"], \"breakdowns\": [[{\"size\": 1}]]},\n"
        " \"1\": {\"graph_id\": 1, \"lines\": []}}\n");
    db = importOne(&io::MindSporeMemoryImporter::runDetails, unnamed, &ok);
    EXPECT_TRUE(ok);
    EXPECT_EQ(test::rows(*db, "SELECT node_index || ' ' || name || ' ' || memory_gib FROM ms_memory_node"),
        std::vector<std::string> { "0 A-op1 1.5" });
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE line = 1 AND message LIKE '%graph 0, node 1%'"), 1);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM parse_issue WHERE line = 1 AND message LIKE '%graph 0, node 2%'"), 1);
    EXPECT_EQ(
        count(*db, "SELECT COUNT(*) FROM parse_issue WHERE line = 4 AND message LIKE '%graph 1 has no nodes%'"), 1);
}

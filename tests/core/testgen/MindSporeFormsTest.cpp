// SPDX-License-Identifier: Apache-2.0
// The generator's MindSpore forms (--format mindspore, mindspore-legacy): detected as their layouts, every rank loaded
// without a problem, and the same steps, step times and communication ops as the torch_npu form of the same seed,
// read from the files of each form (not from npuscope's figures).
#include "TestSupport.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/MareyQuery.h"
#include "npuscope/query/ParallelLayoutQuery.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::ScratchDir;

namespace {

constexpr int kRanks = 16; // two servers of 8
constexpr int kSteps = 3;

testgen::GeneratorOptions cluster(const fs::path& out, testgen::OutputFormat format)
{
    testgen::GeneratorOptions o;
    o.outDir = out.string();
    o.ranks = kRanks;
    o.pp = 2;
    o.tp = 2;
    o.dp = 4;
    o.steps = kSteps;
    o.traceMb = 0.05;
    o.slowRank = 5;
    o.clockSkewUs = 300;
    o.seed = 11;
    o.format = format;
    return o;
}

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::vector<std::string>> readCsv(const fs::path& p)
{
    CsvReader reader;
    std::string error;
    EXPECT_TRUE(reader.open(p.string(), error)) << p << ": " << error;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    while (reader.next(row))
        rows.push_back(row);
    return rows;
}

// "12.345" (µs with 3 decimals, maybe followed by a tab) as ns.
int64_t usToNs(std::string text)
{
    while (!text.empty() && (text.back() == '\t' || text.back() == ' '))
        text.pop_back();
    const auto dot = text.find('.');
    int64_t ns = std::stoll(text.substr(0, dot)) * 1000;
    if (dot != std::string::npos) {
        std::string frac = text.substr(dot + 1) + "000";
        ns += std::stoll(frac.substr(0, 3));
    }
    return ns;
}

// The rank folders of a torch_npu / MindSpore 2.x form by rank (rank{r}_{timestamp}_ascend_pt|ms).
std::map<int, fs::path> rankFolders(const fs::path& root, const std::string& suffix)
{
    std::map<int, fs::path> out;
    static const std::regex kName(R"(^rank(\d+)_\d+(_ascend_(?:pt|ms))$)");
    for (const auto& e : fs::directory_iterator(root)) {
        std::smatch m;
        const std::string name = e.path().filename().string();
        if (std::regex_match(name, m, kName) && m[2].str() == suffix)
            out[std::stoi(m[1].str())] = e.path();
    }
    return out;
}

// What the torch_npu form says of one rank: per step its wall time (Computing + Communication(Not Overlapped) + Free
// + Preparing of step_trace_time.csv) and its communication ops (communication.json, "Total Op Info" left out).
struct RankFigures {
    std::vector<int64_t> wallNs;
    std::vector<int> commOps;
};

RankFigures torchFigures(const fs::path& rankDir)
{
    RankFigures f;
    const auto rows = readCsv(rankDir / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv");
    EXPECT_GE(rows.size(), 2u);
    for (size_t i = 1; i < rows.size(); ++i) {
        const auto& r = rows[i];
        f.wallNs.push_back(usToNs(r[1]) + usToNs(r[2]) + usToNs(r[5]) + usToNs(r[9]));
    }
    const auto comm = nlohmann::json::parse(readAll(rankDir / "ASCEND_PROFILER_OUTPUT" / "communication.json"));
    for (const auto& [step, kinds] : comm.items()) {
        int n = 0;
        for (const auto& [kind, ops] : kinds.items())
            n += static_cast<int>(ops.size()) - (ops.contains("Total Op Info") ? 1 : 0);
        f.commOps.push_back(n);
    }
    return f;
}

// The same figures from the old MindSpore files of one device: step_trace_raw's total (10 ns ticks) and the ops of
// hccl_raw's communication_operator_cost, the "-" average rows left out.
RankFigures legacyFigures(const fs::path& profilerDir, int device)
{
    RankFigures f;
    const auto id = std::to_string(device);
    const auto steps = readCsv(profilerDir / ("step_trace_raw_" + id + "_detail_time.csv"));
    for (size_t i = 1; i < steps.size(); ++i) {
        if (steps[i][0] != "-")
            f.wallNs.push_back(std::stoll(steps[i][3]) * 10);
    }
    const auto hccl = readCsv(profilerDir / ("hccl_raw_" + id + ".csv"));
    for (size_t i = 1; i < hccl.size(); ++i) {
        if (hccl[i][0] != "-")
            f.commOps.push_back(static_cast<int>(nlohmann::json::parse(hccl[i][4]).size()));
    }
    return f;
}

std::unique_ptr<model::Database> loadWithoutProblems(const io::LoadPlan& plan)
{
    load::LoadOptions options;
    options.loadTimelines = true;
    auto db = load::Loader::load(plan, options);
    EXPECT_TRUE(db);
    if (!db)
        return db;
    for (const auto& issue : query::IssueQuery::issues(*db))
        EXPECT_EQ(issue.severity, "info") << issue.file.value_or("") << ": " << issue.message;
    EXPECT_EQ(query::IssueQuery::problemCount(*db), 0);
    return db;
}

int64_t count(model::Database& db, const std::string& sql) { return db.scalarInt(sql).value_or(-1); }

} // namespace

TEST(MindSporeForms, FormatNamesRoundTrip)
{
    for (const auto f :
        { testgen::OutputFormat::TorchNpu, testgen::OutputFormat::MindSpore, testgen::OutputFormat::MindSporeLegacy })
        EXPECT_EQ(testgen::formatFromName(testgen::formatName(f)), f);
    EXPECT_FALSE(testgen::formatFromName("mindinsight"));
}

TEST(MindSporeForms, MindSpore2xFormMatchesTheTorchForm)
{
    ScratchDir scratch;
    std::string error;
    ASSERT_TRUE(
        testgen::ClusterGenerator::generate(cluster(scratch.path() / "pt", testgen::OutputFormat::TorchNpu), error))
        << error;
    ASSERT_TRUE(
        testgen::ClusterGenerator::generate(cluster(scratch.path() / "ms", testgen::OutputFormat::MindSpore), error))
        << error;
    const auto pt = rankFolders(scratch.path() / "pt", "_ascend_pt");
    const auto ms = rankFolders(scratch.path() / "ms", "_ascend_ms");
    ASSERT_EQ(pt.size(), static_cast<size_t>(kRanks));
    ASSERT_EQ(ms.size(), static_cast<size_t>(kRanks));

    const auto plan = io::Detector::detect({ (scratch.path() / "ms").string() });
    ASSERT_EQ(plan.ranks.size(), static_cast<size_t>(kRanks));
    for (const auto& r : plan.ranks) {
        EXPECT_EQ(r.rankSource, "file_name") << r.path;
        std::set<io::FileKind> kinds;
        for (const auto& f : r.files)
            kinds.insert(f.kind);
        for (const auto k : { io::FileKind::ProfilerInfo, io::FileKind::StepTraceTime, io::FileKind::Communication,
                 io::FileKind::CommunicationMatrix, io::FileKind::KernelDetails, io::FileKind::TraceView,
                 io::FileKind::MsPipelineRaw })
            EXPECT_TRUE(kinds.count(k)) << r.path << " lacks " << io::fileKindName(k);
    }
    // MindSpore's own files: profiler_info of the 2.x profiler, the MindSpore framework process and its flows.
    const auto info = nlohmann::json::parse(readAll(ms.at(3) / "profiler_info_3.json"));
    EXPECT_EQ(info["ms_profiler_info"]["rank_id"], 3);
    const std::string trace = readAll(ms.at(3) / "ASCEND_PROFILER_OUTPUT" / "trace_view.json");
    EXPECT_NE(trace.find("{\"name\": \"MindSpore\"}"), std::string::npos);
    EXPECT_NE(trace.find("\"mindspore_to_npu\""), std::string::npos);
    EXPECT_EQ(trace.find("\"torch_to_npu\""), std::string::npos);

    auto db = loadWithoutProblems(plan);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM rank WHERE framework = 'mindspore'"), kRanks);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM pipeline_op"), 0);
    for (const auto& [rank, dir] : pt) {
        const auto expected = torchFigures(dir);
        const auto got = torchFigures(ms.at(rank));
        EXPECT_EQ(got.wallNs, expected.wallNs) << "rank " << rank;
        EXPECT_EQ(got.commOps, expected.commOps) << "rank " << rank;
        int ops = 0;
        for (const int n : expected.commOps)
            ops += n;
        EXPECT_EQ(
            count(*db, "SELECT COUNT(*) FROM comm_op WHERE is_total = 0 AND rank_id = " + std::to_string(rank)), ops);
    }
    // Step wall times of the loaded model equal the torch_npu form's files.
    for (const auto& row : query::StepQuery::breakdown(*db)) {
        ASSERT_TRUE(row.step);
        const auto expected = torchFigures(pt.at(static_cast<int>(row.rank)));
        const auto index = static_cast<size_t>(*row.step - 50);
        ASSERT_LT(index, expected.wallNs.size());
        EXPECT_EQ(row.wallTime(), expected.wallNs[index]) << "rank " << row.rank << " step " << *row.step;
    }
}

TEST(MindSporeForms, LegacyFormMatchesTheTorchForm)
{
    ScratchDir scratch;
    std::string error;
    ASSERT_TRUE(
        testgen::ClusterGenerator::generate(cluster(scratch.path() / "pt", testgen::OutputFormat::TorchNpu), error))
        << error;
    const fs::path job = scratch.path() / "legacy";
    ASSERT_TRUE(testgen::ClusterGenerator::generate(cluster(job, testgen::OutputFormat::MindSporeLegacy), error))
        << error;
    ASSERT_TRUE(fs::is_regular_file(job / "hccl.json"));
    ASSERT_TRUE(fs::is_regular_file(job / "host_ips_mapping.txt"));
    const auto table = nlohmann::json::parse(readAll(job / "hccl.json"));
    ASSERT_EQ(table["server_list"].size(), 2u);
    EXPECT_EQ(table["server_list"][1]["device"][3]["rank_id"], "11");

    // Detected as a MindInsight cluster_profiler job: every rank from the rank table, with its old MindSpore files.
    const auto plan = io::Detector::detect({ job.string() });
    ASSERT_EQ(plan.ranks.size(), static_cast<size_t>(kRanks));
    for (const auto& r : plan.ranks) {
        EXPECT_EQ(r.rankSource, "rank_table") << r.path;
        std::set<io::FileKind> kinds;
        for (const auto& f : r.files)
            kinds.insert(f.kind);
        for (const auto k : { io::FileKind::MsStepTraceRaw, io::FileKind::MsHcclRaw, io::FileKind::MsTimelineDisplay,
                 io::FileKind::MsOpFlops, io::FileKind::MsFlopsSummary, io::FileKind::MsFlopsScope,
                 io::FileKind::MsPipelineRaw, io::FileKind::MsMinddataCpu, io::FileKind::MsDeviceQueue,
                 io::FileKind::MsMemorySummary, io::FileKind::MsMemoryDetails, io::FileKind::ProfilerInfo,
                 io::FileKind::MiRankTable })
            EXPECT_TRUE(kinds.count(k)) << r.path << " lacks " << io::fileKindName(k);
    }

    auto db = loadWithoutProblems(plan);
    ASSERT_TRUE(db);
    const auto pt = rankFolders(scratch.path() / "pt", "_ascend_pt");
    ASSERT_EQ(pt.size(), static_cast<size_t>(kRanks));
    for (const auto& [rank, dir] : pt) {
        const auto expected = torchFigures(dir);
        const auto got = legacyFigures(job / "cluster_profiler" / std::to_string(rank / 8 + 1) / "profiler", rank % 8);
        ASSERT_EQ(got.wallNs.size(), expected.wallNs.size()) << "rank " << rank;
        for (size_t s = 0; s < got.wallNs.size(); ++s)
            EXPECT_NEAR(got.wallNs[s], expected.wallNs[s], 10) << "rank " << rank << " step " << s; // one tick
        EXPECT_EQ(got.commOps, expected.commOps) << "rank " << rank;
        int ops = 0;
        for (const int n : expected.commOps)
            ops += n;
        const std::string of = " AND rank_id = " + std::to_string(rank);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op WHERE is_total = 0" + of), ops) << "rank " << rank;
        // Every link has global ranks (stage-local keys mapped through the pipeline-parallel layout file).
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link WHERE (src IS NULL OR dst IS NULL)" + of), 0);
        // The timeline holds the torch_npu form's kernels (kernel_details.csv rows other than HCCL's) on stream 13.
        int64_t kernels = 0;
        for (const auto& row : readCsv(dir / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv"))
            kernels += row.size() > 7 && row[0] != "Step Id" && row[7] != "HCCL" ? 1 : 0;
        const auto timeline = nlohmann::json::parse(readAll(job / "cluster_profiler" / std::to_string(rank / 8 + 1)
            / "profiler" / ("ascend_timeline_display_" + std::to_string(rank % 8) + ".json")));
        EXPECT_EQ(
            std::count_if(timeline.begin(), timeline.end(), [](const auto& e) { return e["tid"] == 13; }), kernels)
            << "rank " << rank;
        EXPECT_GT(count(*db, "SELECT COUNT(*) FROM slice WHERE rank_id = " + std::to_string(rank)), 0);
        EXPECT_GT(count(*db, "SELECT COUNT(*) FROM op_flops WHERE rank_id = " + std::to_string(rank)), 0);
    }
    // The model's iteration totals are the files' (step numbers from 1, as MindSpore counts them).
    for (const auto& row : query::StepQuery::breakdown(*db)) {
        ASSERT_TRUE(row.step);
        const auto expected = torchFigures(pt.at(static_cast<int>(row.rank)));
        const auto index = static_cast<size_t>(*row.step - 1);
        ASSERT_LT(index, expected.wallNs.size());
        ASSERT_TRUE(row.value(query::StepColumn::Total));
        EXPECT_NEAR(*row.value(query::StepColumn::Total), expected.wallNs[index], 10)
            << "rank " << row.rank << " step " << *row.step;
    }
}

TEST(MindSporeForms, RegeneratingReplacesAnotherFormsOutput)
{
    ScratchDir scratch;
    const fs::path out = scratch.path() / "c";
    std::string error;
    auto o = cluster(out, testgen::OutputFormat::MindSporeLegacy);
    o.ranks = 4;
    o.pp = o.tp = o.dp = 0;
    o.slowRank.reset();
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    o.format = testgen::OutputFormat::MindSpore;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    EXPECT_FALSE(fs::exists(out / "cluster_profiler"));
    EXPECT_FALSE(fs::exists(out / "hccl.json"));
    EXPECT_EQ(rankFolders(out, "_ascend_ms").size(), 4u);
}

// Marey on the MindSpore 2.x form (issue 38, item 1): each device's operators of a step are its kernel_details.csv
// rows of that Step Id (name, start, start + duration, read from the CSV here), in every pipeline stage.
TEST(MindSporeForms, MindSpore2xFormGivesMareyTheKernelDetailsRows)
{
    ScratchDir scratch;
    std::string error;
    const fs::path root = scratch.path() / "ms";
    ASSERT_TRUE(testgen::ClusterGenerator::generate(cluster(root, testgen::OutputFormat::MindSpore), error)) << error;
    auto db = test::openFolder(root);
    ASSERT_TRUE(db);
    const auto layout = query::ParallelLayoutQuery::layout(*db);
    const auto steps = query::MareyQuery::steps(*db);
    ASSERT_EQ(steps.size(), static_cast<size_t>(kSteps));
    const auto folders = rankFolders(root, "_ascend_ms");
    ASSERT_EQ(folders.size(), static_cast<size_t>(kRanks));
    std::vector<int64_t> ranks;
    for (int r = 0; r < kRanks; ++r)
        ranks.push_back(r);
    for (const int64_t step : { steps.front(), steps.back() }) {
        // As the view does: the step's kernel rows of ranks whose kernel tables are not imported.
        load::Loader::loadStepKernels(*db, ranks, step);
        const auto marey = query::MareyQuery::step(*db, layout, step);
        ASSERT_EQ(marey.stages.size(), 2u); // --pp 2
        ASSERT_EQ(marey.devices.size(), static_cast<size_t>(kRanks));
        for (const auto& dev : marey.devices) {
            const auto rows
                = readCsv(folders.at(static_cast<int>(dev.rank)) / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv");
            ASSERT_GE(rows.size(), 2u);
            const auto& header = rows[0];
            auto col = [&](const std::string& name) {
                return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
            };
            const size_t stepCol = col("Step Id"), nameCol = col("Name"), startCol = col("Start Time(us)"),
                         durCol = col("Duration(us)");
            ASSERT_LT(durCol, header.size());
            std::multiset<std::tuple<std::string, int64_t, int64_t>> want, got;
            for (size_t i = 1; i < rows.size(); ++i) {
                if (std::stoll(rows[i][stepCol]) != step)
                    continue;
                const int64_t start = usToNs(rows[i][startCol]);
                want.insert({ rows[i][nameCol], start, start + usToNs(rows[i][durCol]) });
            }
            for (const auto& op : dev.ops)
                got.insert({ marey.names[op.name], op.start, op.end });
            EXPECT_FALSE(want.empty()) << "rank " << dev.rank;
            EXPECT_TRUE(got == want) << "rank " << dev.rank << " step " << step << ": " << got.size() << " ops, "
                                     << want.size() << " kernel rows";
        }
        EXPECT_GT(marey.opCount - marey.unmatchedOps, 0);
    }
}

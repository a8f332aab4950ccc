// SPDX-License-Identifier: Apache-2.0
// The run comparison (query::RunComparison, npuscope.diff/1): an input against itself, a planted slow rank, and the
// real Kineto control/test pair against figures computed here from the two JSON files.
#include "npuscope/query/compare/RunComparison.h"
#include "GzJson.h"
#include "TestSupport.h"
#include "npuscope/query/compare/DiffReport.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

using namespace npuscope;
using namespace npuscope::test;

namespace {

using Json = nlohmann::ordered_json;

// Every number under a key starting with "delta" (and inside delta objects) that is not exactly 0.
void nonZeroDeltas(const Json& o, const std::string& at, std::vector<std::string>& out)
{
    if (o.is_object()) {
        for (auto it = o.begin(); it != o.end(); ++it) {
            const bool delta = it.key().rfind("delta", 0) == 0;
            if (delta && it->is_number() && it->get<double>() != 0)
                out.push_back(at + "." + it.key() + " = " + it->dump());
            if (delta && it->is_object()) {
                for (auto v = it->begin(); v != it->end(); ++v) {
                    if (v->is_number() && v->get<double>() != 0)
                        out.push_back(at + "." + it.key() + "." + v.key() + " = " + v->dump());
                }
            }
            nonZeroDeltas(*it, at + "." + it.key(), out);
        }
    } else if (o.is_array()) {
        for (std::size_t i = 0; i < o.size(); ++i)
            nonZeroDeltas(o[i], at + "[" + std::to_string(i) + "]", out);
    }
}

std::unique_ptr<model::Database> openWithKernels(const std::filesystem::path& path)
{
    load::LoadOptions options;
    options.loadTimelines = true;
    options.deferredGroups = io::kKernelsGroup | io::kMemoryGroup;
    return load::Loader::load(io::Detector::detect({ path.string() }), options);
}

int64_t unionNs(std::vector<std::pair<int64_t, int64_t>> spans)
{
    std::sort(spans.begin(), spans.end());
    int64_t total = 0, start = 0, end = -1;
    for (const auto& [s, e] : spans) {
        if (s > end) {
            total += std::max<int64_t>(0, end - start);
            start = s;
            end = e;
        } else {
            end = std::max(end, e);
        }
    }
    return total + std::max<int64_t>(0, end - start);
}

// A separate reading of a Kineto file (these traces have integer µs): per step the GPU breakdown, and per kernel name
// the mean duration and count per step.
struct KinetoFigures {
    double stepMs = 0, computingMs = 0, commNotOverlappedMs = 0, overlappedMs = 0, freeMs = 0;
    std::map<std::string, double> kernelMs, kernelCount;
    double ncclMs = 0, memMs = 0, totalMs = 0;
    int steps = 0;
};

KinetoFigures figuresOf(const std::filesystem::path& file)
{
    const auto doc = readJsonMaybeGz(file);
    struct Range {
        int64_t number, ts, end;
    };
    std::vector<Range> steps;
    std::map<int64_t, int64_t> launchTs; // correlation -> runtime call ts (ns)
    for (const auto& e : doc["traceEvents"]) {
        if (e.value("ph", "") != "X")
            continue;
        const std::string name = e.value("name", "");
        if (e.value("cat", "") == "user_annotation" && name.rfind("ProfilerStep#", 0) == 0)
            steps.push_back({ std::stoll(name.substr(13)), e["ts"].get<int64_t>() * 1000,
                (e["ts"].get<int64_t>() + e["dur"].get<int64_t>()) * 1000 });
        if (e.value("cat", "") == "cuda_runtime")
            launchTs[e["args"]["correlation"].get<int64_t>()] = e["ts"].get<int64_t>() * 1000;
    }
    std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> compute, comm;
    KinetoFigures f;
    f.steps = static_cast<int>(steps.size());
    for (const auto& e : doc["traceEvents"]) {
        const std::string cat = e.value("cat", "");
        if (e.value("ph", "") != "X" || (cat != "kernel" && cat != "gpu_memcpy" && cat != "gpu_memset"))
            continue;
        const auto launch = launchTs.find(e["args"]["correlation"].get<int64_t>());
        if (launch == launchTs.end())
            continue;
        const auto step = std::find_if(steps.begin(), steps.end(),
            [&](const Range& r) { return launch->second >= r.ts && launch->second < r.end; });
        if (step == steps.end())
            continue;
        const std::string name = e.value("name", std::string());
        const int64_t ts = e["ts"].get<int64_t>() * 1000, dur = e["dur"].get<int64_t>() * 1000;
        const bool nccl = name.rfind("ncclKernel", 0) == 0 || name.rfind("ncclDevKernel", 0) == 0;
        (nccl ? comm : compute)[step->number].emplace_back(ts, ts + dur);
        f.kernelMs[name] += static_cast<double>(dur) / 1e6;
        f.kernelCount[name] += 1;
        (nccl ? f.ncclMs : cat == "kernel" ? f.totalMs : f.memMs) += static_cast<double>(dur) / 1e6;
    }
    f.totalMs += f.ncclMs + f.memMs;
    // Per step, then the mean over the steps, each column rounded to the ns as the step table's mean.
    std::array<int64_t, 5> sums {};
    for (const auto& s : steps) {
        auto all = compute[s.number];
        all.insert(all.end(), comm[s.number].begin(), comm[s.number].end());
        int64_t first = INT64_MAX, last = INT64_MIN;
        for (const auto& [a, b] : all) {
            first = std::min(first, a);
            last = std::max(last, b);
        }
        const int64_t c = unionNs(compute[s.number]), m = unionNs(comm[s.number]), busy = unionNs(all);
        const int64_t overlapped = c + m - busy, free = last - first - busy;
        sums[0] += c + (m - overlapped) + free;
        sums[1] += c;
        sums[2] += m - overlapped;
        sums[3] += overlapped;
        sums[4] += free;
    }
    auto mean
        = [&](int64_t sum) { return static_cast<double>(std::llround(static_cast<double>(sum) / f.steps)) / 1e6; };
    f.computingMs = mean(sums[1]);
    f.commNotOverlappedMs = mean(sums[2]);
    f.overlappedMs = mean(sums[3]);
    f.freeMs = mean(sums[4]);
    f.stepMs = f.computingMs + f.commNotOverlappedMs + f.freeMs;
    for (auto& [k, v] : f.kernelMs)
        v /= f.steps;
    for (auto& [k, v] : f.kernelCount)
        v /= f.steps;
    f.ncclMs /= f.steps;
    f.memMs /= f.steps;
    f.totalMs /= f.steps;
    return f;
}

// An 8-rank PP 2 x TP 2 cluster without timelines into dir/name; slowRank as the generator's --slow-rank.
std::string generate8(const ScratchDir& dir, const std::string& name, uint64_t seed, std::optional<int> slowRank = {})
{
    testgen::GeneratorOptions o;
    o.ranks = 8;
    o.pp = 2;
    o.tp = 2;
    o.traceMb = 0;
    o.seed = seed;
    o.slowRank = slowRank;
    o.outDir = (dir.path() / name).string();
    std::string error;
    return testgen::ClusterGenerator::generate(o, error) ? std::string() : error + " ";
}

} // namespace

TEST(RunComparison, EveryDeltaIsZeroAgainstItself)
{
    int compared = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dataDir())) {
        if (!entry.is_directory())
            continue;
        auto db = openWithKernels(entry.path());
        if (!db || count(*db, "SELECT COUNT(*) FROM rank") <= 0)
            continue;
        const auto diff = query::RunComparison::compare(*db, *db, {});
        const auto doc = query::DiffReport::json(diff, entry.path().string(), entry.path().string(), 0);
        std::vector<std::string> bad;
        nonZeroDeltas(doc, entry.path().filename().string(), bad);
        EXPECT_TRUE(bad.empty()) << bad.front();
        EXPECT_TRUE(diff.unmatchedBase.empty() && diff.unmatchedNew.empty());
        EXPECT_EQ(diff.ranks.size(), diff.base.ranks.size());
        ++compared;
    }
    EXPECT_GE(compared, 20);
}

TEST(RunComparison, PlantedSlowRankHasTheLargestComputingDelta)
{
    ScratchDir dir;
    ASSERT_EQ(generate8(dir, "base", 11), "");
    ASSERT_EQ(generate8(dir, "slow", 11, 5), "");
    auto base = openWithKernels(dir.path() / "base");
    auto slow = openWithKernels(dir.path() / "slow");
    ASSERT_TRUE(base && slow);
    const auto diff = query::RunComparison::compare(*base, *slow, {});
    ASSERT_EQ(diff.ranks.size(), 8u);
    double rank5 = 0, others = 0;
    for (const auto& r : diff.ranks) {
        const double d = query::diffDelta(r.base, r.neu, query::DiffComponent::Computing).value_or(0);
        if (r.rank == 5)
            rank5 = d;
        else
            others = std::max(others, std::abs(d));
    }
    EXPECT_GT(rank5, 0);
    // The generator's only change is rank 5's compute (×1.3): every other rank computes exactly as before.
    EXPECT_LT(others, rank5 / 100);
    EXPECT_GT(query::diffDelta(diff.clusterBase, diff.clusterNew, query::DiffComponent::Step).value_or(0), 0);
    // The rank's extra compute is 30 % of its own computing time.
    for (const auto& r : diff.ranks) {
        if (r.rank == 5) {
            EXPECT_NEAR(rank5 / r.base.value(query::DiffComponent::Computing).value_or(1), 0.3, 0.02);
        }
    }
    EXPECT_NE(query::DiffReport::headline(diff).find("computing +"), std::string::npos);
}

// npuscope-cli diff reads kernel_sum rows (load::Loader::loadKernelSums) instead of importing every kernel row: the
// operator level must be the same as from the kernel table, on a cluster and on the real level-1 sample; importing a
// rank's Kernels group afterwards drops its kernel_sum rows, so nothing counts twice.
TEST(RunComparison, KernelSumsGiveTheSameOperatorsAsTheKernelTable)
{
    ScratchDir dir;
    ASSERT_EQ(generate8(dir, "g8", 3), "");
    for (const auto& path : { dir.path() / "g8", dataDir() / "torch_npu_2rank_level1" }) {
        SCOPED_TRACE(path.string());
        auto full = openWithKernels(path);
        const auto plan = io::Detector::detect({ path.string() });
        load::LoadOptions options;
        options.loadTimelines = true;
        options.deferredGroups = io::kMemoryGroup;
        options.threads = 1;
        auto sums = load::Loader::load(plan, options);
        ASSERT_TRUE(full && sums);
        std::vector<int64_t> ranks;
        for (const auto& r : plan.ranks)
            ranks.push_back(r.rank);
        ASSERT_TRUE(load::Loader::loadKernelSums(*sums, ranks, {}, nullptr, nullptr, nullptr, 1));
        EXPECT_EQ(sums->scalarInt("SELECT count(*) FROM kernel").value_or(-1), 0);
        const auto a = query::RunComparison::compare(*full, *full, {});
        const auto b = query::RunComparison::compare(*sums, *sums, {});
        EXPECT_EQ(a.base.kernelRows, b.base.kernelRows);
        EXPECT_EQ(a.base.kernelRanks, b.base.kernelRanks);
        for (const auto& [x, y] : { std::pair { &a.categories, &b.categories }, std::pair { &a.types, &b.types },
                 std::pair { &a.kernels, &b.kernels } }) {
            ASSERT_EQ(x->size(), y->size());
            ASSERT_FALSE(x->empty());
            for (std::size_t i = 0; i < x->size(); ++i) {
                EXPECT_EQ((*x)[i].key, (*y)[i].key);
                EXPECT_EQ((*x)[i].category, (*y)[i].category);
                // Sums are added in another order than the kernel table's rows: a few ulps apart.
                EXPECT_NEAR((*x)[i].baseMs, (*y)[i].baseMs, 1e-9 * std::max(1.0, std::abs((*x)[i].baseMs)));
                EXPECT_DOUBLE_EQ((*x)[i].baseCount, (*y)[i].baseCount);
            }
        }
        // The kernel table arrives later (a view imports it): the sums go, the figures stay.
        ASSERT_TRUE(load::Loader::loadDeferred(*sums, ranks.front(), io::kKernelsGroup));
        EXPECT_EQ(sums->scalarInt("SELECT count(*) FROM kernel_sum WHERE rank_id = " + std::to_string(ranks.front()))
                      .value_or(-1),
            0);
        const auto c = query::RunComparison::compare(*sums, *sums, {});
        EXPECT_EQ(a.base.kernelRows, c.base.kernelRows);
        ASSERT_EQ(a.kernels.size(), c.kernels.size());
        for (std::size_t i = 0; i < a.kernels.size(); ++i)
            EXPECT_NEAR(a.kernels[i].baseMs, c.kernels[i].baseMs, 1e-9 * std::max(1.0, std::abs(a.kernels[i].baseMs)));
    }
}

TEST(RunComparison, KinetoPairEqualsASeparateReadingOfTheFiles)
{
    const auto control = dataDir() / "kineto_trace_diff" / "control";
    const auto test = dataDir() / "kineto_trace_diff" / "test";
    const auto base = figuresOf(control / "control.json.gz");
    const auto neu = figuresOf(test / "test.json.gz");
    ASSERT_EQ(base.steps, 6);
    ASSERT_EQ(neu.steps, 6);
    auto baseDb = openWithKernels(control);
    auto newDb = openWithKernels(test);
    ASSERT_TRUE(baseDb && newDb);
    const auto diff = query::RunComparison::compare(*baseDb, *newDb, {});
    // Rank 3 of the A100 job against rank 1 of the V100 job: single-rank inputs are paired whatever their ids.
    ASSERT_EQ(diff.ranks.size(), 1u);
    EXPECT_EQ(diff.ranks[0].rank, 3);
    EXPECT_EQ(diff.ranks[0].newRank, 1);
    EXPECT_EQ(diff.base.stepCount, 6);
    using C = query::DiffComponent;
    const auto& r = diff.ranks[0];
    constexpr double kNs = 1e-6; // one ns, in ms
    EXPECT_NEAR(*r.base.value(C::Computing), base.computingMs, kNs);
    EXPECT_NEAR(*r.neu.value(C::Computing), neu.computingMs, kNs);
    EXPECT_NEAR(*r.base.value(C::CommunicationNotOverlapped), base.commNotOverlappedMs, kNs);
    EXPECT_NEAR(*r.neu.value(C::Overlapped), neu.overlappedMs, kNs);
    EXPECT_NEAR(*r.base.value(C::Free), base.freeMs, kNs);
    EXPECT_NEAR(*query::diffDelta(r.base, r.neu, C::Step), neu.stepMs - base.stepMs, 3 * kNs);
    EXPECT_NEAR(*query::diffDelta(r.base, r.neu, C::Computing), neu.computingMs - base.computingMs, 2 * kNs);
    EXPECT_FALSE(r.base.value(C::Bubble)); // a GPU trace has no pipeline bubble column
    // Hand-checked anchors of the same reading: step 1009..1014 means.
    EXPECT_NEAR(base.computingMs, 50.339, 0.001);
    EXPECT_NEAR(neu.computingMs, 111.205, 0.001);

    // Every kernel name, both sides, mean per step.
    std::map<std::string, const query::OperatorDiff*> kernels;
    for (const auto& k : diff.kernels)
        kernels[k.key] = &k;
    std::set<std::string> names;
    for (const auto& [k, v] : base.kernelMs)
        names.insert(k);
    for (const auto& [k, v] : neu.kernelMs)
        names.insert(k);
    EXPECT_EQ(kernels.size(), names.size());
    for (const auto& name : names) {
        ASSERT_TRUE(kernels.count(name)) << name;
        const auto* k = kernels[name];
        const double b = base.kernelMs.count(name) ? base.kernelMs.at(name) : 0;
        const double n = neu.kernelMs.count(name) ? neu.kernelMs.at(name) : 0;
        EXPECT_NEAR(k->deltaMs(), n - b, 1e-9) << name;
        EXPECT_NEAR(k->baseCount, base.kernelCount.count(name) ? base.kernelCount.at(name) : 0, 1e-9) << name;
        EXPECT_NEAR(k->newCount, neu.kernelCount.count(name) ? neu.kernelCount.at(name) : 0, 1e-9) << name;
    }
    // Categories: NCCL kernels are communication, memcpy / memset are other (with the unmapped GPU kernels as their
    // own category), and the categories add up to every GPU activity.
    std::map<std::string, const query::OperatorDiff*> categories;
    double baseSum = 0, newSum = 0;
    for (const auto& c : diff.categories) {
        categories[c.category] = &c;
        baseSum += c.baseMs;
        newSum += c.newMs;
    }
    ASSERT_TRUE(categories.count("communication"));
    EXPECT_NEAR(categories["communication"]->deltaMs(), neu.ncclMs - base.ncclMs, 1e-9);
    EXPECT_NEAR(baseSum, base.totalMs, 1e-6);
    EXPECT_NEAR(newSum, neu.totalMs, 1e-6);
    // Every kernel has a GPU class; only memcpy / memset are "other".
    ASSERT_TRUE(categories.count("other"));
    EXPECT_NEAR(categories["other"]->baseMs, base.memMs, 1e-6);
    EXPECT_NEAR(categories["other"]->newMs, neu.memMs, 1e-6);
}

TEST(RunComparison, TorchNpuAgainstNcclGpuTraceListsUnmappedKernels)
{
    auto npu = openWithKernels(dataDir() / "torch_npu_2rank_level1");
    auto gpu = openWithKernels(dataDir() / "kineto_nccl_2rank");
    ASSERT_TRUE(npu && gpu);
    const auto diff = query::RunComparison::compare(*npu, *gpu, {});
    // Rank 0 on both sides; the NPU's rank 1 has no GPU counterpart.
    ASSERT_EQ(diff.ranks.size(), 1u);
    EXPECT_EQ(diff.unmatchedBase, std::vector<int64_t> { 1 });
    std::set<std::string> seen;
    for (const auto& c : diff.categories)
        EXPECT_TRUE(seen.insert(c.category).second) << c.category << " listed twice";
    for (const char* both : { "AI Core", "AI Vector", "communication" }) {
        ASSERT_TRUE(seen.count(both)) << both;
        const auto it = std::find_if(
            diff.categories.begin(), diff.categories.end(), [&](const auto& c) { return c.category == both; });
        EXPECT_GT(it->baseMs, 0) << both;
        EXPECT_GT(it->newMs, 0) << both;
    }
    ASSERT_FALSE(diff.unmapped.empty());
    EXPECT_TRUE(seen.count("unmapped GPU kernel"));
    double unmapped = 0;
    for (const auto& k : diff.unmapped) {
        EXPECT_EQ(k.baseMs, 0) << k.key;
        EXPECT_GT(k.newCount, 0) << k.key;
        unmapped += k.newMs;
    }
    const auto category = std::find_if(diff.categories.begin(), diff.categories.end(),
        [](const auto& c) { return c.category == "unmapped GPU kernel"; });
    EXPECT_NEAR(category->newMs, unmapped, 1e-9);
}

TEST(RunComparison, CliDiffJsonContract)
{
    const auto path = (dataDir() / "torch_npu_2rank_level0").string();
    const auto run = runCli("diff --json --no-cache --top 5 " + path + " " + path);
    ASSERT_EQ(run.status, 0);
    const auto doc = nlohmann::json::parse(run.out);
    EXPECT_EQ(doc["schema"], "npuscope.diff/1");
    ASSERT_EQ(doc["ranks"].size(), 2u);
    for (const char* side : { "base", "new", "delta" }) {
        for (const char* key : { "step_ms", "computing_ms", "communication_not_overlapped_ms", "free_ms" })
            EXPECT_TRUE(doc["ranks"][0][side].contains(key)) << side << "." << key;
        EXPECT_TRUE(doc["cluster"][side].contains("step_ms"));
    }
    EXPECT_EQ(doc["ranks"][1]["rank"], 1);
    ASSERT_FALSE(doc["kernels"].empty());
    EXPECT_LE(doc["kernels"].size(), 5u);
    for (const char* key : { "name", "base_ms", "new_ms", "delta_ms", "base_count", "new_count" })
        EXPECT_TRUE(doc["kernels"][0].contains(key)) << key;
    for (const char* key : { "category", "base_ms", "new_ms", "delta_ms" })
        EXPECT_TRUE(doc["categories"][0].contains(key)) << key;
    EXPECT_TRUE(doc["unmatched_ranks"]["base"].empty());
    // Added with the memory operators: the top K of every rank's operator_memory names, all Δ 0 here.
    ASSERT_FALSE(doc["memory_operators"].empty());
    EXPECT_LE(doc["memory_operators"].size(), 5u);
    for (const char* key : { "rank", "name", "base_mb", "new_mb", "delta_mb", "base_count", "new_count" })
        EXPECT_TRUE(doc["memory_operators"][0].contains(key)) << key;
    EXPECT_EQ(doc["memory_operators"][0]["delta_mb"], 0.0);
    EXPECT_EQ(runCli("diff " + path).status, 2);
    EXPECT_EQ(runCli("diff --step-base x " + path + " " + path).status, 2);
}

// Memory level (d): per matched rank and operator_memory name, Σ Size (MB) and the row count of each side, against a
// separate SQL reading of the two models; the list is ordered by |Δ MB|. The 2-rank samples of every level allocate
// exactly the same sizes per operator (only the times differ), so the new side is a copy of level0 in which rank 1's
// first aten::empty_strided allocation grew by 1 GiB: that operator must head the list with Δ = +1024 MB.
TEST(RunComparison, MemoryOperatorsWhoseAllocationChangedMost)
{
    ScratchDir dir;
    const auto copy = dir.path() / "grown";
    std::filesystem::copy(dataDir() / "torch_npu_2rank_level0", copy, std::filesystem::copy_options::recursive);
    const auto csv = copy / "rank1_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "operator_memory.csv";
    std::string text = readFile(csv);
    const auto row = text.find("\naten::empty_strided,");
    ASSERT_NE(row, std::string::npos);
    const auto sizeAt = row + std::string("\naten::empty_strided,").size();
    const auto sizeEnd = text.find(',', sizeAt);
    const double oldKb = std::stod(text.substr(sizeAt, sizeEnd - sizeAt));
    text.replace(sizeAt, sizeEnd - sizeAt, std::to_string(oldKb + 1024.0 * 1024.0));
    std::filesystem::permissions(csv, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    writeFile(csv, text);
    auto base = openWithKernels(dataDir() / "torch_npu_2rank_level0");
    auto neu = openWithKernels(copy);
    ASSERT_TRUE(base && neu);
    const auto diff = query::RunComparison::compare(*base, *neu, {});
    ASSERT_FALSE(diff.memoryOperators.empty());
    auto sums = [](model::Database& db) {
        std::map<std::pair<int64_t, std::string>, std::pair<double, int64_t>> out;
        auto st = db.prepare("SELECT rank_id, name, size_kb FROM operator_memory");
        while (st.step()) {
            auto& s = out[{ st.int64(0), st.text(1) }];
            s.first += st.isNull(2) ? 0.0 : st.real(2) / 1024.0;
            ++s.second;
        }
        return out;
    };
    const auto b = sums(*base);
    const auto n = sums(*neu);
    std::set<std::pair<int64_t, std::string>> keys;
    for (const auto& [k, v] : b)
        keys.insert(k);
    for (const auto& [k, v] : n)
        keys.insert(k);
    EXPECT_EQ(diff.memoryOperators.size(), keys.size());
    double previous = INFINITY;
    bool changed = false;
    for (const auto& m : diff.memoryOperators) {
        const auto bi = b.find({ m.rank, m.name });
        const auto ni = n.find({ m.rank, m.name });
        EXPECT_NEAR(m.baseMb, bi == b.end() ? 0.0 : bi->second.first, 1e-9) << m.name;
        EXPECT_NEAR(m.newMb, ni == n.end() ? 0.0 : ni->second.first, 1e-9) << m.name;
        EXPECT_EQ(m.baseCount, bi == b.end() ? 0 : bi->second.second) << m.name;
        EXPECT_EQ(m.newCount, ni == n.end() ? 0 : ni->second.second) << m.name;
        EXPECT_LE(std::abs(m.deltaMb()), previous);
        previous = std::abs(m.deltaMb());
        changed = changed || m.deltaMb() != 0;
    }
    EXPECT_TRUE(changed);
    EXPECT_EQ(diff.memoryOperators.front().rank, 1);
    EXPECT_EQ(diff.memoryOperators.front().name, "aten::empty_strided");
    EXPECT_NEAR(diff.memoryOperators.front().deltaMb(), 1024.0, 1e-6);
    const std::string report = query::DiffReport::text(diff, "a", "b", 5);
    EXPECT_NE(report.find("Operators whose allocation changed most"), std::string::npos);
}

// Level0 against Level1 (the same job collected at two levels): the comparison says the levels differ before any
// figure, in the report's text; the same level twice says nothing.
TEST(RunComparison, DifferentProfilerLevelsAreNamed)
{
    auto level0 = openWithKernels(dataDir() / "torch_npu_2rank_level0");
    auto level1 = openWithKernels(dataDir() / "torch_npu_2rank_level1");
    const auto diff = query::RunComparison::compare(*level0, *level1, {});
    EXPECT_EQ(diff.base.profilerLevels, std::vector<std::string> { "Level0" });
    EXPECT_EQ(diff.neu.profilerLevels, std::vector<std::string> { "Level1" });
    const std::string note = query::DiffReport::levelNote(diff);
    EXPECT_NE(note.find("different profiler levels (base Level0, new Level1)"), std::string::npos) << note;
    EXPECT_NE(query::DiffReport::text(diff, "a", "b", 5).find("note: " + note), std::string::npos);
    EXPECT_TRUE(query::DiffReport::levelNote(query::RunComparison::compare(*level1, *level1, {})).empty());
}

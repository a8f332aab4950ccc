// SPDX-License-Identifier: Apache-2.0
// The generator's 1F1B pipeline schedule (pp > 1), read back from the files it writes.
#include "TestSupport.h"

#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::ScratchDir;

namespace {

constexpr int kPp = 4;
constexpr int kTp = 2;
constexpr int kDp = 2;
constexpr int kMicrobatches = 2 * kPp; // the default
constexpr int kSlowRank = 5; // stage 1, replica 0, tp index 1; its tp peer is 4
constexpr const char* kForwardMarker = "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore";
constexpr const char* kBackwardMarker = "aclnnFlashAttentionScoreGrad_FlashAttentionScoreGrad_FlashAttentionScoreGrad";

int stageOf(int rank) { return rank / (kTp * kDp); }
int rankAt(int stage, int replica, int t) { return stage * kTp * kDp + replica * kTp + t; }

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

fs::path rankOutput(const fs::path& root, int rank)
{
    const std::string prefix = "rank" + std::to_string(rank) + "_";
    for (const auto& e : fs::directory_iterator(root)) {
        if (e.path().filename().string().rfind(prefix, 0) == 0)
            return e.path() / "ASCEND_PROFILER_OUTPUT";
    }
    return {};
}

// "123.456" (µs, maybe followed by a tab) in ns.
int64_t usToNs(const std::string& text)
{
    const auto dot = text.find('.');
    const int64_t whole = std::stoll(text.substr(0, dot));
    int64_t frac = 0;
    if (dot != std::string::npos) {
        std::string f = text.substr(dot + 1, 3);
        while (f.size() < 3)
            f += '0';
        frac = std::stoll(f);
    }
    return whole * 1000 + frac;
}

struct Row {
    int step = 0;
    std::string name, type;
    int64_t ts = 0, dur = 0;
    bool comm() const { return type.rfind("hcom_", 0) == 0; }
    int64_t end() const { return ts + dur; }
};

// kernel_details.csv rows per step (the columns used here come before the quoted shape columns).
std::map<int, std::vector<Row>> kernelRows(const fs::path& out)
{
    std::map<int, std::vector<Row>> steps;
    std::istringstream in(readAll(out / "kernel_details.csv"));
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::vector<std::string> cells(1);
        for (char ch : line) {
            if (ch == ',')
                cells.emplace_back();
            else
                cells.back() += ch;
            if (cells.size() > 10)
                break;
        }
        Row r;
        r.step = std::stoi(cells[0]);
        r.name = cells[4];
        r.type = cells[5];
        r.ts = usToNs(cells[8]);
        r.dur = usToNs(cells[9]);
        steps[r.step].push_back(r);
    }
    return steps;
}

// What each p2p op of a stage carries, in the order the stage runs them: receive the input, compute, send the output.
struct P2p {
    bool send = false;
    bool forward = false;
    int microbatch = 0;
};

std::vector<P2p> expectedP2p(int stage)
{
    const int warmup = std::min(kPp - 1 - stage, kMicrobatches);
    std::vector<std::pair<bool, int>> order;
    for (int m = 0; m < warmup; ++m)
        order.emplace_back(true, m);
    for (int i = 0; i < kMicrobatches - warmup; ++i) {
        order.emplace_back(true, warmup + i);
        order.emplace_back(false, i);
    }
    for (int m = kMicrobatches - warmup; m < kMicrobatches; ++m)
        order.emplace_back(false, m);
    std::vector<P2p> out;
    for (const auto& [forward, m] : order) {
        if (forward ? stage > 0 : stage < kPp - 1)
            out.push_back({ false, forward, m });
        if (forward ? stage < kPp - 1 : stage > 0)
            out.push_back({ true, forward, m });
    }
    return out;
}

std::vector<Row> p2pRows(const std::vector<Row>& rows)
{
    std::vector<Row> out;
    for (const auto& r : rows) {
        if (r.type == "hcom_send_" || r.type == "hcom_receive_")
            out.push_back(r);
    }
    return out;
}

testgen::GeneratorOptions pipelineCluster(const fs::path& out)
{
    testgen::GeneratorOptions o;
    o.outDir = out.string();
    o.ranks = kPp * kTp * kDp;
    o.pp = kPp;
    o.tp = kTp;
    o.dp = kDp;
    o.steps = 2;
    o.traceMb = 0;
    o.slowRank = kSlowRank;
    o.seed = 3;
    return o;
}

class PipelineGenerator : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_scratch = new ScratchDir;
        std::string error;
        ASSERT_TRUE(testgen::ClusterGenerator::generate(pipelineCluster(s_scratch->path() / "c"), error)) << error;
        for (int r = 0; r < kPp * kTp * kDp; ++r)
            s_rows[r] = kernelRows(rankOutput(s_scratch->path() / "c", r));
    }
    static void TearDownTestSuite()
    {
        delete s_scratch;
        s_scratch = nullptr;
        s_rows.clear();
    }
    static fs::path root() { return s_scratch->path() / "c"; }

    static ScratchDir* s_scratch;
    static std::map<int, std::map<int, std::vector<Row>>> s_rows; // rank -> step -> rows
};

ScratchDir* PipelineGenerator::s_scratch = nullptr;
std::map<int, std::map<int, std::vector<Row>>> PipelineGenerator::s_rows;

// Forward compute of one microbatch on a rank: the schedule gives forward 30 % of the step's compute.
double forwardNs(const std::vector<Row>& rows)
{
    int64_t computing = 0;
    for (const auto& r : rows) {
        if (!r.comm())
            computing += r.dur;
    }
    return 0.3 * static_cast<double>(computing) / kMicrobatches;
}

} // namespace

TEST_F(PipelineGenerator, EveryStageRunsMForwardAndMBackwardPassesAfterItsWarmUp)
{
    for (const auto& [rank, steps] : s_rows) {
        ASSERT_EQ(steps.size(), 2u);
        for (const auto& [step, rows] : steps) {
            SCOPED_TRACE("rank " + std::to_string(rank) + " step " + std::to_string(step));
            int forward = 0;
            int backward = 0;
            int forwardBeforeFirstBackward = -1;
            for (const auto& r : rows) {
                if (r.name == kForwardMarker)
                    ++forward;
                if (r.name == kBackwardMarker) {
                    if (backward == 0)
                        forwardBeforeFirstBackward = forward;
                    ++backward;
                }
            }
            EXPECT_EQ(forward, kMicrobatches);
            EXPECT_EQ(backward, kMicrobatches);
            // Warm-up forwards, then the first steady-phase forward precedes the first backward.
            EXPECT_EQ(forwardBeforeFirstBackward - 1, kPp - 1 - stageOf(rank));
            // Sends and receives in 1F1B order: receive the input, compute, send the output.
            const auto p2p = p2pRows(rows);
            const auto expected = expectedP2p(stageOf(rank));
            ASSERT_EQ(p2p.size(), expected.size());
            for (size_t i = 0; i < p2p.size(); ++i)
                EXPECT_EQ(p2p[i].type, expected[i].send ? "hcom_send_" : "hcom_receive_") << i;
        }
    }
}

TEST_F(PipelineGenerator, EveryReceiveHasTheNeighboursSendOfTheSameMicrobatch)
{
    int pairs = 0;
    for (int d = 0; d < kDp; ++d) {
        for (int t = 0; t < kTp; ++t) {
            for (int stage = 0; stage + 1 < kPp; ++stage) {
                const int up = rankAt(stage, d, t);
                const int down = rankAt(stage + 1, d, t);
                for (const auto& [step, upRows] : s_rows[up]) {
                    const auto& downRows = s_rows[down][step];
                    // (forward, microbatch) -> op, for sends and receives of both ranks.
                    auto index = [](int stageOfRank, const std::vector<Row>& rows, bool send) {
                        std::map<std::pair<bool, int>, Row> out;
                        const auto p2p = p2pRows(rows);
                        const auto expected = expectedP2p(stageOfRank);
                        for (size_t i = 0; i < std::min(p2p.size(), expected.size()); ++i) {
                            if (expected[i].send == send)
                                out[{ expected[i].forward, expected[i].microbatch }] = p2p[i];
                        }
                        return out;
                    };
                    const auto upSends = index(stage, upRows, true);
                    const auto upReceives = index(stage, upRows, false);
                    const auto downSends = index(stage + 1, downRows, true);
                    const auto downReceives = index(stage + 1, downRows, false);
                    for (int m = 0; m < kMicrobatches; ++m) {
                        SCOPED_TRACE("ranks " + std::to_string(up) + "/" + std::to_string(down) + " step "
                            + std::to_string(step) + " microbatch " + std::to_string(m));
                        // Activations down, gradients up; a receive ends once the data has crossed.
                        for (const auto& [send, receive] :
                            { std::pair { upSends.find({ true, m }), downReceives.find({ true, m }) },
                                std::pair { downSends.find({ false, m }), upReceives.find({ false, m }) } }) {
                            ASSERT_TRUE(send != upSends.end() && send != downSends.end());
                            ASSERT_TRUE(receive != downReceives.end() && receive != upReceives.end());
                            EXPECT_GT(receive->second.end(), send->second.ts);
                            EXPECT_GE(receive->second.end(), send->second.ts + 10000); // the send's 10 µs handshake
                            ++pairs;
                        }
                    }
                }
            }
        }
    }
    EXPECT_EQ(pairs, kDp * kTp * (kPp - 1) * 2 * kMicrobatches * 2);

    // The p2p ops are the pp group's in communication.json, one entry per kernel_details row.
    const auto comm = nlohmann::json::parse(readAll(rankOutput(root(), rankAt(1, 0, 0)) / "communication.json"));
    const auto metadata
        = nlohmann::json::parse(readAll(rankOutput(root(), rankAt(1, 0, 0)).parent_path() / "profiler_metadata.json"));
    for (const auto& [step, rows] : s_rows[rankAt(1, 0, 0)]) {
        const auto& p2p = comm["step" + std::to_string(step)]["p2p"];
        EXPECT_EQ(p2p.size(), p2pRows(rows).size() + 1); // + "Total Op Info"
        for (const auto& [key, info] : p2p.items()) {
            if (key == "Total Op Info")
                continue;
            EXPECT_TRUE(key.rfind("hcom_send__", 0) == 0 || key.rfind("hcom_receive__", 0) == 0) << key;
        }
    }
    bool ppGroup = false;
    for (const auto& [raw, g] : metadata["parallel_group_info"].items())
        ppGroup = ppGroup
            || (g["group_name"].get<std::string>() == "pp"
                && g["global_ranks"].get<std::vector<int>>().size() == static_cast<size_t>(kPp));
    EXPECT_TRUE(ppGroup);
}

TEST_F(PipelineGenerator, BubblesSitWhere1F1BPutsThem)
{
    // Replica 1 has no slow rank. The last stage waits for microbatch 0 to cross the P - 1 stages before it; the
    // first stage, after its warm-up, waits for microbatch 0's gradient to come back (P - 1 forward + backward
    // passes downstream of it, backward = 2 x forward); at the end the last stage waits in the pipeline-wide
    // gradient-norm all-reduce for that last gradient to reach stage 0.
    for (int t = 0; t < kTp; ++t) {
        const int first = rankAt(0, 1, t);
        const int last = rankAt(kPp - 1, 1, t);
        for (const auto& [step, rows] : s_rows[first]) {
            SCOPED_TRACE(step);
            const double f = forwardNs(rows);
            const auto firstP2p = p2pRows(rows);
            const auto firstReceive = std::find_if(
                firstP2p.begin(), firstP2p.end(), [](const Row& r) { return r.type == "hcom_receive_"; });
            ASSERT_NE(firstReceive, firstP2p.end());
            EXPECT_GT(static_cast<double>(firstReceive->dur), 0.9 * 2.0 * (kPp - 1) * f);
            EXPECT_EQ(rows.front().comm(), false) << "stage 0 starts computing at once";

            const auto& lastRows = s_rows[last][step];
            EXPECT_EQ(lastRows.front().type, "hcom_receive_");
            EXPECT_GT(static_cast<double>(lastRows.front().dur), 0.9 * (kPp - 1) * f);
            auto lastAllReduce = [](const std::vector<Row>& r) {
                return *std::find_if(r.rbegin(), r.rend(), [](const Row& x) { return x.type == "hcom_allReduce_"; });
            };
            EXPECT_GT(static_cast<double>(lastAllReduce(lastRows).dur), 0.9 * 2.0 * (kPp - 1) * f);
            EXPECT_GT(static_cast<double>(lastAllReduce(lastRows).dur - lastAllReduce(rows).dur), (kPp - 1) * f)
                << "stage 0 arrives last";
            // Both leave the step together.
            EXPECT_NEAR(static_cast<double>(lastAllReduce(lastRows).end()),
                static_cast<double>(lastAllReduce(rows).end()), 1000.0);
        }
    }
    // Step starts agree across ranks within the folder skew (0.5 ms).
    for (int step : { 50, 51 }) {
        int64_t lo = INT64_MAX;
        int64_t hi = 0;
        for (int r = 0; r < kPp * kTp * kDp; ++r) {
            const auto trace = nlohmann::json::parse(readAll(rankOutput(root(), r) / "trace_view.json"));
            for (const auto& e : trace) {
                if (e.contains("name") && e["name"].get<std::string>() == "ProfilerStep#" + std::to_string(step)) {
                    lo = std::min(lo, usToNs(e["ts"].get<std::string>()));
                    hi = std::max(hi, usToNs(e["ts"].get<std::string>()));
                }
            }
        }
        EXPECT_LT(hi - lo, 500000) << step;
        EXPECT_GT(hi, 0);
    }
}

TEST_F(PipelineGenerator, TheSlowRankComputesLongerAndTheNextStageWaitsForIt)
{
    // Same kernel sequence on tp peers: every compute kernel of the slow rank is ~1.3 x its peer's (each kernel
    // jitters by +-3 %, a rank's step compute by +-3 %).
    const int peer = kSlowRank - 1;
    double ratioSum = 0;
    int kernels = 0;
    for (const auto& [step, rows] : s_rows[kSlowRank]) {
        std::vector<const Row*> slow;
        std::vector<const Row*> other;
        for (const auto& r : rows) {
            if (!r.comm())
                slow.push_back(&r);
        }
        for (const auto& r : s_rows[peer][step]) {
            if (!r.comm())
                other.push_back(&r);
        }
        ASSERT_EQ(slow.size(), other.size());
        for (size_t i = 0; i < slow.size(); ++i) {
            ASSERT_EQ(slow[i]->name, other[i]->name);
            ratioSum += static_cast<double>(slow[i]->dur) / static_cast<double>(other[i]->dur);
            ++kernels;
        }
    }
    ASSERT_GT(kernels, 100);
    EXPECT_NEAR(ratioSum / kernels, 1.3, 0.06);

    // Stage 2 of the slow replica waits longer for its forward inputs than stage 2 of the other replica.
    auto forwardReceiveWait = [](int rank) {
        int64_t sum = 0;
        for (const auto& [step, rows] : s_rows[rank]) {
            const auto p2p = p2pRows(rows);
            const auto expected = expectedP2p(stageOf(rank));
            for (size_t i = 0; i < p2p.size(); ++i) {
                if (!expected[i].send && expected[i].forward)
                    sum += p2p[i].dur;
            }
        }
        return sum;
    };
    // 1F1B makes stage 2 wait for its forward inputs anyway (warm-up, and between its backward passes); stage 1
    // taking 1.3 x adds up to 0.3 x (forward + backward) per microbatch on top: more than three forward passes over
    // the two steps.
    for (int t = 0; t < kTp; ++t) {
        const double f = forwardNs(s_rows[rankAt(2, 1, t)][50]);
        EXPECT_GT(
            static_cast<double>(forwardReceiveWait(rankAt(2, 0, t)) - forwardReceiveWait(rankAt(2, 1, t))), 3.0 * f)
            << t;
    }
}

TEST(PipelineGeneratorOptions, RejectsNegativeMicrobatchesAndKeepsPp1Unchanged)
{
    ScratchDir scratch;
    std::string error;
    auto bad = pipelineCluster(scratch.path() / "bad");
    bad.microbatches = -1;
    EXPECT_FALSE(testgen::ClusterGenerator::generate(bad, error));
    EXPECT_NE(error.find("--microbatches"), std::string::npos) << error;

    // A pp = 1 cluster is byte-identical to the generator before the pipeline schedule existed: FNV-1a 64 over the
    // sorted relative paths and contents, the constant taken from that generator's output for the same options
    // (npuscope-cli generate --ranks 4 --tp 2 --slow-rank 1 --trace-mb 0.2 --steps 2 --seed 5 --flops), retaken when
    // transfer sizes became whole multiples of 512 B (issue 13: a generated cluster has no alignment finding), and
    // again when npu_module_mem.csv's APP row took memory_record.csv's APP reservation (issue 16).
    testgen::GeneratorOptions o;
    o.outDir = (scratch.path() / "flat").string();
    o.ranks = 4;
    o.tp = 2;
    o.slowRank = 1;
    o.traceMb = 0.2;
    o.steps = 2;
    o.seed = 5;
    o.flops = true;
    o.microbatches = 3; // ignored when pp = 1
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    std::vector<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(scratch.path() / "flat")) {
        if (e.is_regular_file())
            files.push_back(fs::relative(e.path(), scratch.path() / "flat").generic_string());
    }
    std::sort(files.begin(), files.end());
    ASSERT_EQ(files.size(), 41u);
    uint64_t h = 0xcbf29ce484222325ull;
    auto update = [&h](const std::string& bytes) {
        for (unsigned char ch : bytes) {
            h ^= ch;
            h *= 0x100000001b3ull;
        }
    };
    for (const auto& f : files) {
        update(f + std::string(1, '\0'));
        update(readAll(scratch.path() / "flat" / f));
    }
    EXPECT_EQ(h, 0x8156b9deb4005169ull);
}

// A trace budget of several layers per pass: the full layer (residual Adds, two LayerNorms, two tp all-reduces each
// way), repeated; kernels per step = 1e6 x 0.6 / 1400 = 428 -> round(428 / (4 x 24)) = 4 layers per pass.
TEST(PipelineGeneratorOptions, ALargerTraceBudgetRunsFullLayers)
{
    ScratchDir scratch;
    testgen::GeneratorOptions o;
    o.outDir = (scratch.path() / "c").string();
    o.ranks = 4;
    o.pp = 2;
    o.tp = 2;
    o.steps = 1;
    o.traceMb = 1.0;
    o.microbatches = 4;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    for (int rank : { 0, 3 }) {
        const auto rows = kernelRows(rankOutput(scratch.path() / "c", rank))[50];
        std::map<std::string, int> count;
        for (const auto& r : rows)
            ++count[r.comm() ? r.type : r.name];
        EXPECT_EQ(count[kForwardMarker], 4 * 4) << rank;
        EXPECT_EQ(count[kBackwardMarker], 4 * 4) << rank;
        EXPECT_EQ(count["aclnnLayerNorm_LayerNormV3_LayerNormV3"], 2 * 4 * 4) << rank;
        EXPECT_EQ(count["aclnnAdd_AddAiCore_Add"], (2 + 2) * 4 * 4 + 2) << rank; // + the gradient tail and optimizer
        // Two tp all-reduces per layer each way, the pp gradient-norm all-reduce; dp = 1 has none.
        EXPECT_EQ(count["hcom_allReduce_"], 2 * 2 * 4 * 4 + 1) << rank;
        EXPECT_EQ(count["hcom_send_"], 4) << rank;
        EXPECT_EQ(count["hcom_receive_"], 4) << rank;
    }
}

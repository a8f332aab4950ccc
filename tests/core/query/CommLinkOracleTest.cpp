// SPDX-License-Identifier: Apache-2.0
// The link table (the GUI's Links dock and `npuscope-cli comm`'s slowest links) from the in-memory index equals
// the SQL oracle's, on real samples and a generated cluster.
#include "CommSqlOracle.h"
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace fs = std::filesystem;
using namespace npuscope;
using namespace npuscope::query;

namespace {

std::shared_ptr<model::Database> openModel(const fs::path& path)
{
    return load::Loader::load(io::Detector::detect({ path.string() }), load::LoadOptions {});
}

using Key = std::tuple<std::string, std::string, int64_t, int64_t>; // group, op type, src, dst

std::map<Key, LinkRow> byKey(const std::vector<LinkRow>& rows)
{
    std::map<Key, LinkRow> out;
    for (const auto& r : rows)
        EXPECT_TRUE(out.emplace(Key { r.groupHash.value_or(""), r.opType, r.src, r.dst }, r).second);
    return out;
}

std::vector<LinkFilter> filters(model::Database& db)
{
    std::vector<LinkFilter> out(1);
    auto st = db.prepare("SELECT DISTINCT step FROM comm_link WHERE step IS NOT NULL ORDER BY step");
    while (st.step()) {
        LinkFilter f;
        f.step = st.int64(0);
        out.push_back(f);
    }
    for (const auto& g : CommQuery::groups(db)) {
        LinkFilter f;
        f.groupHash = g.hash;
        out.push_back(f);
    }
    for (const char* transport : { "HCCS", "RDMA", "LOCAL" }) {
        LinkFilter f;
        f.transport = transport;
        out.push_back(f);
    }
    LinkFilter rank;
    rank.rank = 1;
    out.push_back(rank);
    rank.step = out.size() > 1 ? out[1].step : std::nullopt;
    out.push_back(rank);
    return out;
}

void expectLinkTableEqualsOracle(model::Database& db)
{
    const auto index = CommLinkIndex::forDatabase(db);
    size_t compared = 0;
    for (const auto& f : filters(db)) {
        SCOPED_TRACE("step " + std::to_string(f.step.value_or(-1)) + " group " + f.groupHash.value_or("*")
            + " transport " + f.transport.value_or("*") + " rank " + std::to_string(f.rank.value_or(-1)));
        const auto rows = CommAnalysisQuery::linkTable(*index, f);
        // Slowest first, links without time last.
        for (size_t i = 1; i < rows.size(); ++i) {
            if (rows[i].bandwidthGbps) {
                EXPECT_TRUE(rows[i - 1].bandwidthGbps && *rows[i - 1].bandwidthGbps <= *rows[i].bandwidthGbps);
            }
        }
        const auto got = byKey(rows);
        const auto want = byKey(test::CommSqlOracle::linkTable(db, f));
        ASSERT_EQ(got.size(), want.size());
        for (const auto& [key, w] : want) {
            auto it = got.find(key);
            ASSERT_NE(it, got.end()) << std::get<1>(key) << " " << std::get<2>(key) << "->" << std::get<3>(key);
            const LinkRow& g = it->second;
            EXPECT_EQ(g.step, w.step);
            EXPECT_EQ(g.transport, w.transport);
            EXPECT_NEAR(g.sizeMb, w.sizeMb, 1e-9 * std::max(1.0, std::abs(w.sizeMb)));
            EXPECT_EQ(g.timeNs, w.timeNs);
            EXPECT_EQ(g.localRanks, w.localRanks);
            EXPECT_EQ(g.slowestOp, w.slowestOp);
            EXPECT_EQ(g.bandwidthGbps.has_value(), w.bandwidthGbps.has_value());
            ++compared;
        }
    }
    EXPECT_GT(compared, 0u);
}

} // namespace

TEST(CommLinkOracle, LinkTableEqualsSqlOnRealSamples)
{
    for (const char* sample : { "torch_npu_2rank_level1", "torch_npu_2rank_level2", "mindinsight_r13_job/run",
             "msprof_cluster_analysis/text", "mindspore_flat_profiler/cluster_propose", "torch_npu_2023_2rank" }) {
        SCOPED_TRACE(sample);
        const auto db = openModel(test::dataDir() / sample);
        ASSERT_TRUE(db);
        expectLinkTableEqualsOracle(*db);
    }
}

TEST(CommLinkOracle, LinkTableEqualsSqlOnAGeneratedCluster)
{
    test::ScratchDir dir;
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "c").string();
    o.ranks = 64;
    o.pp = 2;
    o.tp = 8;
    o.dp = 4;
    o.steps = 2;
    o.traceMb = 0;
    o.slowLink = std::make_pair(3, 4);
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    const auto db = openModel(dir.path() / "c");
    ASSERT_TRUE(db);
    expectLinkTableEqualsOracle(*db);
}

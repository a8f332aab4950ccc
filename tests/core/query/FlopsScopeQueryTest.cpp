// SPDX-License-Identifier: Apache-2.0
// query::FlopsScopeQuery: the scope tree of MindInsight's real flops_scope_0.json (tests/data/mindspore_flops_profiler;
// expected values read off its links) and of small hand-made link sets for the several-parents and loop rules.
#include "TestSupport.h"

#include "npuscope/model/Database.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/query/FlopsScopeQuery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::openFolder;

namespace {

std::vector<const query::FlopsScopeNode*> named(const query::FlopsScopeTree& tree, const std::string& name)
{
    std::vector<const query::FlopsScopeNode*> out;
    for (const auto& n : tree.nodes) {
        if (n.name == name)
            out.push_back(&n);
    }
    return out;
}

std::unique_ptr<model::Database> links(const std::vector<model::FlopsScopeLinkRow>& rows)
{
    auto db = model::Database::createModel();
    model::ModelWriter writer(*db);
    writer.begin();
    for (const auto& r : rows)
        writer.addFlopsScopeLink(r);
    writer.commit();
    return db;
}

} // namespace

TEST(FlopsScopeQuery, RealScopeFileGivesTheTreeWithShares)
{
    auto db = openFolder(dataDir() / "mindspore_flops_profiler");
    ASSERT_TRUE(db);
    EXPECT_EQ(query::FlopsScopeQuery::ranks(*db), std::vector<int64_t> { 0 });
    const auto tree = query::FlopsScopeQuery::tree(*db, 0);
    // 34 links, none expanded twice (the two names with several parents have no children): 34 nodes + the root.
    ASSERT_EQ(tree.nodes.size(), 35u);
    const auto& root = tree.nodes[0];
    EXPECT_EQ(root.name, "Total");
    // Total -> Default 4655.465 + Total -> Gradients 3512.277 MFLOPs (flops_summary_0.json says 8167.743).
    const double total = (4655.465 + 3512.277) * 1e6;
    EXPECT_NEAR(root.flops, total, 1e-3);
    EXPECT_DOUBLE_EQ(root.share, 1.0);
    EXPECT_EQ(tree.nodes[1].name, "Default"); // children by FLOPs descending
    EXPECT_EQ(tree.nodes[1].parent, 0);
    // The longest path: Total/Gradients/Default(Gradients)/network-TrainOneStep.../network-WithLossCell/
    // _backbone-LeNet5/conv1-Conv2d/gradConv2D, depth 7 (= the file's max_scope_num).
    EXPECT_EQ(tree.maxDepth, 7);
    const auto step = named(tree, "network-TrainOneStepWithLossScaleCell(Default)");
    ASSERT_EQ(step.size(), 1u);
    EXPECT_NEAR(step[0]->share, 4536.56e6 / total, 1e-12);
    EXPECT_NEAR(step[0]->parentShare, 4536.56 / 4655.465, 1e-12);
    // Default's own ops: 4655.465 − 4536.56 MFLOPs.
    EXPECT_NEAR(tree.nodes[1].selfFlops, (4655.465 - 4536.56) * 1e6, 1e-3);
    // gradConv2D(Gradients) is the target of conv1-Conv2d(Gradients) (1557.531) and conv2-Conv2d(Gradients) (501.876).
    const auto grad = named(tree, "gradConv2D(Gradients)");
    ASSERT_EQ(grad.size(), 2u);
    EXPECT_TRUE(grad[0]->split && grad[1]->split);
    EXPECT_TRUE(tree.hasSplit);
    std::vector<double> values { grad[0]->flops, grad[1]->flops };
    std::sort(values.begin(), values.end());
    EXPECT_NEAR(values[0], 501.876e6, 1e-3);
    EXPECT_NEAR(values[1], 1557.531e6, 1e-3);
    EXPECT_FALSE(tree.truncated);
    // Icicle layout: Gradients starts where Default ends; children never exceed their parent.
    const auto gradients = named(tree, "Gradients");
    ASSERT_EQ(gradients.size(), 1u);
    EXPECT_NEAR(gradients[0]->start, 4655.465e6 / total, 1e-12);
    // (The file rounds each link to 0.001 MFLOPs, so children may exceed their parent by that much each:
    // network-WithLossCell(Gradients) 3512.277 holds 37.099 + 3472.686 + 2.493 = 3512.278.)
    std::map<int, std::pair<double, int>> childSum;
    for (const auto& n : tree.nodes) {
        if (n.parent >= 0) {
            childSum[n.parent].first += n.flops;
            ++childSum[n.parent].second;
        }
    }
    for (const auto& [parent, sum] : childSum)
        EXPECT_LE(sum.first, tree.nodes[static_cast<size_t>(parent)].flops + 1e3 * sum.second)
            << tree.nodes[static_cast<size_t>(parent)].name;
    EXPECT_TRUE(query::FlopsScopeQuery::tree(*db, 5).nodes.empty());
}

TEST(FlopsScopeQuery, ANodeWithSeveralParentsSplitsItsChildrenByTheLinksIntoIt)
{
    // X is reached from A (4) and B (6); its child Y (5) is divided 2 : 3. Y -> Y (a scope inside itself) is not
    // expanded again.
    auto db = links({ { 0, "Total", "A", 10e6 }, { 0, "Total", "B", 30e6 }, { 0, "A", "X", 4e6 }, { 0, "B", "X", 6e6 },
        { 0, "X", "Y", 5e6 }, { 0, "Y", "Y", 1e6 } });
    const auto tree = query::FlopsScopeQuery::tree(*db, 0);
    ASSERT_EQ(tree.nodes.size(), 7u); // Total, B, X, Y, A, X, Y
    EXPECT_EQ(tree.nodes[1].name, "B");
    const auto y = named(tree, "Y");
    ASSERT_EQ(y.size(), 2u);
    EXPECT_DOUBLE_EQ(y[0]->flops, 3e6); // under B (first: larger)
    EXPECT_DOUBLE_EQ(y[1]->flops, 2e6);
    EXPECT_EQ(y[0]->path, "B/X/Y");
    EXPECT_DOUBLE_EQ(tree.nodes[0].flops, 40e6);
    EXPECT_DOUBLE_EQ(named(tree, "A")[0]->selfFlops, 6e6);
    EXPECT_EQ(tree.maxDepth, 3);
}

TEST(FlopsScopeQuery, WithoutARootThereIsNoTree)
{
    auto db = links({ { 3, "Default", "a(Default)", 1e6 } });
    EXPECT_EQ(query::FlopsScopeQuery::ranks(*db), std::vector<int64_t> { 3 });
    EXPECT_TRUE(query::FlopsScopeQuery::tree(*db, 3).nodes.empty());
}

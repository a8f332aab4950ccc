// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/FlopsScopeQuery.h"
#include "npuscope/model/ReadRow.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace npuscope::query {

namespace {

constexpr const char* kRoot = "Total";
// Bounds for a damaged or hostile file: a scope reached from several parents is copied under each, so chains of them
// could multiply the tree; a real one has tens of nodes and a depth of about ten.
constexpr size_t kMaxNodes = 20000;
constexpr int kMaxDepth = 64;

struct Link {
    std::string target;
    double flops = 0;
};

// The links of one rank by source; links repeated in the file (same source and target) are summed.
struct Graph {
    std::map<std::string, std::vector<Link>> children;
    std::map<std::string, double> inbound; // Σ of the links into a node
    std::map<std::string, int> parents; // distinct sources of a node
};

Graph readGraph(model::Database& db, int64_t rank)
{
    std::map<std::pair<std::string, std::string>, double> sums;
    std::vector<std::pair<std::string, std::string>> order;
    auto st = db.prepare("SELECT source, target, flops FROM flops_scope_link WHERE rank_id = ?1 ORDER BY rowid");
    st.bind(1, rank);
    while (st.step()) {
        auto key = std::make_pair(st.text(0), st.text(1));
        auto [it, inserted] = sums.try_emplace(key, 0.0);
        if (inserted)
            order.push_back(key);
        it->second += st.real(2);
    }
    Graph g;
    for (const auto& key : order) {
        const double v = sums[key];
        g.children[key.first].push_back({ key.second, v });
        g.inbound[key.second] += v;
        ++g.parents[key.second];
    }
    for (auto& [source, links] : g.children) {
        std::sort(links.begin(), links.end(), [](const Link& a, const Link& b) {
            return std::make_tuple(-a.flops, std::cref(a.target)) < std::make_tuple(-b.flops, std::cref(b.target));
        });
    }
    return g;
}

// Adds the children of nodes[index] (reached with `scale` of its own links, see split) depth first.
void expand(const Graph& g, FlopsScopeTree& tree, size_t index, double scale, std::set<std::string>& onPath)
{
    const auto it = g.children.find(tree.nodes[index].name);
    if (it == g.children.end())
        return;
    double start = tree.nodes[index].start;
    const double total = tree.nodes.front().flops;
    for (const Link& link : it->second) {
        if (onPath.count(link.target) || tree.nodes.size() >= kMaxNodes || tree.nodes[index].depth >= kMaxDepth) {
            tree.truncated = tree.truncated || !onPath.count(link.target);
            continue; // a scope inside itself is drawn once
        }
        FlopsScopeNode n;
        n.name = link.target;
        n.depth = tree.nodes[index].depth + 1;
        n.parent = static_cast<int>(index);
        n.path = tree.nodes[index].path.empty() ? n.name : tree.nodes[index].path + "/" + n.name;
        n.flops = link.flops * scale;
        n.share = total > 0 ? n.flops / total : 0.0;
        n.parentShare = tree.nodes[index].flops > 0 ? n.flops / tree.nodes[index].flops : 0.0;
        n.start = start;
        start += n.share;
        n.split = g.parents.at(n.name) > 1;
        tree.hasSplit = tree.hasSplit || n.split;
        tree.maxDepth = std::max(tree.maxDepth, n.depth);
        const double inbound = g.inbound.at(n.name);
        // A node reached from several parents: its links hold the FLOPs of all of them; each parent's copy takes its
        // part in proportion to the link that reaches it.
        const double childScale = inbound > 0 ? n.flops / inbound : 0.0;
        tree.nodes.push_back(n);
        const size_t child = tree.nodes.size() - 1;
        onPath.insert(n.name);
        expand(g, tree, child, childScale, onPath);
        onPath.erase(n.name);
    }
    double children = 0;
    for (size_t i = index + 1; i < tree.nodes.size(); ++i) {
        if (tree.nodes[i].parent == static_cast<int>(index))
            children += tree.nodes[i].flops;
    }
    tree.nodes[index].selfFlops = std::max(0.0, tree.nodes[index].flops - children);
}

} // namespace

std::vector<int64_t> FlopsScopeQuery::ranks(model::Database& db)
{
    return model::readInts(db, "SELECT DISTINCT rank_id FROM flops_scope_link ORDER BY rank_id");
}

FlopsScopeTree FlopsScopeQuery::tree(model::Database& db, int64_t rank)
{
    FlopsScopeTree tree;
    tree.rank = rank;
    const Graph g = readGraph(db, rank);
    const auto top = g.children.find(kRoot);
    if (top == g.children.end())
        return tree;
    FlopsScopeNode root;
    root.name = kRoot;
    for (const Link& link : top->second)
        root.flops += link.flops;
    root.share = root.flops > 0 ? 1.0 : 0.0;
    root.parentShare = 1.0;
    tree.nodes.push_back(root);
    std::set<std::string> onPath { kRoot };
    expand(g, tree, 0, 1.0, onPath);
    return tree;
}

} // namespace npuscope::query

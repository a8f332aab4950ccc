// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npuscope::query {

// One scope of the FLOPs scope tree (docs/metrics.md, "FLOPs per scope").
struct FlopsScopeNode {
    std::string name; // the node as flops_scope_N.json writes it ("Total", "Default", "conv1-Conv2d(Default)")
    std::string path; // the names from the root's child down to this node, joined with "/" ("" for the root)
    int depth = 0; // 0 for the root (Total)
    int parent = -1; // index into FlopsScopeTree::nodes; -1 for the root
    double flops = 0; // FLOPs of the ops under this scope (the link's value × 10^6; the root: Σ of its links)
    double share = 0; // flops ÷ the root's flops (0 when the root has none)
    double parentShare = 0; // flops ÷ the parent's flops (1 for the root)
    double selfFlops = 0; // flops − Σ children's flops, at least 0: the ops directly in this scope
    double start = 0; // where the node starts on the icicle's 0..1 axis: the root's share before it
    bool split = false; // reached from several parents: its own links are divided among them (see metrics.md)
};

// One rank's tree, nodes in preorder (children by FLOPs descending, then name); nodes[0] is the root when not empty.
struct FlopsScopeTree {
    int64_t rank = 0;
    std::vector<FlopsScopeNode> nodes;
    int maxDepth = 0; // the deepest node's depth
    bool hasSplit = false; // some node was reached from several parents
    bool truncated = false; // more than 20,000 nodes or a depth over 64: the rest is left out
};

// FLOPs per name scope from MindSpore's flops_scope_{rank}.json (flops_scope_link). Plain functions of the model;
// the caller holds the database lock (or owns the database).
class FlopsScopeQuery {
public:
    // Ranks with scope links, ascending.
    static std::vector<int64_t> ranks(model::Database& db);
    // The scope tree of a rank; empty nodes when the rank has no links.
    static FlopsScopeTree tree(model::Database& db, int64_t rank);
};

} // namespace npuscope::query

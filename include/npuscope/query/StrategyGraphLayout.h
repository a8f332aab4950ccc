// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

// The strategy graph view's drawing data (StrategyGraphQuery): every stage's graph laid out left to right by
// execution order (column = the node's index), stages as bands one under the other. Within a band a node's main
// reader (of its readers the one read again soonest) continues its lane and its other readers take the lane beside it (at most kMaxLanes), so a
// chain stays on one line and its branches run beside it. Strings the nodes share (types, scopes) are held once.
// Built on a worker thread; read-only afterwards.
struct StrategyGraphLayout {
    static constexpr int kMaxLanes = 12;
    enum class Kind : uint8_t { Cube, Vector, Communication, Pipeline, Other };

    struct Stage {
        int64_t stage = 0;
        std::optional<int64_t> graphRank;
        std::vector<int64_t> ranks;
        uint32_t first = 0, count = 0; // nodes [first, first + count)
        int lanes = 1;
        int strategyOps = 0, redistributionOps = 0, gradAggregationOps = 0;
    };
    struct Node {
        uint32_t stageSlot = 0; // index into stages
        uint32_t column = 0; // index - 1 within its stage
        uint8_t lane = 0;
        Kind kind = Kind::Other;
        uint8_t special = 0; // StrategyNode::Special bits
        uint32_t type = 0; // into strings
        uint32_t scope = 0; // into scopes
        int64_t index = 0; // StrategyNode::index
        std::string name;
        std::optional<std::string> strategy;
    };
    std::vector<Stage> stages;
    std::vector<Node> nodes;
    std::vector<std::pair<uint32_t, uint32_t>> edges; // node positions in nodes
    std::vector<std::pair<uint32_t, uint32_t>> sendRecv; // the Send's and the Receive's positions
    std::vector<std::string> types, scopes;
    uint32_t columns = 0; // the widest stage's node count
    // The edges into each node (positions into edges): inBegin[n]..inBegin[n + 1] of inEdges.
    std::vector<uint32_t> inBegin, inEdges;
    // Every scope path and each of its prefixes with the operators under it, parents before children (the dock's
    // scope tree).
    struct ScopeCount {
        std::string path;
        uint32_t operators = 0;
    };
    std::vector<ScopeCount> scopeTree;

    static StrategyGraphLayout build(model::Database& db);
    static Kind kindOf(const std::string& opType);
    // The nodes whose scope is prefix or lies under it (prefix/...).
    std::vector<uint32_t> nodesUnder(const std::string& prefix) const;
};

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

// One operator node of a stage's strategy graph (strategy_node, resources/schema.sql).
struct StrategyNode {
    enum Special : int { Strategy = 1, Redistribution = 2, GradAggregation = 4 };
    int64_t index = 0; // 1-based execution order within the stage's graph
    std::string key, name, opType, scope;
    std::optional<std::string> instanceName, strategy, groupName, groupRanks, outputShape, outputType;
    int special = 0;
    std::optional<int64_t> srTag, peerRank;
    std::string inputs, attributes;
};

struct StrategyEdge {
    int64_t src = 0, dst = 0; // StrategyNode::index
    bool control = false;
};

// A pipeline stage: the ranks whose parallel_strategy file names it, the rank whose graph the model holds, and its
// figures (0 without a graph).
struct StrategyStage {
    int64_t stage = 0;
    std::vector<int64_t> ranks;
    std::optional<int64_t> graphRank;
    int64_t nodes = 0, edges = 0;
    int64_t strategyOps = 0, redistributionOps = 0, gradAggregationOps = 0;
    int64_t sendRecvPairs = 0; // pairs with this stage's Send
};

// A Send of one stage matched to the Receive of another: the Send's dest_rank lies in the Receive's stage, the
// Receive's src_rank in the Send's, and they carry the same sr_tag (the k-th such Send with the k-th Receive, both
// in execution order), as MindInsight joins the stages of a pipeline.
struct SendRecvPair {
    int64_t sendStage = 0, sendIndex = 0, recvStage = 0, recvIndex = 0;
    int64_t srTag = 0;
};

// The stages and the pairs together, from one reading of the ranks' stages and one pairing.
struct StrategyOverview {
    std::vector<StrategyStage> stages;
    std::vector<SendRecvPair> pairs;
};

// The parallel strategy graphs of a MindSpore job (parallel_strategy_{rank}.json). The caller holds the lock.
class StrategyGraphQuery {
public:
    static std::vector<StrategyStage> stages(model::Database& db);
    static std::vector<SendRecvPair> sendRecvPairs(model::Database& db);
    // stages() and sendRecvPairs() at once, the pairs computed once (each stage's sendRecvPairs counts them).
    static StrategyOverview overview(model::Database& db);
    // One node of a stage's graph with all its fields (the attribute panel), nullopt when there is none.
    static std::optional<StrategyNode> node(model::Database& db, int64_t stage, int64_t index);
    // The name the kernels of rank call a graph node (fullName, e.g. Default/network-Net/MatMul-op12): the full name
    // when rank's kernel rows carry it (MindSpore 2.x kernel_details, the FLOPs files), else its last part
    // (MatMul-op12, as MindSpore's task timelines name it).
    static std::string kernelName(model::Database& db, const std::string& fullName, std::optional<int64_t> rank);
    // The special operators of a stage (any Special bit), in execution order.
    static std::vector<StrategyNode> specialOps(model::Database& db, int64_t stage);
};

} // namespace npuscope::query

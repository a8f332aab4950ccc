// SPDX-License-Identifier: Apache-2.0
// parallel_strategy_{rank}.json of a generated MindSpore cluster (GeneratorOptions::strategyNodes): each pipeline
// stage's computation graph as MindSpore's auto/semi-auto parallel writes it (the fields MindInsight's parallel
// strategy view reads, docs/schema.md strategy_node): a transformer stack per stage, forward then backward, scopes as
// MindSpore names its cells, sharded operators with an in_strategy, tensor-parallel AllReduce in the layer's group,
// redistribution operators, gradient aggregation (grad_mirror) at the end of the backward pass, and Send/Receive
// between neighbouring stages (sr_tag 0 activations forward, 1 gradients backward).
#include "ClusterGeneratorParts.h"

#include <string>
#include <vector>

namespace npuscope::testgen::detail {

namespace {

struct OpSpec {
    const char* type;
    const char* cell; // the cell under the layer's scope, "" for the layer itself
    int strategy; // 0 none, 1 [[1, tp], [tp, 1]] (column then row split), 2 [[dp, 1, 1], [dp, 1, 1]]
    bool tpAllReduce;
};

// One transformer block's forward operators, in execution order.
constexpr OpSpec kForward[] = {
    { "LayerNorm", "layernorm1-LayerNorm", 0, false },
    { "MatMul", "attention-MultiHeadAttention/dense1-Dense", 1, false },
    { "Reshape", "attention-MultiHeadAttention", 0, false },
    { "Transpose", "attention-MultiHeadAttention", 0, false },
    { "BatchMatMul", "attention-MultiHeadAttention", 2, false },
    { "Softmax", "attention-MultiHeadAttention/softmax-Softmax", 0, false },
    { "BatchMatMul", "attention-MultiHeadAttention", 2, false },
    { "MatMul", "attention-MultiHeadAttention/projection-Dense", 1, false },
    { "AllReduce", "attention-MultiHeadAttention/projection-Dense", 0, true },
    { "Add", "", 0, false },
    { "LayerNorm", "layernorm2-LayerNorm", 0, false },
    { "MatMul", "output-FeedForward/mapping-Dense", 1, false },
    { "FastGeLU", "output-FeedForward", 0, false },
    { "MatMul", "output-FeedForward/projection-Dense", 1, false },
    { "AllReduce", "output-FeedForward/projection-Dense", 0, true },
    { "Add", "", 0, false },
};
constexpr int kForwardOps = static_cast<int>(sizeof kForward / sizeof kForward[0]);
// The backward pass of a block: two operators per forward one (the gradients of its inputs and of its weights).
constexpr int kOpsPerBlock = 3 * kForwardOps;

std::string dims(std::initializer_list<int64_t> sizes)
{
    std::string s = "{\"dim\":[";
    bool first = true;
    for (const int64_t v : sizes) {
        s += first ? "" : ",";
        first = false;
        s += "{\"size\":\"" + std::to_string(v) + "\"}";
    }
    return s + "]}";
}

std::string intValue(int64_t v) { return "{\"dtype\":\"DT_INT64\",\"intVal\":\"" + std::to_string(v) + "\"}"; }

std::string tupleOfTuples(const std::vector<std::vector<int64_t>>& rows)
{
    std::string s = "{\"dtype\":\"DT_TUPLE\",\"values\":[";
    for (size_t i = 0; i < rows.size(); ++i) {
        s += i ? ",{\"dtype\":\"DT_TUPLE\",\"values\":[" : "{\"dtype\":\"DT_TUPLE\",\"values\":[";
        for (size_t j = 0; j < rows[i].size(); ++j)
            s += (j ? "," : "") + intValue(rows[i][j]);
        s += "]}";
    }
    return s + "]}";
}

std::string attribute(const std::string& name, const std::string& value)
{
    return "{\"name\":\"" + name + "\",\"value\":" + value + "}";
}

std::string stringValue(const std::string& v) { return "{\"dtype\":\"DT_STRING\",\"strVal\":\"" + v + "\"}"; }

// Writes one node; inputs are node names (keys) of earlier nodes, parameters or constants.
class GraphWriter {
public:
    GraphWriter(Out& out, int64_t hidden)
        : m_out(out)
        , m_hidden(hidden)
    {
    }
    int64_t add(const char* type, const std::string& scope, const std::vector<std::string>& inputs,
        const std::vector<std::string>& attributes, const std::string& instance = {})
    {
        const int64_t id = ++m_next;
        m_out << (id == 1 ? "\n" : ",\n") << "{\"input\":[";
        for (size_t i = 0; i < inputs.size(); ++i)
            m_out << (i ? "," : "") << "{\"name\":\"" << inputs[i] << "\",\"type\":\"DATA_EDGE\"}";
        m_out << "],\"name\":\"" << std::to_string(id) << "\",\"opType\":\"" << type << "\",\"scope\":\"" << scope
              << "\",\"attribute\":[";
        for (size_t i = 0; i < attributes.size(); ++i)
            m_out << (i ? "," : "") << attributes[i];
        m_out << "],\"outputType\":{\"dataType\":\"DT_TENSOR\",\"tensorType\":{\"elemType\":\"DT_FLOAT16\",\"shape\":"
              << dims({ 8, 1024, m_hidden }) << "}},\"fullName\":\"" << scope << "/" << type << "-op"
              << std::to_string(id) << "\",\"instanceName\":\"" << instance << "\"}";
        return id;
    }

private:
    Out& m_out;
    int64_t m_hidden;
    int64_t m_next = 0;
};

} // namespace

bool writeStrategyFile(const Cluster& c, int rank, const fs::path& path, std::string& error)
{
    const Layout& l = c.layout;
    const int stage = l.stage(rank);
    const int perStage = l.tp * l.dp;
    const int64_t hidden = 4096;
    Out out(path);
    if (!out.ok()) {
        error = "cannot create " + path.string();
        return false;
    }
    out << "{\"config\":{\"rankId\":" << std::to_string(rank) << ",\"stageId\":" << std::to_string(stage)
        << ",\"parallelType\":\"semi_auto_parallel\",\"stageDevices\":[";
    for (int s = 0; s < l.pp; ++s) {
        out << (s ? "," : "") << "{\"dim\":[";
        for (int r = 0; r < perStage; ++r)
            out << (r ? "," : "") << "{\"size\":\"" << std::to_string(s * perStage + r) << "\"}";
        out << "]}";
    }
    out << "]},\n\"graph\":{\"node\":[";
    const int blocks = std::max(1, c.options.strategyNodes / kOpsPerBlock);
    const std::vector<std::vector<int64_t>> columnSplit { { 1, l.tp }, { l.tp, 1 } };
    const std::vector<std::vector<int64_t>> batchSplit { { l.dp, 1, 1 }, { l.dp, 1, 1 } };
    const std::string tpGroup = "tp-" + std::to_string(rank - rank % l.tp) + "-" + std::to_string(l.tp);
    const std::string dpGroup = "dp-" + std::to_string(rank % l.tp) + "-" + std::to_string(l.dp);
    const std::string root = "Default/network-PipelineCell/network-WithLossCell/_backbone-GPT/backbone-GPTModel";
    GraphWriter g(out, hidden);
    std::vector<std::string> previous;
    // The stage's input: the dataset for the first stage, the previous stage's activations for the others.
    if (stage == 0) {
        previous = { std::to_string(g.add("GetNext", "Default", {}, {})) };
    } else {
        previous = { std::to_string(g.add("Receive", root, {},
            { attribute("sr_tag", intValue(0)), attribute("src_rank", intValue(rank - perStage)),
                attribute("group", stringValue("pp-" + std::to_string(stage - 1) + "-" + std::to_string(stage))) })) };
    }
    int redistribution = 0;
    const auto blockScope = [&](int block) {
        return root + "/blocks-CellList/" + std::to_string(stage * blocks + block) + "-Block";
    };
    for (int b = 0; b < blocks; ++b) {
        const std::string scope = blockScope(b);
        std::string residual = previous.front();
        for (const OpSpec& op : kForward) {
            std::vector<std::string> attributes;
            if (op.strategy == 1)
                attributes.push_back(attribute("in_strategy", tupleOfTuples(columnSplit)));
            else if (op.strategy == 2)
                attributes.push_back(attribute("in_strategy", tupleOfTuples(batchSplit)));
            if (op.tpAllReduce)
                attributes = { attribute("group", stringValue(tpGroup)), attribute("op", stringValue("sum")) };
            std::vector<std::string> inputs = previous;
            if (std::string(op.type) == "Add")
                inputs.push_back(residual);
            const std::string cellScope = *op.cell ? scope + "/" + op.cell : scope;
            const int64_t id = g.add(op.type, cellScope, inputs, attributes);
            previous = { std::to_string(id) };
            if (std::string(op.type) == "Add")
                residual = previous.front();
            // A layout change between a column-split and a row-split operator: a redistribution operator.
            if (op.strategy == 1 && (b + redistribution) % 4 == 0) {
                ++redistribution;
                previous = { std::to_string(g.add("AllGather", cellScope, previous,
                    { attribute("group", stringValue(tpGroup)) },
                    "redistribution_op_" + std::to_string(redistribution) + "AllGather")) };
            }
        }
    }
    if (stage + 1 < l.pp) {
        previous = { std::to_string(g.add("Send", root, previous,
            { attribute("sr_tag", intValue(0)), attribute("dest_rank", intValue(rank + perStage)),
                attribute("group", stringValue("pp-" + std::to_string(stage) + "-" + std::to_string(stage + 1))) })) };
        previous = { std::to_string(g.add("Receive", "Gradients/" + root, previous,
            { attribute("sr_tag", intValue(1)), attribute("src_rank", intValue(rank + perStage)),
                attribute("group", stringValue("pp-" + std::to_string(stage) + "-" + std::to_string(stage + 1))) })) };
    } else {
        previous = { std::to_string(g.add("SoftmaxCrossEntropyWithLogits", "Default/network-WithLossCell/loss",
            previous, { attribute("in_strategy", tupleOfTuples(batchSplit)) })) };
    }
    // Backward, last block first: each forward operator's input and weight gradients.
    std::vector<std::string> weightGrads;
    for (int b = blocks - 1; b >= 0; --b) {
        const std::string scope = "Gradients/" + blockScope(b);
        for (int i = kForwardOps - 1; i >= 0; --i) {
            const OpSpec& op = kForward[i];
            const std::string grad = std::string(op.type) + "Grad";
            const std::string cellScope = *op.cell ? scope + "/" + op.cell : scope;
            std::vector<std::string> attributes;
            if (op.strategy)
                attributes.push_back(
                    attribute("in_strategy", tupleOfTuples(op.strategy == 1 ? columnSplit : batchSplit)));
            const int64_t inputGrad = g.add(grad.c_str(), cellScope, previous, attributes);
            const int64_t weightGrad = g.add(op.strategy ? "MatMul" : "ReduceSum", cellScope,
                { std::to_string(inputGrad) }, attributes);
            previous = { std::to_string(inputGrad) };
            if (op.strategy == 1)
                weightGrads.push_back(std::to_string(weightGrad));
        }
    }
    if (stage > 0)
        previous = { std::to_string(g.add("Send", "Gradients/" + root, previous,
            { attribute("sr_tag", intValue(1)), attribute("dest_rank", intValue(rank - perStage)),
                attribute("group", stringValue("pp-" + std::to_string(stage - 1) + "-" + std::to_string(stage))) })) };
    // Gradient aggregation over the data-parallel group, one per weight, then the optimizer.
    int mirror = 0;
    for (const auto& w : weightGrads) {
        const int64_t id = g.add("AllReduce", "Gradients/Default/network-PipelineCell", { w },
            { attribute("group", stringValue(dpGroup)), attribute("op", stringValue("sum")) },
            "grad_mirror_MirrorOperator" + std::to_string(++mirror));
        previous.push_back(std::to_string(id));
    }
    g.add("Adam", "Default/optimizer-AdamWeightDecay", previous, {});
    out << "\n],\"parameters\":[{\"name\":\"backbone.embedding.word_embedding.embedding_table\",\"type\":{\"dataType\":"
           "\"DT_TENSOR\",\"tensorType\":{\"elemType\":\"DT_FLOAT16\",\"shape\":"
        << dims({ 50304, hidden }) << "}}}],\"constVals\":[{\"key\":\"cst1\",\"value\":" << intValue(0) << "}]}}\n";
    return out.close(error);
}

} // namespace npuscope::testgen::detail

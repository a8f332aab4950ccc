// SPDX-License-Identifier: Apache-2.0
#include "MsStrategyGraph.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/parse/IssueText.h"
#include "npuscope/model/ModelWriter.h"

#include <simdjson.h>

#include <charconv>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npuscope::io::detail {

namespace {

using simdjson::dom::element;

constexpr size_t kMaxAttributeText = 256;

// A string field, empty when absent or not a string. Takes a plain element only: a simdjson_result (e["a"]["b"])
// would convert by throwing when "a" is absent.
std::string_view stringOf(const element& e, const char* key)
{
    std::string_view s;
    if (e[key].get_string().get(s) != simdjson::SUCCESS)
        return {};
    return s;
}
std::string_view stringOf(simdjson::simdjson_result<element>, const char*) = delete;

// A number written as a JSON string ("32", protobuf's int64) or as a number: its text.
std::string scalarText(element e)
{
    std::string_view s;
    if (e.get_string().get(s) == simdjson::SUCCESS)
        return std::string(s);
    int64_t i = 0;
    if (e.get_int64().get(i) == simdjson::SUCCESS)
        return std::to_string(i);
    uint64_t u = 0;
    if (e.get_uint64().get(u) == simdjson::SUCCESS)
        return std::to_string(u);
    double d = 0;
    if (e.get_double().get(d) == simdjson::SUCCESS) {
        char buffer[32];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, d).ptr;
        return std::string(buffer, end);
    }
    bool b = false;
    if (e.get_bool().get(b) == simdjson::SUCCESS)
        return b ? "true" : "false";
    return {};
}

// open, then the text of each of items (text(item)) separated by ", ", then "]".
template <class Text> std::string listText(std::string open, simdjson::dom::array items, Text text)
{
    bool first = true;
    for (element item : items) {
        open += first ? "" : ", ";
        first = false;
        open += text(item);
    }
    return open + "]";
}

// A ValueProto ({"dtype": ..., "intVal" | "strVal" | "values" | ...}) as MindInsight shows it: integers and strings as
// written, tuples and lists as [a, b], a type as its data type name.
std::string valueText(element v, int depth = 0)
{
    if (depth > 32)
        return "…";
    const std::string_view dtype = stringOf(v, "dtype");
    if (dtype == "DT_TUPLE" || dtype == "DT_LIST") {
        simdjson::dom::array values;
        if (v["values"].get_array().get(values) != simdjson::SUCCESS)
            return "[]";
        return listText("[", values, [depth](element item) { return valueText(item, depth + 1); });
    }
    if (dtype == "DT_TYPE") {
        element type;
        if (v["typeVal"].get(type) == simdjson::SUCCESS)
            return std::string(stringOf(type, "dataType"));
        return {};
    }
    if (dtype == "DT_BOOL") {
        element b;
        if (v["boolVal"].get(b) == simdjson::SUCCESS) {
            const std::string text = scalarText(b);
            return text == "1" || text == "true" ? "True" : "False";
        }
        return "False";
    }
    for (const char* key : { "strVal", "intVal", "uintVal", "floatVal", "doubleVal" }) {
        element value;
        if (v[key].get(value) == simdjson::SUCCESS)
            return scalarText(value);
    }
    return std::string(dtype);
}

// outputType (a TypeProto): its shapes (a tensor's dims, a tuple's element shapes) and its data type name.
std::string shapeOf(element type, int depth = 0)
{
    if (depth > 32)
        return {};
    element dims;
    if (type["tensorType"]["shape"]["dim"].get(dims) == simdjson::SUCCESS) {
        std::string out = "[";
        simdjson::dom::array list;
        if (dims.get_array().get(list) == simdjson::SUCCESS) {
            bool first = true;
            for (element d : list) {
                element size;
                if (d["size"].get(size) != simdjson::SUCCESS)
                    continue;
                out += first ? "" : ", ";
                first = false;
                out += scalarText(size);
            }
        }
        return out + "]";
    }
    simdjson::dom::array elems;
    if (type["sequenceType"]["elemTypes"].get_array().get(elems) == simdjson::SUCCESS) {
        std::string out;
        for (element e : elems) {
            const std::string s = shapeOf(e, depth + 1);
            if (s.empty())
                continue;
            out += out.empty() ? "[" : ", ";
            out += s;
        }
        return out.empty() ? out : out + "]";
    }
    return {};
}

std::string dataTypeOf(element type, int depth = 0)
{
    if (depth > 32)
        return {};
    const std::string_view dataType = stringOf(type, "dataType");
    element tensor;
    if (dataType == "DT_TENSOR")
        return "DT_TENSOR["
            + std::string(type["tensorType"].get(tensor) == simdjson::SUCCESS ? stringOf(tensor, "elemType") : "")
            + "]";
    simdjson::dom::array elems;
    if (dataType == "DT_TUPLE" && type["sequenceType"]["elemTypes"].get_array().get(elems) == simdjson::SUCCESS) {
        return listText("DT_TUPLE[", elems, [depth](element e) { return dataTypeOf(e, depth + 1); });
    }
    return std::string(dataType);
}

std::string cut(std::string text)
{
    if (text.size() > kMaxAttributeText) {
        size_t n = kMaxAttributeText;
        while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80)
            --n; // not inside a UTF-8 sequence
        text.resize(n);
        text += "…";
    }
    return text;
}

} // namespace

int64_t importStrategyGraph(ImportContext& ctx, int64_t stage, const simdjson::padded_string& text)
{
    simdjson::dom::parser parser;
    element doc;
    simdjson::dom::array nodes;
    if (parser.parse(text).get(doc) || doc["graph"]["node"].get_array().get(nodes)) {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "no graph.node array: the strategy graph of this rank is empty")));
        return 0;
    }
    // Operator nodes are those with a name and a fullName (MindInsight skips the others); their position among them
    // is the execution order.
    std::unordered_map<std::string_view, int64_t> indexOf;
    int64_t count = 0;
    for (element node : nodes) {
        if (!stringOf(node, "name").empty() && !stringOf(node, "fullName").empty())
            indexOf.emplace(stringOf(node, "name"), ++count);
    }
    // Rows are written once the whole graph has been read: a value of an unexpected shape leaves no half graph.
    std::vector<model::StrategyNodeRow> rows;
    std::vector<model::StrategyEdgeRow> edges;
    int64_t index = 0;
    int64_t skipped = 0;
    try {
    for (element node : nodes) {
        const std::string_view key = stringOf(node, "name");
        const std::string_view fullName = stringOf(node, "fullName");
        if (key.empty() || fullName.empty()) {
            ++skipped;
            continue;
        }
        model::StrategyNodeRow row;
        row.rankId = ctx.rankId();
        row.stage = stage;
        row.nodeIndex = ++index;
        row.nodeKey = std::string(key);
        row.name = std::string(fullName);
        row.opType = std::string(stringOf(node, "opType"));
        row.scope = std::string(stringOf(node, "scope"));
        if (const std::string_view instance = stringOf(node, "instanceName"); !instance.empty()) {
            row.instanceName = std::string(instance);
            if (instance.find("grad_mirror") != std::string_view::npos)
                row.special |= model::StrategyNodeRow::GradAggregation;
            else if (instance.find("redistribution") != std::string_view::npos)
                row.special |= model::StrategyNodeRow::Redistribution;
        }
        std::optional<std::string> inStrategy, genStrategy;
        simdjson::dom::array attributes;
        if (node["attribute"].get_array().get(attributes) == simdjson::SUCCESS) {
            for (element attribute : attributes) {
                const std::string_view name = stringOf(attribute, "name");
                element value;
                if (name.empty() || attribute["value"].get(value) != simdjson::SUCCESS)
                    continue;
                if (name == "in_strategy")
                    inStrategy = valueText(value);
                else if (name == "gen_strategy")
                    genStrategy = valueText(value);
                else if (name == "group" && stringOf(value, "dtype") == "DT_STRING")
                    row.groupName = valueText(value);
                else if (name == "group_ranks")
                    row.groupRanks = valueText(value);
                else if (name == "sr_tag")
                    row.srTag = parseInt(valueText(value));
                else if ((name == "dest_rank" && row.opType == "Send") || (name == "src_rank" && row.opType == "Receive"))
                    row.peerRank = parseInt(valueText(value));
                else if (name == "shapes")
                    row.outputShape = valueText(value);
                if (name != "in_strategy" && name != "gen_strategy" && name != "shapes") {
                    row.attributes += row.attributes.empty() ? "" : "\n";
                    row.attributes += std::string(name) + "=" + cut(valueText(value));
                }
            }
        }
        row.strategy = inStrategy ? inStrategy : genStrategy;
        if (row.strategy)
            row.special |= model::StrategyNodeRow::Strategy;
        element outputType;
        if (node["outputType"].get(outputType) == simdjson::SUCCESS && outputType.is_object()) {
            if (!row.outputShape) {
                if (std::string shape = shapeOf(outputType); !shape.empty())
                    row.outputShape = std::move(shape);
            }
            if (std::string type = dataTypeOf(outputType); !type.empty())
                row.outputType = std::move(type);
        }
        simdjson::dom::array inputs;
        if (node["input"].get_array().get(inputs) == simdjson::SUCCESS) {
            for (element input : inputs) {
                const std::string_view name = stringOf(input, "name");
                if (name.empty())
                    continue;
                row.inputs += row.inputs.empty() ? "" : ",";
                row.inputs += name;
                if (const auto it = indexOf.find(name); it != indexOf.end())
                    edges.push_back({ ctx.rankId(), it->second, row.nodeIndex, stringOf(input, "type") == "CONTROL_EDGE" });
            }
        }
        rows.push_back(std::move(row));
    }
    } catch (const simdjson::simdjson_error& e) {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "the strategy graph could not be read (%1): it is left out"),
                { e.what() }));
        return 0;
    }
    auto& w = ctx.writer();
    for (const auto& r : rows)
        w.addStrategyNode(r);
    for (const auto& e : edges)
        w.addStrategyEdge(e);
    if (skipped > 0)
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 graph nodes without a name or fullName left out"),
                { std::to_string(skipped) }));
    return index;
}

} // namespace npuscope::io::detail

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MsParallelStrategyImporter.h"

#include "MsStrategyGraph.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/parse/SimdjsonSupport.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <map>
#include <optional>

namespace npuscope::io {

namespace {

// What the importer keeps of a file: the scalars of "config", the stage device lists and the node count.
struct StrategyFacts {
    std::map<std::string, std::string> config; // scalar "config" keys (no arrays or objects)
    std::vector<std::vector<std::string>> stageDevices; // config.stageDevices[i].dim[j].size
    int64_t nodeCount = 0;
};

// Follows the path of every SAX event; keeps the scalars under "config" and counts graph.node entries. The slow
// path, for what simdjson rejects (readFast).
class StrategySax : public nlohmann::json_sax<nlohmann::json> {
public:
    StrategyFacts facts;
    bool topIsObject = false;
    TrText error; // empty source: none

    bool null() override { return scalar("null"); }
    bool boolean(bool v) override { return scalar(v ? "true" : "false"); }
    bool number_integer(number_integer_t v) override { return scalar(std::to_string(v)); }
    bool number_unsigned(number_unsigned_t v) override { return scalar(std::to_string(v)); }
    bool number_float(number_float_t, const string_t& text) override { return scalar(text); }
    bool string(string_t& v) override { return scalar(v); }
    bool binary(binary_t&) override { return scalar(""); }
    bool start_object(std::size_t) override { return open(false); }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(true); }
    bool end_array() override { return close(); }
    bool key(string_t& k) override
    {
        m_stack.back().key = k;
        return true;
    }
    bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) override
    {
        error = issueText(
            QT_TRANSLATE_NOOP("ParseIssue", "invalid JSON at byte %1: %2"), { std::to_string(byte), e.what() });
        return false;
    }

private:
    struct Frame {
        bool array = false;
        std::string name; // this container's key or index in its parent
        std::string key; // the current key (objects)
        int64_t index = -1; // the current element (arrays)
    };

    // Name of the next child of the innermost container.
    std::string child()
    {
        if (m_stack.empty())
            return {};
        auto& f = m_stack.back();
        if (f.array)
            return std::to_string(++f.index);
        return f.key;
    }
    // The path of a child named last: the names of the containers below the root, then last (m_stack.size()
    // elements). Callers build it only for the lengths they look at: building it at every depth costs depth² string
    // copies (a 30 KB file nested 3,700 deep took 4 s under ASan; fuzz target ms_parallel_strategy).
    std::vector<std::string> pathTo(const std::string& last) const
    {
        std::vector<std::string> p;
        for (std::size_t i = 1; i < m_stack.size(); ++i)
            p.push_back(m_stack[i].name);
        p.push_back(last);
        return p;
    }
    bool open(bool array)
    {
        if (m_stack.empty())
            topIsObject = !array;
        const std::string name = child();
        if (!array && m_stack.size() == 3) {
            const auto p = pathTo(name);
            if (p.size() == 3 && p[0] == "graph" && p[1] == "node")
                ++facts.nodeCount;
        }
        m_stack.push_back({ array, name, {}, -1 });
        return true;
    }
    bool close()
    {
        m_stack.pop_back();
        return true;
    }
    bool scalar(const std::string& value)
    {
        const std::string name = child();
        if (m_stack.size() != 2 && m_stack.size() != 6)
            return true;
        const auto p = pathTo(name);
        if (p.size() == 2 && p[0] == "config")
            facts.config[p[1]] = value;
        else if (p.size() == 6 && p[0] == "config" && p[1] == "stageDevices" && p[3] == "dim" && p[5] == "size") {
            const auto stage = parseInt(p[2]);
            if (stage && *stage >= 0 && *stage < 4096) {
                auto& devices = facts.stageDevices;
                if (devices.size() <= static_cast<std::size_t>(*stage))
                    devices.resize(static_cast<std::size_t>(*stage) + 1);
                devices[static_cast<std::size_t>(*stage)].push_back(value);
            }
        }
        return true;
    }

    std::vector<Frame> m_stack;
};


namespace od = simdjson::ondemand;

// A scalar's text as the nlohmann pass gives it: a string unescaped, an integer printed again, any other number as
// written, true / false / null.
std::string scalarText(od::value v)
{
    switch (v.type().value()) {
    case od::json_type::string:
        return std::string(std::string_view(v.get_string()));
    case od::json_type::number: {
        const std::string_view token = trimToken(v.raw_json_token());
        const auto n = readJsonNumber(token);
        if (!n)
            throw simdjson::simdjson_error(simdjson::NUMBER_ERROR);
        if (n->kind == JsonNumber::Kind::Integer)
            return std::to_string(n->integer);
        if (n->kind == JsonNumber::Kind::Unsigned)
            return std::to_string(n->unsignedInteger);
        return std::string(token);
    }
    case od::json_type::boolean:
        return bool(v.get_bool()) ? "true" : "false";
    case od::json_type::null:
        if (!v.is_null().value())
            throw simdjson::simdjson_error(simdjson::N_ATOM_ERROR);
        return "null";
    default:
        throw simdjson::simdjson_error(simdjson::INCORRECT_TYPE);
    }
}

// Calls f(member value) for each element of an array or each member of an object.
template <class F> void forEachChild(od::value v, F&& f)
{
    const od::json_type type = v.type();
    if (type == od::json_type::array) {
        for (auto element : v.get_array())
            f(element.value());
    } else if (type == od::json_type::object) {
        for (auto entry : v.get_object())
            f(entry.value());
    }
}

// config.stageDevices: stage i's devices are the "size" scalars of its "dim" entries.
void readStageDevices(od::value list, std::vector<std::vector<std::string>>& out)
{
    size_t stage = 0;
    for (auto element : list.get_array()) {
        od::value device = element.value();
        if (stage < 4096 && device.type().value() == od::json_type::object) {
            for (auto field : device.get_object()) {
                if (std::string_view(field.unescaped_key()) != "dim")
                    continue;
                forEachChild(field.value(), [&](od::value dim) {
                    if (dim.type().value() != od::json_type::object)
                        return;
                    for (auto size : dim.get_object()) {
                        if (std::string_view(size.unescaped_key()) != "size")
                            continue;
                        od::value v = size.value();
                        const od::json_type type = v.type();
                        if (type == od::json_type::object || type == od::json_type::array)
                            continue;
                        if (out.size() <= stage)
                            out.resize(stage + 1);
                        out[stage].push_back(scalarText(v));
                    }
                });
            }
        }
        ++stage;
    }
}

// The fast path: config and the node count with simdjson On Demand (graph.node elements are skipped, not read).
// nullopt when simdjson rejects the text or its top is not an object: the nlohmann pass then decides, with its own
// diagnostics.
std::optional<StrategyFacts> readFast(const simdjson::padded_string& text)
{
    try {
        od::parser parser;
        od::document doc = parser.iterate(text);
        if (doc.type().value() != od::json_type::object)
            return std::nullopt;
        StrategyFacts facts;
        for (auto field : doc.get_object()) {
            const std::string_view key = field.unescaped_key();
            od::value value = field.value();
            if (key == "config" && value.type().value() == od::json_type::object) {
                for (auto entry : value.get_object()) {
                    const std::string name(std::string_view(entry.unescaped_key()));
                    od::value v = entry.value();
                    const od::json_type type = v.type();
                    if (type != od::json_type::object && type != od::json_type::array)
                        facts.config[name] = scalarText(v);
                    else if (name == "stageDevices" && type == od::json_type::array)
                        readStageDevices(v, facts.stageDevices);
                }
            } else if (key == "graph" && value.type().value() == od::json_type::object) {
                for (auto member : value.get_object()) {
                    const std::string_view name = member.unescaped_key();
                    od::value v = member.value();
                    if (name != "node")
                        continue;
                    // Objects under graph.node count as nodes (an array's elements; an object's members, as the
                    // nlohmann pass counts them).
                    const od::json_type type = v.type();
                    if (type == od::json_type::array) {
                        for (auto element : v.get_array()) {
                            if (element.type().value() == od::json_type::object)
                                ++facts.nodeCount;
                        }
                    } else if (type == od::json_type::object) {
                        for (auto entry : v.get_object()) {
                            if (entry.value().type().value() == od::json_type::object)
                                ++facts.nodeCount;
                        }
                    }
                }
            }
        }
        requireEnd(doc);
        return facts;
    } catch (const simdjson::simdjson_error&) {
        return std::nullopt;
    }
}

} // namespace

bool MsParallelStrategyImporter::run(ImportContext& ctx)
{
    simdjson::padded_string text;
    if (simdjson::padded_string::load(ctx.file()).get(text)) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot open file")));
        return false;
    }
    std::optional<StrategyFacts> read = readFast(text);
    if (!read) {
        // What simdjson rejects (a syntax error, nesting beyond its limit, a top that is not an object) goes through
        // nlohmann's parser: its diagnostics, and what it accepts is kept.
        StrategySax sax;
        const bool ok = nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &sax);
        if (!ok || !sax.topIsObject) {
            ctx.error(std::nullopt,
                sax.error.source.empty()
                    ? issueText(QT_TRANSLATE_NOOP("ParseIssue", "expected a JSON object at the top level"))
                    : sax.error);
            return false;
        }
        read = std::move(sax.facts);
    }
    const StrategyFacts& facts = *read;
    if (facts.config.empty() && facts.stageDevices.empty()) {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "no \"config\" object (rankId, stageId, parallelType); only the node count is kept")));
    }
    auto& w = ctx.writer();
    for (const auto& [key, value] : facts.config)
        w.addRankInfo(ctx.rankId(), "parallel_strategy." + key, value);
    if (!facts.stageDevices.empty()) {
        std::string list = "[";
        for (std::size_t i = 0; i < facts.stageDevices.size(); ++i) {
            list += i ? ",[" : "[";
            for (std::size_t j = 0; j < facts.stageDevices[i].size(); ++j)
                list += (j ? "," : "") + facts.stageDevices[i][j];
            list += "]";
        }
        list += "]";
        w.addRankInfo(ctx.rankId(), "parallel_strategy.stageDevices", list);
        w.addRankInfo(ctx.rankId(), "parallel_strategy.stageCount", std::to_string(facts.stageDevices.size()));
    }
    w.addRankInfo(ctx.rankId(), "parallel_strategy.nodeCount", std::to_string(facts.nodeCount));
    // The graph itself for one rank of each stage: the lowest rank stageDevices lists for the file's stage (the
    // stage's ranks share the graph), or this rank when the file does not say. When that rank's file is missing or
    // its graph unreadable, PostLoad::strategyGraphFallback reads the next rank's (importGraph).
    int64_t stage = 0;
    if (const auto it = facts.config.find("stageId"); it != facts.config.end())
        stage = parseInt(it->second).value_or(0);
    std::optional<int64_t> firstOfStage;
    if (stage >= 0 && static_cast<std::size_t>(stage) < facts.stageDevices.size()) {
        for (const auto& device : facts.stageDevices[static_cast<std::size_t>(stage)]) {
            if (const auto rank = parseInt(device); rank && (!firstOfStage || *rank < *firstOfStage))
                firstOfStage = rank;
        }
    }
    if (!firstOfStage || *firstOfStage == ctx.rankId()) {
        const int64_t nodes = detail::importStrategyGraph(ctx, stage, text);
        w.addRankInfo(ctx.rankId(), "parallel_strategy.graphNodes", std::to_string(nodes));
    }
    if (const auto it = facts.config.find("rankId"); it != facts.config.end()) {
        if (const auto id = parseInt(it->second); id && *id != ctx.rankId())
            ctx.warning(std::nullopt,
                issueText(
                    QT_TRANSLATE_NOOP("ParseIssue",
                        "config.rankId is %1 but the file name gives rank %2; facts kept under the file name's rank"),
                    { it->second, std::to_string(ctx.rankId()) }));
    }
    ctx.finish();
    return true;
}

int64_t MsParallelStrategyImporter::importGraph(ImportContext& ctx, int64_t stage)
{
    simdjson::padded_string text;
    if (simdjson::padded_string::load(ctx.file()).get(text)) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot open file")));
        return 0;
    }
    const int64_t nodes = detail::importStrategyGraph(ctx, stage, text);
    ctx.writer().addRankInfo(ctx.rankId(), "parallel_strategy.graphNodes", std::to_string(nodes));
    if (nodes > 0)
        ctx.info(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "stage %1's graph is read from this rank's file: the ranks before it in the stage have "
                          "no file or no readable graph"),
                { std::to_string(stage) }));
    ctx.finish();
    return nodes;
}

} // namespace npuscope::io

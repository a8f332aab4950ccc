// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MsParallelStrategyImporter.h"

#include "MsStrategyGraph.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

namespace npuscope::io {

namespace {

// Follows the path of every SAX event; keeps the scalars under "config" and counts graph.node entries.
class StrategySax : public nlohmann::json_sax<nlohmann::json> {
public:
    std::map<std::string, std::string> config; // scalar "config" keys (no arrays or objects)
    std::vector<std::vector<std::string>> stageDevices; // config.stageDevices[i].dim[j].size
    int64_t nodeCount = 0;
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
                ++nodeCount;
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
            config[p[1]] = value;
        else if (p.size() == 6 && p[0] == "config" && p[1] == "stageDevices" && p[3] == "dim" && p[5] == "size") {
            const auto stage = parseInt(p[2]);
            if (stage && *stage >= 0 && *stage < 4096) {
                if (stageDevices.size() <= static_cast<std::size_t>(*stage))
                    stageDevices.resize(static_cast<std::size_t>(*stage) + 1);
                stageDevices[static_cast<std::size_t>(*stage)].push_back(value);
            }
        }
        return true;
    }

    std::vector<Frame> m_stack;
};

} // namespace

bool MsParallelStrategyImporter::run(ImportContext& ctx)
{
    std::ifstream in(ctx.file(), std::ios::binary);
    if (!in) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot open file")));
        return false;
    }
    StrategySax sax;
    const bool ok = nlohmann::json::sax_parse(in, &sax);
    if (!ok || !sax.topIsObject) {
        ctx.error(std::nullopt,
            sax.error.source.empty()
                ? issueText(QT_TRANSLATE_NOOP("ParseIssue", "expected a JSON object at the top level"))
                : sax.error);
        return false;
    }
    if (sax.config.empty() && sax.stageDevices.empty()) {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "no \"config\" object (rankId, stageId, parallelType); only the node count is kept")));
    }
    auto& w = ctx.writer();
    for (const auto& [key, value] : sax.config)
        w.addRankInfo(ctx.rankId(), "parallel_strategy." + key, value);
    if (!sax.stageDevices.empty()) {
        std::string text = "[";
        for (std::size_t i = 0; i < sax.stageDevices.size(); ++i) {
            text += i ? ",[" : "[";
            for (std::size_t j = 0; j < sax.stageDevices[i].size(); ++j)
                text += (j ? "," : "") + sax.stageDevices[i][j];
            text += "]";
        }
        text += "]";
        w.addRankInfo(ctx.rankId(), "parallel_strategy.stageDevices", text);
        w.addRankInfo(ctx.rankId(), "parallel_strategy.stageCount", std::to_string(sax.stageDevices.size()));
    }
    w.addRankInfo(ctx.rankId(), "parallel_strategy.nodeCount", std::to_string(sax.nodeCount));
    // The graph itself for one rank of each stage: the lowest rank stageDevices lists for the file's stage (the
    // stage's ranks share the graph), or this rank when the file does not say.
    int64_t stage = 0;
    if (const auto it = sax.config.find("stageId"); it != sax.config.end())
        stage = parseInt(it->second).value_or(0);
    std::optional<int64_t> firstOfStage;
    if (stage >= 0 && static_cast<std::size_t>(stage) < sax.stageDevices.size()) {
        for (const auto& device : sax.stageDevices[static_cast<std::size_t>(stage)]) {
            if (const auto rank = parseInt(device); rank && (!firstOfStage || *rank < *firstOfStage))
                firstOfStage = rank;
        }
    }
    if (!firstOfStage || *firstOfStage == ctx.rankId()) {
        const int64_t nodes = detail::importStrategyGraph(ctx, stage);
        w.addRankInfo(ctx.rankId(), "parallel_strategy.graphNodes", std::to_string(nodes));
    }
    if (const auto it = sax.config.find("rankId"); it != sax.config.end()) {
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

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MindSporeMemoryImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/parse/JsonFile.h"

#include <array>
#include <filesystem>
#include <string>
#include <string_view>

namespace fs = std::filesystem;

namespace npuscope::io {

namespace {

// The 1-based line of the first `"key"` in text at or after from; nullopt when it is not there.
std::optional<int64_t> lineOfKey(const std::string& text, const std::string& key, size_t from = 0)
{
    const auto at = text.find("\"" + key + "\"", from);
    if (at == std::string::npos)
        return std::nullopt;
    int64_t line = 1;
    for (size_t i = 0; i < at; ++i)
        line += text[i] == '\n';
    return line;
}

std::string fileNameOf(const ImportContext& ctx) { return fs::path(ctx.file()).filename().string(); }

// What both files start with: the file read into text and parsed into root (keeping what keep keeps), an unreadable
// file, a syntax error or a top level that is not an object reported. False when there is no object to read.
bool readObject(ImportContext& ctx, std::string& text, nlohmann::json& root,
    const nlohmann::json::parser_callback_t& keep = nullptr)
{
    if (!readTextFile(ctx, text) || !parseJsonText(ctx, text, root, keep))
        return false;
    if (!root.is_object()) {
        ctx.error(std::nullopt,
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "%1: expected a JSON object at the top level"), { fileNameOf(ctx) }));
        return false;
    }
    return true;
}

} // namespace

bool MindSporeMemoryImporter::runSummary(ImportContext& ctx)
{
    std::string text;
    nlohmann::json root;
    if (!readObject(ctx, text, root))
        return false;
    static constexpr std::array<std::string_view, 5> kFigures { "capacity", "peak_mem", "static_mem", "allocations",
        "deallocations" };
    int stored = 0;
    for (const auto key : kFigures) {
        const std::string k(key);
        const auto it = root.find(k);
        if (it == root.end())
            continue;
        if (!it->is_number() || it->get<double>() < 0) {
            ctx.warning(lineOfKey(text, k),
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1: %2 is not a non-negative number: %3; not used"),
                    { fileNameOf(ctx), k, it->dump() }));
            continue;
        }
        ctx.writer().addRankInfo(ctx.rankId(), "memory_usage_summary." + k, it->dump());
        ++stored;
    }
    if (stored == 0)
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "%1: no capacity, peak_mem or static_mem figure; not a MindSpore memory summary"),
                { fileNameOf(ctx) }));
    ctx.finish();
    return true;
}

bool MindSporeMemoryImporter::runDetails(ImportContext& ctx)
{
    // The breakdowns (every live tensor at every node) and the nodes' tensor lists are most of the file: dropped as
    // they are parsed, so only the graphs' figures and the nodes' ids and names are built.
    const nlohmann::json::parser_callback_t keep
        = [](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
              if (event != nlohmann::json::parse_event_t::key || !parsed.is_string())
                  return true;
              const auto& key = parsed.get_ref<const std::string&>();
              if (depth == 2)
                  return key == "graph_id" || key == "static_mem" || key == "lines" || key == "nodes";
              if (depth == 4)
                  return key == "node_id" || key == "name";
              return true;
          };
    std::string text;
    nlohmann::json root;
    if (!readObject(ctx, text, root, keep))
        return false;
    const std::string file = fileNameOf(ctx);
    int64_t written = 0;
    for (auto g = root.begin(); g != root.end(); ++g) {
        const auto graphLine = lineOfKey(text, g.key());
        const auto& graph = g.value();
        const auto nodes = graph.is_object() ? graph.find("nodes") : graph.end();
        const auto lines = graph.is_object() ? graph.find("lines") : graph.end();
        if (!graph.is_object() || nodes == graph.end() || !nodes->is_array() || lines == graph.end()
            || !lines->is_array()) {
            ctx.warning(graphLine,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1: graph %2 has no nodes and lines arrays; skipped"),
                    { file, g.key() }));
            continue;
        }
        if (nodes->size() != lines->size())
            ctx.warning(graphLine,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "%1: graph %2 has %3 nodes but %4 line values; the nodes without a value are skipped"),
                    { file, g.key(), std::to_string(nodes->size()), std::to_string(lines->size()) }));
        model::MsMemoryNodeRow row;
        row.rankId = ctx.rankId();
        row.graphId = jsonInt(graph, "graph_id");
        if (!row.graphId)
            row.graphId = parseInt(g.key());
        for (size_t i = 0; i < nodes->size() && i < lines->size(); ++i) {
            const auto& node = (*nodes)[i];
            const auto& value = (*lines)[i];
            const auto name = node.is_object() ? node.find("name") : node.end();
            if (name == node.end() || !name->is_string() || name->get_ref<const std::string&>().empty()
                || !value.is_number()) {
                ctx.warning(graphLine,
                    issueText(QT_TRANSLATE_NOOP("ParseIssue",
                                  "%1: graph %2, node %3: no name or its line value is not a number; skipped"),
                        { file, g.key(), std::to_string(i) }));
                continue;
            }
            row.nodeIndex = static_cast<int64_t>(i);
            row.nodeId = jsonInt(node, "node_id");
            row.name = name->get<std::string>();
            row.memoryGib = value.get<double>();
            ctx.writer().addMsMemoryNode(row);
            ++written;
        }
    }
    if (written == 0)
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1: no graph with named nodes and line values"), { file }));
    ctx.finish();
    return true;
}

} // namespace npuscope::io

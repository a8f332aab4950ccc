// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MindSporeFlopsScopeImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/io/parse/JsonFile.h"

#include <filesystem>
#include <string>

namespace fs = std::filesystem;

namespace npuscope::io {

namespace {

// One data.links[] entry; false (reported) when it is not a link with a numeric value.
bool addLink(ImportContext& ctx, const nlohmann::json& link, size_t index)
{
    const auto text = [&](const char* key) -> std::optional<std::string> {
        const auto it = link.find(key);
        if (it == link.end() || !it->is_string())
            return std::nullopt;
        const auto& value = it->get_ref<const std::string&>();
        return value.empty() ? std::nullopt : std::optional<std::string>(value);
    };
    const auto source = link.is_object() ? text("source") : std::nullopt;
    const auto target = link.is_object() ? text("target") : std::nullopt;
    const auto value = link.is_object() ? jsonNumber(link, "value") : std::nullopt;
    if (!source || !target || !value) {
        ctx.warning(std::nullopt,
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "%1: link #%2 has no source, target or numeric value; skipped: %3"),
                { fs::path(ctx.file()).filename().string(), std::to_string(index + 1), link.dump().substr(0, 200) }));
        return false;
    }
    ctx.writer().addFlopsScopeLink({ ctx.rankId(), *source, *target, *value * 1e6 });
    return true;
}

} // namespace

bool MindSporeFlopsScopeImporter::run(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    const std::string fileName = fs::path(ctx.file()).filename().string();
    const auto data = root.find("data");
    const auto links = data != root.end() && data->is_object() ? data->find("links") : root.end();
    if (data == root.end() || !data->is_object() || links == data->end() || !links->is_array()) {
        ctx.error(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1: no data.links array (FLOPs per scope)"), { fileName }));
        ctx.finish();
        return false;
    }
    size_t added = 0;
    for (size_t i = 0; i < links->size(); ++i)
        added += addLink(ctx, (*links)[i], i) ? 1 : 0;
    if (const auto depth = jsonInt(root, "max_scope_num"))
        ctx.writer().addRankInfo(ctx.rankId(), "flops_scope.max_scope_num", std::to_string(*depth));
    if (added == 0)
        ctx.info(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1: no FLOPs scope links"), { fileName }));
    ctx.finish();
    return true;
}

} // namespace npuscope::io

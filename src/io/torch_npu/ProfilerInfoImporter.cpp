// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/ProfilerInfoImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/GroupHash.h"
#include "npuscope/io/parse/JsonFile.h"
#include "npuscope/model/ParallelGroupTable.h"

namespace npuscope::io {

namespace {

std::string scalarText(const nlohmann::json& v)
{
    if (v.is_string())
        return v.get<std::string>();
    return v.dump();
}

void flatten(ImportContext& ctx, const nlohmann::json& v, const std::string& prefix, int depth)
{
    if (depth > 6)
        return;
    if (v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it)
            flatten(ctx, it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), depth + 1);
    } else if (v.is_array()) {
        ctx.writer().addRankInfo(ctx.rankId(), prefix, v.dump());
    } else {
        ctx.writer().addRankInfo(ctx.rankId(), prefix, scalarText(v));
    }
}

const nlohmann::json* find(const nlohmann::json& root, std::initializer_list<const char*> path)
{
    const nlohmann::json* cur = &root;
    for (const char* key : path) {
        if (!cur->is_object())
            return nullptr;
        auto it = cur->find(key);
        if (it == cur->end())
            return nullptr;
        cur = &*it;
    }
    return cur;
}

std::optional<std::string> textAt(const nlohmann::json& root, std::initializer_list<const char*> path)
{
    const auto* v = find(root, path);
    if (!v || v->is_null())
        return std::nullopt;
    if (v->is_array()) {
        // _export_type is a string in 2025-01 builds and a list in torch_npu 2.7.1.
        std::string joined;
        for (const auto& e : *v) {
            if (!joined.empty())
                joined += ',';
            joined += scalarText(e);
        }
        return joined;
    }
    return scalarText(*v);
}

} // namespace

bool ProfilerInfoImporter::run(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    flatten(ctx, root, "", 0);
    model::RankRow row;
    row.rankId = ctx.rankId();
    row.profilerLevel = textAt(root, { "config", "experimental_config", "_profiler_level" });
    row.exportType = textAt(root, { "config", "experimental_config", "_export_type" });
    row.version = textAt(root, { "torch_npu_version" });
    if (!row.version)
        row.version = textAt(root, { "ms_version" });
    row.cannVersion = textAt(root, { "cann_version" });
    if (const auto* end = find(root, { "end_info", "collectionTimeEnd" }); end && end->is_number_integer())
        row.collectionEndNs = end->get<int64_t>();
    if (find(root, { "config", "common_config" }))
        row.framework = "torch_npu";
    else if (find(root, { "ms_profiler_info" }) || find(root, { "context_mode" }) || find(root, { "ms_version" }))
        row.framework = "mindspore";
    if (const auto* size = find(root, { "rank_size" }); size && size->is_number_integer())
        row.worldSize = size->get<int64_t>();
    ctx.writer().updateRank(row);
    ctx.finish();
    return true;
}

bool MetadataImporter::run(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    auto& w = ctx.writer();
    if (const auto* args = find(root, { "distributed_args" }); args && args->is_object()) {
        for (auto it = args->begin(); it != args->end(); ++it)
            w.addRankInfo(ctx.rankId(), "distributed_args." + it.key(), scalarText(it.value()));
        if (const auto* ws = find(*args, { "world_size" }); ws && ws->is_number_integer()) {
            model::RankRow row;
            row.rankId = ctx.rankId();
            row.worldSize = ws->get<int64_t>();
            w.updateRank(row);
        }
    }
    if (const auto* env = find(root, { "ENV_VARIABLES" }); env && env->is_object()) {
        for (auto it = env->begin(); it != env->end(); ++it)
            w.addRankInfo(ctx.rankId(), "env." + it.key(), scalarText(it.value()));
    }
    if (const auto* groups = find(root, { "parallel_group_info" })) {
        if (!groups->is_object()) {
            ctx.warning(std::nullopt,
                issueText(
                    QT_TRANSLATE_NOOP("ParseIssue", "parallel_group_info is not an object; group names unknown")));
        } else {
            // Parsed here, once: group resolution reads the typed rows.
            for (auto it = groups->begin(); it != groups->end(); ++it) {
                const auto row = model::ParallelGroupTable::fromJson(ctx.rankId(), it.key(), it.value());
                if (!row) {
                    ctx.warning(std::nullopt,
                        issueText(QT_TRANSLATE_NOOP("ParseIssue", "parallel_group_info.%1 has no global_ranks list"),
                            { it.key() }));
                    continue;
                }
                w.addParallelGroup(*row);
                ctx.rankState().groupRanks[groupDoubleHashText(it.key())] = row->globalRanks;
            }
        }
    }
    ctx.finish();
    return true;
}

} // namespace npuscope::io

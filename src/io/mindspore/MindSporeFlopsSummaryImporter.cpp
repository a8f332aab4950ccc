// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MindSporeFlopsSummaryImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/io/parse/JsonFile.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <string_view>

namespace fs = std::filesystem;

namespace npuscope::io {

bool MindSporeFlopsSummaryImporter::run(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    if (!root.is_object()) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "flops_summary: not a JSON object")));
        return false;
    }
    // The figures FlopsQuery reads, in the old form (FlopsParser) and the newer one (AscendFlopsGenerator), must be
    // numbers; anything else would silently drop out of the heatmap. Other keys are kept as they are.
    static constexpr std::array<std::string_view, 7> kFigures { "FLOPs", "FLOPS", "FLOPS_Utilization", "cube_FLOPs",
        "cube_FLOPS", "vec_FLOPs", "vec_FLOPS" };
    const std::string fileName = fs::path(ctx.file()).filename().string();
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (std::find(kFigures.begin(), kFigures.end(), it.key()) != kFigures.end() && !it->is_number())
            ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1: %2 is not a number: %3"),
                    { fileName, it.key(), it->dump() }));
        if (it->is_primitive())
            ctx.writer().addRankInfo(
                ctx.rankId(), "flops_summary." + it.key(), it->is_string() ? it->get<std::string>() : it->dump());
    }
    ctx.finish();
    return true;
}

} // namespace npuscope::io

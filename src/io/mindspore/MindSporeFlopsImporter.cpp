// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MindSporeFlopsImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/io/parse/CsvImport.h"
#include "npuscope/io/parse/JsonFile.h"

#include <filesystem>
#include <string>

namespace fs = std::filesystem;

namespace npuscope::io {

namespace {

// Columns of the one figure (FLOPs, FLOPS, utilisation) of one unit: the total, the cube or the vector unit.
struct Figures {
    int flops = -1, perSecond = -1, utilization = -1;
    bool any() const { return flops >= 0 || perSecond >= 0 || utilization >= 0; }
};

std::optional<double> scaled(std::optional<double> v, double scale)
{
    return v ? std::optional<double>(*v * scale) : std::nullopt;
}

std::optional<double> sum(std::optional<double> a, std::optional<double> b)
{
    if (!a && !b)
        return std::nullopt;
    return a.value_or(0.0) + b.value_or(0.0);
}

bool importOpFlops(CsvImport& csv)
{
    if (!csv.open({}))
        return false;
    auto& ctx = csv.context();
    // Header names as MindSpore's writers and the MindInsight samples spell them (FlopsParser: "op_full_name,
    // MFLOPs(10^6), GFLOPS(10^9), FLOPS utilization(%)"; the samples: "full_kernel_name, FLOPs, FLOPS, FLOPS
    // utilization"; the cube / vector form: "MFLOPs(10^6 cube), GFLOPS(10^9 cube), FLOPS utilization(cube), ...").
    // Exact names: "FLOPs" and "FLOPS" differ only in case.
    const int nameCol = csv.column({ "op_full_name", "full_kernel_name", "full_op_name", "op_name" });
    const Figures total { csv.column({ "MFLOPs(10^6)", "FLOPs" }), csv.column({ "GFLOPS(10^9)", "FLOPS" }),
        csv.column({ "FLOPS utilization(%)", "FLOPS utilization" }) };
    const Figures cube { csv.column({ "MFLOPs(10^6 cube)" }), csv.column({ "GFLOPS(10^9 cube)" }),
        csv.column({ "FLOPS utilization(cube)" }) };
    const Figures vec { csv.column({ "MFLOPs(10^6 vector)" }), csv.column({ "GFLOPS(10^9 vector)" }),
        csv.column({ "FLOPS utilization(vec)", "FLOPS utilization(vector)" }) };
    if (nameCol < 0 || (!total.any() && !cube.any() && !vec.any())) {
        ctx.error(1,
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue",
                    "%1: not a MindSpore FLOPs file: the header names no op (op_full_name, full_kernel_name) or no "
                    "FLOPs column"),
                { fs::path(ctx.file()).filename().string() }));
        return false;
    }
    return csv.readRows<model::OpFlopsRow>(
        [&](model::OpFlopsRow& r) {
            r.line = csv.line();
            r.name = csv.text(nameCol, true).value_or(std::string());
            // MFLOPs (10^6) and GFLOPS (10^9 FLOP/s) in both forms.
            r.cubeFlops = scaled(csv.optReal(cube.flops), 1e6);
            r.cubeFlopsPerSecond = scaled(csv.optReal(cube.perSecond), 1e9);
            r.cubeUtilizationPct = csv.optReal(cube.utilization);
            r.vecFlops = scaled(csv.optReal(vec.flops), 1e6);
            r.vecFlopsPerSecond = scaled(csv.optReal(vec.perSecond), 1e9);
            r.vecUtilizationPct = csv.optReal(vec.utilization);
            r.flops = total.flops >= 0 ? scaled(csv.optReal(total.flops), 1e6) : sum(r.cubeFlops, r.vecFlops);
            r.flopsPerSecond = total.perSecond >= 0 ? scaled(csv.optReal(total.perSecond), 1e9)
                                                    : sum(r.cubeFlopsPerSecond, r.vecFlopsPerSecond);
            r.utilizationPct = csv.optReal(total.utilization);
        },
        [&](const model::OpFlopsRow& r) { ctx.writer().addOpFlops(r); });
}

// One data.links[] entry; false (reported) when it is not a link with a numeric value.
bool addLink(ImportContext& ctx, const nlohmann::json& link, size_t index)
{
    const auto text = [&](const char* key) -> std::optional<std::string> {
        const auto it = link.find(key);
        if (it == link.end() || !it->is_string() || it->get_ref<const std::string&>().empty())
            return std::nullopt;
        return it->get<std::string>();
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

bool MindSporeFlopsImporter::runOpFlops(ImportContext& ctx) { return CsvImport::run(ctx, importOpFlops); }

bool MindSporeFlopsImporter::runScope(ImportContext& ctx)
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

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MindSporeOpFlopsImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/io/parse/CsvImport.h"

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

} // namespace

bool MindSporeOpFlopsImporter::run(ImportContext& ctx) { return CsvImport::run(ctx, importOpFlops); }

} // namespace npuscope::io

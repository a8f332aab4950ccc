// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/KernelDetailsImporter.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/CsvImport.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::io {

namespace {

// Input/Output Shapes carry literal quotes inside the value ("32,3,224,224", written """32,3,224,224""").
std::optional<std::string> shapes(std::string_view cell)
{
    cell = trim(cell);
    while (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"')
        cell = trim(cell.substr(1, cell.size() - 2));
    if (isMissing(cell))
        return std::nullopt;
    return std::string(cell);
}

// Integers stay exact, other numbers become doubles, anything else is kept as text; missing cells are left out.
void addPmuValue(nlohmann::ordered_json& pmu, const std::string& key, std::string_view cell)
{
    cell = trim(cell);
    if (isMissing(cell))
        return;
    int64_t integer = 0;
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), integer);
    if (ec == std::errc() && end == cell.data() + cell.size())
        pmu[key] = integer;
    else if (const auto real = parseDouble(cell))
        pmu[key] = *real;
    else
        pmu[key] = std::string(cell);
}

std::string quoteName(std::string_view name)
{
    constexpr size_t kMaxShown = 40;
    return "\"" + std::string(name.substr(0, kMaxShown)) + (name.size() > kMaxShown ? "...\"" : "\"");
}

// Index of the first of names in the header (the kernel_details.csv name, then the CANN op_summary one); a
// missing column is added to missing.
int requiredColumn(const CsvImport& csv, std::initializer_list<std::string_view> names, std::string& missing)
{
    const int col = csv.column(names);
    if (col < 0) {
        std::string alternatives;
        for (auto n : names)
            alternatives += (alternatives.empty() ? "" : " or ") + quoteName(n);
        missing += (missing.empty() ? "" : ", ") + alternatives;
    }
    return col;
}

bool importRows(CsvImport& csv)
{
    if (!csv.open({}))
        return false;

    // kernel_details.csv names first, then the CANN op_summary names of the same columns (Op Name, OP Type,
    // Task Type, Task Start Time(us) in newer builds, Task Duration(us), Task Wait Time(us)).
    std::string missing;
    const int nameCol = requiredColumn(csv, { "Name", "Op Name" }, missing);
    const int startCol = requiredColumn(csv, { "Start Time(us)", "Task Start Time(us)" }, missing);
    const int durCol = requiredColumn(csv, { "Duration(us)", "Task Duration(us)" }, missing);
    if (!missing.empty()) {
        std::string found;
        for (const auto& n : csv.header().names())
            found += (found.empty() ? "" : ", ") + quoteName(n);
        csv.context().error(csv.line(), "missing required column " + missing + " (found: " + found + ")");
        return false;
    }

    const int stepCol = csv.column({ "Step Id", "Step ID" }); // absent without a schedule -> NULL
    const int deviceCol = csv.column({ "Device_id", "Device Id", "Device ID" });
    const int modelCol = csv.column({ "Model ID" });
    const int taskCol = csv.column({ "Task ID" });
    const int streamCol = csv.column({ "Stream ID" });
    const int typeCol = csv.column({ "Type", "OP Type" });
    const int opStateCol = csv.column({ "OP State" });
    const int coreCol = csv.column({ "Accelerator Core", "Task Type" });
    const int waitCol = csv.column({ "Wait Time(us)", "Task Wait Time(us)" });
    const int blockDimCol = csv.column({ "Block Dim" });
    const int mixBlockDimCol = csv.column({ "Mix Block Dim" });
    const int inputShapesCol = csv.column({ "Input Shapes" });
    const int inputTypesCol = csv.column({ "Input Data Types" });
    const int outputShapesCol = csv.column({ "Output Shapes" });
    const int outputTypesCol = csv.column({ "Output Data Types" });

    // Every other column (formats, Context ID, the aic_metrics-dependent PMU counters) goes to pmu_json.
    std::vector<bool> mapped(csv.header().size(), false);
    for (int col :
        { stepCol, deviceCol, modelCol, taskCol, streamCol, nameCol, typeCol, opStateCol, coreCol, startCol, durCol,
            waitCol, blockDimCol, mixBlockDimCol, inputShapesCol, inputTypesCol, outputShapesCol, outputTypesCol }) {
        if (col >= 0)
            mapped[static_cast<size_t>(col)] = true;
    }
    std::vector<size_t> pmuCols;
    for (size_t col = 0; col < csv.header().size(); ++col) {
        if (!mapped[col] && !csv.header().names()[col].empty())
            pmuCols.push_back(col);
    }

    auto& ctx = csv.context();
    while (csv.next()) {
        model::KernelRow r;
        r.rankId = ctx.rankId();
        r.name = csv.text(nameCol, true).value_or(std::string());
        r.ts = csv.usNs(startCol, true).value_or(0);
        r.dur = csv.usNs(durCol, true).value_or(0);
        if (csv.skipped())
            continue;
        r.deviceId = csv.optInt(deviceCol);
        r.step = csv.optInt(stepCol);
        r.modelId = csv.optInt(modelCol); // 4294967295 = none, kept as written
        r.taskId = csv.optInt(taskCol);
        r.streamId = csv.optInt(streamCol);
        r.type = csv.text(typeCol);
        r.opState = csv.text(opStateCol);
        r.acceleratorCore = csv.text(coreCol);
        r.waitNs = csv.usNs(waitCol);
        r.blockDim = csv.optInt(blockDimCol);
        r.mixBlockDim = csv.optInt(mixBlockDimCol);
        r.inputShapes = shapes(csv.raw(inputShapesCol));
        r.inputDataTypes = csv.text(inputTypesCol);
        r.outputShapes = shapes(csv.raw(outputShapesCol));
        r.outputDataTypes = csv.text(outputTypesCol);
        nlohmann::ordered_json pmu = nlohmann::ordered_json::object();
        for (size_t col : pmuCols)
            addPmuValue(pmu, csv.header().names()[col], csv.raw(static_cast<int>(col)));
        if (!pmu.empty())
            r.pmuJson = pmu.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
        r.sourceLine = csv.line();
        ctx.writer().addKernel(r);
        csv.countImported();
    }
    return csv.result();
}

} // namespace

bool KernelDetailsImporter::run(ImportContext& ctx) { return CsvImport::run(ctx, importRows); }

} // namespace npuscope::io

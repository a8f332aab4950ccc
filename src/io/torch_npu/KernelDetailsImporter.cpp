// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/KernelDetailsImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/core/Decimal.h"
#include "npuscope/io/parse/CsvImport.h"
#include "npuscope/io/parse/SourceFile.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
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

// The FLOPs counters of an aic_metrics=ArithmeticUtilization run (FORMATS.md §6.1); kernel.flops is their sum.
constexpr const char* kFlopsColumns[] = { "aic_cube_fops", "aic_vector_fops", "aiv_cube_fops", "aiv_vector_fops" };

// Where the kernel fields are in a header (kernel_details.csv names first, then the CANN op_summary names of the
// same columns: Op Name, OP Type, Task Type, Task Start Time(us) in newer builds, Task Duration(us), Task Wait
// Time(us)); every other named column (formats, Context ID, the aic_metrics-dependent PMU counters) is a PMU column.
struct KernelColumns {
    int name = -1, start = -1, dur = -1;
    int step = -1, device = -1, model = -1, task = -1, stream = -1, type = -1, opState = -1, core = -1, wait = -1,
        blockDim = -1, mixBlockDim = -1, inputShapes = -1, inputTypes = -1, outputShapes = -1, outputTypes = -1;
    std::vector<size_t> pmu;
    std::vector<int> fops; // the FLOPs columns present (aic_metrics=ArithmeticUtilization); they stay PMU columns too

    explicit KernelColumns(const CsvHeader& h)
    {
        for (const char* flopsName : kFlopsColumns) {
            if (const int col = h.find({ flopsName }); col >= 0)
                fops.push_back(col);
        }
        name = h.find({ "Name", "Op Name" });
        start = h.find({ "Start Time(us)", "Task Start Time(us)" });
        dur = h.find({ "Duration(us)", "Task Duration(us)" });
        step = h.find({ "Step Id", "Step ID" }); // absent without a schedule -> NULL
        device = h.find({ "Device_id", "Device Id", "Device ID" });
        model = h.find({ "Model ID" });
        task = h.find({ "Task ID" });
        stream = h.find({ "Stream ID" });
        type = h.find({ "Type", "OP Type" });
        opState = h.find({ "OP State" });
        core = h.find({ "Accelerator Core", "Task Type" });
        wait = h.find({ "Wait Time(us)", "Task Wait Time(us)" });
        blockDim = h.find({ "Block Dim" });
        mixBlockDim = h.find({ "Mix Block Dim" });
        inputShapes = h.find({ "Input Shapes" });
        inputTypes = h.find({ "Input Data Types" });
        outputShapes = h.find({ "Output Shapes" });
        outputTypes = h.find({ "Output Data Types" });
        std::vector<bool> mapped(h.size(), false);
        for (int col : { step, device, model, task, stream, name, type, opState, core, start, dur, wait, blockDim,
                 mixBlockDim, inputShapes, inputTypes, outputShapes, outputTypes }) {
            if (col >= 0)
                mapped[static_cast<size_t>(col)] = true;
        }
        for (size_t col = 0; col < h.size(); ++col) {
            if (!mapped[col] && !h.names()[col].empty())
                pmu.push_back(col);
        }
    }

    // The PMU columns of one record as {header: number|string} in header order; nullopt when all are missing.
    std::optional<nlohmann::ordered_json> pmuObject(const CsvHeader& h, const std::vector<std::string>& fields) const
    {
        nlohmann::ordered_json out = nlohmann::ordered_json::object();
        for (size_t col : pmu)
            addPmuValue(out, h.names()[col], field(fields, static_cast<int>(col)));
        return out.empty() ? std::nullopt : std::optional<nlohmann::ordered_json>(std::move(out));
    }
};

// False, with the error reported, when a required column is missing.
bool hasRequiredColumns(CsvImport& csv)
{
    std::string missing;
    requiredColumn(csv, { "Name", "Op Name" }, missing);
    requiredColumn(csv, { "Start Time(us)", "Task Start Time(us)" }, missing);
    requiredColumn(csv, { "Duration(us)", "Task Duration(us)" }, missing);
    if (!missing.empty()) {
        std::string found;
        for (const auto& n : csv.header().names())
            found += (found.empty() ? "" : ", ") + quoteName(n);
        csv.context().error(csv.line(),
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "missing required column %1 (found: %2)"), { missing, found }));
        return false;
    }
    return true;
}

// Σ over the rows of one step, as FlopsQuery sums the kernel table.
struct StepTotal {
    int64_t kernels = 0, flopsKernels = 0, flopsDurNs = 0;
    double flops = 0;
};

// The kernel_total rows of the file: the same records, checks and FLOPs sum as importRows, no kernel row.
bool importTotals(CsvImport& csv, const KernelColumns& c)
{
    std::map<std::optional<int64_t>, StepTotal> steps;
    while (csv.next()) {
        csv.text(c.name, true);
        csv.usNs(c.start, true);
        const int64_t dur = csv.usNs(c.dur, true).value_or(0);
        if (csv.skipped())
            continue;
        auto& t = steps[csv.optInt(c.step)];
        ++t.kernels;
        std::optional<double> flops;
        for (int col : c.fops) {
            if (const auto v = csv.optReal(col))
                flops = flops.value_or(0.0) + *v;
        }
        if (flops) {
            ++t.flopsKernels;
            t.flops += *flops;
            t.flopsDurNs += dur;
        }
        csv.countImported();
    }
    auto& ctx = csv.context();
    for (const auto& [step, t] : steps)
        ctx.writer().addKernelTotal({ ctx.rankId(), step, t.kernels, t.flopsKernels, t.flops, t.flopsDurNs });
    return csv.result();
}

// The step_kernel rows of the file: the same records and checks as importRows (every record is checked, so the
// parse issues are the same), only those of step kept (every record when step is nullopt).
bool importStep(CsvImport& csv, const KernelColumns& c, std::optional<int64_t> step)
{
    auto& ctx = csv.context();
    model::StepKernelRow r;
    r.rankId = ctx.rankId();
    while (csv.next()) {
        auto name = csv.text(c.name, true);
        r.ts = csv.usNs(c.start, true).value_or(0);
        r.dur = csv.usNs(c.dur, true).value_or(0);
        if (csv.skipped())
            continue;
        csv.countImported();
        r.step = csv.optInt(c.step);
        if (step && r.step != step)
            continue;
        r.name = std::move(name).value_or(std::string());
        r.type = csv.text(c.type);
        r.acceleratorCore = csv.text(c.core);
        r.flops.reset();
        for (int col : c.fops) {
            if (const auto v = csv.optReal(col))
                r.flops = r.flops.value_or(0.0) + *v;
        }
        ctx.writer().addStepKernel(r);
    }
    return csv.result();
}

// The kernel_sum rows of the file: the same records and checks as importRows, counted and summed per step, name,
// type and accelerator core.
bool importSums(CsvImport& csv, const KernelColumns& c)
{
    using Key = std::tuple<std::optional<int64_t>, std::string, std::optional<std::string>, std::optional<std::string>>;
    std::map<Key, std::pair<int64_t, int64_t>> sums; // count, Σ dur
    while (csv.next()) {
        auto name = csv.text(c.name, true);
        csv.usNs(c.start, true);
        const int64_t dur = csv.usNs(c.dur, true).value_or(0);
        if (csv.skipped())
            continue;
        csv.countImported();
        auto& s
            = sums[{ csv.optInt(c.step), std::move(name).value_or(std::string()), csv.text(c.type), csv.text(c.core) }];
        ++s.first;
        s.second += dur;
    }
    auto& ctx = csv.context();
    model::KernelSumRow r;
    r.rankId = ctx.rankId();
    for (const auto& [key, s] : sums) {
        r.step = std::get<0>(key);
        r.name = std::get<1>(key);
        r.type = std::get<2>(key);
        r.acceleratorCore = std::get<3>(key);
        r.kernels = s.first;
        r.durNs = s.second;
        ctx.writer().addKernelSum(r);
    }
    return csv.result();
}

bool importRows(CsvImport& csv, const KernelColumns& c)
{

    // The PMU columns stay in the file: each row keeps its record's byte range (KernelDetailsImporter::pmuOf).
    auto& ctx = csv.context();
    model::OptInt pmuFile;
    std::error_code ec;
    const auto stampBefore = SourceFile::stamp(ctx.file());
    if (!c.pmu.empty() && stampBefore) {
        const auto path = std::filesystem::absolute(ctx.file(), ec);
        pmuFile = ctx.writer().addSourceFile(
            ctx.rankId(), ec ? ctx.file() : path.string(), stampBefore->sizeBytes, stampBefore->mtimeNs);
    }
    while (csv.next()) {
        model::KernelRow r;
        r.rankId = ctx.rankId();
        r.name = csv.text(c.name, true).value_or(std::string());
        r.ts = csv.usNs(c.start, true).value_or(0);
        r.dur = csv.usNs(c.dur, true).value_or(0);
        if (csv.skipped())
            continue;
        r.deviceId = csv.optInt(c.device);
        r.step = csv.optInt(c.step);
        r.modelId = csv.optInt(c.model); // 4294967295 = none, kept as written
        r.taskId = csv.optInt(c.task);
        r.streamId = csv.optInt(c.stream);
        r.type = csv.text(c.type);
        r.opState = csv.text(c.opState);
        r.acceleratorCore = csv.text(c.core);
        r.waitNs = csv.usNs(c.wait);
        r.blockDim = csv.optInt(c.blockDim);
        r.mixBlockDim = csv.optInt(c.mixBlockDim);
        r.inputShapes = shapes(csv.raw(c.inputShapes));
        r.inputDataTypes = csv.text(c.inputTypes);
        r.outputShapes = shapes(csv.raw(c.outputShapes));
        r.outputDataTypes = csv.text(c.outputTypes);
        for (int col : c.fops) {
            if (const auto v = csv.optReal(col))
                r.flops = r.flops.value_or(0.0) + *v;
        }
        if (pmuFile) {
            r.pmuFileId = pmuFile;
            r.pmuOffset = static_cast<int64_t>(csv.recordOffset());
            r.pmuLen = static_cast<int64_t>(csv.recordEnd() - csv.recordOffset());
        }
        r.sourceLine = csv.line();
        ctx.writer().addKernel(r);
        csv.countImported();
    }
    if (pmuFile && SourceFile::stamp(ctx.file()) != stampBefore)
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                "file changed while it was imported: the PMU columns of its kernels cannot be read back")));
    return csv.result();
}

} // namespace

namespace {

// One pass over the file: opened, the required columns checked (the error reported when one is missing) and the
// columns located once, then pass(csv, columns) reads the records.
template <class Pass> bool runPass(ImportContext& ctx, Pass pass)
{
    return CsvImport::run(ctx, [&pass](CsvImport& csv) {
        if (!csv.open({}) || !hasRequiredColumns(csv))
            return false;
        return pass(csv, KernelColumns(csv.header()));
    });
}

} // namespace

bool KernelDetailsImporter::run(ImportContext& ctx) { return runPass(ctx, importRows); }

bool KernelDetailsImporter::runTotals(ImportContext& ctx) { return runPass(ctx, importTotals); }

bool KernelDetailsImporter::runSums(ImportContext& ctx) { return runPass(ctx, importSums); }

bool KernelDetailsImporter::runStep(ImportContext& ctx, std::optional<int64_t> step)
{
    return runPass(ctx, [step](CsvImport& csv, const KernelColumns& c) { return importStep(csv, c, step); });
}

std::optional<nlohmann::ordered_json> KernelDetailsImporter::pmuOfRecord(
    const std::string& path, const FileStamp& stamp, int64_t offset, int64_t length, std::string* error)
{
    auto fail = [error](std::string message) -> std::optional<nlohmann::ordered_json> {
        if (error)
            *error = std::move(message);
        return std::nullopt;
    };
    if (offset < 0 || length < 0)
        return fail("PMU columns unavailable: no record in " + path);
    const auto record
        = SourceFile::readRange(path, stamp, static_cast<uint64_t>(offset), static_cast<uint64_t>(length));
    if (!record)
        return fail("PMU columns unavailable: " + path + " changed or is missing");
    // The header names the columns; the file is the one imported (the stamp matched).
    CsvReader reader;
    std::string openError;
    std::vector<std::string> header, fields;
    if (!reader.open(path, openError) || !reader.next(header))
        return fail(
            "PMU columns unavailable: cannot read the header of " + path + (openError.empty() ? "" : ": " + openError));
    reader.openText(*record);
    if (!reader.next(fields))
        return fail("PMU columns unavailable: empty record");
    const CsvHeader h(header);
    const auto pmu = KernelColumns(h).pmuObject(h, fields);
    return pmu ? pmu : fail("every PMU cell of this row is empty or N/A");
}

} // namespace npuscope::io

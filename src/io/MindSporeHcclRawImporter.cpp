// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/MindSporeHcclRawImporter.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/CsvImport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace npuscope::io {

namespace {

// "stream_41_0_AllReduce-op4582" -> "AllReduce".
std::optional<std::string> opTypeOf(const std::string& name)
{
    const auto dash = name.rfind("-op");
    const auto under = name.rfind('_', dash == std::string::npos ? std::string::npos : dash);
    if (dash == std::string::npos || under == std::string::npos || under + 1 >= dash)
        return std::nullopt;
    return name.substr(under + 1, dash - under - 1);
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::optional<double> number(const nlohmann::json& v)
{
    if (v.is_number())
        return v.get<double>();
    if (v.is_string())
        return parseDouble(v.get<std::string>());
    return std::nullopt;
}

// {"src-dst": {"SDMA": [time_ms, size_KB, bandwidth_KB_s]}} -> comm_link rows.
void addLinks(ImportContext& ctx, const nlohmann::json& links, const model::CommLinkRow& base, bool total, int64_t line)
{
    if (!links.is_object())
        return;
    for (auto it = links.begin(); it != links.end(); ++it) {
        const auto sep = it.key().find('-');
        const auto src = sep == std::string::npos ? std::nullopt : parseInt(it.key().substr(0, sep));
        const auto dst = sep == std::string::npos ? std::nullopt : parseInt(it.key().substr(sep + 1));
        if (!src || !dst || !it->is_object()) {
            ctx.warning(line, "link key \"" + it.key() + "\" is not \"src-dst\"; skipped");
            continue;
        }
        for (auto t = it->begin(); t != it->end(); ++t) {
            if (!t->is_array() || t->size() < 3)
                continue;
            model::CommLinkRow r = base;
            r.localSrc = src;
            r.localDst = dst;
            r.src = src;
            r.dst = dst;
            r.transport = t.key();
            const auto ms = number((*t)[0]);
            const auto kb = number((*t)[1]);
            const auto kbps = number((*t)[2]);
            if (ms)
                r.timeNs = doubleToNs(*ms, 1.0e6);
            if (kb)
                r.sizeMb = *kb / 1.0e3;
            if (total)
                r.bandwidthGbps = kb && ms && *ms > 0 ? std::optional<double>(*kb / *ms / 1.0e3) : std::nullopt;
            else if (kbps)
                r.bandwidthGbps = *kbps / 1.0e6;
            ctx.writer().addCommLink(r);
        }
    }
}

bool importRows(CsvImport& csv)
{
    if (!csv.open({ "step_num", "communication_cost" }))
        return false;
    auto& ctx = csv.context();
    const int stepCol = csv.column({ "step_num" });
    const int costCol = csv.column({ "communication_cost" });
    const int waitCol = csv.column({ "wait_cost" });
    const int linkCol = csv.column({ "link_info" });
    const int opCol = csv.column({ "communication_operator_cost" });
    while (csv.next()) {
        const auto stepText = csv.text(stepCol);
        if (!stepText || *stepText == "-")
            continue;
        const auto step = csv.optInt(stepCol);
        if (!step)
            continue;
        auto msCell = [&](int col) -> std::optional<int64_t> {
            const auto cell = trim(csv.raw(col));
            return col < 0 || isMissing(cell) ? std::nullopt : msToNs(cell);
        };
        model::CommOpRow total;
        total.rankId = ctx.rankId();
        total.step = step;
        total.kind = "collective";
        total.opKey = "Total Op Info";
        total.opName = "Total Op Info";
        total.isTotal = true;
        total.elapseNs = msCell(costCol);
        total.waitNs = msCell(waitCol);
        ctx.writer().addCommOp(total);

        model::CommLinkRow totalLink;
        totalLink.rankId = ctx.rankId();
        totalLink.step = step;
        totalLink.kind = "collective";
        totalLink.matrixOp = "Total Op Info";
        totalLink.slot = "total";
        if (const auto raw = csv.raw(linkCol); !trim(raw).empty()) {
            const auto links = nlohmann::json::parse(raw, nullptr, false);
            if (links.is_discarded())
                ctx.warning(csv.line(), "link_info is not JSON; step links skipped");
            else
                addLinks(ctx, links, totalLink, true, csv.line());
        }
        const auto raw = csv.raw(opCol);
        if (trim(raw).empty())
            continue;
        const auto ops = nlohmann::json::parse(raw, nullptr, false);
        if (ops.is_discarded() || !ops.is_object()) {
            ctx.warning(csv.line(), "communication_operator_cost is not a JSON object; ops skipped");
            continue;
        }
        for (auto it = ops.begin(); it != ops.end(); ++it) {
            if (!it->is_array() || it->size() < 3)
                continue;
            model::CommOpRow op;
            op.rankId = ctx.rankId();
            op.step = step;
            op.opKey = it.key();
            op.opName = it.key();
            op.opType = opTypeOf(it.key());
            const std::string type = lower(op.opType.value_or(std::string()));
            op.kind = type == "send" || type == "receive" ? "p2p" : "collective";
            if (const auto cost = number((*it)[1]))
                op.elapseNs = doubleToNs(*cost, 1.0e6);
            if (const auto wait = number((*it)[2]))
                op.waitNs = doubleToNs(*wait, 1.0e6);
            ctx.writer().addCommOp(op);
            if (it->size() >= 4) {
                model::CommLinkRow base;
                base.rankId = ctx.rankId();
                base.step = step;
                base.kind = op.kind;
                base.matrixOp = it.key();
                base.opType = type.empty() ? std::nullopt : std::optional<std::string>(type);
                base.opName = it.key();
                addLinks(ctx, (*it)[3], base, false, csv.line());
            }
        }
        csv.countImported();
    }
    return csv.result();
}

} // namespace

bool MindSporeHcclRawImporter::run(ImportContext& ctx) { return CsvImport::run(ctx, importRows); }

} // namespace npuscope::io

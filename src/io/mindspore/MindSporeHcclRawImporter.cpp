// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MindSporeHcclRawImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/parse/CsvImport.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <vector>

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

// The JSON cells are read with simdjson's DOM: a 1,024-rank job has a few hundred thousand of them, and nlohmann's
// DOM (a std::map per object) took as long as the rest of the summary load.
using Element = simdjson::dom::element;

std::optional<double> number(Element v)
{
    double d = 0;
    if (v.is_number() && v.get_double().get(d) == simdjson::SUCCESS)
        return d;
    std::string_view text;
    if (v.get_string().get(text) == simdjson::SUCCESS)
        return parseDouble(text);
    return std::nullopt;
}

// An object's members in key order, the last of equal keys kept: the order (and the choice among duplicates) of the
// std::map nlohmann's DOM held them in before, so rows are written as they always were. Filled into out, whose
// capacity the next object reuses.
using Members = std::vector<std::pair<std::string_view, Element>>;

void members(simdjson::dom::object object, Members& out)
{
    out.clear();
    for (const auto field : object)
        out.emplace_back(field.key, field.value);
    const auto notBefore = [](const auto& a, const auto& b) { return !(a.first < b.first); };
    if (std::adjacent_find(out.begin(), out.end(), notBefore) == out.end())
        return; // already strictly ascending, as the links of every generated and most real files are
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    size_t kept = 0;
    for (size_t i = 0; i < out.size(); ++i) {
        if (i + 1 == out.size() || out[i + 1].first != out[i].first)
            out[kept++] = out[i];
    }
    out.resize(kept);
}

// The buffers of members() for the three levels of a cell: ops, their links, a link's transports.
struct Scratch {
    Members ops, links, transports;
};

// Up to N leading elements of an array value into out; how many there were (0: not an array).
template <size_t N> size_t leading(Element v, std::array<Element, N>& out)
{
    simdjson::dom::array array;
    if (v.get_array().get(array) != simdjson::SUCCESS)
        return 0;
    size_t n = 0;
    for (const auto e : array) {
        out[n++] = e;
        if (n == N)
            break;
    }
    return n;
}

// A cell holding a JSON object; false when it is not JSON or not an object.
bool parseObject(simdjson::dom::parser& parser, std::string_view text, simdjson::dom::object& out)
{
    Element doc;
    return parser.parse(text.data(), text.size()).get(doc) == simdjson::SUCCESS
        && doc.get_object().get(out) == simdjson::SUCCESS;
}

// The stage layout MindSpore names in ascend_cluster_analyse_pipeline-parallel_{stage_num}_{rank_size}_{id}.csv next to
// hccl_raw_{id}.csv: stage groups of rank_size / stage_num contiguous ranks.
struct StageLayout {
    int64_t stageNum = 0;
    int64_t rankSize = 0;
    std::string file;
};

std::optional<StageLayout> stageLayoutOf(const std::string& hcclFile)
{
    namespace fs = std::filesystem;
    static const std::regex kHcclName(R"(^hccl_raw_(\d+)\.csv$)");
    static const std::regex kAnalyse(R"(^ascend_cluster_analyse_pipeline-parallel_(\d+)_(\d+)_(\d+)\.csv$)");
    const fs::path file(hcclFile);
    std::smatch m;
    const std::string name = file.filename().string();
    if (!std::regex_match(name, m, kHcclName))
        return std::nullopt;
    const std::string id = m[1].str();
    std::error_code ec;
    for (fs::directory_iterator it(file.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
        const std::string n = it->path().filename().string();
        std::smatch a;
        // The prefix first: a job folder holds a dozen files per device, and std::regex is slow.
        if (!n.starts_with("ascend_cluster_analyse_pipeline-parallel_") || !std::regex_match(n, a, kAnalyse)
            || a[3].str() != id)
            continue;
        StageLayout l;
        l.stageNum = parseInt(a[1].str()).value_or(0);
        l.rankSize = parseInt(a[2].str()).value_or(0);
        l.file = n;
        if (l.stageNum > 0 && l.rankSize > 0 && l.rankSize % l.stageNum == 0)
            return l;
    }
    return std::nullopt;
}

// Link keys "src-dst" of hccl_raw are local ranks of the file owner's communication group, and the file does not
// list the group's members. The owner's own local index is its self-link "k-k"; global = owner - ownerLocal + k
// when the stage layout says the group is ownerLocal's contiguous stage group.
class LocalRankMap {
public:
    std::optional<int64_t> ownerLocal; // k of the self-link "k-k"
    std::optional<int64_t> base; // global rank of local 0, when known
    int64_t owner = 0;

    std::optional<int64_t> global(int64_t local) const
    {
        if (base)
            return *base + local;
        if (ownerLocal && local == *ownerLocal)
            return owner; // the self-link is the owner's own
        return std::nullopt;
    }
};

// {"src-dst": {"SDMA": [time_ms, size_KB, bandwidth_KB_s]}} -> comm_link rows (global src/dst filled in later).
void addLinks(ImportContext& ctx, Scratch& scratch, Element links, const model::CommLinkRow& base, bool total,
    int64_t line, std::vector<model::CommLinkRow>& out)
{
    simdjson::dom::object object;
    if (links.get_object().get(object) != simdjson::SUCCESS)
        return;
    members(object, scratch.links);
    for (const auto& [key, value] : scratch.links) {
        const auto sep = key.find('-');
        const auto src = sep == std::string_view::npos ? std::nullopt : parseInt(key.substr(0, sep));
        const auto dst = sep == std::string_view::npos ? std::nullopt : parseInt(key.substr(sep + 1));
        simdjson::dom::object transports;
        if (!src || !dst || value.get_object().get(transports) != simdjson::SUCCESS) {
            ctx.warning(line,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "link key \"%1\" is not \"src-dst\"; skipped"),
                    { std::string(key) }));
            continue;
        }
        members(transports, scratch.transports);
        for (const auto& [transport, figures] : scratch.transports) {
            std::array<Element, 3> v;
            if (leading(figures, v) < 3)
                continue;
            model::CommLinkRow r = base;
            r.localSrc = src;
            r.localDst = dst;
            r.transport = std::string(transport);
            const auto ms = number(v[0]);
            const auto kb = number(v[1]);
            const auto kbps = number(v[2]);
            if (ms)
                r.timeNs = doubleToNs(*ms, 1.0e6);
            if (kb)
                r.sizeMb = *kb / 1.0e3;
            if (total)
                r.bandwidthGbps = kb && ms && *ms > 0 ? std::optional<double>(*kb / *ms / 1.0e3) : std::nullopt;
            else if (kbps)
                r.bandwidthGbps = *kbps / 1.0e6;
            out.push_back(std::move(r));
        }
    }
}

// One comm_bandwidth row per transport of an op, from its link_info: Σsize (KB -> MB) and Σtime (ms) over the links
// to or from other ranks. Self-links "k-k" (an on-chip copy, even when labelled SDMA) and LOCAL are left out, as
// communication.json's bandwidth info leaves out LOCAL.
void addBandwidth(ImportContext& ctx, Scratch& scratch, int64_t opId, Element links)
{
    simdjson::dom::object object;
    if (links.get_object().get(object) != simdjson::SUCCESS)
        return;
    std::map<std::string, std::pair<double, double>> byTransport; // transport -> (size MB, time ms)
    members(object, scratch.links);
    for (const auto& [key, value] : scratch.links) {
        const auto sep = key.find('-');
        simdjson::dom::object transports;
        if (sep == std::string_view::npos || value.get_object().get(transports) != simdjson::SUCCESS
            || key.substr(0, sep) == key.substr(sep + 1))
            continue;
        members(transports, scratch.transports);
        for (const auto& [transport, figures] : scratch.transports) {
            std::array<Element, 2> v;
            if (transport == "LOCAL" || leading(figures, v) < 2)
                continue;
            const auto ms = number(v[0]);
            const auto kb = number(v[1]);
            if (!ms || !kb)
                continue;
            auto& [mb, time] = byTransport[std::string(transport)];
            mb += *kb / 1.0e3;
            time += *ms;
        }
    }
    for (const auto& [transport, sums] : byTransport) {
        model::CommBandwidthRow bw;
        bw.commOpId = opId;
        bw.transport = transport;
        bw.sizeMb = sums.first;
        bw.transitNs = doubleToNs(sums.second, 1.0e6);
        if (sums.second > 0)
            bw.bandwidthGbps = sums.first / sums.second; // MB/ms = GB/s
        ctx.writer().addCommBandwidth(bw);
    }
}

struct Columns {
    int step, cost, wait, link, op;
};

// A step's "Total Op Info" row (communication_cost, wait_cost) and its links and bandwidths from link_info.
void importStepTotal(CsvImport& csv, simdjson::dom::parser& parser, Scratch& scratch, const Columns& col, int64_t step,
    std::vector<model::CommLinkRow>& links)
{
    auto& ctx = csv.context();
    auto msCell = [&](int c) -> std::optional<int64_t> {
        const auto cell = trim(csv.raw(c));
        return c < 0 || isMissing(cell) ? std::nullopt : msToNs(cell);
    };
    model::CommOpRow total;
    total.rankId = ctx.rankId();
    total.step = step;
    total.kind = "collective";
    total.opKey = "Total Op Info";
    total.opName = "Total Op Info";
    total.isTotal = true;
    total.elapseNs = msCell(col.cost);
    total.waitNs = msCell(col.wait);
    const int64_t totalId = ctx.writer().addCommOp(total);

    model::CommLinkRow totalLink;
    totalLink.rankId = ctx.rankId();
    totalLink.step = step;
    totalLink.kind = "collective";
    totalLink.matrixOp = "Total Op Info";
    totalLink.slot = "total";
    const auto raw = csv.raw(col.link);
    if (trim(raw).empty())
        return;
    Element parsed;
    if (parser.parse(raw.data(), raw.size()).get(parsed) != simdjson::SUCCESS) {
        ctx.warning(
            csv.line(), issueText(QT_TRANSLATE_NOOP("ParseIssue", "link_info is not JSON; step links skipped")));
        return;
    }
    addLinks(ctx, scratch, parsed, totalLink, true, csv.line(), links);
    addBandwidth(ctx, scratch, totalId, parsed);
}

// A step's ops from communication_operator_cost ({name: [?, cost ms, wait ms, links]}); false when the cell is empty
// or not a JSON object (the row is then not counted as imported).
bool importStepOps(CsvImport& csv, simdjson::dom::parser& parser, Scratch& scratch, const Columns& col, int64_t step,
    std::vector<model::CommLinkRow>& links)
{
    auto& ctx = csv.context();
    const auto raw = csv.raw(col.op);
    if (trim(raw).empty())
        return false;
    simdjson::dom::object ops;
    if (!parseObject(parser, raw, ops)) {
        ctx.warning(csv.line(),
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue", "communication_operator_cost is not a JSON object; ops skipped")));
        return false;
    }
    members(ops, scratch.ops);
    for (const auto& [key, value] : scratch.ops) {
        // [step, cost ms, wait ms] and, from the newer builds on, the op's links.
        std::array<Element, 4> v;
        const size_t fields = leading(value, v);
        if (fields < 3)
            continue;
        const std::string name(key);
        model::CommOpRow op;
        op.rankId = ctx.rankId();
        op.step = step;
        op.opKey = name;
        op.opName = name;
        op.opType = opTypeOf(name);
        const std::string type = lower(op.opType.value_or(std::string()));
        op.kind = type == "send" || type == "receive" ? "p2p" : "collective";
        if (const auto cost = number(v[1]))
            op.elapseNs = doubleToNs(*cost, 1.0e6);
        if (const auto wait = number(v[2]))
            op.waitNs = doubleToNs(*wait, 1.0e6);
        const int64_t opId = ctx.writer().addCommOp(op);
        if (fields >= 4) {
            model::CommLinkRow base;
            base.rankId = ctx.rankId();
            base.step = step;
            base.kind = op.kind;
            base.matrixOp = name;
            base.opType = type.empty() ? std::nullopt : std::optional<std::string>(type);
            base.opName = name;
            addLinks(ctx, scratch, v[3], base, false, csv.line(), links);
            addBandwidth(ctx, scratch, opId, v[3]);
        }
    }
    return true;
}

// Local -> global ranks of the links (FORMATS.md §4, §11): never by identity. The self-link names the owner's local
// rank; the pipeline-parallel layout file beside the file gives the stage groups; what is inferred or unknown is said.
LocalRankMap localRankMap(ImportContext& ctx, const std::vector<model::CommLinkRow>& links)
{
    LocalRankMap map;
    map.owner = ctx.rankId();
    std::set<int64_t> selfLinks;
    std::set<int64_t> locals;
    for (const auto& l : links) {
        if (l.localSrc == l.localDst)
            selfLinks.insert(*l.localSrc);
        locals.insert(*l.localSrc);
        locals.insert(*l.localDst);
    }
    if (selfLinks.size() == 1)
        map.ownerLocal = *selfLinks.begin();
    if (links.empty())
        return map;
    const auto layout = stageLayoutOf(ctx.file());
    std::string localsText;
    for (int64_t k : locals)
        localsText += (localsText.empty() ? "" : ", ") + std::to_string(k);
    if (!map.ownerLocal) {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "link keys are local ranks of this rank's communication group and the file names no single "
                          "self-link \"k-k\" (found %1): global src/dst of its links are unknown"),
                { std::to_string(selfLinks.size()) }));
    } else if (layout) {
        const int64_t groupSize = layout->rankSize / layout->stageNum;
        const int64_t stageStart = map.owner - map.owner % groupSize;
        const bool fits = map.owner < layout->rankSize && map.owner - *map.ownerLocal == stageStart
            && std::all_of(locals.begin(), locals.end(), [&](int64_t k) { return k >= 0 && k < groupSize; });
        if (fits) {
            map.base = stageStart;
            ctx.info(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "link keys are local ranks of this rank's communication group (the file lists no "
                              "members); global ranks inferred: the self-link \"%1-%2\" makes rank %3 local %4, and %5 "
                              "(pipeline-parallel, %6 stages of %7 ranks) gives contiguous stage groups of %8: local k "
                              "= global %9 + k"),
                    { std::to_string(*map.ownerLocal), std::to_string(*map.ownerLocal), std::to_string(map.owner),
                        std::to_string(*map.ownerLocal), layout->file, std::to_string(layout->stageNum),
                        std::to_string(layout->rankSize), std::to_string(groupSize), std::to_string(stageStart) }));
        } else {
            ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue",
                              "link keys are local ranks of this rank's communication group; %1 describes contiguous "
                              "stage groups of %2 ranks, which does not fit rank %3 being local %4 (local ranks %5): "
                              "global src/dst of links to other ranks are unknown"),
                    { layout->file, std::to_string(groupSize), std::to_string(map.owner),
                        std::to_string(*map.ownerLocal), localsText }));
        }
    } else {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "link keys are local ranks (%1) of this rank's communication group, and neither the file nor "
                          "the layout lists the group's members (no ascend_cluster_analyse_pipeline-parallel_*_%2.csv "
                          "beside it): only the self-link \"%3-%4\" (this rank) has global ranks; links to other ranks "
                          "have no global src/dst"),
                { localsText, std::to_string(map.owner), std::to_string(*map.ownerLocal),
                    std::to_string(*map.ownerLocal) }));
    }
    return map;
}

bool importRows(CsvImport& csv)
{
    if (!csv.open({ "step_num", "communication_cost" }))
        return false;
    auto& ctx = csv.context();
    const Columns col { csv.column({ "step_num" }), csv.column({ "communication_cost" }), csv.column({ "wait_cost" }),
        csv.column({ "link_info" }), csv.column({ "communication_operator_cost" }) };
    std::vector<model::CommLinkRow> links; // written once the owner's local index is known
    simdjson::dom::parser parser;
    Scratch scratch;
    while (csv.next()) {
        const auto stepText = csv.text(col.step);
        if (!stepText || *stepText == "-")
            continue; // the average row: not a step, and counting it would weigh the average in twice
        const auto step = csv.optInt(col.step);
        if (!step)
            continue;
        importStepTotal(csv, parser, scratch, col, *step, links);
        if (importStepOps(csv, parser, scratch, col, *step, links))
            csv.countImported();
    }
    const LocalRankMap map = localRankMap(ctx, links);
    for (auto& l : links) {
        l.src = map.global(*l.localSrc);
        l.dst = map.global(*l.localDst);
        ctx.writer().addCommLink(l);
    }
    return csv.result();
}

} // namespace

bool MindSporeHcclRawImporter::run(ImportContext& ctx) { return CsvImport::run(ctx, importRows); }

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/WhatIf.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace npuscope::query {

namespace {

bool parseRank(std::string_view text, int64_t& out)
{
    if (text.empty())
        return false;
    const auto* end = text.data() + text.size();
    const auto r = std::from_chars(text.data(), end, out);
    return r.ec == std::errc() && r.ptr == end && out >= 0;
}

bool parseFactor(const std::string& text, double& out)
{
    if (text.empty())
        return false;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(out) && out > 0;
}

// "NAME:F" -> name, factor (split at the last ':').
bool parseOpFactor(const std::string& text, std::string& name, double& factor)
{
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0)
        return false;
    name = text.substr(0, colon);
    return parseFactor(text.substr(colon + 1), factor);
}

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// A task is the operator NAME when its name, its name without "@group", or its type is NAME.
bool isOperator(const DependencyGraph& g, const DepTask& t, const std::string& name)
{
    if (t.name >= 0) {
        const auto& n = g.strings.text(t.name);
        if (n == name)
            return true;
        if (const auto at = n.find('@'); at != std::string::npos && n.compare(0, at, name) == 0 && at == name.size())
            return true;
    }
    return t.type >= 0 && g.strings.text(t.type) == name;
}

} // namespace

std::optional<WhatIfChange> WhatIfChange::parse(const std::string& spec, std::string& error)
{
    WhatIfChange c;
    c.spec = spec;
    const auto bad = [&](const std::string& why) {
        error = "change \"" + spec + "\": " + why
            + " (forms: rank=R:compute=F, op=NAME:F, rank=R:op=NAME:F, link=A-B:bandwidth=F, rank=R:host=ideal)";
        return std::nullopt;
    };
    if (startsWith(spec, "link=")) {
        const auto colon = spec.find(':');
        const std::string pair = spec.substr(5, colon == std::string::npos ? std::string::npos : colon - 5);
        const auto dash = pair.find('-');
        int64_t a = -1, b = -1;
        if (dash == std::string::npos || !parseRank(std::string_view(pair).substr(0, dash), a)
            || !parseRank(std::string_view(pair).substr(dash + 1), b) || a == b)
            return bad("expects two different ranks A-B after link=");
        if (colon == std::string::npos || !startsWith(spec.substr(colon + 1), "bandwidth=")
            || !parseFactor(spec.substr(colon + 11), c.factor))
            return bad("expects :bandwidth=F with a positive factor F");
        c.kind = Kind::LinkBandwidth;
        c.link = { std::min(a, b), std::max(a, b) };
        return c;
    }
    if (startsWith(spec, "op=")) {
        if (!parseOpFactor(spec.substr(3), c.op, c.factor))
            return bad("expects op=NAME:F with a positive factor F");
        c.kind = Kind::Operator;
        return c;
    }
    if (startsWith(spec, "rank=")) {
        const auto colon = spec.find(':');
        int64_t r = -1;
        if (colon == std::string::npos || !parseRank(std::string_view(spec).substr(5, colon - 5), r))
            return bad("expects a rank number after rank=");
        c.rank = r;
        const std::string rest = spec.substr(colon + 1);
        if (startsWith(rest, "compute=")) {
            if (!parseFactor(rest.substr(8), c.factor))
                return bad("expects compute=F with a positive factor F");
            c.kind = Kind::RankCompute;
            return c;
        }
        if (rest == "host=ideal") {
            c.kind = Kind::RankHostIdeal;
            return c;
        }
        if (startsWith(rest, "op=")) {
            if (!parseOpFactor(rest.substr(3), c.op, c.factor))
                return bad("expects op=NAME:F with a positive factor F");
            c.kind = Kind::RankOperator;
            return c;
        }
        return bad("expects compute=F, op=NAME:F or host=ideal after the rank");
    }
    return bad("unknown form");
}

ReplayChanges WhatIf::changesFor(const DependencyGraph& graph, const DepStep& step,
    const std::vector<WhatIfChange>& changes, std::vector<int64_t>& matched)
{
    ReplayChanges rc;
    const size_t lanes = step.lanes.size();
    matched.resize(changes.size(), 0);
    // A lane's factors, all 1 until a change touches one (the tables stay empty while nothing does).
    auto factors = [&](std::vector<std::vector<double>>& table, size_t l) -> std::vector<double>& {
        if (table.empty())
            table.resize(lanes);
        if (table[l].empty())
            table[l].assign(step.lanes[l].tasks.size(), 1.0);
        return table[l];
    };
    auto durs = [&](size_t l) -> std::vector<double>& { return factors(rc.durFactor, l); };
    auto transits = [&](size_t l) -> std::vector<double>& { return factors(rc.transitFactor, l); };
    for (size_t c = 0; c < changes.size(); ++c) {
        const auto& ch = changes[c];
        for (size_t l = 0; l < lanes; ++l) {
            const auto& lane = step.lanes[l];
            if (ch.rank && lane.rank != *ch.rank)
                continue;
            switch (ch.kind) {
            case WhatIfChange::Kind::RankCompute:
                if (lane.kernels) {
                    auto& f = durs(l);
                    for (size_t t = 0; t < lane.tasks.size(); ++t) {
                        if (lane.tasks[t].kind == DepKind::Compute)
                            f[t] *= ch.factor;
                    }
                } else {
                    if (rc.gapFactor.empty())
                        rc.gapFactor.assign(lanes, 1.0);
                    rc.gapFactor[l] *= ch.factor;
                }
                matched[c] += 1;
                break;
            case WhatIfChange::Kind::RankHostIdeal:
                if (rc.idealHost.empty())
                    rc.idealHost.assign(lanes, false);
                rc.idealHost[l] = lane.kernels;
                matched[c] += lane.kernels ? 1 : 0;
                break;
            case WhatIfChange::Kind::Operator:
            case WhatIfChange::Kind::RankOperator:
                for (size_t t = 0; t < lane.tasks.size(); ++t) {
                    const auto& task = lane.tasks[t];
                    if (!isOperator(graph, task, ch.op))
                        continue;
                    if (task.kind == DepKind::Communication && task.instance >= 0)
                        transits(l)[t] *= ch.factor;
                    else
                        durs(l)[t] *= ch.factor;
                    matched[c] += 1;
                }
                break;
            case WhatIfChange::Kind::LinkBandwidth:
                if (lane.rank != ch.link.first && lane.rank != ch.link.second)
                    break;
                for (size_t t = 0; t < lane.tasks.size(); ++t) {
                    const auto& task = lane.tasks[t];
                    if (task.instance < 0)
                        continue;
                    const int64_t other = lane.rank == ch.link.first ? ch.link.second : ch.link.first;
                    const auto& inst = graph.set.instances[static_cast<size_t>(task.instance)];
                    const bool both = std::any_of(inst.members.begin(), inst.members.end(),
                        [&](const InstanceMember& m) { return m.rank == other; });
                    if (!both)
                        continue;
                    transits(l)[t] /= ch.factor;
                    matched[c] += 1;
                }
                break;
            }
        }
    }
    if (!rc.idealHost.empty())
        rc.idealGapNs = DependencyGraphBuilder::medianGapNs(step);
    return rc;
}

WhatIfResult WhatIf::run(
    const DependencyGraph& graph, const std::vector<WhatIfChange>& changes, std::optional<int64_t> step)
{
    WhatIfResult out;
    out.changes = changes;
    out.matched.assign(changes.size(), 0);
    for (const auto& s : graph.steps) {
        if (step && s.step != *step)
            continue;
        const auto rc = changesFor(graph, s, changes, out.matched);
        WhatIfStep ws;
        ws.step = s.step;
        const auto measured = StepTiming::measured(s);
        const auto replayed = DependencyGraphBuilder::replay(s, rc, &ws.cycles);
        if (!s.lanes.empty()) {
            const size_t m = measured.slowestLane();
            const size_t p = replayed.slowestLane();
            ws.measuredNs = measured.wallNs(m);
            ws.measuredRank = s.lanes[m].rank;
            ws.predictedNs = replayed.wallNs(p);
            ws.predictedRank = s.lanes[p].rank;
        }
        for (size_t l = 0; l < s.lanes.size(); ++l)
            ws.ranks.push_back({ s.lanes[l].rank, measured.wallNs(l), replayed.wallNs(l) });
        ws.path.step = s.step;
        ws.path.slowestRank = ws.predictedRank;
        ws.path.stepNs = ws.predictedNs;
        ws.path.segments = CriticalPath::walk(s, replayed);
        for (const auto& seg : ws.path.segments) {
            ws.path.lengthNs += seg.durNs();
            ws.path.share.add(seg.kind, seg.durNs());
        }
        out.steps.push_back(std::move(ws));
    }
    return out;
}

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/advice/AdviceReport.h"

#include <cstdio>
#include <sstream>

namespace npuscope::query::advice {

namespace {

using ojson = nlohmann::ordered_json;

template <typename T> ojson orNull(const std::optional<T>& v) { return v ? ojson(*v) : ojson(nullptr); }

ojson linkJson(const FindingLink& l) { return { { "src", l.src }, { "dst", l.dst }, { "transport", l.transport } }; }

std::string number(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

} // namespace

nlohmann::ordered_json AdviceReport::json(const std::vector<Finding>& findings)
{
    ojson list = ojson::array();
    for (const auto& f : findings) {
        ojson links = ojson::array();
        for (const auto& l : f.links)
            links.push_back(linkJson(l));
        const auto& e = f.evidence;
        ojson evidence { { "view", e.view }, { "rank", orNull(e.rank) }, { "step", orNull(e.step) },
            { "stage", orNull(e.stage) }, { "link", e.link ? linkJson(*e.link) : ojson(nullptr) },
            { "op", orNull(e.op) }, { "transport", orNull(e.transport) } };
        list.push_back({ { "id", f.id }, { "category", f.category }, { "severity", severityName(f.severity) },
            { "threshold", f.threshold }, { "threshold_text", f.thresholdText }, { "value", f.value },
            { "unit", f.unit }, { "impact_ms", f.impactNs / 1e6 }, { "impact_share", f.impactShare },
            { "ranks", f.ranks }, { "links", std::move(links) }, { "ops", f.ops }, { "steps", f.steps },
            { "message", f.message }, { "suggestion", f.suggestion }, { "evidence", std::move(evidence) } });
    }
    return ojson { { "schema", kSchema }, { "findings", std::move(list) } };
}

std::string AdviceReport::text(const std::vector<Finding>& findings)
{
    std::ostringstream out;
    if (findings.empty()) {
        out << "No findings: no rule's threshold was crossed by the loaded data.\n";
        return out.str();
    }
    out << findings.size() << (findings.size() == 1 ? " finding" : " findings") << "\n";
    for (const auto& f : findings) {
        out << "\n[" << severityName(f.severity) << "] " << f.id << " (" << f.category << ")\n";
        out << "  value      " << number(f.value) << " " << f.unit << "  (threshold " << number(f.threshold) << ": "
            << f.thresholdText << ")\n";
        if (f.impactNs > 0 && f.impactShare > 0)
            out << "  impact     explains " << number(f.impactNs / 1e6) << " ms (" << number(f.impactShare * 100)
                << " % of the step)\n";
        else if (f.impactNs > 0)
            out << "  impact     explains " << number(f.impactNs / 1e6) << " ms (no step time)\n";
        else
            out << "  impact     not estimated\n";
        if (!f.ranks.empty()) {
            out << "  ranks     ";
            for (size_t i = 0; i < f.ranks.size() && i < 16; ++i)
                out << " " << f.ranks[i];
            if (f.ranks.size() > 16)
                out << " … (" << f.ranks.size() << ")";
            out << "\n";
        }
        if (!f.links.empty()) {
            out << "  links     ";
            for (const auto& l : f.links)
                out << " " << l.src << "->" << l.dst << " " << l.transport << ";";
            out << "\n";
        }
        if (!f.ops.empty()) {
            out << "  ops       ";
            for (const auto& o : f.ops)
                out << " " << o;
            out << "\n";
        }
        if (!f.steps.empty()) {
            out << "  steps     ";
            for (int64_t s : f.steps)
                out << " " << s;
            out << "\n";
        }
        out << "  " << f.message << "\n";
        out << "  suggestion: " << f.suggestion << "\n";
        out << "  evidence: view " << f.evidence.view;
        if (f.evidence.rank)
            out << ", rank " << *f.evidence.rank;
        if (f.evidence.step)
            out << ", step " << *f.evidence.step;
        if (f.evidence.stage)
            out << ", stage " << *f.evidence.stage;
        if (f.evidence.link)
            out << ", link " << f.evidence.link->src << "->" << f.evidence.link->dst;
        if (f.evidence.op)
            out << ", op " << *f.evidence.op;
        if (f.evidence.transport)
            out << ", transport " << *f.evidence.transport;
        out << "\n";
    }
    return out.str();
}

} // namespace npuscope::query::advice

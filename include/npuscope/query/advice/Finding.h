// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/advice/FindingText.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::query::advice {

// How much a finding matters. Findings are ordered Critical first.
enum class Severity { Info, Warning, Critical };
// "info", "warning", "critical" (the npuscope.advice/1 "severity" values).
std::string_view severityName(Severity s);

// One link a finding names: global ranks and the transport as the files write it (HCCS, RDMA, SDMA, PCIE, ...).
struct FindingLink {
    int64_t src = 0;
    int64_t dst = 0;
    std::string transport;
    bool operator==(const FindingLink&) const = default;
};

// Which view shows the data a finding rests on, and what to select there. view is one of the GUI's view names:
// "steps" (Cluster steps / step breakdown), "timeoverview" (Time overview), "commduration" (Communication duration:
// per-rank wait / sync, packet sizes), "links" (Links / matrix), "operators", "memory", "flops", "timeline", "parallel"
// (Parallel strategy: stages). Unset fields select nothing of that kind.
struct Evidence {
    std::string view;
    std::optional<int64_t> rank;
    std::optional<int64_t> step;
    std::optional<int64_t> stage; // pipeline stage index (ParallelLayout pp)
    std::optional<FindingLink> link;
    std::optional<std::string> op; // an operator key (op type) or a communication op name
    std::optional<std::string> transport; // "commduration": the packet distribution of this transport
};

// One piece of advice (docs/metrics.md, "Advice rules"). Plain data; any thread.
struct Finding {
    std::string id; // rule id: stage_imbalance, computation_dispersion, slow_rank, slow_link, wait_ratio, ...
    std::string category; // delimitation | slow_rank | communication | computation | scheduling | memory
    Severity severity = Severity::Info;
    double threshold = 0; // the number the value was compared with, in unit
    std::string thresholdText; // the rule in words, e.g. "wait ratio > 0.2"
    double value = 0; // the measured figure, in unit
    std::string unit; // "ratio", "GB/s", "ms", "us", "share", ...
    // The step time the finding explains (docs/metrics.md, "Impact"), per rule: ns of the mean step (or of the step
    // concerned), and that ÷ the step time it refers to (0..1). 0 when the rule cannot estimate it (memory, FLOPs
    // utilisation, statistics); such a finding keeps the severity of its rule.
    double impactNs = 0;
    double impactShare = 0;
    std::vector<int64_t> ranks; // global ranks concerned, the most affected first
    std::vector<FindingLink> links;
    std::vector<std::string> ops; // op keys (communication op names, operator names)
    std::vector<int64_t> steps;
    std::string message; // what was measured, one or two sentences with the figures
    std::string suggestion; // what to look at or change
    Evidence evidence;
    // thresholdText, message and suggestion as templates with their arguments, for the GUI to translate: each string
    // is its form's english(), both set by setThreshold / setMessage / setSuggestion.
    FindingText thresholdForm, messageForm, suggestionForm;

    // A finding of rule id with what every rule sets first: its category, severity and the threshold its value is
    // compared with, as a number and in words (setThreshold).
    static Finding ofRule(
        std::string id, std::string category, Severity severity, double threshold, FindingText thresholdText);

    void setThreshold(FindingText text);
    void setMessage(FindingText text);
    void setSuggestion(FindingText text);
};

} // namespace npuscope::query::advice

// SPDX-License-Identifier: Apache-2.0
// input_bound: ranks whose MindSpore data pipeline is slower than the device (the device queue runs empty), with the
// bottleneck operator PipelineQuery names and the step's Preparing share where step_trace_time.csv has it.
#include "AdviceRules.h"

#include "npuscope/query/PipelineQuery.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/TranslationMarker.h"
#include "npuscope/query/advice/AdviceThresholds.h"

#include <algorithm>

namespace npuscope::query::advice {

namespace {

using T = AdviceThresholds;

// A rank the rule judged input-bound, by the device queue or (without one) by Preparing.
struct Bound {
    RankPipeline pipeline;
    double value = 0; // the device queue's empty rate, or the Preparing share
    bool byQueue = false;
    std::optional<double> preparingShare;
    double preparingNs = 0, stepNs = 0;
};

std::optional<Bound> judge(const AdviceContext& ctx, RankPipeline p)
{
    Bound b;
    if (const auto* row = ctx.averagedRow(p.rank)) {
        const auto prep = row->value(StepColumn::Preparing);
        const auto wall = row->wallTime();
        if (prep && wall && *wall > 0) {
            b.preparingShare = static_cast<double>(*prep) / static_cast<double>(*wall);
            b.preparingNs = static_cast<double>(*prep);
            b.stepNs = static_cast<double>(*wall);
        }
    }
    if (p.deviceQueueEmptyRate) {
        if (*p.deviceQueueEmptyRate <= T::kDeviceQueueEmptyRate)
            return std::nullopt;
        b.value = *p.deviceQueueEmptyRate;
        b.byQueue = true;
    } else if (!p.ops.empty() && b.preparingShare && *b.preparingShare > T::kPreparingShare) {
        b.value = *b.preparingShare;
    } else {
        return std::nullopt;
    }
    b.pipeline = std::move(p);
    return b;
}

FindingText bottleneckClause(const RankPipeline& p)
{
    if (!p.bottleneck)
        return text(QT_TRANSLATE_NOOP("Advice", "No operator's queues single out a bottleneck."));
    const auto& b = *p.bottleneck;
    const char* rule = b.rule == "queue_drop"
        ? QT_TRANSLATE_NOOP("Advice", "its output queue is emptier than its input queue")
        : b.rule == "slow_source" ? QT_TRANSLATE_NOOP("Advice", "a source whose output queue is almost empty")
                                  : QT_TRANSLATE_NOOP("Advice", "every queue before it is almost full");
    return text(QT_TRANSLATE_NOOP("Advice", "Bottleneck operator: %1 (op %2, rule %3: %4; its queue %5 % used)."),
        { b.opType, std::to_string(b.opId), b.rule, text(rule), fixed(b.usage * 100, 1) });
}

} // namespace

void inputBoundRule(const AdviceContext& ctx, std::vector<Finding>& out)
{
    std::vector<Bound> bound;
    for (auto& p : PipelineQuery::ranks(ctx.db)) {
        if (auto b = judge(ctx, std::move(p)))
            bound.push_back(std::move(*b));
    }
    if (bound.empty())
        return;
    // Ranks judged by their device queue first (the direct measure), then by value, then those whose pipeline names a
    // bottleneck (the finding can point at it).
    std::sort(bound.begin(), bound.end(), [](const Bound& a, const Bound& b) {
        if (a.byQueue != b.byQueue)
            return a.byQueue;
        if (a.value != b.value)
            return a.value > b.value;
        if (a.pipeline.bottleneck.has_value() != b.pipeline.bottleneck.has_value())
            return a.pipeline.bottleneck.has_value();
        return a.pipeline.rank < b.pipeline.rank;
    });
    const Bound& top = bound.front();
    Finding f;
    f.id = "input_bound";
    f.category = "scheduling";
    f.severity = Severity::Warning;
    f.value = top.value;
    f.unit = "ratio";
    for (const auto& b : bound)
        f.ranks.push_back(b.pipeline.rank);
    const auto rank = std::to_string(top.pipeline.rank);
    // Judged by the device queue where a file gives it, else by Preparing.
    f.threshold = top.byQueue ? T::kDeviceQueueEmptyRate : T::kPreparingShare;
    f.setThreshold(text(top.byQueue ? QT_TRANSLATE_NOOP("Advice", "device queue empty in > %1 of its samples")
                                    : QT_TRANSLATE_NOOP("Advice", "Preparing ÷ step time > %1 (no device queue file)"),
        { fixed(f.threshold, 2) }));
    const FindingText measured = top.byQueue
        ? text(QT_TRANSLATE_NOOP("Advice",
                   "The queue feeding the device was empty in %1 of %2 samples (%3 %) on rank %4: the data "
                   "pipeline is slower than the device."),
              { std::to_string(top.pipeline.deviceQueueEmpty), std::to_string(top.pipeline.deviceQueueSamples),
                  fixed(top.value * 100, 1), rank })
        : text(QT_TRANSLATE_NOOP("Advice",
                   "Preparing (waiting for data before the first device task) is %1 % of the step on rank "
                   "%2, which has a data pipeline profile."),
              { fixed(top.value * 100, 1), rank });
    std::vector<FindingText> parts { measured, bottleneckClause(top.pipeline) };
    if (top.byQueue && top.preparingShare)
        parts.push_back(text(
            QT_TRANSLATE_NOOP("Advice", "Preparing is %1 % of its step."), { fixed(*top.preparingShare * 100, 1) }));
    if (bound.size() > 1)
        parts.push_back(text(QT_TRANSLATE_NOOP("Advice", "Input-bound ranks: %1."), { rankList(f.ranks) }));
    f.setMessage(joined(parts, QT_TRANSLATE_NOOP("Advice", "%1 %2")));
    f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
        "Speed up the dataset pipeline: more num_workers for the bottleneck operator, lighter map operations, "
        "faster storage or a dataset cache, or a deeper prefetch queue; check that the host CPUs are not saturated.")));
    // The data wait is step time only where Preparing measures it (docs/metrics.md, "Impact").
    if (top.preparingShare)
        setImpact(f, top.preparingNs, top.stepNs);
    f.evidence.view = "pipeline";
    f.evidence.rank = top.pipeline.rank;
    if (top.pipeline.bottleneck) {
        f.evidence.op = top.pipeline.bottleneck->opType;
        f.ops.push_back(top.pipeline.bottleneck->opType);
    }
    out.push_back(std::move(f));
}

} // namespace npuscope::query::advice

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/MetricDefinitions.h"

#include <array>

// No Qt in the query layer: lupdate only needs to see the macro.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif

namespace npuscope::query {

namespace {

// Copied from docs/metrics.md ("Step breakdown", the communication figures table and the Operators table);
// MetricDefinitionsTest keeps them equal. QT_TRANSLATE_NOOP marks them for lupdate (scripts/update-translations.sh
// reads this file): the GUI shows them translated (gui::MetricText), the CLI and this table stay English.
constexpr std::array kDefinitions {
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Computing"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "time the device runs compute kernels (AI Core, AI Vector, AI CPU, …) in the step") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Communication(Not Overlapped)"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "communication time not hidden by computing") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Overlapped"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "computing time that overlaps communication") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Communication"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "all communication time; `Communication = Communication(Not Overlapped) + Overlapped`") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Free"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "device idle time (neither computing nor communicating)") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Stage"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "step time without Bubble for pipeline stages") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Bubble"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "pipeline bubble: time spent waiting in PP receive ops") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Communication(Not Overlapped and Exclude Receive)"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "Communication(Not Overlapped) minus receive waiting") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Preparing"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "time from the step start to the first device task (absent before 2024 builds → NULL)") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Step wall time"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "Computing + Communication(Not Overlapped) + Free + Preparing") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Slowest rank"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "the rank with the largest step wall time summed over all its steps (in one step: that step's wall "
            "time)") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Elapse Time"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "the op's duration on the rank: Transit + Wait + Idle") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Transit Time"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "time the op moves data over its links") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Wait Time"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "time the rank waits inside the op for its peers (Synchronization included)") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Synchronization Time"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "the part of Wait before the first data moves: waiting for the peers to arrive") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Idle Time"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "Elapse − Transit − Wait: time inside the op spent neither moving data nor waiting") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Wait Ratio"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "Wait / (Wait + Transit)") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Synchronization Ratio"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "Sync / (Sync + Transit)") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Transit Size"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "data the op moves over a link or transport (MB = 10^6 B)") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Bandwidth"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "Σ size / Σ time of the ops or links summed (GB/s); never a mean of per-op bandwidths") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Kernel count"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "kernels of the rank with that key") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Kernel total"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "Σ Duration(us) (op_summary: Task Duration(us))") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Kernel mean"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "total ÷ count, rounded to the nearest ns (half away from zero)") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Kernel min / max"),
        QT_TRANSLATE_NOOP("MetricDefinitions", "the shortest / longest single Duration") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Kernel wait"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "Σ Wait Time(us) (op_summary: Task Wait Time(us)); a kernel without it counts 0") },
};

} // namespace

std::span<const MetricDefinition> MetricDefinitions::all() { return kDefinitions; }

std::string_view MetricDefinitions::of(std::string_view name)
{
    for (const auto& d : kDefinitions) {
        if (d.name == name)
            return d.definition;
    }
    return {};
}

} // namespace npuscope::query

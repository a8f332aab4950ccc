// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/MetricDefinitions.h"
#include "npuscope/query/TranslationMarker.h"

#include <array>

namespace npuscope::query {

namespace {

// Copied from docs/metrics.md ("Step breakdown", the communication figures table, the Operators table and "Column
// definitions of the other tables");
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
    // The columns of the other tables ("Column definitions of the other tables").
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Last arriver"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "the member with the least wait (its own clock's evidence; ties: the later aligned start)") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Spread"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "latest − earliest aligned start of the instance's members") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Wait cost"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "Σ (member wait − the last arriver's wait): the wait the latest arrival cost its peers") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Instance delay"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "Σ excess wait of the members (member wait − the least wait of its role); what blame explains") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Blame cause"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "compute (Computing above its role), host (device idle: dispatch-bound; Free above its role), link (transit ≥ 3× elsewhere) or unknown") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Induced wait"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "Σ over the step's delayed instances of delay × the root's weight") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Blame share"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "induced wait ÷ the step's induced wait (Σ over its roots, 0–1)") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Blamed instances"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "the delayed instances this root is the largest root of") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Slice count"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "slices of the name that intersect the selected range on the chosen tracks") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Wall time"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "Σ duration of the slices, each clipped to the selected range") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Self time"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "wall time minus the clipped wall time of the slices' direct children") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Average wall time"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "total wall time ÷ count") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Min / max wall time"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "the shortest / longest clipped duration of one slice") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Module peak"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "the largest Total Reserved(MB) of the module over its samples") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Module last"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "Total Reserved(MB) of the module's last sample") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Block size"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "Size(KB) of the memory block the operator allocated (operator_memory.csv)") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Memory component"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "GE for torch_npu's `cann::` names (CANN / graph engine memory), else PTA") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Group size"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "the number of global ranks in the communication group") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Group ops"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "communication ops of the group, counted over all ranks and steps") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Advice severity"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "critical, warning or info, fixed per rule (the rules table below)") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Advice value"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "the measured figure the rule compares, in the unit shown") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Advice threshold"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "the constant of AdviceThresholds the value was compared with") },
    MetricDefinition { QT_TRANSLATE_NOOP("MetricDefinitions", "Issue severity"),
        QT_TRANSLATE_NOOP("MetricDefinitions",
            "error (the file or part of it could not be read), warning (read, with something skipped or guessed) or info (a note)") },
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

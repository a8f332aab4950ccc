// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <span>
#include <string_view>

namespace npuscope::query {

// One metric as the views name it (a column title) and its definition, word for word as docs/metrics.md gives it:
// the header tooltips and the Help shortcut sheet read this table, and a test checks every definition is in
// docs/metrics.md, so the GUI and the document cannot drift apart.
struct MetricDefinition {
    std::string_view name;
    std::string_view definition;
};

class MetricDefinitions {
public:
    // Every defined metric, in docs/metrics.md order. Static storage; any thread.
    static std::span<const MetricDefinition> all();
    // The definition of name (exact, case-sensitive), empty when the metric is not in the table.
    static std::string_view of(std::string_view name);
};

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/detect/LoadPlan.h"

#include <cstdint>
#include <optional>
#include <string>

namespace npuscope::load {

// Compares the memory a load will need with the memory the process may use, before parsing starts, so a load that
// would be killed by the OOM killer says so (docs/robustness.md, "Memory guard"). Stateless; any thread.
class MemoryGuard {
public:
    struct Check {
        uint64_t estimateBytes = 0; // peak model + parser memory this load is expected to need
        uint64_t availableBytes = 0; // what the process may still use, margin taken off
        std::string availableSource; // "cgroup v2 memory.max", "cgroup v1 limit", "MemAvailable"
        bool tooHigh() const { return availableBytes > 0 && estimateBytes > availableBytes; }
        // The warning issue text when tooHigh(), naming both figures.
        std::string message() const;
    };

    // Estimate from the planned file sizes by kind (bytes of model and parser state per input byte, measured on the
    // samples and the generated clusters), for the files this load reads: the summary files, plus the deferred
    // groups when timelines (io::DeferredGroup flags) are loaded too.
    static uint64_t estimate(const io::LoadPlan& plan, bool timelines, io::DeferredGroups groups);

    // Memory the process may still use: the cgroup limit (v2 memory.max, else v1 memory.limit_in_bytes) minus its
    // current usage when there is a limit, else MemAvailable of /proc/meminfo; the smaller of the two when both are
    // known, less kMarginFraction. The environment variable NPUSCOPE_MEMORY_AVAILABLE (bytes) replaces the measured
    // figure (tests, and users who know better). nullopt when none can be read (the guard then stays silent).
    // source names where the figure came from.
    static std::optional<uint64_t> available(std::string* source = nullptr);

    static Check check(const io::LoadPlan& plan, bool timelines, io::DeferredGroups groups);

    static constexpr double kMarginFraction = 0.15;
};

} // namespace npuscope::load

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/TrText.h"
#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/model/Database.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::load {

// Compares the memory a load will need with the memory the process may use, before parsing starts, so a load that
// would be killed by the OOM killer runs lean instead, and watches the process while it parses (docs/robustness.md,
// "Memory guard"). The static functions are stateless and any thread's; a Watch is shared by one load's workers.
class MemoryGuard {
public:
    // The process's memory now.
    struct Usage {
        uint64_t residentBytes = 0;
        uint64_t virtualBytes = 0; // what RLIMIT_AS counts
        // Resident (or, for an address-space limit, virtual) bytes added since start; 0 when it shrank.
        uint64_t grownSince(const Usage& start, bool addressSpace) const;
    };
    static Usage usage();

    struct Check {
        uint64_t estimateBytes = 0; // peak model + parser memory this load is expected to need
        uint64_t availableBytes = 0; // what the process may still use, margin taken off
        std::string availableSource; // "cgroup v2 memory.max", "cgroup v1 limit", "MemAvailable", "address-space ..."
        Usage start; // the process when the check ran
        bool tooHigh() const { return availableBytes > 0 && estimateBytes > availableBytes; }
        // The warning issue text when tooHigh(), naming both figures and what lean mode leaves out.
        TrText message() const;
        bool addressSpace() const { return availableSource.rfind("address-space", 0) == 0; }
    };

    // What lean mode leaves out, for the issues that say it is on.
    static TrText leanText();

    // Watches the process while a load parses (Loader::load, once per rank from any worker thread): lean mode
    // switches on when it grew by kLeanFraction of budget, and stop is set when it grew by all of budget in lean
    // mode (the loader then leaves the remaining ranks out and says so). budget 0: never.
    struct Watch {
        uint64_t budget = 0; // bytes the process may grow by (Check::availableBytes)
        Usage start;
        bool addressSpace = false; // the budget is an address-space limit: watch virtual bytes
        std::atomic<bool> lean { false };
        std::atomic<bool> stop { false };
        std::atomic<bool> switchedDuringLoad { false };
        std::atomic<int> ranksLeftOut { 0 }; // counted by the loader once stop is set
        // Measures the process; false once the load must stop.
        bool afterRank();
    };

    // Estimate from the planned file sizes by kind (bytes of model and parser state per input byte, measured on the
    // samples and the generated clusters), for the files this load reads: the summary files, plus the deferred
    // groups when timelines (io::DeferredGroup flags) are loaded too.
    static uint64_t estimate(const io::LoadPlan& plan, bool timelines, io::DeferredGroups groups);
    // The same weights for a later import of these ranks' deferred files of the given groups (rank_file rows still
    // "skipped"), e.g. the GUI's "Expand all ranks". The caller holds db.lock().
    static uint64_t deferredEstimate(model::Database& db, const std::vector<int64_t>& ranks, io::DeferredGroups groups);

    // Memory the process may still use: the cgroup limit (v2 memory.max, else v1 memory.limit_in_bytes) minus its
    // current usage when there is a limit, else MemAvailable of /proc/meminfo; the smaller of the two when both are
    // known, and what is left of an address-space limit (RLIMIT_AS, ulimit -v) when smaller, less kMarginFraction. The
    // environment variable NPUSCOPE_MEMORY_AVAILABLE (bytes) replaces the measured figure (tests, and users who know
    // better). nullopt when none can be read (the guard then stays silent). source names where the figure came from.
    static std::optional<uint64_t> available(std::string* source = nullptr);

    static Check check(const io::LoadPlan& plan, bool timelines, io::DeferredGroups groups);

    static constexpr double kMarginFraction = 0.15;
    static constexpr double kLeanFraction = 0.8;
};

} // namespace npuscope::load

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/CollectiveInstances.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace npuscope::query {

enum class BlameCause { Compute, Host, Link, Unknown };
const char* blameCauseName(BlameCause cause); // compute | host | link | unknown

// One hop of a blame chain: an instance and the rank followed there.
struct BlameHop {
    size_t instance = 0; // index into CollectiveSet::instances
    int64_t rank = 0;
    // late: the rank arrived last here; waited: the rank waited here for the instance's last arriver (followed next).
    std::string relation;
};

// A rank (or link) that delays reached other ranks from, in one step (docs/metrics.md, "Blame").
struct BlameRoot {
    std::optional<int64_t> rank; // set unless the root is a link
    std::optional<std::pair<int64_t, int64_t>> link; // (src, dst) global ranks, src < dst
    BlameCause cause = BlameCause::Unknown; // the cause of most of its induced wait
    int64_t inducedWaitNs = 0; // Σ delay of the instances whose chain ends here
    double share = 0; // inducedWaitNs / the step's induced wait (its roots' sum), 0..1
    int64_t instances = 0; // delayed instances it explains
    // Evidence of the costliest chain's last hop: how much longer the rank worked since its previous op than the
    // ranks of the same role (ns), its step's computing / free time and its peers' medians (ns, step_trace), and for a
    // link the transit and what the same size takes elsewhere (ns).
    int64_t ownExcessNs = 0;
    std::optional<int64_t> computingNs, peerComputingNs, freeNs, peerFreeNs;
    int64_t transitNs = 0, expectedTransitNs = 0;
    std::vector<BlameHop> chain; // of its costliest instance, from that instance back to the root
};

struct BlameStep {
    int64_t step = 0;
    int64_t delayNs = 0; // Σ delay over the step's delayed instances
    int64_t unattributedNs = 0; // the part of it no significant reason explains (the normal spread between ranks)
    int64_t inducedWaitNs = 0; // delayNs − unattributedNs: what the roots share
    int64_t delayedInstances = 0;
    std::vector<BlameRoot> roots; // by induced wait, largest first
};

struct BlameResult {
    CollectiveSet set;
    std::vector<BlameStep> steps; // ascending step
    std::vector<int64_t> delayNs; // per instance: Σ member wait above its role's least wait (0: not delayed)
    // Per instance: (index into steps, index into that step's roots), or (-1, -1) when not delayed or unattributed.
    std::vector<std::pair<int, int>> rootOf;
};

// Follows every delayed instance back to the rank or link that started the delay. Takes db.lock() for its SQL;
// any thread.
class BlameAnalysis {
public:
    static constexpr int64_t kMinDelayNs = 20000; // an instance whose members waited less above their role is on time
    static constexpr double kLinkFactor = 3.0; // a link root's transit is at least this many times the expected one
    // A rank's own work before an op counts as a cause when it exceeds its role's median by this fraction.
    static constexpr double kOwnTolerance = 0.10;
    // A root must explain at least this fraction of its step's delay; smaller ones join the normal spread.
    static constexpr double kMinRootShare = 0.05;
    static BlameResult run(model::Database& db);
    static BlameResult run(model::Database& db, CollectiveSet set);
    // The result for this database, held in its cache slot (model::Database::cached) until the model changes, so
    // the Collectives and Blame views share one run. Any thread.
    static std::shared_ptr<const BlameResult> forDatabase(model::Database& db);
};

} // namespace npuscope::query

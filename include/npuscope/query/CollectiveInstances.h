// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::query {

// One rank's part in a collective instance: its comm_op row (times ns, NULL = 0).
struct InstanceMember {
    int64_t rank = 0;
    int64_t commOpId = 0; // comm_op.id
    // The rank's own key (a send and its receive differ) and its type (allReduce, send, receive, ...): views of
    // CollectiveSet::strings, valid while a copy of the set holds them (1,024 ranks have 132,000 members).
    std::string_view opKey;
    std::string_view opType;
    int64_t startNs = 0; // Start Timestamp as written (the rank's clock)
    int64_t alignedStartNs = 0; // startNs minus the clock offset of the rank's host
    int64_t elapseNs = 0, transitNs = 0, waitNs = 0, syncNs = 0, idleNs = 0;
    double sizeMb = 0; // Σ Transit Size(MB) over the op's non-LOCAL transports
    int64_t endNs() const { return startNs + elapseNs; }
    int64_t alignedEndNs() const { return alignedStartNs + elapseNs; }
};

// One communication op matched across the ranks that took part in it (docs/metrics.md, "Collective instances").
struct CollectiveInstance {
    int64_t step = 0;
    std::string groupHash; // "" when the op key has no @hash
    std::string opName; // op key without @hash (a p2p pair: the send's)
    std::string opKey; // opName@groupHash
    std::string opType; // allReduce, ...; a matched p2p pair: "send"
    bool p2p = false;
    std::vector<InstanceMember> members; // collectives: ascending rank; a p2p pair: sender, receiver
    // Index into members: who the instance waited for (binding::lastArriver, the dependency graph's rule): the member
    // that waited least (latest aligned start on ties), of a send and its eager receive the send when the receive
    // waited for it, else the receive.
    size_t lastArriver = 0;
    int64_t spreadNs = 0; // latest − earliest aligned start
    int64_t waitTotalNs = 0; // Σ member wait
    int64_t waitCostNs = 0; // Σ (member wait − the last arriver's wait): the wait the latest arrival caused
    int64_t alignedEndNs = 0; // latest aligned end
};

// Per-host clock offset estimated from the ends of collectives, which complete together on every member.
struct ClockOffset {
    std::string domain; // rank.host, or "rank N" when the rank's host is unknown
    std::vector<int64_t> ranks; // ascending
    int64_t offsetNs = 0; // this domain's clock minus the reference domain's (the lowest rank's)
    int64_t instances = 0; // collectives with members on this and another domain the estimate used
};

// A send or receive whose counterpart was not found.
struct UnmatchedP2p {
    int64_t step = 0;
    int64_t rank = 0;
    std::string opKey, opType;
};

struct CollectiveSet {
    std::shared_ptr<const std::vector<std::string>> strings; // what the members' op keys and types view
    std::vector<CollectiveInstance> instances; // by step, then aligned start of the last arriver
    std::vector<ClockOffset> offsets; // by domain name
    std::vector<UnmatchedP2p> unmatched; // by step, rank
};

// Builds every instance of a model's comm_op rows (with a step; "Total Op Info" rows aside). Collectives match by
// (step, group hash, op name); p2p ops by (group, step, peer, order): a send pairs with the first unmatched receive
// of the same size on a peer the communication matrix links it to, the nearest in aligned time when several peers
// qualify; a group whose p2p ops of a step are all sends or all receives (batched send/receive written under one
// name) matches by op key like a collective. Takes db.lock() for its SQL; any thread.
class CollectiveInstances {
public:
    static CollectiveSet build(model::Database& db);
};

} // namespace npuscope::query

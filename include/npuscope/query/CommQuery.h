// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::query {

struct CommFilter {
    std::optional<int64_t> step;
    std::optional<std::string> groupHash;
    std::optional<int64_t> rank; // rank that wrote the file
    bool includeTotals = true;
};

// One communication.json op of one rank (times ns).
struct CommOp {
    int64_t id = 0;
    int64_t rank = 0;
    std::optional<int64_t> step;
    std::string kind; // p2p | collective
    std::string opKey, opName;
    std::optional<std::string> opType, groupHash;
    bool isTotal = false;
    std::optional<int64_t> startNs, elapseNs, transitNs, waitNs, syncNs, idleNs;
    std::optional<double> waitRatio, syncRatio; // as written in the file
};

// The fields of one communication_matrix.json link, its texts as Text; src/dst are GLOBAL ranks (nullopt if the group
// is unknown).
template <class Text> struct LinkFields {
    int64_t reportedBy = 0; // rank whose file holds it
    std::optional<int64_t> step;
    Text kind;
    Text matrixOp; // "allreduce-total", "allreduce-top1", or a real op name in 2023 builds
    std::optional<Text> opType, slot, groupHash;
    std::optional<int64_t> localSrc, localDst, src, dst;
    std::optional<Text> transport;
    std::optional<double> sizeMb;
    std::optional<int64_t> timeNs;
    std::optional<double> bandwidthGbps;
    std::optional<Text> opName;
};

// One communication_matrix.json link, its texts its own.
struct Link : LinkFields<std::string> { };

// A link as CommQuery::forEachLink shows it: its texts point into forEachLink's own tables (valid while the visit
// runs; toLink() keeps one).
struct LinkRef : LinkFields<std::string_view> {
    Link toLink() const;
};

// Where CommQuery::forEachLink calls its visitor.
enum class LinkVisit {
    CallerThread,
    // A second thread (one visit at a time, in order), while the caller's thread reads the next links from the
    // model: the visitor must not touch the model. For a caller whose own work per link is about the reading's.
    OtherThread,
};

struct Group {
    std::string hash; // empty for a listedGroups() entry (no hash in the file)
    std::optional<std::string> rawName, name;
    // metadata | communication_group.json | cluster_analysis.db | self_link | self_link_identity | unknown
    std::string ranksSource;
    std::vector<int64_t> ranks; // global ranks, ordered by local rank
    int64_t opCount = 0; // distinct op keys seen in communication.json for this group
    std::optional<std::string> kind; // collective | p2p, for listedGroups() entries
};

class CommQuery {
public:
    static std::vector<CommOp> ops(model::Database& db, const CommFilter& filter = {});
    static std::vector<Link> links(model::Database& db, const CommFilter& filter = {});
    // The links of links(), in the same order, one at a time, so a caller that writes them out never holds them all
    // (282,624 links on a generated 1,024-rank tp8 pp4 cluster, 12.6M on a flat 1,024-way all-to-all): only the
    // links of one (step, group, op) block, two blocks with LinkVisit::OtherThread. Exceptions of visit reach the
    // caller.
    static void forEachLink(model::Database& db, const CommFilter& filter,
        const std::function<void(const LinkRef&)>& visit, LinkVisit where = LinkVisit::CallerThread);
    static std::vector<Group> groups(model::Database& db);
    // Appends to the ranks of each group of groups its members in comm_group_rank (global ranks by local rank),
    // matched by hash. Needs the lock.
    static void addMembers(model::Database& db, std::vector<Group>& groups);
    // Groups msprof-analyze's communication_group.json (or CommunicationGroup) lists without a hash (older builds,
    // p2p entries), so no op or link can name them: hash empty, ranksSource the file (cluster_comm_group.source),
    // kind set, ranks ascending. A set is left out when a hashed group of groups() has the same ranks and kind (or no
    // known kind).
    static std::vector<Group> listedGroups(model::Database& db);
    // Step numbers known to step_trace_time or communication.json, ascending.
    static std::vector<int64_t> steps(model::Database& db);
    // Groups (hash; "" for links without one) whose global ranks are not all known: some link of the group
    // ("Total Op Info" rows aside) has a NULL src or dst. The analysis views and JSON show every link of such a
    // group with its group-local ranks as written (local_src / local_dst), labelled as local. Sorted.
    static std::vector<std::string> localRankGroups(model::Database& db);
    // The SQL behind localRankGroups: one column g, the group hash or "".
    static const char* localRankGroupsSql();
};

} // namespace npuscope::query

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/model/CommGroupSources.h"
#include "npuscope/model/ModelWriter.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npuscope::load {

// What group resolution reads from comm_op / comm_link. Collected from each worker's model on its
// own thread (the scans cost as much as the rest of the resolution), then appended in merge order.
struct GroupFacts {
    struct Link {
        std::string hash;
        int64_t rank = 0;
        std::optional<int64_t> localSrc, localDst;
        bool operator<(const Link& o) const;
    };
    std::set<std::string> hashes; // group hashes of comm_op and comm_link
    std::vector<Link> links; // distinct self-links and links without global src/dst, in row order
    int64_t unresolvedLinks = 0; // comm_link rows with a group hash and no src or dst

    // Appends the facts of a model merged after this one (duplicate links dropped, as DISTINCT does).
    void append(const GroupFacts& later);
};

// Steps that need every rank's files in the model. Run once, after import, before indexes.
class PostLoad {
public:
    // Reads db's comm_op / comm_link for resolveGroups. Any thread that may use db (a parser
    // worker calls it on its own model before the merge).
    // after: only the rows added after these ids (a batch written straight into a model that already holds
    // others).
    static GroupFacts collectGroupFacts(model::Database& db, model::CommGroupSources::After after = {});

    // Builds comm_group / comm_group_rank from every hash seen in comm_op and comm_link:
    // names and members from profiler_metadata parallel_group_info (parallel_group rows) when present,
    // else from msprof-analyze communication_group.json groups with a hash (cluster_comm_group rows; every such group
    // becomes a comm_group row, pg_name its name), else from each rank's self-link "k-k" (local k == the rank that
    // wrote it, as msprof-analyze does). When every self-link of a group is the identity (k == global rank) the
    // remaining local ranks are taken as global too and an info issue says so. Then fills comm_link.src/dst.
    static void resolveGroups(model::Database& db, model::ModelWriter& writer);
    // The same with the facts already collected from the models merged into db.
    static void resolveGroups(model::Database& db, model::ModelWriter& writer, const GroupFacts& facts);

    // rank.device_id from Device_id / "NPU:<n>" columns when profiler_info did not give it.
    static void fillDevices(model::Database& db);

    // A stage without a strategy graph (its graph rank, the lowest of config.stageDevices, has no
    // parallel_strategy file in the plan, an unreadable one, or one without graph nodes) gets the graph of the next
    // rank of the stage, in rank order, whose file was read and counts nodes (MsParallelStrategyImporter::importGraph).
    // Returns the ranks whose graph was read.
    static std::vector<int64_t> strategyGraphFallback(
        model::Database& db, model::ModelWriter& writer, const io::LoadPlan& plan);
};

} // namespace npuscope::load

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/ModelWriter.h"

namespace npuscope::model {

// Steps that need every rank's files in the model. Run once, after import, before indexes.
class PostLoad {
public:
    // Builds comm_group / comm_group_rank from every hash seen in comm_op and comm_link:
    // names and members from profiler_metadata parallel_group_info (rank_info rows) when present,
    // else from msprof-analyze communication_group.json groups with a hash (cluster_comm_group rows; every such group
    // becomes a comm_group row, pg_name its name), else from each rank's self-link "k-k" (local k == the rank that wrote it, as msprof-analyze
    // does). When every self-link of a group is the identity (k == global rank) the remaining
    // local ranks are taken as global too and an info issue says so. Then fills comm_link.src/dst.
    static void resolveGroups(Database& db, ModelWriter& writer);

    // rank.device_id from Device_id / "NPU:<n>" columns when profiler_info did not give it.
    static void fillDevices(Database& db);
};

} // namespace npuscope::model

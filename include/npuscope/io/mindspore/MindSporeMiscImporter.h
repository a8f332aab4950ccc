// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// The small per-rank facts of old MindSpore / MindInsight jobs:
//  - flops_summary_{id}.json {"FLOPs","FLOPS","FLOPS_Utilization"} -> rank_info flops_summary.*
//  - the MindInsight <= r1.3 rank table (hccl.json: server_list[].device[] device_id / rank_id, all strings) with
//    host_ips_mapping.txt ("<host_ip> <mapping_id>" per line) next to it -> rank.device_id and rank.host = the
//    host's MAPPING ID. The real host IP is never written to the model (the mapping exists to hide it).
class MindSporeMiscImporter {
public:
    static bool runFlops(ImportContext& ctx);
    static bool runRankTable(ImportContext& ctx);
};

} // namespace npuscope::io

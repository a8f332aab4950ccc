// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// The MindInsight <= r1.3 rank table of old MindSpore jobs (hccl.json: server_list[].device[] device_id / rank_id,
// all strings) with host_ips_mapping.txt ("<host_ip> <mapping_id>" per line) next to it -> rank.device_id and
// rank.host = the host's MAPPING ID. The real host IP is never written to the model (the mapping exists to hide it).
// The importer's thread only.
class MindSporeRankTableImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// Old MindSpore hccl_raw_{id}.csv (step_num, communication_cost, wait_cost, link_info, communication_operator_cost;
// costs in ms, JSON cells). Per step: one comm_op per operator ("stream_41_0_AllReduce-op4582": cost -> elapse,
// wait -> wait; Send/Receive ops are p2p, the others collective) and one "Total Op Info" comm_op with the step's
// communication_cost / wait_cost; links {"src-dst": {"SDMA"|"RDMA"|..: [time_ms, size_KB, bandwidth_KB/s]}} become
// comm_link rows per op and, for the step, "Total Op Info" links whose bandwidth is recomputed as size/time (the
// file's step value is a sum of per-op bandwidths). Link ranks are taken as global as written (no group hash).
// Sizes KB -> MB and KB/s -> GB/s with decimal prefixes (10^3). The "-" average row is not imported.
class MindSporeHcclRawImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// flops_summary_{id}.json of old MindSpore / MindInsight jobs: {"FLOPs","FLOPS","FLOPS_Utilization"} (and the newer
// cube_* / vec_* figures) -> rank_info flops_summary.*; a figure that is not a number is reported and kept as text.
// The importer's thread only.
class MindSporeFlopsSummaryImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

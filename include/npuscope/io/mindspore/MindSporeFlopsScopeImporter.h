// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// MindSpore's per-scope FLOPs file of the old profiler/ folder (docs/metrics.md, "FLOPs"): flops_scope_{rank}.json
// {"data": {"nodes": [...], "links": [{"source", "target", "value"}]}, "max_scope_num"} -> flops_scope_link, one row
// per link (value in MFLOPs); max_scope_num -> rank_info flops_scope.max_scope_num. A link without a source, a
// target or a numeric value is reported and skipped. Any thread (one ImportContext per thread).
class MindSporeFlopsScopeImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

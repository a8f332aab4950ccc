// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// MindSpore's per-op and per-scope FLOPs files of the old profiler/ folder (docs/metrics.md, "FLOPs"):
//  - flops_{rank}.txt, a CSV with ", " separators -> op_flops, one row per data line. Columns are found by their
//    header name: the op's full name (op_full_name, full_kernel_name) and, in the older form, its MFLOPs, GFLOPS and
//    utilisation (%), or in the newer form the same three for the cube unit and for the vector unit. A line whose
//    name is missing is skipped; a figure that is not a number is NULL; both are reported with file and line.
//  - flops_scope_{rank}.json {"data": {"nodes": [...], "links": [{"source", "target", "value"}]},
//    "max_scope_num"} -> flops_scope_link, one row per link (value in MFLOPs); max_scope_num -> rank_info
//    flops_scope.max_scope_num. A link without a source, a target or a numeric value is reported and skipped.
// Any thread (one ImportContext per thread).
class MindSporeFlopsImporter {
public:
    static bool runOpFlops(ImportContext& ctx);
    static bool runScope(ImportContext& ctx);
};

} // namespace npuscope::io

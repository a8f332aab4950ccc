// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// MindSpore's per-op FLOPs file of the old profiler/ folder (docs/metrics.md, "FLOPs"): flops_{rank}.txt, a CSV
// with ", " separators -> op_flops, one row per data line. Columns are found by their header name: the op's full
// name (op_full_name, full_kernel_name) and, in the older form, its MFLOPs, GFLOPS and utilisation (%), or in the
// newer form the same three for the cube unit and for the vector unit. A line whose name is missing is skipped; a
// figure that is not a number is NULL; both are reported with file and line. Any thread (one ImportContext per
// thread).
class MindSporeOpFlopsImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

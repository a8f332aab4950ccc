// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/detect/LoadPlan.h"

#include <string>
#include <vector>

namespace npuscope::io {

// Walks the given paths once and classifies them into a LoadPlan. Accepts an
// ASCEND_PROFILER_OUTPUT folder, one *_ascend_pt / *_ascend_ms rank folder, a folder holding rank
// folders at any depth (a cluster), a single known file, and several such paths at once.
// Follows symlinks but never visits a directory twice (symlink loops end). Read-only.
class Detector {
public:
    static LoadPlan detect(const std::vector<std::string>& paths);
};

} // namespace npuscope::io

// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// profiler_info*.json (torch_npu, old and new MindSpore): profiler level, export type, versions,
// collection end time into the rank row; every scalar into rank_info under its dotted key.
class ProfilerInfoImporter {
public:
    static bool run(ImportContext& ctx);
};

// profiler_metadata.json: distributed_args (world size, parallel sizes), ENV_VARIABLES and
// parallel_group_info (raw group id -> name and global ranks) parsed into parallel_group rows; PostLoad
// turns the groups into comm_group rows after all ranks are in.
class MetadataImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io

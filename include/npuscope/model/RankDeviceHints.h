// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <functional>
#include <map>

namespace npuscope::model {

// Device ids a rank's own rows name, for ranks whose profiler_info gave none (load::PostLoad::fillDevices
// decides which source wins). Any thread that holds db.
class RankDeviceHints {
public:
    enum class Source {
        StepTrace, // step_trace.device_id
        NpuModuleMem, // npu_module_mem.device "NPU:<n>"
        MemoryRecord, // memory_peak.device "NPU:<n>" (the first of memory_record.csv / MEMORY_RECORD)
    };

    // Calls fn(rank_id, device id) for every row of the source that names a device, in row order.
    static void forEach(Database& db, Source source, const std::function<void(int64_t, int64_t)>& fn);
    // Sets rank.device_id of each rank in devices (rank id -> device id) whose device_id is NULL.
    static void fillUnknown(Database& db, const std::map<int64_t, int64_t>& devices);
};

} // namespace npuscope::model

// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/RankDeviceHints.h"

namespace npuscope::model {

namespace {

const char* sql(RankDeviceHints::Source source)
{
    switch (source) {
    case RankDeviceHints::Source::StepTrace:
        return "SELECT rank_id, device_id FROM step_trace WHERE device_id IS NOT NULL ORDER BY rowid";
    case RankDeviceHints::Source::NpuModuleMem:
        return "SELECT rank_id, CAST(substr(device, 5) AS INTEGER) FROM npu_module_mem WHERE device LIKE 'NPU:%' "
               "ORDER BY rowid";
    case RankDeviceHints::Source::MemoryRecord:
        // memory_peak carries the file's first NPU device: memory_record rows are imported later (Memory group).
        return "SELECT rank_id, CAST(substr(device, 5) AS INTEGER) FROM memory_peak WHERE device LIKE 'NPU:%' "
               "ORDER BY rowid";
    }
    throw DbError("RankDeviceHints: unknown source");
}

} // namespace

void RankDeviceHints::forEach(Database& db, Source source, const std::function<void(int64_t, int64_t)>& fn)
{
    auto st = db.prepare(sql(source));
    while (st.step())
        fn(st.int64(0), st.int64(1));
}

void RankDeviceHints::fillUnknown(Database& db, const std::map<int64_t, int64_t>& devices)
{
    auto update = db.prepare("UPDATE rank SET device_id = ?2 WHERE rank_id = ?1 AND device_id IS NULL");
    for (const auto& [rank, id] : devices)
        update.bind(1, rank).bind(2, id).run();
}

} // namespace npuscope::model

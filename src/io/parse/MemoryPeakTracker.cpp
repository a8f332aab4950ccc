// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/MemoryPeakTracker.h"

namespace npuscope::io {

void MemoryPeakTracker::Peak::add(const std::optional<double>& value, int64_t sampleTs)
{
    if (!value)
        return;
    // The earliest sample on ties: rows are not always in time order in the file.
    if (!mb || *value > *mb || (*value == *mb && sampleTs < *ts)) {
        mb = value;
        ts = sampleTs;
    }
}

void MemoryPeakTracker::add(const model::MemoryRecordRow& row)
{
    Component* c = nullptr;
    for (auto& existing : m_components) {
        if (existing.name == row.component) {
            c = &existing;
            break;
        }
    }
    if (!c) {
        m_components.push_back({});
        c = &m_components.back();
        c->name = row.component;
    }
    c->reserved.add(row.reservedMb, row.ts);
    c->allocated.add(row.allocatedMb, row.ts);
    ++c->samples;
    if (!m_device && row.device && row.device->rfind("NPU:", 0) == 0)
        m_device = row.device;
}

void MemoryPeakTracker::write(model::ModelWriter& writer, int64_t rankId) const
{
    for (const auto& c : m_components) {
        writer.addMemoryPeak({ rankId, c.name, c.reserved.mb, c.reserved.ts, c.allocated.mb, c.allocated.ts, c.samples,
            m_device });
    }
}

} // namespace npuscope::io

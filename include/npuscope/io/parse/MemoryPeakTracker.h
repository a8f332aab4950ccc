// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/ModelWriter.h"
#include "npuscope/model/Rows.h"

#include <optional>
#include <string>
#include <vector>

namespace npuscope::io {

// Folds memory_record rows into the memory_peak rows of one rank (schema.sql): per component the largest reserved
// and allocated value and the earliest sample holding it, the sample count, and the file's first "NPU:<n>" device.
// The same rule query::MemoryQuery applied to memory_record rows, so both give the same peaks. One per imported file;
// used by the thread running the importer.
class MemoryPeakTracker {
public:
    void add(const model::MemoryRecordRow& row);
    // One memory_peak row per component, in the order components first appeared.
    void write(model::ModelWriter& writer, int64_t rankId) const;

private:
    struct Peak {
        std::optional<double> mb;
        std::optional<int64_t> ts;
        void add(const std::optional<double>& value, int64_t sampleTs);
    };
    struct Component {
        model::OptText name;
        Peak reserved, allocated;
        int64_t samples = 0;
    };
    std::vector<Component> m_components; // a handful (APP, PTA, GE, PTA+GE): a linear search is the fastest
    model::OptText m_device;
};

} // namespace npuscope::io

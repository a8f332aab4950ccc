// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/query/MemoryDetailQuery.h"

#include <vector>

namespace npuscope::gui {

// npu_module_mem of one rank: one row per CANN module with its peak and last Total Reserved (MB) and sample count.
// GUI thread only.
class ModuleMemoryModel : public RowTableModel<query::ModuleMemory> {
    Q_OBJECT
public:
    enum Column { Module, Peak, Last, Samples, ColumnCount };

    explicit ModuleMemoryModel(QObject* parent = nullptr);

};

} // namespace npuscope::gui

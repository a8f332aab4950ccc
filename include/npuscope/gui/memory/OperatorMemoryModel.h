// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/query/MemoryDetailQuery.h"

#include <cstdint>
#include <vector>

namespace npuscope::gui {

// operator_memory rows of one rank (query::MemoryDetailQuery::blocks) with their inefficiency flags. Times are shown
// in ms after the rank's first memory sample (origin), epoch µs in the cell tooltip; durations in ms. ValueRole holds
// ns. GUI thread only.
class OperatorMemoryModel : public RowTableModel<query::OperatorMemoryRow> {
    Q_OBJECT
public:
    enum Column {
        Name,
        Size,
        Allocation,
        Release,
        ActiveRelease,
        Duration,
        ActiveDuration,
        Component,
        Device,
        Flags,
        ColumnCount
    };

    explicit OperatorMemoryModel(QObject* parent = nullptr);

    // origin: epoch ns the time columns count from.
    void setRows(std::vector<query::OperatorMemoryRow> rows, int64_t origin);
    int64_t origin() const { return m_origin; }

private:
    int64_t m_origin = 0;
};

} // namespace npuscope::gui

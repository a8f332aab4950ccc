// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace npuscope::gui {

// One collective instance (query::CollectiveInstances) as the Collectives view lists it.
struct CollectiveRow {
    size_t instance = 0; // index into the BlameResult's instances
    int64_t step = 0;
    QString opKey, opType, kind, group;
    std::vector<int64_t> ranks; // members
    int64_t lastArriver = 0;
    double spreadMs = 0, waitCostMs = 0, delayMs = 0;
    QString root; // "rank 37 (compute)", "link 5-37 (link)", empty when not delayed
};

// The instances, by wait cost; sortable. GUI thread only.
class CollectivesTableModel : public RowTableModel<CollectiveRow> {
    Q_OBJECT
public:
    enum Column { Step, Op, Type, Kind, Group, Members, LastArriver, Spread, WaitCost, Delay, Root, ColumnCount };

    explicit CollectivesTableModel(QObject* parent = nullptr);
    void setInstances(std::vector<CollectiveRow> rows) { resetRows(std::move(rows)); }
};

} // namespace npuscope::gui

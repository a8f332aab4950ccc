// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/gui/common/Workspace.h"

#include <QString>

#include <cstdint>
#include <optional>
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
    std::vector<int64_t> commOps; // the members' comm_op ids
};

// The instances, by wait cost; sortable. GUI thread only.
class CollectivesTableModel : public RowTableModel<CollectiveRow> {
    Q_OBJECT
public:
    enum Column {
        Step,
        Op,
        Type,
        Kind,
        Group,
        Members,
        LastArriver,
        Spread,
        WaitCost,
        Delay,
        Root,
        CriticalPath,
        ColumnCount
    };

    explicit CollectivesTableModel(QObject* parent = nullptr);
    void setInstances(std::vector<CollectiveRow> rows) { resetRows(std::move(rows)); }
    // The critical path the Critical path view computed (Workspace::criticalPath): the Critical path column says
    // whether an instance of that step lies on it.
    void setCriticalPath(std::optional<Workspace::CriticalPathMark> mark);
    // "on the path", "" (a step whose path is known, not on it) or "not computed".
    QString criticalPathText(const CollectiveRow& row) const;

private:
    std::optional<Workspace::CriticalPathMark> m_criticalPath;
};

} // namespace npuscope::gui
